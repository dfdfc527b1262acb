//! Which number of a projection is meant: a time, the memory or one of
//! its parts, a scaling bound, a change that would make a run fit, the
//! other edition's epoch; with its key in a page or a link, its words and
//! its unit.

use crate::oracle::cost::communication::CommKind;
use crate::oracle::cost::derivation::Unit;
use crate::oracle::cost::memory::Part;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::violation::Violation;

/// A number a projection shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Time per epoch.
    Total,
    /// Compute per epoch.
    Compute,
    /// Communication per epoch.
    Communication,
    /// Communication of one kind per epoch.
    Kind(CommKind),
    /// GPU-hours per epoch.
    GpuHours,
    /// Memory per GPU.
    Memory,
    /// One part of the memory per GPU.
    Part(Part),
    /// A count against the strategy's bound on it (a scaling limit): the
    /// count, `n ≤ n_max`.
    Bound(Violation),
    /// Memory per GPU with the `i`-th change the engine tried to make a
    /// run that does not fit fit (its `MemoryFit` finding's options).
    FitOption(u8),
    /// Time per epoch in the given edition (the other edition's number).
    Edition(Edition),
    /// Time to train: epochs to converge times the time per epoch
    /// (section 13).
    TimeToTrain,
    /// Energy to train, facility included (section 14).
    Energy,
    /// CO2-equivalent of the energy to train (section 14).
    Carbon,
    /// Money to train (section 14).
    Cost,
}

impl Quantity {
    /// Its key in a page or a link: `total`, `compute`, `communication`,
    /// `comm-halo`, `gpu-hours`, `memory`, `memory-weights`.
    pub fn key(self) -> String {
        match self {
            Self::Total => "total".into(),
            Self::Compute => "compute".into(),
            Self::Communication => "communication".into(),
            Self::Kind(kind) => format!("comm-{}", kind.name()),
            Self::GpuHours => "gpu-hours".into(),
            Self::Memory => "memory".into(),
            Self::Part(part) => format!("memory-{}", part.key()),
            Self::Bound(limit) => format!("bound-{}", limit.name()),
            Self::FitOption(i) => format!("fit-{i}"),
            Self::Edition(edition) => format!("total-{}", edition.name()),
            Self::TimeToTrain => "to-train".into(),
            Self::Energy => "energy".into(),
            Self::Carbon => "co2".into(),
            Self::Cost => "cost".into(),
        }
    }

    /// The quantity of a key (see [`Quantity::key`]); `None` for any other
    /// text.
    pub fn parse(key: &str) -> Option<Self> {
        let simple = match key {
            "total" => Some(Self::Total),
            "compute" => Some(Self::Compute),
            "communication" => Some(Self::Communication),
            "gpu-hours" => Some(Self::GpuHours),
            "memory" => Some(Self::Memory),
            "to-train" => Some(Self::TimeToTrain),
            "energy" => Some(Self::Energy),
            "co2" => Some(Self::Carbon),
            "cost" => Some(Self::Cost),
            _ => None,
        };
        simple
            .or_else(|| {
                let name = key.strip_prefix("comm-")?;
                CommKind::ALL.into_iter().find(|k| k.name() == name).map(Self::Kind)
            })
            .or_else(|| {
                let name = key.strip_prefix("memory-")?;
                Part::ALL.into_iter().find(|p| p.key() == name).map(Self::Part)
            })
            .or_else(|| Violation::from_name(key.strip_prefix("bound-")?).map(Self::Bound))
            .or_else(|| key.strip_prefix("fit-")?.parse().ok().map(Self::FitOption))
            .or_else(|| Edition::from_name(key.strip_prefix("total-")?).map(Self::Edition))
    }

    /// What it is, in words: "epoch time", "halo exchange per epoch".
    pub fn label(self) -> String {
        match self {
            Self::Total => "time per epoch".into(),
            Self::Compute => "compute per epoch".into(),
            Self::Communication => "communication per epoch".into(),
            Self::Kind(kind) => format!("{} per epoch", kind.label()),
            Self::GpuHours => "GPU-hours per epoch".into(),
            Self::Memory => "memory per GPU".into(),
            Self::Part(part) => format!("{} per GPU", part.label()),
            Self::Bound(limit) => format!("scaling limit ({})", limit.label()),
            Self::FitOption(i) => format!("memory per GPU with change {} tried to make it fit", u16::from(i) + 1),
            Self::Edition(edition) => format!("time per epoch in the {edition} edition"),
            Self::TimeToTrain => "time to train".into(),
            Self::Energy => "energy to train".into(),
            Self::Carbon => "CO2 to train".into(),
            Self::Cost => "cost to train".into(),
        }
    }

    /// Its unit.
    pub fn unit(self) -> Unit {
        match self {
            Self::Total | Self::Compute | Self::Communication | Self::Kind(_) => Unit::Seconds,
            Self::GpuHours => Unit::GpuHours,
            Self::Memory | Self::Part(_) | Self::FitOption(_) => Unit::Bytes,
            Self::Bound(_) => Unit::Count,
            Self::Edition(_) | Self::TimeToTrain => Unit::Seconds,
            Self::Energy => Unit::KilowattHours,
            Self::Carbon => Unit::KgCo2,
            Self::Cost => Unit::Dollars,
        }
    }
}
