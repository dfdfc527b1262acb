//! The planner: every configuration of a space projected, and the Pareto
//! front of epoch time, GPU-hours, memory per GPU, and time, energy and
//! money to train.
//!
//! # The space
//! For a GPU budget `P` and a cluster of `n` GPUs per node:
//! - GPU counts ([`plan_gpu_counts`]): the powers of two up to `P`, the
//!   node multiples `n·2^k` up to `P`, and `P` itself;
//! - every strategy (serial at 1 GPU only);
//! - hybrids: every group size `p2` that divides `p`;
//! - pipeline: segments `S = p·2^k` up to the mini-batch `B`, and `B`
//!   itself (`S = p` alone when `B ≤ p`);
//! - strategies with a data-parallel dimension: ZeRO stages 0 to 3;
//! - every strategy: recompute off and on.
//!
//! The batch (global mini-batch for strong scaling, samples per GPU for weak
//! scaling), the precision, the optimizer, the edition, the calibration and
//! the overlap come from the template and are not searched.
//!
//! # What is skipped, and why that is exact
//! One rule only: a GPU count above the cluster's `P_max` breaks the GPU
//! limit in every configuration (the projection marks it infeasible,
//! whatever else it holds), and an infeasible configuration is never on the
//! front. Every other configuration of the space is projected.
//!
//! # The front
//! Among feasible configurations, `a` dominates `b` when it is no worse in
//! epoch time, GPU-hours, memory per GPU, time, energy and money to train,
//! and better in one. The front is every configuration no other dominates;
//! of configurations equal in all, only the first in the space's order (strategy, GPUs, group,
//! segments, ZeRO stage, recompute) is kept.

use std::cmp::Ordering;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Scenario;
use crate::oracle::model::checks::{self, MAX_GPUS};
use crate::oracle::model::errors::{InputError, Rule};
use crate::oracle::model::names::named_enum;
use crate::oracle::model::run::{Batch, MAX_ZERO_STAGE, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::report::projection::Projection;

named_enum! {
    /// What "best" means (epoch time by default).
    #[derive(Default)]
    pub enum Objective {
        /// Least epoch time.
        #[default]
        Time => ("time", "epoch time"),
        /// Fewest GPU-hours per epoch.
        Cost => ("cost", "GPU-hours per epoch"),
        /// Least memory per GPU.
        Memory => ("memory", "memory per GPU"),
        /// Least time to train (epochs to converge at the batch × epoch
        /// time, section 13).
        TimeToTrain => ("train", "time to train"),
        /// Least energy to train, facility included (section 14; the CO2
        /// follows it, on one grid).
        Energy => ("energy", "energy to train"),
        /// Least money to train (section 14).
        Money => ("money", "money to train"),
    }
}

impl FromStr for Objective {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "objective", "objective")
    }
}

/// One configuration of the space, projected: every field `project` needs
/// to reproduce it (with the template's other settings), and its numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub strategy: Strategy,
    /// `p`.
    pub gpus: u64,
    /// `p2` of a hybrid.
    pub group_size: Option<u64>,
    /// `S` of a pipeline.
    pub segments: Option<u64>,
    /// ZeRO stage.
    pub zero: u8,
    /// Activation recompute.
    pub recompute: bool,
    /// `B`.
    pub mini_batch: u64,
    /// `B/p`.
    pub samples_per_gpu: f64,
    /// Epoch time, seconds.
    pub total_s: f64,
    /// GPU-hours per epoch.
    pub gpu_hours: f64,
    /// Memory per GPU, bytes.
    pub memory_bytes: f64,
    /// Epochs to converge at `B` (section 13).
    pub epochs: f64,
    /// Time to train, seconds.
    pub time_to_train_s: f64,
    /// Energy to train, kWh (infinite: unknown, the GPU's board power).
    pub energy_kwh: f64,
    /// CO2-equivalent to train, kg (infinite: unknown).
    pub co2_kg: f64,
    /// Money to train, US dollars (infinite: unknown).
    pub usd: f64,
    /// No limit broken.
    pub feasible: bool,
}

