//! Where a run puts its work on the cluster (see [`Placement`]).

use super::Scenario;
use crate::oracle::cost::derivation::Derivation;
use crate::oracle::model::errors::InputError;
use crate::oracle::model::run::{Run, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::report::placement::{Collective, Placement, Share, Stage};

impl Scenario {
    /// The placement of `spec`: what each GPU holds and the collectives of
    /// an iteration with their members, span and bytes, as the strategy's
    /// cost computed them.
    ///
    /// # Formula
    /// GPUs fill nodes in order; the `d` data-parallel groups are
    /// `p/d` consecutive GPUs each; a collective crosses nodes when the
    /// GPUs it spans do (`span > n`); its members, span and instances are
    /// those the strategy's cost recorded.
    ///
    /// # Errors
    /// An [`InputError`] from [`Run::new`] when the run is invalid.
    pub fn placement(&self, spec: &RunSpec) -> Result<Placement, InputError> {
        let run = Run::new(spec, self.network(), self.cluster())?;
        let cost = self.iteration(&run);
        let n = self.cluster().gpus_per_node();
        let groups = run.data_parallel_degree();
        let group_size = run.gpus / groups;
        let samples = run.mini_batch as f64 / groups as f64;
        let count = |symbol: &str| {
            let found = cost
                .derivations
                .compute
                .as_ref()
                .and_then(|d: &Derivation| d.get(symbol));
            found.unwrap_or(0.0) as usize
        };
        let slices = |axis| Share::Slices {
            axis,
            parts: group_size,
            split_layers: count("|Sp|"),
            layers: count("G"),
            samples,
        };
        let share = match run.strategy {
            Strategy::Serial | Strategy::Data => Share::Samples { samples },
            Strategy::Filter | Strategy::DataFilter => slices("filters"),
            Strategy::Channel => slices("input channels"),
            Strategy::Spatial | Strategy::DataSpatial => slices("width"),
            Strategy::Pipeline => {
                let layers = self.network().layers();
                let name = |i: usize| layers.get(i).map_or_else(String::new, |l| l.name().to_string());
                let stages = self.table_of(&run).stages(run.gpus);
                Share::Stages {
                    stages: stages
                        .ranges
                        .iter()
                        .map(|r| Stage {
                            first: r.start + 1,
                            last: r.end,
                            first_name: name(r.start),
                            last_name: name(r.end.saturating_sub(1)),
                        })
                        .collect(),
                    micro_batch: run.mini_batch as f64 / run.segments as f64,
                    segments: run.segments,
                }
            }
        };
        let collectives = cost
            .derivations
            .communication
            .iter()
            .filter_map(|(kind, d)| {
                let e = d.exchange?;
                Some(Collective {
                    kind: *kind,
                    formula: d.formula,
                    members: e.members,
                    span_gpus: e.span_gpus,
                    instances: e.instances,
                    crosses_nodes: e.span_gpus > n,
                    bytes: e.bytes,
                    seconds: d.value,
                })
            })
            .collect();
        let spec = self.cluster().spec();
        Ok(Placement {
            strategy: run.strategy,
            gpus: run.gpus,
            gpus_per_node: n,
            nodes: run.gpus.div_ceil(n),
            groups,
            group_size,
            share,
            collectives,
            intra_node_bytes_per_s: spec.intra_node.bandwidth_bytes_per_s,
            nic_bytes_per_s: spec.nic.bandwidth_bytes_per_s,
        })
    }
}
