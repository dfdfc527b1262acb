//! Ranking the strategies at a GPU budget.

use std::cmp::Ordering;

use super::Scenario;
use super::sweep::{Skipped, gpu_counts};
use crate::oracle::model::run::{Run, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::report::projection::Projection;
use crate::oracle::report::quantity::Quantity;

/// What a ranking orders by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankBy {
    /// Epoch time at exactly the budget's GPU count.
    #[default]
    Time,
    /// Epoch cost in GPU-hours, each strategy at its cheapest feasible GPU
    /// count up to the budget (powers of two and the budget itself).
    Cost,
    /// Time to train (epochs to converge at the global batch × epoch time)
    /// at exactly the budget's GPU count (section 13).
    TimeToTrain,
    /// Energy to train, facility included, at the budget (section 14).
    Energy,
    /// CO2 to train, at the budget (section 14).
    Carbon,
    /// Money to train, at the budget (section 14).
    Money,
}

/// The strategies ranked at a budget.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ranking {
    /// What it is ordered by.
    pub by: RankBy,
    /// One projection per strategy: feasible ones first, best first, then
    /// the infeasible ones in the same order.
    pub points: Vec<Projection>,
    /// Strategies whose run was invalid at the budget.
    pub skipped: Vec<Skipped>,
}

impl Ranking {
    /// The best feasible projection, if any strategy is feasible.
    pub fn best(&self) -> Option<&Projection> {
        self.points.first().filter(|p| p.feasible)
    }
}

impl Scenario {
    /// Ranks every strategy that applies at `template.gpus` (serial only at
    /// 1 GPU; a ZeRO stage only where the strategy has a data-parallel
    /// dimension): feasible ones first, best first, then infeasible ones in
    /// the same order; a point that does not fit in memory says what would
    /// make it fit. Invalid runs (e.g. a batch of less than a sample)
    /// come back as skipped.
    ///
    /// # Formula
    /// [`RankBy::Time`]: ascending `total_s` at `p`;
    /// [`RankBy::TimeToTrain`]: ascending time to train at `p`;
    /// [`RankBy::Energy`], [`RankBy::Carbon`], [`RankBy::Money`]: ascending
    /// energy, CO2 or money to train at `p` (unknown last). [`RankBy::Cost`]: for
    /// each strategy the feasible count `p' ≤ p` of least `gpu_hours`
    /// (ties to the faster), then ascending `gpu_hours`; a strategy with no
    /// feasible count is shown at `p`.
    pub fn rank(&self, template: &RunSpec, by: RankBy) -> Ranking {
        let budget = template.gpus;
        let counts = match by {
            RankBy::Cost => gpu_counts(budget),
            _ => vec![budget],
        };
        let mut ranking = Ranking {
            by,
            ..Ranking::default()
        };
        for strategy in Strategy::ALL {
            let mut at_budget = None;
            let mut cheapest: Option<Projection> = None;
            for &gpus in counts.iter().filter(|&&p| strategy.applies_at(p)) {
                match self.project_point(&template.for_strategy(strategy, gpus)) {
                    Ok(point) => {
                        if point.feasible
                            && cheapest
                                .as_ref()
                                .is_none_or(|best| cost_order(&point, best) == Ordering::Less)
                        {
                            cheapest = Some(point.clone());
                        }
                        if gpus == budget {
                            at_budget = Some(point);
                        }
                    }
                    Err(error) if gpus == budget => ranking.skipped.push(Skipped { strategy, gpus, error }),
                    Err(_) => {}
                }
            }
            let chosen = match by {
                RankBy::Cost => cheapest.or(at_budget),
                _ => at_budget,
            };
            // the advice on what would make it fit, for the points shown
            ranking.points.extend(chosen.map(|point| {
                let spec = template.for_strategy(strategy, point.gpus);
                match Run::new(&spec, self.network(), self.cluster()) {
                    Ok(run) => self.advise(point, &run),
                    Err(_) => point,
                }
            }));
        }
        ranking.points.sort_by(|a, b| {
            b.feasible.cmp(&a.feasible).then_with(|| match by {
                RankBy::Time => a.total_s.total_cmp(&b.total_s),
                RankBy::TimeToTrain => a.training.time_s.total_cmp(&b.training.time_s),
                RankBy::Cost => cost_order(a, b),
                RankBy::Energy => Quantity::Energy.of(a).total_cmp(&Quantity::Energy.of(b)),
                RankBy::Carbon => Quantity::Carbon.of(a).total_cmp(&Quantity::Carbon.of(b)),
                RankBy::Money => Quantity::Cost.of(a).total_cmp(&Quantity::Cost.of(b)),
            })
        });
        ranking
    }
}

fn cost_order(a: &Projection, b: &Projection) -> Ordering {
    a.gpu_hours
        .total_cmp(&b.gpu_hours)
        .then_with(|| a.total_s.total_cmp(&b.total_s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::run::Batch;
    use crate::oracle::presets;

    #[test]
    fn feasible_first_fastest_first() {
        let s = presets::scenario("vgg16", "abci").unwrap();
        let ranking = s.rank(
            &RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0)),
            RankBy::Time,
        );
        assert_eq!(ranking.points.len(), 7, "serial does not apply at 64 GPUs");
        let first_infeasible = ranking.points.iter().position(|p| !p.feasible).unwrap_or(7);
        assert!(ranking.points[first_infeasible..].iter().all(|p| !p.feasible));
        for pair in ranking.points[..first_infeasible].windows(2) {
            assert!(pair[0].total_s <= pair[1].total_s);
        }
        assert!(
            ranking
                .points
                .iter()
                .filter(|p| !p.feasible)
                .all(|p| !p.violations.is_empty())
        );
    }

    #[test]
    fn serial_only_at_one_gpu() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let ranking = s.rank(
            &RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(64.0)),
            RankBy::Time,
        );
        assert_eq!(ranking.points.len(), 8);
        assert!(ranking.points.iter().any(|p| p.strategy == Strategy::Serial));
    }

    #[test]
    fn cost_ranking_picks_cheapest_feasible_counts() {
        let s = presets::scenario("resnet50", "abci").unwrap();
        let template = RunSpec::new(Strategy::Data, 256, Batch::SamplesPerGpu(32.0));
        let ranking = s.rank(&template, RankBy::Cost);
        let data = ranking.points.iter().find(|p| p.strategy == Strategy::Data).unwrap();
        // data parallelism gets dearer with GPUs (communication grows)
        assert!(data.gpus < 256);
        for p in gpu_counts(256) {
            let other = s
                .project(&RunSpec {
                    gpus: p,
                    ..template.clone()
                })
                .unwrap();
            if other.feasible {
                assert!(data.gpu_hours <= other.gpu_hours);
            }
        }
    }
}
