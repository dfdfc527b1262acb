//! Property tests of the model's invariants and of robustness: no input
//! makes the engine panic or return NaN or infinity.
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::{
    AllreduceAlgorithm, AttentionForm, Batch, Cluster, ClusterSpec, DatasetSpec, Edition, FrameworkMemory, GemmRates,
    HaloTransport, KernelFacts, LayerKind, LayerSpec, LinkSpec, MemoryFormat, Network, NetworkSpec, Optimizer,
    Precision, PrecisionRates, ProfiledGpu, Projection, RankBy, RealisticFacts, RunSpec, Scenario, Shape,
    Strategy as Par, SwitchLevelSpec, Term, Violation, formats, presets,
};
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;

/// Counts of the robustness property's cases that got past the checked
/// constructors, so that a generator which only makes invalid input fails.
static VALID_SCENARIOS: AtomicUsize = AtomicUsize::new(0);
static PROJECTED: AtomicUsize = AtomicUsize::new(0);

const MODELS: [&str; 7] = [
    "alexnet",
    "vgg16",
    "resnet18",
    "resnet50",
    "resnet152",
    "cosmoflow",
    "cosmoflow-256",
];
const CLUSTERS: [&str; 6] = ["abci", "dgx-a100", "dgx-h100", "dgx-h200", "dgx-b200", "mi300x"];

fn scenario(model: &str, cluster: &str) -> Scenario {
    presets::scenario(model, cluster).unwrap()
}

fn strategy() -> impl Strategy<Value = Par> {
    prop::sample::select(Par::ALL.to_vec())
}

fn gpus() -> impl Strategy<Value = u64> {
    (0u32..=12).prop_map(|e| 1u64 << e)
}

fn samples_per_gpu() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![0.25, 0.5, 1.0, 2.0, 8.0, 32.0, 64.0, 256.0])
}

fn with_bandwidth(cluster: &Cluster, intra: f64, nic: f64) -> Cluster {
    let mut spec = cluster.spec().clone();
    spec.intra_node.bandwidth_bytes_per_s *= intra;
    spec.nic.bandwidth_bytes_per_s *= nic;
    Cluster::new(spec).unwrap()
}

/// Every number of a projection, serialised: NaN and infinity become null.
fn assert_finite(p: &Projection) {
    let json = serde_json::to_value(p).unwrap();
    let text = json.to_string();
    assert!(!text.contains("null"), "non-finite number in {text}");
}

/// `cases` cases from a fixed seed (the counts checked after each property
/// stay the same from run to run), nothing written to disk.
fn fixed(cases: u32, seed: u64) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        ..ProptestConfig::default()
    }
}

/// Cases of each property below that got past `if let Ok` and checked
/// something: a generator that only makes invalid runs fails its wrapper.
static COMPARED: [AtomicUsize; 14] = [const { AtomicUsize::new(0) }; 14];

