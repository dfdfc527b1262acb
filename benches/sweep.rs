//! Criterion benchmarks on ResNet-152: a full sweep (every strategy, GPU
//! counts 1 to 4096, samples per GPU 1 to 256), a ranking, building the
//! scenario, the planner's whole space up to 4,096 GPUs, one projection
//! with and without the overlap's gradient buckets, and an explanation and
//! a placement.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use paradl::oracle::{Batch, CommKind, Edition, Objective, Optimizer, Quantity, RankBy, RunSpec, Strategy, presets};

fn full_sweep(c: &mut Criterion) {
    let scenario = match presets::scenario("resnet152", "abci") {
        Ok(s) => s,
        Err(e) => panic!("preset: {e}"),
    };
    let samples: Vec<f64> = (0..=8).map(|e| f64::from(1u32 << e)).collect();
    for edition in Edition::ALL {
        c.bench_function(
            &format!("sweep resnet152 all strategies 1..4096 GPUs x 1..256 samples ({edition})"),
            |b| {
                b.iter(|| {
                    let mut points = 0;
                    for &per_gpu in &samples {
                        let template =
                            RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(per_gpu)).in_edition(edition);
                        let sweep = scenario.sweep(&template, &Strategy::ALL, 4096);
                        points += sweep.points.len();
                    }
                    black_box(points)
                })
            },
        );
    }
    for overlap in [false, true] {
        let run = RunSpec {
            overlap,
            optimizer: Optimizer::Momentum,
            ..RunSpec::new(Strategy::Data, 256, Batch::SamplesPerGpu(32.0))
        };
        c.bench_function(
            &format!("project resnet152 data at 256 GPUs (overlap {overlap}: gradient buckets)"),
            |b| b.iter(|| black_box(scenario.project(&run).map(|p| p.total_s))),
        );
    }
    c.bench_function("rank resnet152 at 256 GPUs", |b| {
        let template = RunSpec::new(Strategy::Data, 256, Batch::SamplesPerGpu(32.0));
        b.iter(|| black_box(scenario.rank(&template, RankBy::Time).points.len()))
    });
    for (label, batch) in [
        ("weak, 32 per GPU", Batch::SamplesPerGpu(32.0)),
        ("strong, mini-batch 8192", Batch::MiniBatch(8192)),
    ] {
        let template = RunSpec {
            optimizer: Optimizer::Momentum,
            ..RunSpec::new(Strategy::Data, 1, batch)
        };
        let evaluated = scenario
            .search(&template, 4096, Objective::Time)
            .map_or(0, |plan| plan.evaluated);
        c.bench_function(
            &format!("search resnet152 on abci up to 4096 GPUs, {label} ({evaluated} configurations)"),
            |b| b.iter(|| black_box(scenario.search(&template, 4096, Objective::Time).map(|p| p.front.len()))),
        );
    }
    // what a click on a number and the diagram ask of the engine
    let hybrid = RunSpec {
        group_size: Some(4),
        ..RunSpec::new(Strategy::DataSpatial, 256, Batch::SamplesPerGpu(32.0))
    };
    c.bench_function("explain resnet152 data+spatial at 256 GPUs, gradient allreduce", |b| {
        let quantity = Quantity::Kind(CommKind::GradientAllreduce);
        b.iter(|| black_box(scenario.explain(&hybrid, quantity).map(|e| e.result)))
    });
    c.bench_function("placement resnet152 data+spatial at 256 GPUs", |b| {
        b.iter(|| black_box(scenario.placement(&hybrid).map(|p| p.collectives.len())))
    });
    c.bench_function(
        "scenario resnet152 on abci (build the preset and per-layer costs)",
        |b| b.iter(|| black_box(presets::scenario("resnet152", "abci").map(|s| s.time_per_sample_s()))),
    );
}

criterion_group!(benches, full_sweep);
criterion_main!(benches);
