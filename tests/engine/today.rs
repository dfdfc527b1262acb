//! Section 11's terms (today's machines) against values computed by hand on
//! the toy network and cluster of `support/toy.rs` (layers CONV1 2x8x8 to
//! 4x8x8, RELU, MPOOL to 4x4x4, FC to 10; D = 1000, B = 16 so D/B = 62.5
//! and I = 63; W = 712; 2 GPUs a node at 1 GB/s and 1 µs, one 0.5 GB/s NIC
//! a node with 2 µs, a 2-node leaf of 100 ns), and the presets against the
//! facts they claim.
#![cfg(not(target_arch = "wasm32"))]

use crate::toy;

use paradl::oracle::{
    Batch, Cluster, CommKind, Edition, FrameworkMemory, GemmRates, KernelFacts, Network, Precision, PrecisionRates,
    Projection, RealisticFacts, RunSpec, Scenario, Strategy, Term, presets,
};

use crate::close;

fn cluster(facts: RealisticFacts) -> Cluster {
    let mut spec = toy::cluster().spec().clone();
    spec.realistic = facts;
    Cluster::new(spec).unwrap()
}

/// The toy network without its profiled times (compute from the kernels).
fn unprofiled() -> Network {
    let mut spec = toy::network().spec();
    for layer in &mut spec.layers {
        layer.time_s = None;
    }
    Network::new(spec).unwrap()
}

fn project(network: Network, facts: RealisticFacts, spec: RunSpec) -> Projection {
    Scenario::new(network, cluster(facts)).project(&spec).unwrap()
}

fn kernels(overhead_s: f64) -> RealisticFacts {
    RealisticFacts {
        memory_bandwidth_bytes_per_s: Some(1e9),
        kernels: Some(KernelFacts {
            sms: 2,
            gemm_flops_per_s: GemmRates {
                fp32: 1e12,
                by_precision: PrecisionRates {
                    fp32: None,
                    tf32: None,
                    fp16: Some(4e12),
                    bf16: None,
                },
            },
            kernel_overhead_s: overhead_s,
            stream_bytes_per_s: None,
        }),
        ..Default::default()
    }
}

#[test]
fn memory_as_autograd_keeps_it_by_hand() {
    // Saved per sample in FP32: CONV1 its input 128·4 = 512 B; RELU its output 256·4 = 1024 B;
    // MPOOL reads the RELU's saved output, so only its int64 indices 64·8 = 512 B; FC its input
    // (the pool's output, which nobody saved) 64·4 = 256 B: a = 2304 B a sample.
    let facts = RealisticFacts {
        framework_memory: Some(FrameworkMemory {
            workspace_bytes: 1000.0,
        }),
        ..Default::default()
    };
    let p = project(
        toy::network(),
        facts,
        RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(16)).in_edition(Edition::Realistic),
    );
    close(p.memory.activations_bytes, 16.0 * 2304.0);
    // the largest layer's input and output: RELU's 256 + 256 items, 4 bytes, 16 samples
    close(p.memory.transient_bytes, 4.0 * 16.0 * 512.0);
    close(p.memory.workspace_bytes, 1000.0);
    // at 16 samples every tensor is a multiple of 512 bytes; at 3 the FC's 768 B become 1024
    assert_eq!(p.memory.allocator_bytes, 0.0);
    let three = project(
        toy::network(),
        facts,
        RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(3)).in_edition(Edition::Realistic),
    );
    close(three.memory.allocator_bytes, 256.0);
    assert!(
        p.terms
            .iter()
            .any(|t| t.term == Term::FrameworkMemory && t.value() == 2304.0)
    );
    // mixed precision: activations in 2 bytes, the indices still 8: 256 + 512 + 512 + 128
    let bf16 = project(
        toy::network(),
        facts,
        RunSpec {
            precision: Precision::Bf16,
            ..RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(16))
        },
    );
    close(bf16.memory.activations_bytes, 16.0 * 1408.0);
    // the ideal edition keeps ParaDL's 2δ·B·A (A = 778)
    let ideal = project(
        toy::network(),
        facts,
        RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(16)).in_edition(Edition::Ideal),
    );
    close(ideal.memory.activations_bytes, 2.0 * 4.0 * 16.0 * 778.0);
    assert_eq!(ideal.memory.transient_bytes + ideal.memory.workspace_bytes, 0.0);
}

