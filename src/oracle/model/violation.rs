//! The limits that rule a configuration out.

use std::fmt;

use super::names::named_enum;

named_enum! {
    /// A limit that rules a configuration out.
    pub enum Violation {
        /// Memory per GPU above the GPU's capacity.
        Memory => ("memory", "not enough memory"),
        /// The split set is empty or cannot be divided into that many parts.
        Split => ("split", "more parts than the split can make"),
        /// Too few samples: fewer than one per data-parallel replica or
        /// pipeline segment.
        Batch => ("batch", "batch too small"),
        /// A global mini-batch larger than the dataset: one iteration would
        /// need more samples than an epoch has.
        Dataset => ("dataset", "batch larger than the dataset"),
        /// More GPUs than the largest allocation.
        Gpus => ("gpus", "more GPUs than the cluster has"),
        /// More pipeline stages than layers.
        PipelineDepth => ("pipeline_depth", "pipeline deeper than the network"),
    }
}

/// A list of violations, written as their names joined by `sep`
/// (`memory;split` in CSV, `memory, split` in tables).
#[derive(Debug, Clone, Copy)]
pub struct Violations<'a> {
    /// The violations.
    pub list: &'a [Violation],
    /// What goes between two names.
    pub sep: &'static str,
}

impl<'a> Violations<'a> {
    /// `list` joined by `sep`.
    pub fn joined(list: &'a [Violation], sep: &'static str) -> Self {
        Self { list, sep }
    }
}

impl fmt::Display for Violations<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.list.iter().enumerate() {
            if i > 0 {
                f.write_str(self.sep)?;
            }
            f.write_str(v.name())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_print_with_their_separator() {
        let list = [Violation::Memory, Violation::PipelineDepth];
        assert_eq!(Violations::joined(&list, ";").to_string(), "memory;pipeline_depth");
        assert_eq!(Violations::joined(&[], ", ").to_string(), "");
        assert_eq!(Violation::PipelineDepth.label(), "pipeline deeper than the network");
    }
}
