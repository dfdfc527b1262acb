//! Every strategy's formulas against values computed by hand on a toy
//! network (see `common_toy.rs`: Σt = 8 ms, A = 778, W = 712, D = 1000).
//! With B = 16: I = ceil(1000/16) = 63 iterations, D/B = 62.5.
#![cfg(not(target_arch = "wasm32"))]

use crate::toy;

use paradl::oracle::{Batch, CommKind, Edition, Projection, RunSpec, Strategy, Violation};

fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-12 * want.abs().max(1e-300),
        "got {got:e}, want {want:e}"
    );
}

fn project(strategy: Strategy, gpus: u64, group: Option<u64>) -> Projection {
    let spec = RunSpec {
        group_size: group,
        ..RunSpec::new(strategy, gpus, Batch::MiniBatch(16)).in_edition(Edition::Ideal)
    };
    toy::scenario().project(&spec).unwrap()
}

#[test]
fn toy_totals() {
    let net = toy::network();
    assert_eq!(net.activation_items(), 778.0);
    assert_eq!(net.weight_items(), 712.0);
}

#[test]
fn serial() {
    let p = project(Strategy::Serial, 1, None);
    assert_eq!(p.iterations, 63);
    close(p.compute_s, 62.5 * 16.0 * 8e-3);
    assert_eq!(p.communication_s, 0.0);
    // 2·4·(16·778 + 712)
    assert_eq!(p.memory_bytes, 105_280.0);
    assert!(p.feasible);
}

#[test]
fn data() {
    let p = project(Strategy::Data, 4, None);
    close(p.compute_s, 2.0);
    // ring over 2 nodes: α = max(1 µs, 2·2 µs + 0.1 µs), β = 1/0.5e9;
    // AR(4, 2848 B) = 2·3·(4.1e-6 + 2848·2e-9/4) = 3.3144e-5 per iteration
    close(p.communication.get(CommKind::GradientAllreduce), 63.0 * 3.3144e-5);
    close(p.communication_s, 63.0 * 3.3144e-5);
    close(p.total_s, 2.0 + 63.0 * 3.3144e-5);
    close(p.gpu_hours, p.total_s * 4.0 / 3600.0);
    // 2·4·(4·778 + 712)
    assert_eq!(p.memory_bytes, 30_592.0);
    let too_many = project(Strategy::Data, 32, None);
    assert_eq!(too_many.violations, vec![Violation::Batch]);
}

#[test]
fn spatial() {
    let p = project(Strategy::Spatial, 2, None);
    // split CONV1 and MPOOL: t_split = 2 + 1 + 0.5 + 2 ms
    close(p.compute_s, 62.5 * 16.0 * 5.5e-3);
    // halo inside a node: CONV1 2·P2P(1024)+2·P2P(2048), MPOOL 2·P2P(2048)+2·P2P(1024)
    close(p.communication.get(CommKind::Halo), 63.0 * 20.288e-6);
    // gather of MPOOL's 16·64 items: 2·AG(2, 4096 B)
    close(p.communication.get(CommKind::Gather), 63.0 * 6.096e-6);
    // AR(2, 2848 B) inside a node
    close(p.communication.get(CommKind::GradientAllreduce), 63.0 * 4.848e-6);
    // 2·4·(16·(384/2 + 320/2 + 74) + 712)
    assert_eq!(p.memory_bytes, 60_224.0);
    assert!(p.feasible);
    // MPOOL's output is 4 wide: a width split into 8 keeps only CONV1
    let eight = project(Strategy::Spatial, 8, None);
    assert!(eight.feasible);
    close(eight.compute_s, 62.5 * 16.0 * (0.5e-3 + 1e-3 + 1e-3 + 2e-3));
    let sixteen = project(Strategy::Spatial, 16, None);
    assert_eq!(sixteen.violations, vec![Violation::Split]);
}

#[test]
fn filter() {
    let p = project(Strategy::Filter, 2, None);
    close(p.compute_s, 62.5 * 16.0 * 6e-3);
    // 3·(p−1)·(α + B·|y|·δ·β/p) for CONV1 = 3·(1e-6 + 16·256·4·1e-9/2)
    close(p.communication.get(CommKind::LayerCollectives), 63.0 * 27.576e-6);
    assert_eq!(p.communication.get(CommKind::GradientAllreduce), 0.0);
    // 2·4·(16·778 + 72/2 + 640)
    assert_eq!(p.memory_bytes, 104_992.0);
    assert!(p.feasible);
    assert_eq!(project(Strategy::Filter, 8, None).violations, vec![Violation::Split]);
}