proptest! {
    #![proptest_config(fixed(96, 1))]

    fn more_bandwidth_never_increases_communication_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(),
        gpus in gpus(),
        b in samples_per_gpu(),
        intra in 1.0f64..50.0,
        nic in 1.0f64..50.0,
    ) {
        let slow = scenario(model, cluster);
        let fast = Scenario::new(slow.network().clone(), with_bandwidth(slow.cluster(), intra, nic));
        let spec = RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b));
        if let (Ok(a), Ok(c)) = (slow.project(&spec), fast.project(&spec)) {
            COMPARED[0].fetch_add(1, Ordering::Relaxed);
            prop_assert!(c.communication_s <= a.communication_s * (1.0 + 1e-12),
                "{strategy} p={gpus}: {} > {}", c.communication_s, a.communication_s);
            prop_assert_eq!(a.compute_s, c.compute_s);
        }
    }

    fn memory_grows_with_the_batch_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(),
        gpus in gpus(),
        b in samples_per_gpu(),
        ideal in any::<bool>(),
    ) {
        let s = scenario(model, cluster);
        let edition = if ideal { Edition::Ideal } else { Edition::Realistic };
        let at = |b: f64| s.project(&RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b)).in_edition(edition));
        if let (Ok(small), Ok(large)) = (at(b), at(2.0 * b)) {
            COMPARED[9].fetch_add(1, Ordering::Relaxed);
            prop_assert!(large.memory_bytes >= small.memory_bytes, "{strategy} p={gpus} b={b}");
            prop_assert!(large.memory.activations_bytes >= small.memory.activations_bytes);
        }
    }

    fn time_per_sample_never_grows_with_the_batch_per_gpu_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(),
        gpus in gpus(),
        b in samples_per_gpu(),
        precision in prop::sample::select(vec![Precision::Fp32, Precision::Tf32, Precision::Bf16]),
    ) {
        // an epoch's compute is D times the time per sample: more samples per GPU never
        // make it longer, and never shorter than at a batch that fills the GPU (section 11's
        // tile utilization is at most 1)
        let s = scenario(model, cluster);
        let at = |b: f64| s.project(&RunSpec { precision, ..RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b)) });
        if let (Ok(small), Ok(large), Ok(full)) = (at(b), at(2.0 * b), at(1024.0)) {
            COMPARED[10].fetch_add(1, Ordering::Relaxed);
            prop_assert!(large.compute_s <= small.compute_s * (1.0 + 1e-12), "{strategy} p={gpus} b={b}");
            prop_assert!(small.compute_s >= full.compute_s * (1.0 - 1e-12));
        }
    }

    fn no_projection_beats_the_gpus_peak_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        b in samples_per_gpu(),
        precision in prop::sample::select(Precision::ALL.to_vec()),
        format in prop::sample::select(MemoryFormat::ALL.to_vec()),
    ) {
        // an epoch on one GPU holds 3·F FLOPs a sample (forward, and backward twice): never done
        // faster than the GPU's highest dense peak, from its datasheet (devices.rs), allows
        let s = scenario(model, cluster);
        let device = s.cluster().device().expect("every preset names its GPU");
        let peak = device.peaks.fp32.max(device.peaks.tf32).max(device.peaks.fp16).max(device.peaks.bf16);
        let spec = RunSpec { precision, memory_format: format, ..RunSpec::new(Par::Serial, 1, Batch::SamplesPerGpu(b)) };
        if let Ok(p) = s.project(&spec) {
            COMPARED[13].fetch_add(1, Ordering::Relaxed);
            let samples = s.network().dataset().samples as f64;
            let least = samples * 3.0 * s.network().forward_flops() / peak;
            prop_assert!(p.compute_s >= least * (1.0 - 1e-9), "{model} on {cluster} {precision} b={b}: {} < {least}", p.compute_s);
        }
    }

    fn the_ideal_edition_ignores_section_11_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(),
        gpus in gpus(),
        b in samples_per_gpu(),
    ) {
        // the ideal edition is ParaDL's: a cluster without section 11's facts projects it identically
        let with = scenario(model, cluster);
        let mut spec = with.cluster().spec().clone();
        spec.realistic.kernels = None;
        spec.realistic.framework_memory = None;
        spec.realistic.intra_node_bus_bandwidth_bytes_per_s = None;
        spec.realistic.nic_bus_bandwidth_bytes_per_s = None;
        let without = Scenario::new(with.network().clone(), Cluster::new(spec).unwrap());
        let run = RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b)).in_edition(Edition::Ideal);
        if let (Ok(a), Ok(c)) = (with.project(&run), without.project(&run)) {
            COMPARED[11].fetch_add(1, Ordering::Relaxed);
            prop_assert_eq!(a, c);
        }
    }

    fn data_parallel_memory_does_not_depend_on_gpus_case(
        model in prop::sample::select(MODELS.to_vec()),
        p1 in gpus(),
        p2 in gpus(),
        b in samples_per_gpu(),
    ) {
        let s = scenario(model, "abci");
        let one = s.project(&RunSpec::new(Par::Data, p1, Batch::SamplesPerGpu(b)));
        let two = s.project(&RunSpec::new(Par::Data, p2, Batch::SamplesPerGpu(b)));
        if let (Ok(one), Ok(two)) = (one, two) {
            COMPARED[1].fetch_add(1, Ordering::Relaxed);
            prop_assert!((one.memory_bytes - two.memory_bytes).abs() <= 1e-12 * one.memory_bytes);
        }
    }

    fn data_parallel_compute_scales_as_one_over_p_case(
        model in prop::sample::select(MODELS.to_vec()),
        p in gpus(),
        b in samples_per_gpu(),
        strong in any::<bool>(),
    ) {
        let s = scenario(model, "dgx-a100");
        let batch = if strong { Batch::MiniBatch(4096) } else { Batch::SamplesPerGpu(b) };
        // the ideal edition: D·Σt over p, exactly
        let ideal = RunSpec::new(Par::Data, p, batch).in_edition(Edition::Ideal);
        if let Ok(proj) = s.project(&ideal) {
            COMPARED[2].fetch_add(1, Ordering::Relaxed);
            let sum_t = s.table_for(&paradl::oracle::TimeBasis::edition(Edition::Ideal)).time_per_sample_s();
            let whole = s.network().dataset_samples() as f64 * sum_t;
            prop_assert!((proj.compute_s * p as f64 - whole).abs() <= 1e-9 * whole);
        }
        // the realistic edition's kernels run at the batch a GPU holds: at a fixed batch per
        // GPU (weak scaling) p GPUs take 1/p of one GPU's epoch at that batch, exactly
        if let (false, Ok(proj), Ok(one)) = (
            strong || b < 1.0,
            s.project(&RunSpec::new(Par::Data, p, batch)),
            s.project(&RunSpec::new(Par::Serial, 1, batch)),
        ) {
            prop_assert!((proj.compute_s * p as f64 - one.compute_s).abs() <= 1e-9 * one.compute_s);
        }
    }

    fn violations_are_exactly_the_broken_limits_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(),
        gpus in (0u32..=13).prop_map(|e| 1u64 << e),
        b in samples_per_gpu(),
    ) {
        let s = scenario(model, cluster);
        if let Ok(p) = s.project(&RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b))) {
            COMPARED[3].fetch_add(1, Ordering::Relaxed);
            // each limit recomputed here from the projection's own numbers
            let memory = p.memory_bytes > s.cluster().gpu_memory_bytes();
            let too_many = gpus > s.cluster().max_gpus();
            let dataset = p.mini_batch > s.network().dataset_samples();
            prop_assert_eq!(p.violations.contains(&Violation::Memory), memory);
            prop_assert_eq!(p.violations.contains(&Violation::Gpus), too_many);
            prop_assert_eq!(p.violations.contains(&Violation::Dataset), dataset);
            if memory || too_many || dataset {
                prop_assert!(!p.feasible);
            }
            if strategy == Par::Data {
                prop_assert_eq!(p.violations.contains(&Violation::Batch), p.mini_batch < gpus);
                // data parallelism has no other limit: feasible exactly when none of these is broken
                prop_assert_eq!(p.feasible, !(memory || too_many || dataset || p.mini_batch < gpus));
            }
            if strategy == Par::Pipeline {
                prop_assert_eq!(
                    p.violations.contains(&Violation::PipelineDepth),
                    gpus > s.network().layers().len() as u64
                );
            }
            if !p.feasible {
                prop_assert!(!p.bottlenecks.is_empty(), "an infeasible run explains itself");
            }
            assert_finite(&p);
        }
    }
}

