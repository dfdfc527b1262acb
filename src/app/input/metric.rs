//! What the scaling plot draws against the GPUs: the time of an epoch, the
//! time to train, or the energy or money to train (contract, sections 13
//! and 14). In a link it is `pt`: left out for the epoch, `true` for the
//! time to train (as links have always written it), else its name.

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::oracle::{Projection, Quantity};

/// The scaling plot's metric.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Metric {
    /// Time per epoch.
    #[default]
    Epoch,
    /// Time to train.
    Train,
    /// Energy to train, facility included.
    Energy,
    /// Money to train.
    Money,
}

impl Metric {
    /// Every metric, in the select's order.
    pub const ALL: [Self; 4] = [Self::Epoch, Self::Train, Self::Energy, Self::Money];

    /// Its name in the select and in links.
    pub fn name(self) -> &'static str {
        match self {
            Self::Epoch => "epoch",
            Self::Train => "train",
            Self::Energy => "energy",
            Self::Money => "money",
        }
    }

    /// The metric called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// What it is, in words.
    pub fn label(self) -> &'static str {
        match self {
            Self::Epoch => "time per epoch",
            Self::Train => "time to train",
            Self::Energy => "energy to train",
            Self::Money => "money to train",
        }
    }

    /// The vertical axis's words.
    pub fn axis(self) -> &'static str {
        match self {
            Self::Epoch => "epoch time (s)",
            Self::Train => "time to train (s)",
            Self::Energy => "energy to train (kWh)",
            Self::Money => "money to train ($)",
        }
    }

    /// The quantity a point explains.
    pub fn quantity(self) -> Quantity {
        match self {
            Self::Epoch => Quantity::Total,
            Self::Train => Quantity::TimeToTrain,
            Self::Energy => Quantity::Energy,
            Self::Money => Quantity::Cost,
        }
    }

    /// Its value in `p` (not finite: unknown, the GPU's board power).
    pub fn of(self, p: &Projection) -> f64 {
        self.quantity().of(p)
    }

    /// Whether it is the epoch (left out of links).
    pub fn is_epoch(&self) -> bool {
        *self == Self::Epoch
    }
}

impl Serialize for Metric {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Epoch => s.serialize_bool(false),
            Self::Train => s.serialize_bool(true),
            other => s.serialize_str(other.name()),
        }
    }
}

impl<'de> Deserialize<'de> for Metric {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Either;
        impl Visitor<'_> for Either {
            type Value = Metric;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("true (time to train), or epoch, train, energy or money")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Metric, E> {
                Ok(if v { Metric::Train } else { Metric::Epoch })
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Metric, E> {
                Metric::from_name(v).ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_any(Either)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_writes_the_time_to_train_as_it_always_has_and_the_costs_by_name() {
        for m in Metric::ALL {
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(serde_json::from_str::<Metric>(&json).unwrap(), m);
        }
        assert_eq!(serde_json::to_string(&Metric::Train).unwrap(), "true");
        assert_eq!(serde_json::from_str::<Metric>("\"energy\"").unwrap(), Metric::Energy);
        assert!(serde_json::from_str::<Metric>("\"watts\"").is_err());
        assert!(serde_json::from_str::<Metric>("3").is_err());
    }
}
