//! Measured training runs: what a user timed on a real cluster, to
//! calibrate the model with (contract, section 8).

use serde::{Deserialize, Serialize};

use super::strategy::Strategy;

/// One measured run: a configuration and its seconds per iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasuredRun {
    pub strategy: Strategy,
    /// `p`.
    pub gpus: u64,
    /// `B`: global samples per iteration.
    pub mini_batch: u64,
    /// `p2` of a hybrid (default: the hybrid's default group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u64>,
    /// Measured seconds per iteration.
    pub iteration_s: f64,
    /// Measured compute seconds per iteration, if measured apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute_s: Option<f64>,
    /// Measured communication seconds per iteration, if measured apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub communication_s: Option<f64>,
}

/// A column of the measured-runs CSV, in the header's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MeasuredColumn {
    Strategy,
    Gpus,
    /// `mini_batch`
    MiniBatch,
    Group,
    /// `iteration_s`
    IterationS,
    /// `compute_s`
    ComputeS,
    /// `communication_s`
    CommunicationS,
}

impl MeasuredColumn {
    /// Every column, in the header's order.
    pub const ALL: [Self; 7] = [
        Self::Strategy,
        Self::Gpus,
        Self::MiniBatch,
        Self::Group,
        Self::IterationS,
        Self::ComputeS,
        Self::CommunicationS,
    ];

    /// Its name in the header.
    pub fn name(self) -> &'static str {
        match self {
            Self::Strategy => "strategy",
            Self::Gpus => "gpus",
            Self::MiniBatch => "mini_batch",
            Self::Group => "group",
            Self::IterationS => "iteration_s",
            Self::ComputeS => "compute_s",
            Self::CommunicationS => "communication_s",
        }
    }
}

/// A measured run with where it was read: its line and the column of each
/// of its fields, so that an error about it points at the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub run: MeasuredRun,
    /// 1-based line.
    pub line: usize,
    /// 1-based column of each field, by [`MeasuredColumn`].
    pub columns: [usize; 7],
}

impl Located {
    /// The column of a field.
    pub fn column(&self, column: MeasuredColumn) -> usize {
        self.columns[column as usize]
    }
}