/// A preset network and cluster stripped of every section 7 fact (the
/// network's profile GPU, the cluster's realistic facts).
fn without_facts(model: &str, cluster: &str) -> Scenario {
    let mut network = presets::network(model).unwrap().spec();
    network.profiled_on = None;
    let mut cluster = presets::cluster(cluster).unwrap().spec().clone();
    // ParaDL's rings, named (a cluster's default is NCCL's best of ring and tree)
    cluster.realistic = RealisticFacts {
        allreduce: Some(paradl::oracle::AllreduceAlgorithm::Ring),
        ..RealisticFacts::default()
    };
    // a named GPU would bring its kernel facts
    cluster.gpu = None;
    Scenario::new(Network::new(network).unwrap(), Cluster::new(cluster).unwrap())
}

proptest! {
    #![proptest_config(fixed(96, 7))]

    fn without_section_7_facts_both_editions_agree_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(),
        gpus in gpus(),
        b in samples_per_gpu(),
        bytes in prop::sample::select(vec![2.0, 4.0]),
    ) {
        let s = without_facts(model, cluster);
        let spec = RunSpec { bytes_per_item: bytes, ..RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b)) };
        let (real, ideal) = (s.project(&spec), s.project(&spec.clone().in_edition(Edition::Ideal)));
        if let (Ok(real), Ok(ideal)) = (real, ideal) {
            COMPARED[4].fetch_add(1, Ordering::Relaxed);
            // times agree; memory is the framework's in the realistic edition on every cluster
            prop_assert_eq!((real.compute_s, real.communication_s), (ideal.compute_s, ideal.communication_s));
            prop_assert!(real.terms.iter().all(|t| t.term == Term::FrameworkMemory));
        }
    }

    fn nic_sharing_and_slower_halos_never_speed_up_case(
        model in prop::sample::select(MODELS.to_vec()),
        strategy in strategy(),
        gpus in gpus(),
        b in samples_per_gpu(),
        sharing in 1u64..8,
        more in 1u64..8,
        slower in 1.0f64..100.0,
    ) {
        let base = scenario(model, "abci");
        let mut spec = base.cluster().spec().clone();
        spec.realistic.nic_sharing = Some(sharing);
        let less = Scenario::new(base.network().clone(), Cluster::new(spec.clone()).unwrap());
        spec.realistic.nic_sharing = Some(sharing + more);
        if let Some(h) = spec.realistic.halo_transport.as_mut() {
            h.latency_s *= slower;
            h.pcie_bandwidth_bytes_per_s /= slower;
        }
        let worse = Scenario::new(base.network().clone(), Cluster::new(spec).unwrap());
        let run = RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b));
        if let (Ok(a), Ok(c)) = (less.project(&run), worse.project(&run)) {
            COMPARED[5].fetch_add(1, Ordering::Relaxed);
            prop_assert!(c.total_s >= a.total_s * (1.0 - 1e-12), "{strategy} p={gpus}: {} < {}", c.total_s, a.total_s);
            prop_assert_eq!(a.compute_s, c.compute_s);
        }
    }
}

