//! A calibration as it is applied to projections (contract, section 8):
//! a compute factor `κ_comp` and a communication factor `κ_comm` per
//! strategy, and global ones for the strategies no run measured.

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};

use super::checks;
use super::edition::Edition;
use super::errors::{InputError, Rule};
use super::field::Field;
use super::strategy::Strategy;

/// The two factors of a calibration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kappa {
    /// `κ_comp`: multiplies compute and the weight update.
    pub compute: f64,
    /// `κ_comm`: multiplies every kind of communication.
    pub communication: f64,
}

impl Kappa {
    /// No correction.
    pub const ONE: Self = Self {
        compute: 1.0,
        communication: 1.0,
    };

    fn check(&self, field: &Field) -> Result<(), InputError> {
        for (key, value) in [("compute", self.compute), ("communication", self.communication)] {
            checks::within(field.clone().key(key), value, MIN_FACTOR, MAX_FACTOR)?;
            checks::positive(field.clone().key(key), value)?;
        }
        Ok(())
    }
}

/// The factors of one strategy, as written in a calibration's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyKappa {
    pub strategy: Strategy,
    /// `κ_comp`.
    pub compute: f64,
    /// `κ_comm`.
    pub communication: f64,
    /// The measured runs of the strategy the factors come from (as `paradl
    /// calibrate` prints them; not used).
    #[serde(default, skip_serializing)]
    pub runs: Option<u64>,
}

impl StrategyKappa {
    /// The strategy's factors, measured by `runs` runs (`None`: not said).
    pub fn new(strategy: Strategy, kappa: Kappa, runs: Option<u64>) -> Self {
        Self {
            strategy,
            compute: kappa.compute,
            communication: kappa.communication,
            runs,
        }
    }

    /// Its two factors.
    pub fn kappa(&self) -> Kappa {
        Kappa {
            compute: self.compute,
            communication: self.communication,
        }
    }
}

/// A calibration's factors as plain data (the JSON that `paradl
/// calibrate` prints carries more, which is ignored here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactorsSpec {
    /// The edition whose projections were calibrated.
    #[serde(rename = "fidelity")]
    pub edition: Edition,
    /// The factors of strategies that no run measured.
    pub global: Kappa,
    /// The factors of the strategies that runs measured.
    #[serde(default)]
    pub strategies: Vec<StrategyKappa>,
    /// What `paradl calibrate` prints beside the factors (the runs, their
    /// accuracies before and after, its warnings): read and set aside, so
    /// that its output is a calibration file as it is.
    #[serde(default, skip_serializing)]
    pub runs: Option<IgnoredAny>,
    /// See [`FactorsSpec::runs`].
    #[serde(default, skip_serializing)]
    pub mean_accuracy_before: Option<IgnoredAny>,
    /// See [`FactorsSpec::runs`].
    #[serde(default, skip_serializing)]
    pub mean_accuracy_after: Option<IgnoredAny>,
    /// See [`FactorsSpec::runs`].
    #[serde(default, skip_serializing)]
    pub warnings: Option<IgnoredAny>,
}

impl FactorsSpec {
    /// The factors of `edition`: `global` for the strategies no run
    /// measured, and those of `strategies`.
    pub fn new(edition: Edition, global: Kappa, strategies: Vec<StrategyKappa>) -> Self {
        Self {
            edition,
            global,
            strategies,
            runs: None,
            mean_accuracy_before: None,
            mean_accuracy_after: None,
            warnings: None,
        }
    }
}

/// Factors accepted, each at least this (and at most [`MAX_FACTOR`]): a
/// model more than a million times off is not calibrated but wrong.
pub const MIN_FACTOR: f64 = 1e-6;
/// See [`MIN_FACTOR`].
pub const MAX_FACTOR: f64 = 1e6;

/// Checked calibration factors, one pair per strategy (copied cheaply into
/// every run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "FactorsSpec", into = "FactorsSpec")]
pub struct Factors {
    edition: Edition,
    global: Kappa,
    measured: [Option<Kappa>; Strategy::ALL.len()],
}

