//! Each term of the realistic edition (contract, section 7) against values
//! computed by hand on the toy network and cluster of `support/toy.rs`
//! (per-layer times 4, 1, 1, 2 ms; D = 1000; B = 16, so I = 63 iterations
//! and D/B = 62.5; W = 712; 2 GPUs per node at 1 GB/s and 1 µs; one
//! 0.5 GB/s NIC per node, 2 µs; a 2-node leaf of 100 ns).
#![cfg(not(target_arch = "wasm32"))]

use crate::toy;

use paradl::oracle::{
    AllreduceAlgorithm, Batch, Cluster, CommKind, Edition, HaloTransport, Network, ProfiledGpu, Projection,
    RealisticFacts, RunSpec, Scenario, Strategy, Term, presets,
};

use crate::close;

/// The toy cluster with `facts`; the values by hand are computed with
/// rings where the facts name no Allreduce algorithm (a cluster's default
/// is `best`: `a_cluster_without_an_algorithm_gets_nccls_best`).
fn cluster(facts: RealisticFacts) -> Cluster {
    let mut spec = toy::cluster().spec().clone();
    spec.realistic = RealisticFacts {
        allreduce: facts.allreduce.or(Some(AllreduceAlgorithm::Ring)),
        ..facts
    };
    Cluster::new(spec).unwrap()
}

#[test]
fn a_cluster_without_an_algorithm_gets_nccls_best() {
    // as allreduce_algorithms_by_hand: NCCL's choice, its ring with LL (25.975 µs), and a
    // cluster that names no algorithm gets it
    let mut spec = toy::cluster().spec().clone();
    spec.realistic = RealisticFacts::default();
    let p = Scenario::new(toy::network(), Cluster::new(spec.clone()).unwrap())
        .project(&RunSpec::new(Strategy::Data, 4, Batch::MiniBatch(16)))
        .unwrap();
    close(p.communication_s, 63.0 * NCCL_RING_LL_S);
    assert_eq!(terms(&p), [Term::Allreduce, Term::FrameworkMemory]);
    // the ideal edition keeps ParaDL's rings
    let ideal = Scenario::new(toy::network(), Cluster::new(spec).unwrap())
        .project(&RunSpec::new(Strategy::Data, 4, Batch::MiniBatch(16)).in_edition(Edition::Ideal))
        .unwrap();
    close(ideal.communication_s, 63.0 * 33.144e-6);
}

/// NCCL's choice for the toy's data parallelism on 4 GPUs (section 11), m = 2848 bytes, over 2
/// nodes of 2 (the toy names no GPU: Hopper's LL limits): each step latency scaled by the
/// toy's (a_in = 1 µs for NCCL's 3.4, a step between nodes 4.1 µs for NCCL's 14), busBw =
/// min(1 GB/s inside, one 0.5 GB/s NIC) = 0.5 GB/s.
/// - ring, LL: 6.6 + (6 − 2)·0.6/3.4 + 2·2.7·4.1/14 = 8.887311 µs; busBw·0.5 = 0.25 GB/s,
///   algBw = 0.25e9·4/6: 2848/1.6667e8 = 17.088 µs; 25.975311 µs, the least;
/// - ring, Simple: 1.4·(8.4 + 4·3.4/3.4 + 2·14·4.1/14) = 28.84 µs + 2848/(0.5e9·4/6) = 37.384 µs;
/// - tree, LL: 6.8 + 2·(0.6/3.4 + 5·4.1/14) = 10.081513 µs + 2848/(0.5e9·0.92/3.8·0.5·0.8)
///   = 68.9 µs; tree, Simple: 8.4 + 2·(4/3.4 + 4.1) = 18.952941 µs + 2848/(0.5e9·0.92·0.5·0.9)
///   = 32.71 µs.
const NCCL_RING_LL_S: f64 = 6.6e-6 + 4.0 * 0.6e-6 / 3.4 + 2.0 * 2.7e-6 * 4.1 / 14.0 + 2848.0 / (0.25e9 * 4.0 / 6.0);

fn project(network: Network, facts: RealisticFacts, strategy: Strategy, gpus: u64, edition: Edition) -> Projection {
    Scenario::new(network, cluster(facts))
        .project(&RunSpec::new(strategy, gpus, Batch::MiniBatch(16)).in_edition(edition))
        .unwrap()
}

fn terms(p: &Projection) -> Vec<Term> {
    p.terms.iter().map(|t| t.term).collect()
}

