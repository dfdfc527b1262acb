//! What would make a configuration that does not fit in memory fit: the
//! options of section 9 tried one by one, each with the memory it needs.

use super::Scenario;
use crate::oracle::cost::strategies::iteration_cost;
use crate::oracle::model::checks::MAX_COUNT;
use crate::oracle::model::run::{Run, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;
use crate::oracle::report::bottleneck::{FitOption, memory_fit};
use crate::oracle::report::projection::Projection;

impl Scenario {
    /// Bytes per GPU of a checked run.
    fn memory_of(&self, run: &Run) -> f64 {
        iteration_cost(&self.table_of(run), self.cluster(), run).memory_bytes()
    }

    /// The largest mini-batch of `run` (at most its own) whose memory fits
    /// in a GPU, `None` when not even one sample fits.
    ///
    /// # Formula
    /// Memory grows with `B`, nearly in proportion: a search of `1..=limit`
    /// that probes where the line through the bracket's memories meets the
    /// capacity (exact in a few probes when memory is linear in `B`), with a
    /// halving of the bracket after any probe that did not halve it.
    pub(crate) fn largest_fitting_batch(&self, run: &Run, limit: u64) -> Option<u64> {
        let capacity = self.cluster().gpu_memory_bytes();
        let table = self.table_of(run);
        let memory = |mini_batch: u64| {
            let run = Run {
                mini_batch,
                ..run.clone()
            };
            iteration_cost(&table, self.cluster(), &run).memory_bytes()
        };
        let mut m_low = memory(1);
        if m_low > capacity {
            return None;
        }
        let (mut low, mut high) = (1, limit.max(1));
        let mut m_high = memory(high);
        if m_high <= capacity {
            return Some(high);
        }
        let mut halve = false;
        while high - low > 1 {
            let width = high - low;
            let share = (capacity - m_low) / (m_high - m_low);
            let mid = if halve || !share.is_finite() {
                low + width / 2
            } else {
                // where the line meets the capacity, inside the bracket
                let guess = (low as f64 + share * width as f64).floor();
                (guess.max(0.0) as u64).clamp(low + 1, high - 1)
            };
            let m = memory(mid);
            if m <= capacity {
                (low, m_low) = (mid, m);
            } else {
                (high, m_high) = (mid, m);
            }
            halve = !halve && (high - low) * 2 > width;
        }
        Some(low)
    }

    /// Adds to a projection that breaks the memory limit the finding of
    /// what would make it fit (see [`memory_fit`]); any other projection
    /// comes back as it is.
    ///
    /// Options tried, each alone: the lowest ZeRO stage above the run's that
    /// fits (else stage 3), where the strategy has a data-parallel
    /// dimension of more than one; recompute; the largest mini-batch that
    /// fits (at the same strategy and GPUs); for data parallelism, the
    /// data+filter and data+spatial hybrids of default groups; and ZeRO
    /// stage 3 with recompute when neither fits alone.
    pub fn advise(&self, mut projection: Projection, run: &Run) -> Projection {
        if !projection.violations.contains(&Violation::Memory) {
            return projection;
        }
        let capacity = self.cluster().gpu_memory_bytes();
        let option = |option: String, changed: &Run| {
            let memory_bytes = self.memory_of(changed);
            FitOption {
                option,
                memory_bytes,
                fits: memory_bytes <= capacity,
                spec: changed.spec(),
            }
        };
        let mut options = Vec::new();
        if run.strategy.has_data_dimension() && run.data_parallel_degree() > 1 && run.zero < 3 {
            let tried: Vec<FitOption> = (run.zero + 1..=3)
                .map(|zero| option(format!("ZeRO stage {zero}"), &Run { zero, ..run.clone() }))
                .collect();
            let chosen = tried.iter().position(|t| t.fits).or(tried.len().checked_sub(1));
            options.extend(chosen.and_then(|i| tried.into_iter().nth(i)));
        }
        if !run.recompute {
            options.push(option(
                "activation recompute".into(),
                &Run {
                    recompute: true,
                    ..run.clone()
                },
            ));
        }
        if run.mini_batch > 1 {
            let best = self.largest_fitting_batch(run, run.mini_batch.min(MAX_COUNT));
            let text = match best {
                Some(b) => format!(
                    "a mini-batch of at most {b}, {} per GPU",
                    crate::oracle::units::significant(b as f64 / run.gpus as f64, 4)
                ),
                None => "a mini-batch of 1".into(),
            };
            options.push(option(
                text,
                &Run {
                    mini_batch: best.unwrap_or(1),
                    ..run.clone()
                },
            ));
        }
        if run.strategy == Strategy::Data {
            for hybrid in [Strategy::DataFilter, Strategy::DataSpatial] {
                let spec = RunSpec {
                    strategy: hybrid,
                    group_size: None,
                    split: None,
                    ..run.spec()
                };
                if let Ok(hybrid_run) = Run::new(&spec, self.network(), self.cluster()) {
                    let p = self.project_run(&hybrid_run);
                    // a hybrid whose split is invalid is no option
                    if !p.violations.contains(&Violation::Split) {
                        options.push(FitOption {
                            option: format!("{hybrid} in groups of {}", hybrid_run.group_size),
                            memory_bytes: p.memory_bytes,
                            fits: p.memory_bytes <= capacity,
                            spec: hybrid_run.spec(),
                        });
                    }
                }
            }
        }
        if !options.iter().any(|o| o.fits)
            && run.strategy.has_data_dimension()
            && run.data_parallel_degree() > 1
            && !run.recompute
        {
            let both = Run {
                zero: 3,
                recompute: true,
                ..run.clone()
            };
            options.push(option("ZeRO stage 3 and recompute".into(), &both));
        }
        // limits no memory option lifts (a smaller batch does not widen a split)
        let blocked: Vec<Violation> = projection
            .violations
            .iter()
            .copied()
            .filter(|v| {
                matches!(
                    v,
                    Violation::Split | Violation::Gpus | Violation::PipelineDepth | Violation::Dataset
                )
            })
            .collect();
        projection
            .bottlenecks
            .push(memory_fit(&projection.memory, options, &blocked));
        projection
    }
}
