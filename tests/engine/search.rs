//! The planner against brute force: the front is exactly the non-dominated
//! feasible set of the space, every member is reproduced by `project`, and
//! the best time is never worse than the ranking's.
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::{
    Batch, Config, Objective, Optimizer, Precision, Projection, RankBy, RunSpec, Scenario, Strategy, presets,
};

/// Every configuration of the documented space, enumerated independently of
/// the engine's generator: GPU counts by their defining test over every
/// integer up to the budget, groups by divisibility, segments by their
/// test over every integer up to the batch, no count skipped.
fn brute_force(s: &Scenario, template: &RunSpec, max_gpus: u64) -> Vec<Projection> {
    let n = s.cluster().gpus_per_node();
    let in_grid = |p: u64| p.is_power_of_two() || p == max_gpus || (p.is_multiple_of(n) && (p / n).is_power_of_two());
    let mut points = Vec::new();
    for strategy in Strategy::ALL {
        for gpus in (1..=max_gpus).filter(|&p| in_grid(p) && strategy.applies_at(p)) {
            let batch = match template.batch {
                Batch::MiniBatch(b) => b,
                Batch::SamplesPerGpu(b) => (b * gpus as f64) as u64,
            };
            let groups: Vec<Option<u64>> = if strategy.is_hybrid() {
                (1..=gpus).filter(|g| gpus.is_multiple_of(*g)).map(Some).collect()
            } else {
                vec![None]
            };
            let segments: Vec<Option<u64>> = if strategy == Strategy::Pipeline {
                let grid: Vec<u64> = (gpus..=batch.max(gpus))
                    .filter(|&seg| {
                        seg == gpus || seg == batch || (seg.is_multiple_of(gpus) && (seg / gpus).is_power_of_two())
                    })
                    .collect();
                grid.into_iter().map(Some).collect()
            } else {
                vec![None]
            };
            let zeros = if strategy.has_data_dimension() { 0..=3 } else { 0..=0 };
            for &group_size in &groups {
                for &seg in &segments {
                    for zero in zeros.clone() {
                        for recompute in [false, true] {
                            let spec = RunSpec {
                                strategy,
                                gpus,
                                group_size,
                                segments: seg,
                                zero,
                                recompute,
                                ..template.clone()
                            };
                            if let Ok(point) = s.project(&spec) {
                                points.push(point);
                            }
                        }
                    }
                }
            }
        }
    }
    points
}

fn values(p: &Projection) -> [f64; 3] {
    [p.total_s, p.gpu_hours, p.memory_bytes]
}

fn dominates(a: [f64; 3], b: [f64; 3]) -> bool {
    a.iter().zip(&b).all(|(x, y)| x <= y) && a.iter().zip(&b).any(|(x, y)| x < y)
}

fn same(c: &Config, p: &Projection) -> bool {
    c.strategy == p.strategy
        && c.gpus == p.gpus
        && c.group_size == p.group_size
        && c.segments == p.segments
        && c.zero == p.zero
        && c.recompute == p.recompute
}

fn check_against_brute_force(model: &str, cluster: &str, template: &RunSpec, max_gpus: u64) {
    let s = presets::scenario(model, cluster).unwrap();
    let plan = s.search(template, max_gpus, Objective::Time).unwrap();
    let all = brute_force(&s, template, max_gpus);
    assert_eq!(
        plan.evaluated,
        all.len(),
        "{model} on {cluster}: every configuration projected"
    );
    let feasible: Vec<&Projection> = all.iter().filter(|p| p.feasible).collect();
    assert_eq!(plan.feasible, feasible.len());
    assert!(!plan.front.is_empty(), "{model} on {cluster}: something fits");

    // the brute-force front: non-dominated, and the first of exact equals
    let mut expected: Vec<&Projection> = Vec::new();
    for (i, p) in feasible.iter().enumerate() {
        let beaten = feasible
            .iter()
            .enumerate()
            .any(|(j, q)| dominates(values(q), values(p)) || (values(q) == values(p) && j < i));
        if !beaten {
            expected.push(p);
        }
    }
    assert_eq!(plan.front.len(), expected.len(), "{model} on {cluster}: front size");
    for p in &expected {
        assert!(
            plan.front.iter().any(|c| same(c, p)),
            "{model} on {cluster}: {} at {} GPUs (group {:?}, segments {:?}, ZeRO {}, recompute {}) missing",
            p.strategy,
            p.gpus,
            p.group_size,
            p.segments,
            p.zero,
            p.recompute
        );
    }
    for c in &plan.front {
        assert!(c.feasible);
        let v = [c.total_s, c.gpu_hours, c.memory_bytes];
        assert!(
            !feasible.iter().any(|p| dominates(values(p), v)),
            "a brute-force point dominates"
        );
        // project with the configuration's fields reproduces its numbers
        let again = s.project(&c.spec(template)).unwrap();
        assert_eq!(values(&again), v);
        assert_eq!(again.feasible, c.feasible);
    }
    for pair in plan.front.windows(2) {
        assert!(pair[0].total_s <= pair[1].total_s, "fastest first");
    }
}