/// A run with every option of section 9 drawn at random.
fn practice(strategy: Par, gpus: u64, b: f64, precision: Precision, optimizer: Optimizer) -> RunSpec {
    RunSpec {
        precision,
        optimizer,
        ..RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(b))
    }
}

fn precision() -> impl Strategy<Value = Precision> {
    prop::sample::select(Precision::ALL.to_vec())
}

fn optimizer() -> impl Strategy<Value = Optimizer> {
    prop::sample::select(Optimizer::ALL.to_vec())
}

proptest! {
    #![proptest_config(fixed(96, 9))]

    fn a_higher_zero_stage_never_needs_more_memory_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in prop::sample::select(vec![Par::Data, Par::DataFilter, Par::DataSpatial]),
        gpus in gpus(), b in samples_per_gpu(), precision in precision(), optimizer in optimizer(),
        stage in 0u8..3,
    ) {
        let s = scenario(model, cluster);
        let run = practice(strategy, gpus, b, precision, optimizer);
        let lower = s.project(&RunSpec { zero: stage, ..run.clone() });
        let higher = s.project(&RunSpec { zero: stage + 1, ..run });
        if let (Ok(lower), Ok(higher)) = (lower, higher) {
            COMPARED[6].fetch_add(1, Ordering::Relaxed);
            prop_assert!(higher.memory_bytes <= lower.memory_bytes, "{} > {}", higher.memory_bytes, lower.memory_bytes);
        }
    }

    fn recompute_never_needs_more_activation_memory_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(), gpus in gpus(), b in samples_per_gpu(), precision in precision(),
    ) {
        let s = scenario(model, cluster);
        let run = practice(strategy, gpus, b, precision, Optimizer::None);
        let kept = s.project(&run);
        let recomputed = s.project(&RunSpec { recompute: true, ..run });
        if let (Ok(kept), Ok(recomputed)) = (kept, recomputed) {
            COMPARED[7].fetch_add(1, Ordering::Relaxed);
            prop_assert!(recomputed.memory.activations_bytes <= kept.memory.activations_bytes);
            prop_assert!(recomputed.compute_s >= kept.compute_s);
        }
    }

    fn overlap_never_makes_a_step_slower_case(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        strategy in strategy(), gpus in gpus(), b in samples_per_gpu(), precision in precision(),
        zero in 0u8..4, bucket in prop_oneof![Just(25.0), 0.001f64..100.0],
    ) {
        let s = scenario(model, cluster);
        let run = RunSpec {
            zero: if strategy.has_data_dimension() { zero } else { 0 },
            bucket_mib: bucket,
            ..practice(strategy, gpus, b, precision, Optimizer::Adam)
        };
        let plain = s.project(&run);
        let overlapped = s.project(&RunSpec { overlap: true, ..run });
        if let (Ok(plain), Ok(overlapped)) = (plain, overlapped) {
            COMPARED[8].fetch_add(1, Ordering::Relaxed);
            prop_assert!(overlapped.total_s <= plain.total_s * (1.0 + 1e-12));
            prop_assert!(overlapped.hidden_communication_s >= 0.0);
            prop_assert!((overlapped.communication_s + overlapped.hidden_communication_s - plain.communication_s).abs() <= 1e-9 * plain.communication_s.max(1e-300));
        }
    }
}

#[test]
fn a_higher_zero_stage_never_needs_more_memory() {
    a_higher_zero_stage_never_needs_more_memory_case();
    assert!(COMPARED[6].load(Ordering::Relaxed) >= 30);
}

#[test]
fn recompute_never_needs_more_activation_memory() {
    recompute_never_needs_more_activation_memory_case();
    assert!(COMPARED[7].load(Ordering::Relaxed) >= 30);
}

#[test]
fn overlap_never_makes_a_step_slower() {
    overlap_never_makes_a_step_slower_case();
    assert!(COMPARED[8].load(Ordering::Relaxed) >= 30);
}

#[test]
fn without_section_7_facts_both_editions_agree() {
    without_section_7_facts_both_editions_agree_case();
    assert!(COMPARED[4].load(Ordering::Relaxed) >= 30);
}

#[test]
fn nic_sharing_and_slower_halos_never_speed_up() {
    nic_sharing_and_slower_halos_never_speed_up_case();
    assert!(COMPARED[5].load(Ordering::Relaxed) >= 30);
}

/// Runs each property of the block above and checks that enough of its
/// cases projected to compare something.
#[test]
fn more_bandwidth_never_increases_communication() {
    more_bandwidth_never_increases_communication_case();
    assert!(COMPARED[0].load(Ordering::Relaxed) >= 30);
}