impl Factors {
    /// Checks factors.
    ///
    /// Rules: every factor finite and within `[1e-6, 1e6]`; a strategy
    /// listed once at most.
    ///
    /// # Errors
    /// An [`InputError`] naming the factor, e.g. `strategies[2].compute`.
    pub fn new(spec: FactorsSpec) -> Result<Self, InputError> {
        spec.global.check(&Field::from("global"))?;
        let mut measured = [None; Strategy::ALL.len()];
        for (i, entry) in spec.strategies.iter().enumerate() {
            let field = Field::from("strategies").index(i);
            entry.kappa().check(&field)?;
            let slot = &mut measured[entry.strategy as usize];
            if slot.is_some() {
                return Err(InputError::new(
                    field.key("strategy"),
                    Rule::Repeated(entry.strategy.name().into()),
                ));
            }
            *slot = Some(entry.kappa());
        }
        Ok(Self {
            edition: spec.edition,
            global: spec.global,
            measured,
        })
    }

    /// The edition whose projections these factors correct.
    pub fn edition(&self) -> Edition {
        self.edition
    }

    /// The global factors.
    pub fn global(&self) -> Kappa {
        self.global
    }

    /// The factors of `strategy`: its own when runs measured it, else the
    /// global ones.
    pub fn of(&self, strategy: Strategy) -> Kappa {
        self.measured[strategy as usize].unwrap_or(self.global)
    }

    /// Whether runs of `strategy` measured it (else it gets the global factors).
    pub fn measured(&self, strategy: Strategy) -> bool {
        self.measured[strategy as usize].is_some()
    }
}

impl TryFrom<FactorsSpec> for Factors {
    type Error = InputError;

    fn try_from(spec: FactorsSpec) -> Result<Self, Self::Error> {
        Self::new(spec)
    }
}

impl From<Factors> for FactorsSpec {
    fn from(factors: Factors) -> Self {
        FactorsSpec::new(
            factors.edition,
            factors.global,
            Strategy::ALL
                .into_iter()
                .filter_map(|strategy| {
                    factors.measured[strategy as usize].map(|kappa| StrategyKappa::new(strategy, kappa, None))
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> FactorsSpec {
        FactorsSpec::new(
            Edition::Realistic,
            Kappa {
                compute: 1.5,
                communication: 2.0,
            },
            vec![StrategyKappa::new(
                Strategy::Data,
                Kappa {
                    compute: 1.1,
                    communication: 0.9,
                },
                None,
            )],
        )
    }

    #[test]
    fn unmeasured_strategies_get_the_global_factors() {
        let factors = Factors::new(spec()).unwrap();
        assert_eq!(factors.of(Strategy::Data).compute, 1.1);
        assert_eq!(factors.of(Strategy::Filter), factors.global());
        assert!(factors.measured(Strategy::Data) && !factors.measured(Strategy::Spatial));
        let json = serde_json::to_string(&factors).unwrap();
        assert!(
            json.contains(r#""strategies":[{"strategy":"data","compute":1.1,"communication":0.9}]"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Factors>(&json).unwrap(), factors);
    }

    #[test]
    fn bad_factors_name_their_field() {
        let mut bad = spec();
        bad.strategies[0].compute = f64::INFINITY;
        assert_eq!(Factors::new(bad).unwrap_err().field, "strategies[0].compute");
        let mut bad = spec();
        bad.global.communication = 0.0;
        assert_eq!(Factors::new(bad).unwrap_err().field, "global.communication");
        let mut bad = spec();
        bad.strategies.push(bad.strategies[0]);
        assert!(matches!(Factors::new(bad).unwrap_err().rule, Rule::Repeated(_)));
        // extra keys of the calibration report are ignored
        let json = r#"{"fidelity":"ideal","global":{"compute":1,"communication":1},"runs":[1,2]}"#;
        assert_eq!(serde_json::from_str::<Factors>(json).unwrap().edition(), Edition::Ideal);
    }
}