impl Config {
    fn of(point: &Projection) -> Self {
        Self {
            strategy: point.strategy,
            gpus: point.gpus,
            group_size: point.group_size,
            segments: point.segments,
            zero: point.zero,
            recompute: point.recompute,
            mini_batch: point.mini_batch,
            samples_per_gpu: point.samples_per_gpu,
            total_s: point.total_s,
            gpu_hours: point.gpu_hours,
            memory_bytes: point.memory_bytes,
            epochs: point.training.epochs.epochs,
            time_to_train_s: point.training.time_s,
            energy_kwh: point.energy.as_ref().map_or(f64::INFINITY, |e| e.train_kwh),
            co2_kg: point.energy.as_ref().map_or(f64::INFINITY, |e| e.train_co2_kg),
            usd: point.energy.as_ref().map_or(f64::INFINITY, |e| e.train_usd),
            feasible: point.feasible,
        }
    }

    /// The run that reproduces this configuration: `template` with this
    /// strategy, GPU count, mini-batch, group, segments, ZeRO stage and
    /// recompute.
    pub fn spec(&self, template: &RunSpec) -> RunSpec {
        RunSpec {
            strategy: self.strategy,
            gpus: self.gpus,
            batch: Batch::MiniBatch(self.mini_batch),
            segments: self.segments,
            group_size: self.group_size,
            zero: self.zero,
            recompute: self.recompute,
            ..template.clone()
        }
    }

    /// The value of an objective.
    pub fn value(&self, objective: Objective) -> f64 {
        match objective {
            Objective::Time => self.total_s,
            Objective::Cost => self.gpu_hours,
            Objective::Memory => self.memory_bytes,
            Objective::TimeToTrain => self.time_to_train_s,
            Objective::Energy => self.energy_kwh,
            Objective::Money => self.usd,
        }
    }

    /// `self` dominates `other`: no worse in epoch time, GPU-hours, memory,
    /// time, energy and money to train, better in one.
    pub fn dominates(&self, other: &Self) -> bool {
        let objectives = Objective::ALL.map(|o| (self.value(o), other.value(o)));
        objectives.iter().all(|(a, b)| a <= b) && objectives.iter().any(|(a, b)| a < b)
    }

    fn same_values(&self, other: &Self) -> bool {
        Objective::ALL.iter().all(|&o| self.value(o) == other.value(o))
    }

    /// Order by one objective, the others breaking ties in the order time,
    /// cost, memory, time, energy and money to train.
    pub fn order_by(&self, other: &Self, objective: Objective) -> Ordering {
        Objective::ALL
            .iter()
            .filter(|&&o| o != objective)
            .fold(self.value(objective).total_cmp(&other.value(objective)), |order, &o| {
                order.then_with(|| self.value(o).total_cmp(&other.value(o)))
            })
    }
}

/// The best configuration by each objective.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BestBy {
    /// Least epoch time.
    pub time: Option<Config>,
    /// Fewest GPU-hours.
    pub cost: Option<Config>,
    /// Least memory per GPU.
    pub memory: Option<Config>,
    /// Least time to train.
    pub to_train: Option<Config>,
    /// Least energy to train.
    #[serde(default)]
    pub energy: Option<Config>,
    /// Least money to train.
    #[serde(default)]
    pub money: Option<Config>,
}

impl BestBy {
    /// The best by one objective.
    pub fn get(&self, objective: Objective) -> Option<&Config> {
        match objective {
            Objective::Time => self.time.as_ref(),
            Objective::Cost => self.cost.as_ref(),
            Objective::Memory => self.memory.as_ref(),
            Objective::TimeToTrain => self.to_train.as_ref(),
            Objective::Energy => self.energy.as_ref(),
            Objective::Money => self.money.as_ref(),
        }
    }
}