#[test]
fn data_parallel_memory_does_not_depend_on_gpus() {
    data_parallel_memory_does_not_depend_on_gpus_case();
    assert!(COMPARED[1].load(Ordering::Relaxed) >= 30);
}

#[test]
fn memory_grows_with_the_batch() {
    memory_grows_with_the_batch_case();
    assert!(COMPARED[9].load(Ordering::Relaxed) >= 30);
}

#[test]
fn time_per_sample_never_grows_with_the_batch_per_gpu() {
    time_per_sample_never_grows_with_the_batch_per_gpu_case();
    assert!(COMPARED[10].load(Ordering::Relaxed) >= 30);
}

#[test]
fn no_projection_beats_the_gpus_peak() {
    no_projection_beats_the_gpus_peak_case();
    assert!(COMPARED[13].load(Ordering::Relaxed) >= 30);
}

#[test]
fn the_ideal_edition_ignores_section_11() {
    the_ideal_edition_ignores_section_11_case();
    assert!(COMPARED[11].load(Ordering::Relaxed) >= 30);
}

#[test]
fn data_parallel_compute_scales_as_one_over_p() {
    data_parallel_compute_scales_as_one_over_p_case();
    assert!(COMPARED[2].load(Ordering::Relaxed) >= 30);
}

#[test]
fn violations_are_exactly_the_broken_limits() {
    violations_are_exactly_the_broken_limits_case();
    assert!(COMPARED[3].load(Ordering::Relaxed) >= 30);
}

// ---- robustness: arbitrary and hostile inputs -------------------------------
//
// The generators build mostly valid inputs spanning extreme (but legal)
// magnitudes, then corrupt one field in a quarter of the cases with a
// hostile value, so that both the checked constructors and the formulas
// on extreme values are exercised.

fn log_uniform(low: f64, high: f64) -> impl Strategy<Value = f64> {
    (low.log10()..high.log10()).prop_map(|e| 10f64.powf(e))
}

fn log_count(high: u64) -> impl Strategy<Value = u64> {
    (0.0..(high as f64).log2()).prop_map(move |e| (2f64.powf(e) as u64).clamp(1, high))
}

fn hostile() -> impl Strategy<Value = f64> {
    prop::sample::select(vec![
        0.0,
        -1.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        1e300,
        1e-300,
        0.3,
    ])
}

/// `None`, or a field index and a hostile value to put there.
fn corruption() -> impl Strategy<Value = Option<(usize, f64)>> {
    prop_oneof![3 => Just(None), 1 => (0usize..12, hostile()).prop_map(Some)]
}

fn as_count(value: f64) -> u64 {
    if value.is_nan() { 0 } else { value as u64 }
}

fn layer(rank: usize) -> impl Strategy<Value = LayerSpec> {
    let kind = prop::sample::select(LayerKind::ALL.to_vec());
    (kind, log_count(4096), log_count(4096), 1u64..=11, log_count(1024)).prop_map(move |(kind, c, f, k, width)| {
        let spatial = vec![width; rank - 1];
        let mut x = vec![c];
        x.extend(&spatial);
        let mut y = vec![if kind.has_weights() { f } else { c }];
        y.extend(&spatial);
        let w = match kind {
            LayerKind::Conv | LayerKind::Fc | LayerKind::Deconv => [vec![c, f], vec![k; rank - 1]].concat(),
            LayerKind::Maxpool | LayerKind::Avgpool => [vec![0, 0], vec![k; rank - 1]].concat(),
            _ => Vec::new(),
        };
        LayerSpec {
            name: kind.to_string(),
            kind,
            x: Shape::new(x),
            w: Shape::new(w),
            y: Shape::new(y),
            time_s: None,
            time2_s: None,
            groups: if kind == LayerKind::Conv && c == f { c } else { 1 },
            bias: kind.has_weights() && f % 2 == 0,
            reads: None,
            function: None,
            shares: None,
        }
    })
}

