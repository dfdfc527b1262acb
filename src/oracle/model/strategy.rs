//! The eight parallel strategies and their names.

use std::str::FromStr;

use super::errors::{InputError, Rule};
use super::names::named_enum;

named_enum! {
    /// A way of spreading training over GPUs.
    pub enum Strategy {
        /// One GPU.
        Serial => ("serial", "serial"),
        /// Samples split, weights replicated.
        Data => ("data", "data"),
        /// Early wide layers split along their width.
        Spatial => ("spatial", "spatial"),
        /// Consecutive layers on consecutive GPUs, micro-batches in flight.
        Pipeline => ("pipeline", "pipeline"),
        /// Output channels (filters) of convolutions split.
        Filter => ("filter", "filter"),
        /// Input channels of convolutions split.
        Channel => ("channel", "channel"),
        /// Filter parallelism in groups, data parallelism between groups.
        DataFilter => ("data+filter", "data + filter"),
        /// Spatial parallelism in groups, data parallelism between groups.
        DataSpatial => ("data+spatial", "data + spatial"),
    }
}

impl Strategy {
    /// The paper's short name (`d s p f c df ds`; serial has none).
    pub fn short_name(self) -> Option<&'static str> {
        match self {
            Self::Serial => None,
            Self::Data => Some("d"),
            Self::Spatial => Some("s"),
            Self::Pipeline => Some("p"),
            Self::Filter => Some("f"),
            Self::Channel => Some("c"),
            Self::DataFilter => Some("df"),
            Self::DataSpatial => Some("ds"),
        }
    }

    /// How it spreads the work, in a sentence (the page's glossary).
    pub fn description(self) -> &'static str {
        match self {
            Self::Serial => "One GPU trains on the whole mini-batch: the reference the others are measured against.",
            Self::Data => {
                "Each GPU holds the whole model and trains on its share of the mini-batch; the weight gradients are summed across GPUs every iteration."
            }
            Self::Spatial => {
                "Each sample's early, wide layers are split by width across GPUs, which swap the border rows they need (halos)."
            }
            Self::Pipeline => {
                "Consecutive groups of layers sit on consecutive GPUs; micro-batches flow through them like an assembly line."
            }
            Self::Filter => {
                "Each convolution's output channels (filters) are split across GPUs, which exchange the layers' outputs."
            }
            Self::Channel => {
                "Each convolution's input channels are split across GPUs, whose partial sums are added together."
            }
            Self::DataFilter => {
                "Groups of GPUs split the filters among themselves, and the groups train on different samples (data parallelism between them)."
            }
            Self::DataSpatial => {
                "Groups of GPUs split each sample by width among themselves, and the groups train on different samples."
            }
        }
    }

    /// Whether the strategy can run on `gpus` GPUs at all (serial: only 1).
    pub fn applies_at(self, gpus: u64) -> bool {
        self != Self::Serial || gpus == 1
    }

    /// Data-parallel groups of model-parallel parts.
    pub fn is_hybrid(self) -> bool {
        matches!(self, Self::DataFilter | Self::DataSpatial)
    }

    /// Strategies whose replicas form a data-parallel dimension (ZeRO
    /// shards over it): data, data+filter, data+spatial.
    pub fn has_data_dimension(self) -> bool {
        matches!(self, Self::Data | Self::DataFilter | Self::DataSpatial)
    }

    /// Strategies that divide a split set of layers.
    pub fn uses_split(self) -> bool {
        matches!(
            self,
            Self::Spatial | Self::Filter | Self::Channel | Self::DataFilter | Self::DataSpatial
        )
    }

    /// Parses a comma-separated list such as `data,df,spatial`.
    ///
    /// # Errors
    /// [`Rule::Unknown`] for a name that is not a strategy; [`Rule::Empty`]
    /// for an empty list.
    pub fn parse_list(text: &str) -> Result<Vec<Strategy>, InputError> {
        let mut list = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let strategy: Strategy = part.parse()?;
            if !list.contains(&strategy) {
                list.push(strategy);
            }
        }
        if list.is_empty() {
            return Err(InputError::new("strategies", Rule::Empty));
        }
        Ok(list)
    }
}

impl FromStr for Strategy {
    type Err = InputError;

    /// Accepts the canonical names, the paper's short names and `_`/`-` for `+`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase().replace(['_', '-'], "+");
        Self::ALL
            .into_iter()
            .find(|s| s.name() == wanted || s.short_name() == Some(wanted.as_str()))
            .ok_or_else(|| {
                InputError::new(
                    "strategy",
                    Rule::Unknown {
                        what: "strategy".into(),
                        found: text.into(),
                        expected: format!("{} (or d s p f c df ds)", Self::names()),
                    },
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_short_names_parse() {
        for s in Strategy::ALL {
            assert_eq!(s.name().parse::<Strategy>().unwrap(), s);
            if let Some(short) = s.short_name() {
                assert_eq!(short.parse::<Strategy>().unwrap(), s);
            }
        }
        assert_eq!("Data-Filter".parse::<Strategy>().unwrap(), Strategy::DataFilter);
        assert!("model".parse::<Strategy>().is_err());
    }

    #[test]
    fn lists_parse_without_duplicates() {
        assert_eq!(
            Strategy::parse_list("d, data, ds").unwrap(),
            vec![Strategy::Data, Strategy::DataSpatial]
        );
        assert!(Strategy::parse_list(" , ").is_err());
        assert_eq!(Strategy::parse_list("d,x").unwrap_err().field, "strategy");
    }

    #[test]
    fn serde_uses_canonical_names() {
        let json = serde_json::to_string(&Strategy::DataSpatial).unwrap();
        assert_eq!(json, "\"data+spatial\"");
        assert_eq!(serde_json::from_str::<Strategy>(&json).unwrap(), Strategy::DataSpatial);
    }
}
