//! What a run costs besides time (contract, section 14): the power of its
//! GPUs and nodes, the facility's overhead, the grid's carbon and the
//! price of a GPU-hour or a kWh. The facts are published figures, each
//! with its source ([`power`], [`grids`], [`prices`]); the user's choices
//! are a run's [`Costs`], a cluster's are its [`Facility`].

pub mod grids;
pub mod power;
pub mod prices;

use serde::{Deserialize, Serialize};

use crate::oracle::model::errors::{InputError, Rule};

pub use grids::{DEFAULT_GRID, GRIDS};
pub use prices::{DEFAULT_TARIFF, INSTANCES, TARIFFS};

/// The power usage effectiveness of a facility that names none: the
/// Uptime Institute Global Data Center Survey's average of 2023.
pub const DEFAULT_PUE: f64 = 1.58;

/// The largest PUE a user may give.
pub const MAX_PUE: f64 = 5.0;

/// The most watts a GPU or a node's other parts may be given.
pub const MAX_POWER_W: f64 = 1e7;

/// The most grams of CO2 per kWh, dollars per GPU-hour or per kWh a user
/// may give.
pub const MAX_RATE: f64 = 1e6;

/// Which grid the run's electricity comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Grid {
    /// A region's annual average, by key ([`GRIDS`]).
    Region(String),
    /// Grams of CO2-equivalent per kWh, the user's figure.
    Intensity(f64),
}

/// What a GPU-hour costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Price {
    /// A cloud instance's list price, by key ([`INSTANCES`]); `owned`: the
    /// cluster is the user's, and costs its electricity.
    Named(String),
    /// US dollars a GPU-hour, the user's figure.
    PerGpuHour(f64),
}

/// The word that names an owned cluster in [`Price::Named`].
pub const OWNED: &str = "owned";

/// A run's choices of cost (every one left out takes its default, said).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// The grid (default: the cluster's, else the world's average).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<Grid>,
    /// A GPU-hour's price (default: the cheapest listed instance of the
    /// cluster's GPU, else owned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Price>,
    /// An owned cluster's electricity, US dollars a kWh (default: the US
    /// industrial average).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd_per_kwh: Option<f64>,
    /// The facility's PUE (default: the cluster's, else [`DEFAULT_PUE`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pue: Option<f64>,
}

/// A cluster's facts of power (every one left out: not counted, or the
/// default, said).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facility {
    /// A node's power besides its GPUs while it trains (CPUs, memory,
    /// NICs, fans), watts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_other_power_w: Option<f64>,
    /// One GPU's rated board power, watts, for a GPU this tool does not
    /// know (a known GPU's is its datasheet's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_board_power_w: Option<f64>,
    /// The facility's PUE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pue: Option<f64>,
    /// The grid it draws from ([`GRIDS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<String>,
    /// Where these come from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

fn rate(field: &'static str, value: f64, max: f64) -> Result<f64, InputError> {
    let rule = if !value.is_finite() {
        Rule::NotFinite { found: value }
    } else if value < 0.0 {
        Rule::Negative { found: value }
    } else if value > max {
        Rule::TooLarge { max, found: value }
    } else {
        return Ok(value);
    };
    Err(InputError::new(field, rule))
}

fn pue(field: &'static str, value: f64) -> Result<f64, InputError> {
    if value.is_finite() && value < 1.0 {
        return Err(InputError::new(field, Rule::TooSmall { min: 1.0, found: value }));
    }
    rate(field, value, MAX_PUE)
}

/// The grid called `key`.
///
/// # Errors
/// [`Rule::Unknown`] on `field`, listing the grids.
pub fn grid(field: &'static str, key: &str) -> Result<&'static grids::Grid, InputError> {
    GRIDS.iter().find(|g| g.key == key.trim()).ok_or_else(|| {
        InputError::new(
            field,
            Rule::Unknown {
                what: "grid".into(),
                found: key.into(),
                expected: format!("{}, or grams of CO2 per kWh", GRIDS.map(|g| g.key).join(", ")),
            },
        )
    })
}

/// The instance called `key`.
///
/// # Errors
/// [`Rule::Unknown`] on `costs.price`, listing the instances.
pub fn instance(key: &str) -> Result<&'static prices::Instance, InputError> {
    INSTANCES.iter().find(|i| i.key == key.trim()).ok_or_else(|| {
        InputError::new(
            "costs.price",
            Rule::Unknown {
                what: "instance".into(),
                found: key.into(),
                expected: format!(
                    "{}, {OWNED}, or dollars per GPU-hour",
                    INSTANCES.map(|i| i.key).join(", ")
                ),
            },
        )
    })
}

/// What a user typed, trimmed: a figure where it reads as a number, else a
/// name.
fn named_or_figure<T>(text: &str, named: impl FnOnce(String) -> T, figure: impl FnOnce(f64) -> T) -> T {
    let text = text.trim();
    text.parse::<f64>().map_or_else(|_| named(text.to_string()), figure)
}