fn network_spec() -> impl Strategy<Value = NetworkSpec> {
    (2usize..=4)
        .prop_flat_map(|rank| {
            (
                prop::collection::vec(layer(rank), 1..12),
                log_count(1 << 53),
                0u8..3,
                log_uniform(1e-9, 1e9),
                corruption(),
                0usize..12,
                prop::option::of((log_uniform(1.0, 1e30), prop::option::of(log_uniform(1.0, 1e30)))),
            )
        })
        .prop_map(|(mut layers, samples, profile, time, corrupt, at, profiled_on)| {
            let count = layers.len();
            // a product reads two tensors: the previous layer's output twice
            for (i, layer) in layers.iter_mut().enumerate() {
                if layer.kind == LayerKind::Matmul {
                    layer.reads = Some(vec![i as i64 - 1; 2]);
                }
            }
            match profile {
                1 => layers[0].time_s = Some(time),
                2 => layers
                    .iter_mut()
                    .enumerate()
                    .for_each(|(i, l)| l.time_s = Some(time / (i + 1) as f64)),
                _ => {}
            }
            let mut samples = samples;
            if let Some((field, value)) = corrupt {
                let layer = &mut layers[at % count];
                match field % 4 {
                    0 => samples = as_count(value),
                    1 => layer.time_s = Some(value),
                    2 => layer.w = Shape::new(vec![as_count(value); 4]),
                    _ => layer.x = Shape::new(vec![as_count(value), 3]),
                }
            }
            NetworkSpec {
                name: "Random".into(),
                dataset: DatasetSpec {
                    name: "Random".into(),
                    samples,
                    sample_shape: [3, 32, 32].into(),
                },
                layers,
                profiled_on: profiled_on.map(|(flops_per_s, bw)| ProfiledGpu {
                    name: "GPU".into(),
                    flops_per_s,
                    memory_bandwidth_bytes_per_s: bw,
                    gemm_flops_per_s: None,
                    kernels: None,
                }),
                step: None,
            }
        })
}

/// Realistic facts, each given or not, at any scale.
fn facts() -> impl Strategy<Value = RealisticFacts> {
    (
        prop::option::of(log_uniform(1.0, 1e30)),
        prop::option::of(prop::sample::select(AllreduceAlgorithm::ALL.to_vec())),
        prop::option::of(log_count(1 << 40)),
        prop::option::of((log_uniform(1e-12, 1e3), log_uniform(1.0, 1e30), any::<bool>())),
        prop::option::of(log_uniform(1.0, 1e30)),
        prop::option::of((
            log_count(1 << 40),
            log_uniform(1.0, 1e30),
            prop::option::of(log_uniform(1.0, 1e30)),
            log_uniform(1e-12, 1e3),
            prop::option::of(log_uniform(1.0, 1e30)),
        )),
        prop::option::of(log_uniform(1.0, 1e30)),
        (
            prop::option::of(log_uniform(1.0, 1e30)),
            prop::option::of(log_uniform(1.0, 1e30)),
        ),
    )
        .prop_map(
            |(bw, allreduce, sharing, halo, reserved, kernels, workspace, (intra, nic))| RealisticFacts {
                reserved_bytes: reserved,
                memory_bandwidth_bytes_per_s: bw,
                allreduce,
                nic_sharing: sharing,
                halo_transport: halo.map(|(latency_s, pcie_bandwidth_bytes_per_s, chained)| HaloTransport {
                    latency_s,
                    pcie_bandwidth_bytes_per_s,
                    chained,
                }),
                kernels: kernels.map(|(sms, fp32, half, kernel_overhead_s, stream_bytes_per_s)| KernelFacts {
                    sms,
                    gemm_flops_per_s: GemmRates {
                        fp32,
                        by_precision: PrecisionRates {
                            fp32: None,
                            tf32: half,
                            fp16: half,
                            bf16: None,
                        },
                    },
                    kernel_overhead_s,
                    stream_bytes_per_s,
                }),
                framework_memory: workspace.map(|workspace_bytes| FrameworkMemory { workspace_bytes }),
                intra_node_bus_bandwidth_bytes_per_s: intra,
                nic_bus_bandwidth_bytes_per_s: nic,
                in_network_reduction: None,
            },
        )
}

