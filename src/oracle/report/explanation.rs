//! What an explanation of one number says: its formula, the values in it,
//! the per-iteration terms the strategy computed, the intermediate results
//! and the sections of the model it comes from.

use serde::Serialize;

use super::projection::Projection;
use crate::oracle::cost::communication::CommKind;
use crate::oracle::cost::derivation::{Derivation, Symbol, Unit};
use crate::oracle::cost::memory::Part;

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
        }
    }

    /// Its value in projection `p`.
    pub fn of(self, p: &Projection) -> f64 {
        match self {
            Self::Total => p.total_s,
            Self::Compute => p.compute_s,
            Self::Communication => p.communication_s,
            Self::Kind(kind) => p.communication.get(kind),
            Self::GpuHours => p.gpu_hours,
            Self::Memory => p.memory_bytes,
            Self::Part(part) => p.memory.get(part),
        }
    }

    /// Its unit.
    pub fn unit(self) -> Unit {
        match self {
            Self::Total | Self::Compute | Self::Communication | Self::Kind(_) => Unit::Seconds,
            Self::GpuHours => Unit::GpuHours,
            Self::Memory | Self::Part(_) => Unit::Bytes,
        }
    }
}

/// An intermediate result: a value of the formula, which may be explained
/// in turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// What it is.
    pub label: String,
    /// Its value.
    pub value: f64,
    /// Its unit.
    pub unit: Unit,
    /// The quantity that explains it, when it is one (key of
    /// [`Quantity::key`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explains: Option<String>,
}

/// The explanation of one number of a projection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// What is explained, as [`Quantity::key`].
    pub quantity: String,
    /// "Time per epoch of data parallelism at 64 GPUs".
    pub title: String,
    /// The per-epoch formula, in the contract's symbols.
    pub formula: &'static str,
    /// The values in it.
    pub symbols: Vec<Symbol>,
    /// The per-iteration terms the strategy computed, with their formulas
    /// and values.
    pub terms: Vec<Derivation>,
    /// Intermediate results.
    pub steps: Vec<Step>,
    /// The number explained (equal to the projection's).
    pub result: f64,
    /// Its unit.
    pub unit: Unit,
    /// The sections of the model (`ORACLE-MODEL.md`) it comes from.
    pub sections: Vec<u8>,
    /// Whether the run can run at all: its numbers are computed all the
    /// same, but an infeasible run breaks the limits below.
    pub feasible: bool,
    /// The limits it breaks.
    pub violations: Vec<crate::oracle::model::violation::Violation>,
}