#[test]
fn kernels_by_hand() {
    // 16 samples on a GPU of 2 SMs, 1e12 FLOP/s GEMMs in FP32, 1e9 B/s, 1 µs a kernel; 128x128 tiles.
    // CONV1, the first layer (no input gradient): forward M = 16·64 = 1024, N = 4, 147,456 FLOPs:
    //   u = 4/128 (8 row tiles fill both SMs), 4.72 µs of arithmetic against
    //   4·(16·384 + 72) = 24,864 bytes: 24.864 µs; the weight gradient the same bytes: 24.864 µs.
    // RELU: forward 4·16·512 B = 32.768 µs, backward twice: 98.304 µs.
    // MPOOL: forward 4·16·320 B = 20.48 µs, backward 40.96: 61.44 µs.
    // FC: 3 GEMMs of 20,480 FLOPs, each bound by its 4·(16·74 + 640) = 7,296 bytes: 21.888 µs.
    // A step: 231.36 µs; an epoch's compute D/B·c = 62.5 · 231.36 µs.
    let serial = RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(16)).in_edition(Edition::Realistic);
    let p = project(unprofiled(), kernels(1e-6), serial.clone());
    close(p.compute_s, 62.5 * 231.36e-6);
    let applied = p.terms.iter().find(|t| t.term == Term::Kernels).unwrap();
    assert_eq!(applied.value(), 1e12);
    assert!(applied.detail().contains("9 kernels"), "{}", applied.detail());
    // 100 µs a kernel binds every one of the 9 kernels: 900 µs a step
    let launch_bound = project(unprofiled(), kernels(100e-6), serial);
    close(launch_bound.compute_s, 62.5 * 900e-6);
}

#[test]
fn the_time_per_sample_falls_with_the_batch_and_a_profile_holds_at_its_own_gpu() {
    // ResNet-50's profile (3.119502 ms a sample on ABCI's V100) on ABCI: as the batch grows the
    // kernels fill the GPU and the per-kernel cost vanishes, and the profile is reproduced
    let s = presets::scenario("resnet50", "abci").unwrap();
    let per_sample = |b: u64| {
        let p = s
            .project(&RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(b)))
            .unwrap();
        p.compute_s / s.network().dataset_samples() as f64
    };
    let large = per_sample(1 << 16);
    assert!((large / 3.119502e-3 - 1.0).abs() < 0.01, "{large}");
    let mut previous = f64::INFINITY;
    for b in [1, 2, 4, 8, 16, 32, 64, 128, 256] {
        let t = per_sample(b);
        assert!(t <= previous && t >= large, "{b}: {t}");
        previous = t;
    }
    // one sample a GPU is much slower than the profile's full GPU
    assert!(per_sample(1) > 1.2 * 3.119502e-3);
}

#[test]
fn a_split_makes_smaller_kernels() {
    // ResNet-152 on a DGX A100 at 4 samples a GPU: splitting the filters over 8 GPUs divides
    // the arithmetic by 8 but each GPU's kernels are narrower, so compute falls by less than 8
    let s = presets::scenario("resnet152", "dgx-a100").unwrap();
    let compute = |strategy, gpus| {
        s.project(&RunSpec::new(strategy, gpus, Batch::MiniBatch(4)))
            .unwrap()
            .compute_s
    };
    let one = compute(Strategy::Serial, 1);
    let filter = compute(Strategy::Filter, 8);
    assert!(filter > one / 8.0 * 1.5 && filter < one, "{one} {filter}");
    // in the ideal edition a split divides the split layers' time exactly
    let ideal = |strategy, gpus| {
        s.project(&RunSpec::new(strategy, gpus, Batch::MiniBatch(4)).in_edition(Edition::Ideal))
            .unwrap()
            .compute_s
    };
    assert!(ideal(Strategy::Filter, 8) < compute(Strategy::Filter, 8));
}