fn cluster_spec() -> impl Strategy<Value = ClusterSpec> {
    (
        (
            log_uniform(1.0, 1e30),
            log_uniform(1.0, 1e30),
            log_count(1 << 40),
            log_count(1 << 40),
            log_count(64),
        ),
        (
            log_uniform(1.0, 1e30),
            log_uniform(1e-12, 1e3),
            log_uniform(1.0, 1e30),
            log_uniform(1e-12, 1e3),
        ),
        prop::collection::vec((log_count(1 << 20), log_uniform(1e-12, 1e3)), 1..4),
        corruption(),
        facts(),
        (
            prop::option::of(log_uniform(1.0, 1e30)),
            prop::option::of(log_uniform(1.0, 1e30)),
            prop::option::of(log_uniform(1.0, 1e30)),
        ),
    )
        .prop_map(
            |(
                (flops, memory, per_node, max_gpus, nics),
                (bw_in, a_in, bw_nic, a_nic),
                levels,
                corrupt,
                realistic,
                (tf32, fp16, bf16),
            )| {
                let count = levels.len();
                let mut span = 0;
                let mut spec = ClusterSpec {
                    name: "Random".into(),
                    source: String::new(),
                    gpu: None,
                    datasheet: None,
                    gpu_flops_per_s: flops,
                    gpu_memory_bytes: memory,
                    gpus_per_node: per_node,
                    max_gpus: max_gpus.max(per_node),
                    intra_node: LinkSpec {
                        bandwidth_bytes_per_s: bw_in,
                        latency_s: a_in,
                    },
                    nic: LinkSpec {
                        bandwidth_bytes_per_s: bw_nic,
                        latency_s: a_nic,
                    },
                    nics_per_node: nics,
                    switch_levels: levels
                        .into_iter()
                        .enumerate()
                        .map(|(i, (step, latency_s))| {
                            span += step;
                            SwitchLevelSpec {
                                name: format!("l{i}"),
                                span_nodes: (i + 1 < count).then_some(span),
                                latency_s,
                            }
                        })
                        .collect(),
                    realistic,
                    gpu_flops_by_precision: PrecisionRates {
                        fp32: None,
                        tf32,
                        fp16,
                        bf16,
                    },
                    facility: Default::default(),
                };
                if let Some((field, value)) = corrupt {
                    match field % 8 {
                        0 => spec.gpu_flops_per_s = value,
                        1 => spec.gpu_memory_bytes = value,
                        2 => spec.intra_node.bandwidth_bytes_per_s = value,
                        3 => spec.intra_node.latency_s = value,
                        4 => spec.nic.bandwidth_bytes_per_s = value,
                        5 => spec.nic.latency_s = value,
                        6 => spec.gpus_per_node = as_count(value),
                        _ => spec.switch_levels[0].latency_s = value,
                    }
                }
                spec
            },
        )
}

fn run_spec() -> impl Strategy<Value = RunSpec> {
    (
        strategy(),
        log_count(1 << 40),
        prop_oneof![
            log_count(1 << 53).prop_map(Batch::MiniBatch),
            log_uniform(1e-3, 1e6).prop_map(Batch::SamplesPerGpu)
        ],
        log_uniform(0.5, 1024.0),
        prop::option::of(log_count(1 << 53)),
        prop::option::of(log_count(1 << 40)),
        prop::option::of(prop::collection::vec(any::<bool>(), 1..12)),
        prop_oneof![Just(0.0), log_uniform(1e-9, 1e6)],
        corruption(),
        (
            prop::sample::select(Edition::ALL.to_vec()),
            prop::sample::select(Precision::ALL.to_vec()),
            prop::sample::select(Optimizer::ALL.to_vec()),
            0u8..5,
            any::<bool>(),
            any::<bool>(),
            prop_oneof![Just(25.0), log_uniform(1e-4, 1e7)],
            prop::sample::select(MemoryFormat::ALL.to_vec()),
        ),
    )
        .prop_map(
            |(
                strategy,
                gpus,
                batch,
                bytes_per_item,
                segments,
                group_size,
                split,
                update_s,
                corrupt,
                (edition, precision, optimizer, zero, recompute, overlap, bucket_mib, memory_format),
            )| {
                let mut run = RunSpec {
                    strategy,
                    gpus,
                    batch,
                    bytes_per_item,
                    segments,
                    group_size,
                    split,
                    update_s,
                    edition,
                    calibration: None,
                    precision,
                    optimizer,
                    zero: if strategy.has_data_dimension() { zero } else { zero / 4 },
                    recompute,
                    overlap,
                    bucket_mib,
                    memory_format,
                    attention: if overlap {
                        AttentionForm::Eager
                    } else {
                        AttentionForm::Fused
                    },
                    convergence: None,
                    costs: Default::default(),
                };
                if let Some((field, value)) = corrupt {
                    match field % 5 {
                        0 => run.gpus = as_count(value),
                        1 => run.batch = Batch::SamplesPerGpu(value),
                        2 => run.bytes_per_item = value,
                        3 => run.update_s = value,
                        _ => run.group_size = Some(as_count(value)),
                    }
                }
                run
            },
        )
}