impl Grid {
    /// Reads what a user typed: a grid's key, or grams per kWh.
    ///
    /// # Errors
    /// Those of [`Grid::check`].
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let grid = named_or_figure(text, Self::Region, Self::Intensity);
        grid.check()?;
        Ok(grid)
    }

    /// Checks it.
    ///
    /// # Errors
    /// [`Rule::Unknown`] on `costs.grid` for a grid this tool does not
    /// have; an intensity not finite, negative or above 1e6.
    pub fn check(&self) -> Result<(), InputError> {
        match self {
            Self::Region(key) => grid("costs.grid", key).map(|_| ()),
            Self::Intensity(g) => rate("costs.grid", *g, MAX_RATE).map(|_| ()),
        }
    }
}

impl Price {
    /// Reads what a user typed: an instance's key, `owned`, or dollars a
    /// GPU-hour.
    ///
    /// # Errors
    /// Those of [`Price::check`].
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let price = named_or_figure(text, Self::Named, Self::PerGpuHour);
        price.check()?;
        Ok(price)
    }

    /// Checks it.
    ///
    /// # Errors
    /// [`Rule::Unknown`] on `costs.price` for an instance this tool does
    /// not have; a price not finite, negative or above 1e6.
    pub fn check(&self) -> Result<(), InputError> {
        match self {
            Self::Named(key) if key.trim() == OWNED => Ok(()),
            Self::Named(key) => instance(key).map(|_| ()),
            Self::PerGpuHour(usd) => rate("costs.price", *usd, MAX_RATE).map(|_| ()),
        }
    }
}

impl Costs {
    /// Whether nothing is chosen.
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Checks every choice.
    ///
    /// # Errors
    /// The first that breaks its rule, named `costs.grid`, `costs.price`,
    /// `costs.usd_per_kwh` or `costs.pue` (a PUE below 1 or above 5).
    pub fn check(&self) -> Result<(), InputError> {
        if let Some(g) = &self.grid {
            g.check()?;
        }
        if let Some(p) = &self.price {
            p.check()?;
        }
        if let Some(usd) = self.usd_per_kwh {
            rate("costs.usd_per_kwh", usd, MAX_RATE)?;
        }
        if let Some(p) = self.pue {
            pue("costs.pue", p)?;
        }
        Ok(())
    }
}

impl Facility {
    /// Whether it gives nothing.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Checks it.
    ///
    /// # Errors
    /// A power not finite, negative or above 1e7 W, a PUE below 1 or above
    /// 5, or a grid this tool does not have, each named under `facility`.
    pub fn check(&self) -> Result<(), InputError> {
        if let Some(w) = self.node_other_power_w {
            rate("facility.node_other_power_w", w, MAX_POWER_W)?;
        }
        if let Some(w) = self.gpu_board_power_w {
            rate("facility.gpu_board_power_w", w, MAX_POWER_W)?;
        }
        if let Some(p) = self.pue {
            pue("facility.pue", p)?;
        }
        if let Some(g) = &self.grid {
            grid("facility.grid", g)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_a_key_or_a_number_and_bad_ones_name_their_field() {
        assert_eq!(Grid::parse(" jp ").unwrap(), Grid::Region("jp".into()));
        assert_eq!(Grid::parse("420").unwrap(), Grid::Intensity(420.0));
        assert_eq!(Price::parse("owned").unwrap(), Price::Named("owned".into()));
        assert_eq!(Price::parse("2.5").unwrap(), Price::PerGpuHour(2.5));
        for (bad, field) in [("mars", "costs.grid"), ("-1", "costs.grid"), ("nan", "costs.grid")] {
            assert_eq!(Grid::parse(bad).unwrap_err().field.to_string(), field, "{bad}");
        }
        let e = Price::parse("aws-p9").unwrap_err();
        assert!(e.to_string().contains("aws-p5.48xlarge"), "{e}");
        let c = Costs {
            pue: Some(0.9),
            ..Costs::default()
        };
        assert_eq!(c.check().unwrap_err().field.to_string(), "costs.pue");
        let f = Facility {
            grid: Some("atlantis".into()),
            ..Facility::default()
        };
        assert_eq!(f.check().unwrap_err().field.to_string(), "facility.grid");
    }

    #[test]
    fn a_document_writes_a_key_as_a_string_and_a_figure_as_a_number() {
        let c = Costs {
            grid: Some(Grid::Intensity(300.0)),
            price: Some(Price::Named("aws-p5.48xlarge".into())),
            usd_per_kwh: Some(0.1),
            pue: Some(1.2),
        };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"grid":300.0,"price":"aws-p5.48xlarge","usd_per_kwh":0.1,"pue":1.2}"#
        );
        assert_eq!(serde_json::from_str::<Costs>(&json).unwrap(), c);
        assert!(serde_json::from_str::<Costs>(r#"{"grid":[1]}"#).is_err());
    }
}
