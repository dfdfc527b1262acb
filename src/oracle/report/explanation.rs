//! What an explanation of one number says: its formula, the values in it,
//! the per-iteration terms the strategy computed, the intermediate results
//! and the sections of the model it comes from.

use serde::Serialize;

use super::bottleneck::FindingDetail;
use super::projection::Projection;
use super::quantity::Quantity;
use crate::oracle::cost::derivation::{Derivation, Symbol, Unit};

impl Quantity {
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
            Self::Bound(limit) => p
                .bottlenecks
                .iter()
                .find_map(|f| match f.detail {
                    FindingDetail::ScalingLimit { limit: l, value, .. } if l == limit => Some(value as f64),
                    _ => None,
                })
                .unwrap_or(f64::NAN),
            Self::FitOption(i) => p
                .bottlenecks
                .iter()
                .find_map(|f| match &f.detail {
                    FindingDetail::MemoryFit { options, .. } => options.get(usize::from(i)).map(|o| o.memory_bytes),
                    _ => None,
                })
                .unwrap_or(f64::NAN),
            Self::Edition(edition) if edition == p.edition => p.total_s,
            Self::Edition(_) => f64::NAN,
            Self::TimeToTrain => p.training.time_s,
            Self::Energy => p.energy.as_ref().map_or(f64::NAN, |e| e.train_kwh),
            Self::Carbon => p.energy.as_ref().map_or(f64::NAN, |e| e.train_co2_kg),
            Self::Cost => p.energy.as_ref().map_or(f64::NAN, |e| e.train_usd),
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
    /// Where a value in it comes from, in words, when no formula says it
    /// (the epochs to converge: the curve, the batches it measured, an
    /// extrapolation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}