#[test]
fn allreduce_algorithms_by_hand() {
    // data on 4 GPUs (2 nodes under one leaf): α = max(1 µs, 2·2 µs + 100 ns) = 4.1 µs, β = 1/0.5e9;
    // m = 4·712 = 2848 bytes. Ring: 2·3·(4.1 µs + 2848·2 ns/4) = 33.144 µs.
    // Tree: 2·⌈log2 4⌉·4.1 µs + 2·2848·2 ns = 16.4 µs + 11.392 µs = 27.792 µs.
    // Hierarchical (section 9): reduce-scatter and allgather inside each 2-GPU node,
    // 2·1·(1 µs + 2848·1 ns/2) = 4.848 µs, and an Allreduce of 2848/2 bytes between the 2
    // nodes on each rail, 2 rings through one NIC: β = 1/(0.5e9/2) = 4 ns,
    // 2·1·(4.1 µs + 1424·4 ns/2) = 13.896 µs: 18.744 µs. Best: NCCL's choice (NCCL_RING_LL_S).
    let ring = project(
        toy::network(),
        RealisticFacts::default(),
        Strategy::Data,
        4,
        Edition::Realistic,
    );
    close(ring.communication_s, 63.0 * 33.144e-6);
    // memory as the framework holds it is in force on every cluster
    assert_eq!(terms(&ring), [Term::FrameworkMemory]);
    for (algorithm, per_iteration) in [
        (AllreduceAlgorithm::Ring, 33.144e-6),
        (AllreduceAlgorithm::Tree, 27.792e-6),
        (AllreduceAlgorithm::Hierarchical, 18.744e-6),
        (AllreduceAlgorithm::Best, NCCL_RING_LL_S),
    ] {
        let facts = RealisticFacts {
            allreduce: Some(algorithm),
            ..Default::default()
        };
        let p = project(toy::network(), facts, Strategy::Data, 4, Edition::Realistic);
        close(p.communication.get(CommKind::GradientAllreduce), 63.0 * per_iteration);
        // the ideal edition keeps rings whatever the cluster says
        let ideal = project(toy::network(), facts, Strategy::Data, 4, Edition::Ideal);
        close(ideal.communication_s, 63.0 * 33.144e-6);
        assert!(ideal.terms.is_empty());
    }
}

#[test]
fn nic_sharing_by_hand() {
    // two GPUs share the NIC path: β = 1/(0.5e9/2) = 4 ns a byte once the ring leaves the node.
    // Ring: 2·3·(4.1 µs + 2848·4 ns/4) = 41.688 µs; inside one node (2 GPUs) nothing changes.
    let facts = RealisticFacts {
        nic_sharing: Some(2),
        ..Default::default()
    };
    let p = project(toy::network(), facts, Strategy::Data, 4, Edition::Realistic);
    close(p.communication_s, 63.0 * 41.688e-6);
    assert_eq!(terms(&p), [Term::NicSharing, Term::FrameworkMemory]);
    let inside = project(toy::network(), facts, Strategy::Data, 2, Edition::Realistic);
    // 2 GPUs in a node: 2·1·(1 µs + 2848·1 ns/2) = 4.848 µs
    close(inside.communication_s, 63.0 * 4.848e-6);
    assert_eq!(terms(&inside), [Term::FrameworkMemory]);
}

#[test]
fn roofline_by_hand() {
    // without profiled times, t_l = max(3·flops/R, 3·δ·(|x| + |y|)/BW) with R = 1e12, BW = 1e9, δ = 4:
    // CONV1 max(3·9216/1e12 = 27.648 ns, 3·4·(128 + 256)/1e9 = 4.608 µs), RELU 3·4·512/1e9 = 6.144 µs,
    // MPOOL 3·4·(256 + 64)/1e9 = 3.84 µs, FC 3·4·(64 + 10)/1e9 = 0.888 µs: Σ = 15.48 µs a sample
    let mut spec = toy::network().spec();
    for layer in &mut spec.layers {
        layer.time_s = None;
    }
    let network = Network::new(spec).unwrap();
    let facts = RealisticFacts {
        memory_bandwidth_bytes_per_s: Some(1e9),
        ..Default::default()
    };
    let p = project(network.clone(), facts, Strategy::Serial, 1, Edition::Realistic);
    close(p.compute_s, 62.5 * 16.0 * 15.48e-6);
    assert_eq!(terms(&p), [Term::Roofline, Term::FrameworkMemory]);
    assert!(p.terms[0].detail().contains("4 of 4 layers"), "{}", p.terms[0].detail());
    // ideal: 3·(9216 + 256 + 256 + 1280)/1e12 = 33.024 ns a sample
    let ideal = project(network, facts, Strategy::Serial, 1, Edition::Ideal);
    close(ideal.compute_s, 62.5 * 16.0 * 33.024e-9);
}