#[test]
fn bus_bandwidth_by_hand() {
    // NCCL at 0.5 GB/s inside a node, 0.25 GB/s through a NIC; m = 4·712 = 2848 bytes.
    // 2 GPUs (one node): 2·1·(1 µs + 2848·2 ns/2) = 7.696 µs an iteration.
    // 4 GPUs (two nodes): α = 4.1 µs, β = 1/0.25e9: 2·3·(4.1 µs + 2848·4 ns/4) = 41.688 µs.
    let facts = RealisticFacts {
        intra_node_bus_bandwidth_bytes_per_s: Some(0.5e9),
        nic_bus_bandwidth_bytes_per_s: Some(0.25e9),
        // the values by hand are rings' (a cluster's default is NCCL's best)
        allreduce: Some(paradl::oracle::AllreduceAlgorithm::Ring),
        ..Default::default()
    };
    let data = |gpus| RunSpec::new(Strategy::Data, gpus, Batch::MiniBatch(16)).in_edition(Edition::Realistic);
    let two = project(toy::network(), facts, data(2));
    close(two.communication.get(CommKind::GradientAllreduce), 63.0 * 7.696e-6);
    let four = project(toy::network(), facts, data(4));
    close(four.communication.get(CommKind::GradientAllreduce), 63.0 * 41.688e-6);
    let applied = four.terms.iter().find(|t| t.term == Term::BusBandwidth).unwrap();
    assert!(applied.detail().contains("inside a node") && applied.detail().contains("through each NIC"));
    // one GPU exchanges nothing: the term does not apply
    let one = project(
        toy::network(),
        facts,
        RunSpec::new(Strategy::Serial, 1, Batch::MiniBatch(16)),
    );
    assert!(one.terms.iter().all(|t| t.term != Term::BusBandwidth));
    // the ideal edition keeps the links
    let ideal = project(toy::network(), facts, data(2).in_edition(Edition::Ideal));
    close(ideal.communication_s, 63.0 * 2.0 * (1e-6 + 2848.0 * 1e-9 / 2.0));
}

#[test]
fn cosmoflow_256_reads_its_relu_corrected() {
    let net = presets::network("cosmoflow-256").unwrap();
    let relus: Vec<_> = net.layers().iter().filter(|l| l.name() == "RELU").collect();
    assert_eq!(relus[1].x(), relus[1].y());
    assert!(
        presets::network_preset("cosmoflow-256")
            .unwrap()
            .origin
            .contains("typo")
    );
}

#[test]
fn the_nvidia_presets_ring_steps_are_nccls() {
    use paradl::oracle::cost::collectives::ring;
    use paradl::oracle::presets::clusters::{NCCL_NET_STEP_S, NCCL_NVLINK_STEP_S};
    // NCCL's Simple-protocol ring steps (tuning.cc): 3.4 µs over NVLink, 14 µs between two
    // nodes of a leaf; ABCI and the MI300X nodes keep ABCI's measured 9 µs and 40.35 µs
    for key in ["dgx-a100", "dgx-h100", "dgx-h200", "dgx-b200"] {
        let c = presets::cluster(key).unwrap();
        close(ring(&c, 8, 1).alpha_s, NCCL_NVLINK_STEP_S);
        close(ring(&c, 16, 1).alpha_s, NCCL_NET_STEP_S);
    }
    close(ring(&presets::cluster("dgx1-v100-16gb").unwrap(), 8, 1).alpha_s, 3.4e-6);
    let mi300x = presets::cluster("mi300x").unwrap();
    close(ring(&mi300x, 8, 1).alpha_s, 9e-6);
    close(ring(&mi300x, 16, 1).alpha_s, 2.0 * 20.11e-6 + 130e-9);
}