proptest! {
    // A fixed seed keeps the counts checked below stable from run to run.
    #![proptest_config(fixed(512, 2026))]

    fn no_input_panics_or_gives_non_finite_numbers_case(
        network in network_spec(),
        cluster in cluster_spec(),
        run in run_spec(),
    ) {
        let (Ok(network), Ok(cluster)) = (Network::new(network), Cluster::new(cluster)) else {
            return Ok(());
        };
        VALID_SCENARIOS.fetch_add(1, Ordering::Relaxed);
        let scenario = Scenario::new(network, cluster);
        prop_assert!(scenario.time_per_sample_s().is_finite());
        if let Ok(p) = scenario.project(&run) {
            PROJECTED.fetch_add(1, Ordering::Relaxed);
            assert_finite(&p);
        }
        let max = scenario.cluster().max_gpus().min(256);
        for p in scenario.sweep(&run, &Par::ALL, max).points {
            assert_finite(&p);
        }
        for p in scenario.rank(&RunSpec { gpus: run.gpus.min(256), ..run.clone() }, RankBy::Cost).points {
            assert_finite(&p);
        }
        if let Ok(capacity) = scenario.capacity(&RunSpec { gpus: run.gpus.min(1 << 20), ..run })
            && let Some(b) = capacity.max_samples_per_gpu
        {
            prop_assert!(b.is_finite());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn importers_never_panic_on_arbitrary_text(
        text in prop_oneof![
            // any characters, line breaks and carriage returns included
            "(?s).{0,400}",
            // lines that look like the formats: names, shapes, numbers and separators
            prop::collection::vec("[A-Za-z_#]{0,8}(\\|[0-9x.eE+-]{0,12}){0,6}\r?", 0..30).prop_map(|l| l.join("\n")),
        ]
    ) {
        let _ = formats::net::parse(&text);
        let _ = formats::plat::parse(&text, "x");
        let _ = formats::json::network(&text);
        let _ = formats::json::cluster(&text);
        let _ = formats::json::run(&text);
        let alexnet = presets::network("alexnet").unwrap();
        let _ = formats::lc::parse(&text, &alexnet);
    }

    #[test]
    fn importers_never_panic_on_damaged_reference_files(
        at in 0usize..2000,
        insert in prop::sample::select(vec!["|", "x", "\n", "\r\n", "#", "-", "0", "99999999999999999999", "é", ""]),
        cut in 0usize..3,
    ) {
        let sources = [
            include_str!("../../src/oracle/presets/reference/RESNET50_ImageNet_profall.net_sc"),
            include_str!("../../src/oracle/presets/reference/COSMOFLOW.net"),
            include_str!("../../src/oracle/presets/reference/ABCI.plat"),
            include_str!("../../src/oracle/presets/reference/spatial_alexnet.lc"),
        ];
        for source in sources {
            let chars: Vec<char> = source.chars().collect();
            let at = at.min(chars.len());
            let end = (at + cut).min(chars.len());
            let damaged: String = chars[..at].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(chars[end..].iter()).collect();
            if let Err(e) = formats::net::parse(&damaged) {
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
            if let Err(e) = formats::plat::parse(&damaged, "x") {
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
            let alexnet = presets::network("alexnet").unwrap();
            if let Err(e) = formats::lc::parse(&damaged, &alexnet) {
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
        }
    }
}

/// Runs the robustness property and checks that its generators reach the
/// formulas: most cases are valid scenarios and many runs project.
#[test]
fn no_input_panics_or_gives_non_finite_numbers() {
    no_input_panics_or_gives_non_finite_numbers_case();
    let valid = VALID_SCENARIOS.load(Ordering::Relaxed);
    let projected = PROJECTED.load(Ordering::Relaxed);
    assert!(valid >= 200, "only {valid} of 512 cases were valid scenarios");
    assert!(projected >= 50, "only {projected} of 512 cases projected");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, .. ProptestConfig::default() })]

    /// The planner's front, on any preset pair, batch, budget and training
    /// practice: feasible, mutually non-dominated, reproduced by `project`,
    /// and at least as fast as the ranking at the budget.
    #[test]
    fn the_front_is_feasible_non_dominated_and_beats_the_ranking(
        model in prop::sample::select(MODELS.to_vec()),
        cluster in prop::sample::select(CLUSTERS.to_vec()),
        budget in 1u64..=24,
        samples in samples_per_gpu(),
        precision in prop::sample::select(Precision::ALL.to_vec()),
        optimizer in prop::sample::select(Optimizer::ALL.to_vec()),
        overlap in any::<bool>(),
    ) {
        let s = scenario(model, cluster);
        let template = RunSpec {
            precision,
            optimizer,
            overlap,
            ..RunSpec::new(Par::Data, budget, Batch::SamplesPerGpu(samples))
        };
        let plan = s.search(&template, budget, paradl::oracle::Objective::Time).unwrap();
        for (i, a) in plan.front.iter().enumerate() {
            prop_assert!(a.feasible && a.gpus <= budget);
            for (j, b) in plan.front.iter().enumerate() {
                prop_assert!(i == j || !a.dominates(b), "{i} dominates {j}");
            }
            let again = s.project(&a.spec(&template)).unwrap();
            prop_assert_eq!((again.total_s, again.gpu_hours, again.memory_bytes), (a.total_s, a.gpu_hours, a.memory_bytes));
        }
        prop_assert_eq!(!plan.front.is_empty(), plan.feasible > 0);
        if let Some(best) = s.rank(&template, RankBy::Time).best() {
            let found = plan.best.as_ref().expect("the ranking found a feasible configuration");
            prop_assert!(found.total_s <= best.total_s, "{} > {}", found.total_s, best.total_s);
        }
    }
}