#[test]
fn a_profile_scales_to_the_clusters_gpu() {
    // measured on a GPU of 2e12 FLOP/s, run on the toy's 1e12 (no roofline): every layer takes
    // 2 times its profiled time, Σt = 16 ms
    let network = toy::network().profiled_on_gpu(ProfiledGpu {
        name: "twice as fast".into(),
        flops_per_s: 2e12,
        memory_bandwidth_bytes_per_s: None,
        gemm_flops_per_s: None,
        kernels: None,
    });
    let p = project(
        network.clone(),
        RealisticFacts::default(),
        Strategy::Serial,
        1,
        Edition::Realistic,
    );
    close(p.compute_s, 62.5 * 16.0 * 16e-3);
    assert_eq!(terms(&p), [Term::ProfileScaling, Term::FrameworkMemory]);
    close(p.terms[0].value(), 2.0);
    let ideal = project(network, RealisticFacts::default(), Strategy::Serial, 1, Edition::Ideal);
    close(ideal.compute_s, 62.5 * 16.0 * 8e-3);
}

#[test]
fn resnet50s_v100_profile_on_other_gpus() {
    // 64 GPUs at 32 samples: D·T/p = 1,280,000 · 3.119502 ms / 64 = 62.39004 s on ABCI's V100
    // (section 7's roofline: the clusters without section 11's kernel facts)
    let compute = |mut spec: paradl::oracle::ClusterSpec, edition| {
        spec.realistic.kernels = None;
        // a named GPU would bring its kernel facts back
        spec.gpu = None;
        Scenario::new(presets::network("resnet50").unwrap(), Cluster::new(spec).unwrap())
            .project(&RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0)).in_edition(edition))
            .unwrap()
            .compute_s
    };
    let abci = presets::clusters::abci();
    close(compute(abci.clone(), Edition::Realistic), 62.39004);
    // a GPU twice as fast in arithmetic and memory: every roofline weight halves
    let mut twice = abci.clone();
    twice.gpu_flops_per_s *= 2.0;
    twice.realistic.memory_bandwidth_bytes_per_s = Some(900e9);
    close(compute(twice, Edition::Realistic), 62.39004 / 2.0);
    // 1,000 TFLOP/s but the same memory: only the arithmetic-bound layers speed up
    let mut fast = abci.clone();
    fast.gpu_flops_per_s = 1e15;
    let on_fast = compute(fast.clone(), Edition::Realistic);
    assert!(on_fast < 62.39004 && on_fast > 62.39004 / 128.0, "{on_fast}");
    // the ideal edition uses the profile as it is, on any GPU
    close(compute(fast, Edition::Ideal), 62.39004);
    let h100 = presets::clusters::dgx_h100();
    assert!(compute(h100.clone(), Edition::Realistic) < 62.39004 / 4.0);
    close(compute(h100, Edition::Ideal), 62.39004);
}

#[test]
fn elementwise_layers_split_with_the_spatial_split() {
    // spatial on 2 GPUs: the split set is CONV1 (8 wide) and MPOOL (4 wide); with the roofline the
    // RELU between them is split too: t_split = 4/2 + 1/2 + 1/2 + 2 = 5 ms, against 5.5 ms.
    // (The profile has no GPU, so it is this cluster's: at δ = 4 the times stay as profiled.)
    let facts = RealisticFacts {
        memory_bandwidth_bytes_per_s: Some(1e9),
        ..Default::default()
    };
    let p = project(toy::network(), facts, Strategy::Spatial, 2, Edition::Realistic);
    close(p.compute_s, 62.5 * 16.0 * 5e-3);
    assert!(terms(&p).contains(&Term::ElementwiseSplit));
    let ideal = project(toy::network(), facts, Strategy::Spatial, 2, Edition::Ideal);
    close(ideal.compute_s, 62.5 * 16.0 * 5.5e-3);
    // ParaDL's memory, 2·4·(16·426 + 712), in the ideal edition; the realistic edition holds what
    // autograd saves and the framework reserves
    assert_eq!(ideal.memory_bytes, 2.0 * 4.0 * (16.0 * 426.0 + 712.0));
    assert!(terms(&p).contains(&Term::FrameworkMemory));
    assert!(p.memory.reserved_bytes > 0.0);
}

