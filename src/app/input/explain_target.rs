//! Which number the explanation panel explains: a strategy at a GPU count
//! and one of its quantities. Written in the page as
//! `data-explain="STRATEGY@GPUS:QUANTITY"` (`data@64:total`).

use std::str::FromStr;

use crate::oracle::{Quantity, Strategy};

/// A number of the view to explain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExplainTarget {
    pub strategy: Strategy,
    /// At this many GPUs.
    pub gpus: u64,
    /// Which of its numbers.
    pub quantity: Quantity,
}

impl ExplainTarget {
    /// `quantity` of `strategy` at `gpus`.
    pub fn new(strategy: Strategy, gpus: u64, quantity: Quantity) -> Self {
        Self {
            strategy,
            gpus,
            quantity,
        }
    }

    /// The same strategy and GPU count, another quantity.
    #[must_use]
    pub fn with(self, quantity: Quantity) -> Self {
        Self { quantity, ..self }
    }

    /// `STRATEGY@GPUS:QUANTITY`.
    pub fn key(&self) -> String {
        format!("{}@{}:{}", self.strategy.name(), self.gpus, self.quantity.key())
    }

    /// The target of a key written by [`ExplainTarget::key`]; `None` for
    /// any other text.
    pub fn parse(key: &str) -> Option<Self> {
        let (strategy, rest) = key.split_once('@')?;
        let (gpus, quantity) = rest.split_once(':')?;
        Some(Self {
            strategy: Strategy::from_str(strategy).ok()?,
            gpus: gpus.parse().ok()?,
            quantity: Quantity::parse(quantity)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::app::input::explain_target::*;
    use crate::oracle::{CommKind, Part};

    #[test]
    fn keys_read_back() {
        for target in [
            ExplainTarget::new(Strategy::Data, 64, Quantity::Total),
            ExplainTarget::new(Strategy::DataSpatial, 1024, Quantity::Kind(CommKind::Halo)),
            ExplainTarget::new(Strategy::Pipeline, 8, Quantity::Part(Part::Optimizer)),
        ] {
            assert_eq!(ExplainTarget::parse(&target.key()), Some(target));
        }
        assert_eq!(
            ExplainTarget::new(Strategy::DataFilter, 64, Quantity::GpuHours).key(),
            "data+filter@64:gpu-hours"
        );
        for bad in [
            "",
            "data",
            "data@64",
            "data@x:total",
            "nope@64:total",
            "data@64:nope",
            "data@-1:total",
        ] {
            assert_eq!(ExplainTarget::parse(bad), None, "{bad}");
        }
    }
}