/// What the search found.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Plan {
    /// Configurations projected.
    pub evaluated: usize,
    /// Of those, feasible.
    pub feasible: usize,
    /// Configurations of the space the engine rejected as runs (e.g. a
    /// batch of less than one sample), not projected.
    pub invalid: usize,
    /// Configurations skipped as provably infeasible (more GPUs than the
    /// cluster has).
    pub skipped: usize,
    /// What "best" means.
    pub objective: Objective,
    /// The Pareto front, fastest first.
    pub front: Vec<Config>,
    /// The best by `objective` (on the front), if any configuration is
    /// feasible.
    pub best: Option<Config>,
    /// The best by each objective.
    pub best_by: BestBy,
}

impl Plan {
    /// The best of the front by each objective, and by the plan's.
    fn choose_best(&mut self) {
        let best = |o: Objective| self.front.iter().min_by(|a, b| a.order_by(b, o)).cloned();
        self.best_by = BestBy {
            time: best(Objective::Time),
            cost: best(Objective::Cost),
            memory: best(Objective::Memory),
            to_train: best(Objective::TimeToTrain),
            energy: best(Objective::Energy),
            money: best(Objective::Money),
        };
        self.best = self.best_by.get(self.objective).cloned();
    }

    /// The plan within a memory budget per GPU: the front's configurations
    /// that need at most `memory_bytes`, and the best of those.
    ///
    /// # Formula
    /// A configuration within the budget that another dominates is
    /// dominated by one within it too (it needs no more memory), so the
    /// front within the budget is the front filtered by it: exact, with no
    /// search again.
    pub fn within_memory(&self, memory_bytes: f64) -> Plan {
        self.within(Objective::Memory, memory_bytes)
    }

    /// The plan within a bound on one objective (energy or money to train,
    /// memory per GPU, ...): the front's configurations whose value is at
    /// most `bound`, and the best of those.
    ///
    /// # Formula
    /// Exact for the same reason as [`Plan::within_memory`]: whatever
    /// dominates a configuration is no worse in the bounded objective, so
    /// it is within the bound too.
    pub fn within(&self, objective: Objective, bound: f64) -> Plan {
        let mut plan = Plan {
            front: self
                .front
                .iter()
                .filter(|c| c.value(objective) <= bound)
                .cloned()
                .collect(),
            ..self.clone()
        };
        plan.choose_best();
        plan
    }
}

/// GPU counts of the planner's space: powers of two up to `max_gpus`, node
/// multiples `gpus_per_node·2^k` up to `max_gpus`, and `max_gpus`;
/// ascending, without repeats.
pub fn plan_gpu_counts(max_gpus: u64, gpus_per_node: u64) -> Vec<u64> {
    let max = max_gpus.max(1);
    let node = gpus_per_node.max(1);
    let powers = (0..64).map(|e| 1u64 << e).take_while(|&p| p <= max);
    let nodes = (0..64)
        .map_while(|e| node.checked_mul(1u64 << e))
        .take_while(|&p| p <= max);
    let mut counts: Vec<u64> = powers.chain(nodes).chain([max]).collect();
    counts.sort_unstable();
    counts.dedup();
    counts
}

/// The divisors of `n`, ascending.
fn divisors(n: u64) -> Vec<u64> {
    let mut low = Vec::new();
    let mut high = Vec::new();
    let mut d = 1;
    while d * d <= n {
        if n.is_multiple_of(d) {
            low.push(d);
            if d != n / d {
                high.push(n / d);
            }
        }
        d += 1;
    }
    low.extend(high.into_iter().rev());
    low
}

/// Pipeline segments of the space for `p` stages and a mini-batch of
/// `batch`: `p·2^k ≤ B`, and `B`; only `p` when `B ≤ p`.
fn segment_grid(gpus: u64, batch: Option<u64>) -> Vec<u64> {
    let Some(batch) = batch.filter(|&b| b > gpus) else {
        return vec![gpus];
    };
    let mut grid: Vec<u64> = (0..64)
        .map_while(|e| gpus.checked_mul(1u64 << e))
        .take_while(|&s| s <= batch)
        .collect();
    if grid.last() != Some(&batch) {
        grid.push(batch);
    }
    grid
}