#[test]
fn channel_default_split_skips_the_first_layer() {
    let p = project(Strategy::Channel, 2, None);
    assert_eq!(p.violations, vec![Violation::Split]);
    close(p.compute_s, 62.5 * 16.0 * 8e-3);
}

#[test]
fn pipeline() {
    let p = project(Strategy::Pipeline, 2, None);
    // stages [CONV1] [RELU MPOOL FC], 4 ms each; S = 2: (2+2−1)·(16/2)·4 ms
    close(p.compute_s, 62.5 * 0.096);
    // 2(p+S−2)·P2P(8·4·256 B) inside a node
    close(p.communication.get(CommKind::PipelineP2p), 63.0 * 36.768e-6);
    // max(2·4·(16·384 + 72), 2·4·(16·394 + 640))
    assert_eq!(p.memory_bytes, 55_552.0);
    assert_eq!(p.segments, Some(2));
    assert!(p.feasible);
    assert!(
        project(Strategy::Pipeline, 8, None)
            .violations
            .contains(&Violation::PipelineDepth)
    );
}

#[test]
fn data_filter() {
    let p = project(Strategy::DataFilter, 4, Some(2));
    close(p.compute_s, 62.5 * 8.0 * 6e-3);
    close(p.communication.get(CommKind::LayerCollectives), 63.0 * 15.288e-6);
    // AR(2, 4·676 B) over a ring of 4 GPUs with 2 rings per node: β = 1/0.25e9
    close(p.communication.get(CommKind::GradientAllreduce), 63.0 * 19.016e-6);
    // 2·4·(8·778 + 676)
    assert_eq!(p.memory_bytes, 55_200.0);
    assert_eq!(p.group_size, Some(2));
}

#[test]
fn data_spatial() {
    let p = project(Strategy::DataSpatial, 4, Some(2));
    close(p.compute_s, 62.5 * 8.0 * 5.5e-3);
    close(p.communication.get(CommKind::Halo), 63.0 * 14.144e-6);
    close(p.communication.get(CommKind::Gather), 63.0 * 4.048e-6);
    // AR(2) in the node + AR(2) between node leaders over a ring of 4
    close(
        p.communication.get(CommKind::GradientAllreduce),
        63.0 * (4.848e-6 + 13.896e-6),
    );
    // 2·4·(8·426 + 712)
    assert_eq!(p.memory_bytes, 32_960.0);
}

#[test]
fn memory_and_gpu_limits() {
    let mut spec = RunSpec::new(Strategy::Data, 128, Batch::MiniBatch(1 << 25));
    let p = toy::scenario().project(&spec).unwrap();
    // 2^25 samples an iteration is more than the toy dataset holds, too
    assert_eq!(
        p.violations,
        vec![Violation::Memory, Violation::Dataset, Violation::Gpus]
    );
    assert!(!p.feasible);
    assert!(p.total_s.is_finite() && p.total_s > 0.0, "numbers are still computed");
    spec.gpus = 64;
    spec.batch = Batch::MiniBatch(64);
    assert!(toy::scenario().project(&spec).unwrap().feasible);
}

#[test]
fn a_mini_batch_larger_than_the_dataset_is_a_limit() {
    // CosmoFlow has 1,584 samples: 512 GPUs at 32 samples each want 16,384 an iteration
    let scenario = paradl::oracle::presets::scenario("cosmoflow", "abci").unwrap();
    let p = scenario
        .project(&RunSpec::new(Strategy::DataSpatial, 512, Batch::SamplesPerGpu(32.0)))
        .unwrap();
    assert!(p.violations.contains(&Violation::Dataset), "{:?}", p.violations);
    assert!(p.bottlenecks.iter().any(|f| f.message.contains("dataset")));
    let fits = scenario
        .project(&RunSpec::new(Strategy::DataSpatial, 512, Batch::SamplesPerGpu(0.25)))
        .unwrap();
    assert!(!fits.violations.contains(&Violation::Dataset));
}

#[test]
fn weight_update_is_paid_once_per_iteration() {
    let spec = RunSpec {
        update_s: 0.01,
        ..RunSpec::new(Strategy::Data, 4, Batch::MiniBatch(16))
    };
    let p = toy::scenario().project(&spec).unwrap();
    close(p.compute_s, 2.0 + 63.0 * 0.01);
}