#[test]
fn front_equals_brute_force_weak_scaling() {
    let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(16.0));
    check_against_brute_force("alexnet", "abci", &template, 16);
}

#[test]
fn front_equals_brute_force_strong_scaling_with_practice() {
    let template = RunSpec {
        precision: Precision::Bf16,
        optimizer: Optimizer::Adam,
        overlap: true,
        ..RunSpec::new(Strategy::Data, 1, Batch::MiniBatch(48))
    };
    // 12 is no power of two: a budget beside the grid, groups 1,2,3,4,6,12
    check_against_brute_force("resnet50", "dgx-a100", &template, 12);
}

#[test]
fn front_equals_brute_force_when_memory_is_tight() {
    // VGG-16 at 64 samples per GPU: only some knobs make it fit
    let template = RunSpec {
        optimizer: Optimizer::Adam,
        ..RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(64.0))
    };
    check_against_brute_force("vgg16", "abci", &template, 8);
}

#[test]
fn best_time_is_never_worse_than_the_ranking() {
    for (model, cluster, budget) in [
        ("resnet50", "abci", 64),
        ("vgg16", "dgx-h100", 32),
        ("cosmoflow", "abci", 16),
    ] {
        let s = presets::scenario(model, cluster).unwrap();
        let samples = if model == "cosmoflow" { 0.25 } else { 32.0 };
        let template = RunSpec::new(Strategy::Data, budget, Batch::SamplesPerGpu(samples));
        let ranking = s.rank(&template, RankBy::Time);
        let plan = s.search(&template, budget, Objective::Time).unwrap();
        if let Some(best) = ranking.best() {
            let found = plan.best.as_ref().expect("the ranking found a feasible one");
            assert!(
                found.total_s <= best.total_s,
                "{model}: {} > {}",
                found.total_s,
                best.total_s
            );
        }
    }
}

#[test]
fn the_best_by_each_objective_is_on_the_front_and_least() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(32.0));
    for objective in Objective::ALL {
        let plan = s.search(&template, 64, objective).unwrap();
        let best = plan.best.clone().unwrap();
        assert!(plan.front.contains(&best));
        assert!(plan.front.iter().all(|c| c.value(objective) >= best.value(objective)));
        assert_eq!(plan.best_by.get(objective), Some(&best));
    }
}

#[test]
fn progress_counts_every_configuration() {
    let s = presets::scenario("alexnet", "abci").unwrap();
    let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(8.0));
    let mut seen = Vec::new();
    let plan = s
        .search_with(&template, 8, Objective::Cost, |done, total| seen.push((done, total)))
        .unwrap();
    let total = s.search_space(&template, 8).0.len();
    assert_eq!(seen.len(), total);
    assert_eq!(seen.last(), Some(&(total, total)));
    assert_eq!(plan.evaluated + plan.invalid, total);
}

#[test]
fn a_search_too_large_for_the_planner_is_refused_naming_the_budget() {
    use paradl::oracle::{DatasetSpec, LayerKind, LayerSpec, Network, NetworkSpec};
    // 50,000 ReLUs in a chain: a few hundred configurations make more than 10^7 layer projections
    let relu = |i: usize| {
        LayerSpec::plain(
            format!("r{i}"),
            LayerKind::Relu,
            [8, 4, 4].into(),
            [].into(),
            [8, 4, 4].into(),
        )
    };
    let mut layers = vec![LayerSpec::plain(
        "c",
        LayerKind::Conv,
        [3, 4, 4].into(),
        [3, 8, 1, 1].into(),
        [8, 4, 4].into(),
    )];
    layers.extend((0..50_000).map(relu));
    let network = Network::new(NetworkSpec {
        name: "deep".into(),
        dataset: DatasetSpec {
            name: "d".into(),
            samples: 1000,
            sample_shape: [3, 4, 4].into(),
        },
        layers,
        profiled_on: None,
        step: None,
    })
    .unwrap();
    let s = Scenario::new(network, presets::cluster("abci").unwrap());
    let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(8.0));
    let e = s.search(&template, 1024, Objective::Time).unwrap_err();
    assert_eq!(e.field, "max_gpus");
    let message = e.to_string();
    assert!(
        message.contains("50001-layer network") && message.contains("lower the budget"),
        "{message}"
    );
    // a budget whose space fits is searched
    assert!(s.search(&template, 1, Objective::Time).is_ok());
}