/// The mini-batch a template's batch gives at `gpus`, when whole.
fn mini_batch_at(batch: Batch, gpus: u64) -> Option<u64> {
    match batch {
        Batch::MiniBatch(b) => Some(b),
        Batch::SamplesPerGpu(b) => {
            let total = b * gpus as f64;
            (total.is_finite() && total >= 1.0 && total.fract() == 0.0).then_some(total as u64)
        }
    }
}

impl Scenario {
    /// The runs of the planner's space for a budget of `max_gpus`, in the
    /// space's order (see the module docs), without the counts above the
    /// cluster's `P_max`; and how many configurations those counts held.
    pub fn search_space(&self, template: &RunSpec, max_gpus: u64) -> (Vec<RunSpec>, usize) {
        let cluster_max = self.cluster().max_gpus();
        let mut runs = Vec::new();
        let mut skipped = 0;
        for strategy in Strategy::ALL {
            let zeros = if strategy.has_data_dimension() {
                0..=MAX_ZERO_STAGE
            } else {
                0..=0
            };
            for gpus in plan_gpu_counts(max_gpus, self.cluster().gpus_per_node()) {
                if !strategy.applies_at(gpus) {
                    continue;
                }
                let groups: Vec<Option<u64>> = if strategy.is_hybrid() {
                    divisors(gpus).into_iter().map(Some).collect()
                } else {
                    vec![None]
                };
                let segments: Vec<Option<u64>> = if strategy == Strategy::Pipeline {
                    segment_grid(gpus, mini_batch_at(template.batch, gpus))
                        .into_iter()
                        .map(Some)
                        .collect()
                } else {
                    vec![None]
                };
                let count = groups.len() * segments.len() * zeros.clone().count() * 2;
                if gpus > cluster_max {
                    skipped += count;
                    continue;
                }
                for &group_size in &groups {
                    for &segment in &segments {
                        for zero in zeros.clone() {
                            for recompute in [false, true] {
                                runs.push(RunSpec {
                                    strategy,
                                    gpus,
                                    group_size,
                                    segments: segment,
                                    zero,
                                    recompute,
                                    ..template.clone()
                                });
                            }
                        }
                    }
                }
            }
        }
        (runs, skipped)
    }