#[test]
fn host_staged_halos_by_hand() {
    // spatial on 2 GPUs (one node): α = 1 ms, β = 2·min(2, 2)/1e9 = 4 ns a byte. B = 16, δ = 4.
    // CONV1 (K = 3): h_x = 2·1·8 = 16, h_y = 4·1·8 = 32; MPOOL (K = 2): h_x = 4·1·8 = 32, h_y = 4·1·4 = 16.
    // Each layer: 2·(1 ms + 16·16·4·4 ns) + 2·(1 ms + 16·32·4·4 ns) = 4 ms + 24.576 µs.
    let facts = RealisticFacts {
        halo_transport: Some(HaloTransport {
            latency_s: 1e-3,
            pcie_bandwidth_bytes_per_s: 1e9,
            chained: false,
        }),
        ..Default::default()
    };
    let p = project(toy::network(), facts, Strategy::Spatial, 2, Edition::Realistic);
    close(p.communication.get(CommKind::Halo), 63.0 * 2.0 * (4e-3 + 24.576e-6));
    assert_eq!(terms(&p), [Term::HaloTransport, Term::FrameworkMemory]);
    // GPU to GPU over NVLink-like 1 GB/s, 1 µs: each layer 2·(1 µs + 1.024 µs) + 2·(1 µs + 2.048 µs)
    let ideal = project(toy::network(), facts, Strategy::Spatial, 2, Edition::Ideal);
    close(ideal.communication.get(CommKind::Halo), 63.0 * 2.0 * (4e-6 + 6.144e-6));
}

#[test]
fn a_calibration_of_the_other_edition_is_refused() {
    let calibration = paradl::oracle::Factors::new(paradl::oracle::FactorsSpec::new(
        Edition::Ideal,
        paradl::oracle::Kappa::ONE,
        vec![],
    ))
    .unwrap();
    let spec = RunSpec {
        calibration: Some(calibration),
        ..RunSpec::new(Strategy::Data, 4, Batch::MiniBatch(16))
    };
    let err = toy::scenario().project(&spec).unwrap_err();
    assert_eq!(err.field, "calibration.fidelity");
    assert!(err.to_string().contains("--edition realistic"), "{err}");
}

#[test]
fn an_edited_link_carries_nccls_measured_share_of_it() {
    let preset = presets::cluster("dgx-a100").unwrap();
    let network = presets::network("resnet50").unwrap();
    let comm_at = |spec: &paradl::oracle::ClusterSpec, gpus: u64| {
        Scenario::new(network.clone(), Cluster::new(spec.clone()).unwrap())
            .project(&RunSpec::new(Strategy::Data, gpus, Batch::SamplesPerGpu(64.0)))
            .unwrap()
            .communication_s
    };
    let comm = |spec: &paradl::oracle::ClusterSpec| comm_at(spec, 64);
    let before = comm(preset.spec());
    let bus = preset.spec().realistic.nic_bus_bandwidth_bytes_per_s.unwrap();
    // a NIC 10 times slower: NCCL's bus bandwidth through it 10 times lower, the Allreduce slower
    let mut slow = preset.spec().clone();
    let nic = slow.nic.bandwidth_bytes_per_s;
    slow.set_nic_bandwidth(nic / 10.0);
    assert!((slow.realistic.nic_bus_bandwidth_bytes_per_s.unwrap() - bus / 10.0).abs() < 1e-6 * bus);
    assert!(comm(&slow) > 3.0 * before, "{} against {before}", comm(&slow));
    // the intra-node link too (8 GPUs, one node)
    let comm8 = |spec: &paradl::oracle::ClusterSpec| comm_at(spec, 8);
    let mut narrow = preset.spec().clone();
    let link = narrow.intra_node.bandwidth_bytes_per_s;
    narrow.set_intra_node_bandwidth(link / 100.0);
    assert!(comm8(&narrow) > 10.0 * comm8(preset.spec()));
}

#[test]
fn in_network_reduction_crosses_each_nic_once() {
    // across 2 nodes a reduction in the switches costs what a ring does (2α + m'β both);
    // across 4 nodes the ring pays 2(N−1) latencies and the tree 2·⌈log2 N⌉, the switches 2
    let facts = |sharp| RealisticFacts {
        allreduce: Some(AllreduceAlgorithm::Hierarchical),
        in_network_reduction: sharp,
        ..RealisticFacts::default()
    };
    let data = |sharp, gpus| project(toy::network(), facts(sharp), Strategy::Data, gpus, Edition::Realistic);
    close(data(Some(true), 4).communication_s, data(None, 4).communication_s);
    close(data(Some(true), 4).communication_s, 63.0 * 18.744e-6);
    assert!(data(Some(true), 8).communication_s < data(None, 8).communication_s);
    // the ideal edition has no switches that reduce
    let ideal = project(toy::network(), facts(Some(true)), Strategy::Data, 8, Edition::Ideal);
    let plain = project(toy::network(), facts(None), Strategy::Data, 8, Edition::Ideal);
    close(ideal.communication_s, plain.communication_s);
}