    /// Searches the planner's space (see the module docs) for a budget of
    /// `max_gpus`: projects every configuration and returns the Pareto
    /// front and the best by each objective. `progress(done, total)` is
    /// called after each configuration.
    ///
    /// # Formula
    /// Each configuration is [`Scenario::project_point`]'s projection; the
    /// front is its non-dominated feasible set over (`total_s`,
    /// `gpu_hours`, `memory_bytes`); the best by an objective is the least
    /// value, ties broken by the other objectives (time, cost, memory).
    ///
    /// # Errors
    /// `max_gpus` outside 1 to 2^40; a space whose configurations times
    /// the network's layers exceed [`MAX_SEARCH_WORK`] (about a second of
    /// projections natively).
    pub fn search_with(
        &self,
        template: &RunSpec,
        max_gpus: u64,
        objective: Objective,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<Plan, InputError> {
        let max_gpus = checks::count("max_gpus", max_gpus, 1, MAX_GPUS)?;
        let (runs, skipped) = self.search_space(template, max_gpus);
        let total = runs.len();
        let layers = self.network().layers().len();
        let work = total as f64 * layers as f64;
        if work > MAX_SEARCH_WORK {
            return Err(InputError::new(
                "max_gpus",
                Rule::SearchTooLarge {
                    configurations: total,
                    layers,
                    work,
                    limit: MAX_SEARCH_WORK,
                },
            ));
        }
        let mut plan = Plan {
            skipped,
            objective,
            ..Plan::default()
        };
        let mut feasible = Vec::new();
        for (done, spec) in runs.iter().enumerate() {
            match self.project_point(spec) {
                Ok(point) => {
                    plan.evaluated += 1;
                    if point.feasible {
                        feasible.push(Config::of(&point));
                    }
                }
                Err(_) => plan.invalid += 1,
            }
            progress(done + 1, total);
        }
        plan.feasible = feasible.len();
        plan.front = pareto_front(&feasible);
        plan.choose_best();
        Ok(plan)
    }

    /// [`Scenario::search_with`] without progress.
    ///
    /// # Errors
    /// As [`Scenario::search_with`].
    pub fn search(&self, template: &RunSpec, max_gpus: u64, objective: Objective) -> Result<Plan, InputError> {
        self.search_with(template, max_gpus, objective, |_, _| {})
    }
}

/// The most layer projections a search makes (configurations × layers):
/// 10^7, about a second natively, a few in the browser.
pub const MAX_SEARCH_WORK: f64 = 1e7;

/// The Pareto front of `configs` (all feasible, in the space's order):
/// fastest first.
///
/// # Formula
/// Sorted by (time, cost, memory, position), a configuration is kept when
/// no kept one dominates it or equals it in all three: whatever dominates
/// it sorts before it, and is itself kept or dominated by a kept one.
pub fn pareto_front(configs: &[Config]) -> Vec<Config> {
    let mut order: Vec<usize> = (0..configs.len()).collect();
    order.sort_by(|&a, &b| configs[a].order_by(&configs[b], Objective::Time).then(a.cmp(&b)));
    let mut front: Vec<Config> = Vec::new();
    for i in order {
        let candidate = &configs[i];
        if !front
            .iter()
            .any(|kept| kept.dominates(candidate) || kept.same_values(candidate))
        {
            front.push(candidate.clone());
        }
    }
    front
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn counts_are_powers_node_multiples_and_the_budget() {
        assert_eq!(plan_gpu_counts(1, 4), vec![1]);
        assert_eq!(plan_gpu_counts(64, 4), vec![1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(
            plan_gpu_counts(100, 6),
            vec![1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 100]
        );
    }

    #[test]
    fn divisors_and_segments() {
        assert_eq!(divisors(12), vec![1, 2, 3, 4, 6, 12]);
        assert_eq!(divisors(1), vec![1]);
        assert_eq!(divisors(16), vec![1, 2, 4, 8, 16]);
        assert_eq!(segment_grid(4, Some(40)), vec![4, 8, 16, 32, 40]);
        assert_eq!(segment_grid(4, Some(32)), vec![4, 8, 16, 32]);
        assert_eq!(segment_grid(8, Some(4)), vec![8]);
        assert_eq!(segment_grid(8, None), vec![8]);
    }

    fn config(total_s: f64, gpu_hours: f64, memory_bytes: f64) -> Config {
        Config {
            strategy: Strategy::Data,
            gpus: 1,
            group_size: None,
            segments: None,
            zero: 0,
            recompute: false,
            mini_batch: 1,
            samples_per_gpu: 1.0,
            total_s,
            gpu_hours,
            memory_bytes,
            // epochs kept: the time to train orders as the epoch
            epochs: 90.0,
            time_to_train_s: 90.0 * total_s,
            // energy and money follow the GPU-hours (one power, one price)
            energy_kwh: gpu_hours,
            co2_kg: gpu_hours,
            usd: gpu_hours,
            feasible: true,
        }
    }

    #[test]
    fn the_front_holds_the_least_time_to_train_which_may_be_neither_the_fastest_epoch_nor_the_most_gpus() {
        let scenario = presets::scenario("resnet50", "dgx-a100").unwrap();
        let mut template = RunSpec::new(Strategy::Data, 1, crate::oracle::Batch::SamplesPerGpu(128.0));
        template.precision = crate::oracle::Precision::Fp16;
        template.convergence = Some(crate::oracle::model::convergence::Convergence::Curve(
            "mlperf-resnet50".into(),
        ));
        let plan = scenario.search(&template, 1024, Objective::TimeToTrain).unwrap();
        let best = plan.best.clone().unwrap();
        let least = plan
            .front
            .iter()
            .map(|c| c.time_to_train_s)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(best.time_to_train_s, least);
        assert_eq!(plan.best_by.to_train, Some(best.clone()));
        // each configuration's time to train is its epochs at its batch times its epoch
        for c in &plan.front {
            let p = scenario.project(&c.spec(&template)).unwrap();
            assert_eq!(
                (c.epochs, c.time_to_train_s),
                (p.training.epochs.epochs, p.training.time_s)
            );
        }
        assert_eq!(Objective::from_str("train").unwrap(), Objective::TimeToTrain);
    }

    #[test]
    fn a_memory_budget_keeps_the_front_within_it_as_a_search_of_it_would() {
        let scenario = presets::scenario("resnet152", "dgx-h100").unwrap();
        let template = RunSpec::new(Strategy::Data, 1, crate::oracle::Batch::SamplesPerGpu(64.0));
        let plan = scenario.search(&template, 64, Objective::Time).unwrap();
        let budget = 10e9;
        let within = plan.within_memory(budget);
        assert!(!within.front.is_empty() && within.front.len() < plan.front.len());
        assert!(within.front.iter().all(|c| c.memory_bytes <= budget));
        // every feasible configuration within the budget is on that front or dominated by one on it
        let best = within.best.clone().unwrap();
        assert!(best.memory_bytes <= budget);
        assert!(
            plan.front
                .iter()
                .filter(|c| c.memory_bytes <= budget)
                .all(|c| c.total_s >= best.total_s)
        );
        assert!(plan.within_memory(1.0).best.is_none(), "nothing fits in a byte");
        // a bound on the money to train: the front's configurations within it, the best of them
        let cheapest = plan.best_by.money.clone().unwrap();
        let bound = cheapest.usd * 1.5;
        let within = plan.within(Objective::Money, bound);
        assert!(!within.front.is_empty() && within.front.iter().all(|c| c.usd <= bound));
        assert!(within.best.as_ref().unwrap().usd <= bound);
    }

    #[test]
    fn front_keeps_the_non_dominated_and_the_first_of_equals() {
        let a = config(1.0, 4.0, 2.0);
        let b = config(2.0, 2.0, 2.0);
        let c = config(2.0, 2.0, 3.0); // dominated by b
        let mut d = config(1.0, 4.0, 2.0); // equal to a, later
        d.zero = 1;
        let e = config(3.0, 3.0, 1.0);
        let front = pareto_front(&[c.clone(), a.clone(), b.clone(), d, e.clone()]);
        assert_eq!(front, vec![a, b, e]);
    }

    #[test]
    fn the_space_counts_every_knob() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(2.0));
        let (runs, skipped) = s.search_space(&template, 4);
        assert_eq!(skipped, 0);
        // counts 1, 2, 4: serial 2; data 3·4·2; spatial, filter, channel
        // 3·2 each; pipeline: segments {1,2}, {2,4}, {4,8} → 6·2; hybrids:
        // divisors 1+2+3 = 6 groups · 4 · 2 each
        assert_eq!(runs.len(), 2 + 24 + 3 * 6 + 12 + 2 * 48);
    }

    #[test]
    fn counts_beyond_the_cluster_are_skipped_as_infeasible() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let max = s.cluster().max_gpus();
        let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(2.0));
        let plan = s.search(&template, max * 2, Objective::Time).unwrap();
        assert!(plan.skipped > 0);
        assert!(plan.front.iter().all(|c| c.gpus <= max));
        let all = s.search_space(&template, max * 2).0;
        assert!(all.iter().all(|r| r.gpus <= max));
    }

    #[test]
    fn a_budget_of_nothing_is_an_error() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(2.0));
        assert_eq!(s.search(&template, 0, Objective::Time).unwrap_err().field, "max_gpus");
        assert_eq!("fast".parse::<Objective>().unwrap_err().field, "objective");
    }
}
