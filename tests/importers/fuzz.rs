//! A fuzz harness on the stable toolchain: every parser, the share-link
//! decoder and the engine's entry points are fed mutated seeds (the
//! reference files, the presets' JSON, valid links) with byte flips,
//! splices, numeric edge values and huge counts. Each input is checked for
//! panics, for NaN or infinity in what the engine returns, and for its
//! time and peak memory (a counting allocator).
//!
//! `cargo test --test fuzz` runs a short fixed-seed pass; `scripts/dev fuzz
//! [SECONDS]` runs `long_run` for that many seconds per target and prints
//! the executions per target.
#![cfg(not(target_arch = "wasm32"))]

use crate::generate;

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use paradl::oracle::formats::{json, lc, measured, net, plat};
use paradl::oracle::{Batch, Capacity, Edition, Projection, RankBy, RunSpec, Scenario, Strategy, presets};

/// Counts live and peak heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

thread_local! {
    /// ResNet-50 on ABCI, built once per thread for the calibration target.
    static SCENARIO: std::rc::Rc<Scenario> = std::rc::Rc::new(
        presets::scenario("resnet50", "abci").expect("a preset"),
    );
    /// The graph of the committed ResNet-18 profile, for the profile target.
    static PROFILED_GRAPH: paradl::oracle::Network = paradl::oracle::formats::network::read_network(
        include_bytes!("../profile/resnet18-cpu-b8/model.onnx"),
        "model.onnx",
        &paradl::oracle::formats::network::Hints::default(),
    )
    .expect("the fixture imports")
    .network;
}

/// One test at a time measures memory (the test harness runs tests in threads).
static MEASURING: Mutex<()> = Mutex::new(());

/// xorshift64*: a small, seeded, reproducible generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const EDGES: [&str; 16] = [
    "0",
    "-1",
    "NaN",
    "inf",
    "-inf",
    "1e308",
    "1e-308",
    "18446744073709551615",
    "18446744073709551616",
    "9007199254740993",
    "4294967296",
    "0.25",
    "x",
    "|",
    "\r",
    "#",
];

/// A mutation of `seed` (with `other` for splices).
fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut data = seed.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(data.len() + 1);
        match rng.below(24) {
            0 if !data.is_empty() => {
                let i = at.min(data.len() - 1);
                data[i] ^= 1 << rng.below(8);
            }
            1 => {
                let end = (at + rng.below(16)).min(data.len());
                data.drain(at..end);
            }
            2 => {
                let edge = EDGES[rng.below(EDGES.len())].as_bytes();
                // replace the number or word at `at` by an edge value
                let end = data[at..]
                    .iter()
                    .position(|b| !b.is_ascii_alphanumeric() && *b != b'.' && *b != b'-')
                    .map_or(data.len(), |p| at + p);
                data.splice(at..end, edge.iter().copied());
            }
            3 if !other.is_empty() => {
                let from = rng.below(other.len());
                let len = rng.below(other.len() - from + 1);
                data.splice(at..at, other[from..from + len].iter().copied());
            }
            4 => {
                // a huge count: one line repeated many times
                let start = data[..at].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let end = data[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(data.len(), |p| at + p + 1);
                let line = data[start..end].to_vec();
                let copies = 1 << rng.below(10);
                for _ in 0..copies {
                    data.splice(end..end, line.iter().copied());
                }
            }
            5 | 8 | 9 => data.insert(at, rng.next() as u8),
            10..=15 if !data.is_empty() => {
                let i = at.min(data.len() - 1);
                data[i] = b"0123456789x|.-\n e"[rng.below(17)];
            }
            6 => {
                // a long line of separators
                let fill = [b'|', b'x', b'9', b' '][rng.below(4)];
                data.splice(at..at, std::iter::repeat_n(fill, 1 << rng.below(14)));
            }
            _ => {
                // a short run copied in place
                let end = (at + 1 + rng.below(8)).min(data.len());
                let copy = data[at.min(end)..end].to_vec();
                data.splice(at..at, copy);
            }
        }
        data.truncate(MAX_INPUT_BYTES);
    }
    data
}

/// Inputs are cut to this size (huge counts still reach 10^5 lines).
const MAX_INPUT_BYTES: usize = 4 << 20;

/// What a target reports of one input: numbers that must be finite.
type Numbers = Vec<f64>;

struct Target {
    name: &'static str,
    seeds: Vec<Vec<u8>>,
    /// `None` when the input was rejected (an error, as it should be for
    /// most mutants); `Some` with the numbers of an accepted one.
    run: fn(&[u8]) -> Option<Numbers>,
    /// Executions of the short pass (each of a heavy target takes long).
    short: u64,
}

fn projection_numbers(p: &Projection, out: &mut Numbers) {
    out.extend([
        p.compute_s,
        p.communication_s,
        p.total_s,
        p.gpu_hours,
        p.memory_bytes,
        p.samples_per_gpu,
    ]);
    out.extend(p.communication.iter().map(|(_, s)| s));
}

/// A network's totals, which must be finite.
fn network_numbers(network: &paradl::oracle::Network) -> Numbers {
    vec![
        network.weight_items(),
        network.activation_items(),
        network.forward_flops(),
    ]
}

fn capacity_numbers(c: &Capacity, out: &mut Numbers) {
    out.extend(c.max_samples_per_gpu);
}

/// The engine's entry points on a scenario and a run.
fn exercise(scenario: &Scenario, run: &RunSpec) -> Numbers {
    let mut out = Numbers::new();
    if let Ok(p) = scenario.project(run) {
        projection_numbers(&p, &mut out);
        // an infeasible projection must say why
        assert!(p.feasible == p.violations.is_empty());
    }
    let budget = RunSpec {
        gpus: run.gpus.clamp(1, 64),
        ..run.clone()
    };
    for p in scenario.rank(&budget, RankBy::Time).points {
        projection_numbers(&p, &mut out);
    }
    if let Ok(c) = scenario.capacity(&budget) {
        capacity_numbers(&c, &mut out);
    }
    out
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Files of `tests/DIR/NAME.EXT`, as seeds.
fn test_files(dir: &str, names: &[&str], ext: &str) -> Vec<Vec<u8>> {
    names
        .iter()
        .filter_map(|n| std::fs::read(format!("{}/tests/{dir}/{n}.{ext}", env!("CARGO_MANIFEST_DIR"))).ok())
        .collect()
}

fn targets() -> Vec<Target> {
    let reference = |name: &str| -> Vec<u8> {
        std::fs::read(format!(
            "{}/src/oracle/presets/reference/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap_or_default()
    };
    let nets: Vec<Vec<u8>> = [
        "ALEXNET_ImageNet_profall.net_sc",
        "VGG_ImageNet_profall.net_sc",
        "RESNET50_ImageNet_profall.net_sc",
        "COSMOFLOW.net",
        "ALEXNET_ImageNet.net",
    ]
    .iter()
    .map(|n| reference(n))
    .collect();
    let networks_json: Vec<Vec<u8>> = ["alexnet", "resnet18", "cosmoflow-256"]
        .iter()
        .filter_map(|k| presets::network(k).ok())
        .filter_map(|n| json::write(&n.spec()).ok())
        .map(String::into_bytes)
        .collect();
    let clusters_json: Vec<Vec<u8>> = presets::CLUSTERS
        .iter()
        .filter_map(|p| p.build().ok())
        .filter_map(|c| json::write(c.spec()).ok())
        .map(String::into_bytes)
        .collect();
    let runs_json: Vec<Vec<u8>> = [
        RunSpec::new(Strategy::DataFilter, 64, Batch::SamplesPerGpu(0.25)),
        RunSpec {
            segments: Some(8),
            group_size: Some(4),
            ..RunSpec::new(Strategy::Pipeline, 16, Batch::MiniBatch(64))
        },
    ]
    .iter()
    .filter_map(|r| json::write(r).ok())
    .map(String::into_bytes)
    .collect();
    let lcs = vec![reference("filter_alexnet.lc"), reference("spatial_alexnet.lc")];
    let measured_csv: Vec<Vec<u8>> = vec![
        format!(
            "{}\ndata,64,2048,,0.3,,\nds,64,1024,4,0.25,0.2,0.05\nfilter,4,64,,1.1,,\n",
            measured::HEADER
        )
        .into_bytes(),
        // the ResNet-50 runs measured on ABCI, as measured-run CSV
        measured::write(
            &paradl::oracle::validation::runs()
                .map(|s| s.runs)
                .unwrap_or_default()
                .iter()
                .filter(|r| r.model == "resnet50")
                .map(paradl::oracle::validation::ValidationRun::measured)
                .collect::<Vec<_>>(),
        )
        .into_bytes(),
    ];
    let mut all =
        vec![
            Target {
                name: "measured runs",
                short: 300,
                seeds: measured_csv,
                run: |data| {
                    // parsed, written back the same, then calibrated and applied in both editions
                    let runs = measured::parse(&text(data)).ok()?;
                    let plain: Vec<_> = runs.iter().map(|r| r.run.clone()).collect();
                    let again: Vec<_> = measured::parse(&measured::write(&plain))
                        .map(|r| r.into_iter().map(|l| l.run).collect())
                        .unwrap_or_default();
                    assert_eq!(again, plain, "written back differently");
                    let scenario = SCENARIO.with(|s| s.clone());
                    let mut out = Numbers::new();
                    for edition in Edition::ALL {
                        let template = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0)).in_edition(edition);
                        if let Ok(c) = scenario.calibrate(&runs, &template) {
                            out.extend([c.global.compute, c.global.communication, c.mean_accuracy_after]);
                            let factors = c.factors().ok();
                            assert!(factors.is_some(), "a calibration's own factors are valid");
                            if let Ok(p) = scenario.project(&RunSpec {
                                calibration: factors,
                                ..template
                            }) {
                                projection_numbers(&p, &mut out);
                            }
                        }
                    }
                    Some(out)
                },
            },
            Target {
                name: ".net",
                short: 300,
                seeds: nets,
                run: |data| {
                    let network = net::parse(&text(data)).ok()?;
                    if let Ok(written) = net::write(&network) {
                        assert_eq!(
                            net::parse(&written).ok().as_ref(),
                            Some(&network),
                            "written back differently"
                        );
                    }
                    Some(network_numbers(&network))
                },
            },
            Target {
                name: "keras",
                short: 300,
                seeds: test_files("keras", &["modern", "lenet", "volume"], "json"),
                run: |data| {
                    let network = paradl::oracle::formats::keras::read(&text(data), 1000, None).ok()?;
                    Some(network_numbers(&network))
                },
            },
            Target {
                name: "onnx",
                short: 300,
                seeds: [
                    "light_bvlc_alexnet",
                    "light_squeezenet",
                    "light_vgg19",
                    "light_resnet50",
                ]
                .iter()
                .filter_map(|n| std::fs::read(format!("{}/tests/onnx/{n}.onnx", env!("CARGO_MANIFEST_DIR"))).ok())
                // attention (a moved batch, learned tokens) and windows folded into the batch
                .chain(["vit_tiny_patch16_224", "mobilevit_xxs"].iter().filter_map(|n| {
                    crate::timm_zip::graph(&mut crate::timm_zip::archive(), n, 17).map(|(_, bytes)| bytes)
                }))
                .collect(),
                run: |data| {
                    let imported = paradl::oracle::formats::onnx::read(data, "fuzz", None, 1000).ok()?;
                    let network = imported.network;
                    // what an import gives is a network the JSON form keeps
                    if let Ok(written) = json::write(&network.spec()) {
                        assert_eq!(
                            json::network(&written).ok().as_ref(),
                            Some(&network),
                            "written back differently"
                        );
                    }
                    Some(network_numbers(&network))
                },
            },
            Target {
                name: ".plat",
                short: 300,
                seeds: vec![reference("ABCI.plat")],
                run: |data| {
                    let cluster = plat::parse(&text(data), "x").ok()?;
                    if let Ok(written) = plat::write(&cluster) {
                        assert_eq!(plat::parse(&written, "x").ok().as_ref(), Some(&cluster));
                    }
                    Some(vec![cluster.gpu_flops_per_s(), cluster.gpu_memory_bytes()])
                },
            },
            Target {
                name: ".lc",
                short: 300,
                seeds: lcs,
                run: |data| {
                    let alexnet = presets::network("alexnet").ok()?;
                    lc::parse(&text(data), &alexnet).ok().map(|_| Numbers::new())
                },
            },
            Target {
                name: "json network",
                short: 300,
                seeds: networks_json.clone(),
                run: |data| {
                    let network = json::network(&text(data)).ok()?;
                    Some(network_numbers(&network))
                },
            },
            Target {
                name: "json cluster",
                short: 300,
                seeds: clusters_json,
                run: |data| {
                    json::cluster(&text(data))
                        .ok()
                        .map(|c| vec![c.gpu_flops_per_s(), c.gpu_memory_bytes()])
                },
            },
            Target {
                name: "json run",
                short: 300,
                seeds: runs_json,
                run: |data| json::run(&text(data)).ok().map(|r| vec![r.bytes_per_item, r.update_s]),
            },
            Target {
                name: "engine",
                short: 300,
                seeds: networks_json,
                run: |data| {
                    // a mutated network on ABCI, at the runs a view asks for
                    let network = json::network(&text(data)).ok()?;
                    let cluster = presets::cluster("abci").ok()?;
                    let scenario = Scenario::new(network, cluster);
                    let seed = data.len() as u64;
                    let strategy = Strategy::ALL[(seed % 8) as usize];
                    let gpus = 1 << (seed % 11);
                    Some(exercise(
                        &scenario,
                        &RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(32.0)),
                    ))
                },
            },
        ];
    all.extend([
        Target {
            name: "onnx graphs",
            short: 300,
            // each input seeds a graph drawn at random (valid protobuf, hostile sizes among ordinary ones)
            seeds: (0u8..8).map(|i| vec![i; 8]).collect(),
            run: |data| {
                let bytes = generate::onnx_graph(&mut generate::Draw::from_bytes(data));
                let imported = paradl::oracle::formats::onnx::read(&bytes, "fuzz", None, 1000).ok()?;
                Some(network_numbers(&imported.network))
            },
        },
        Target {
            name: "keras models",
            short: 300,
            seeds: (0u8..8).map(|i| vec![i; 8]).collect(),
            run: |data| {
                let text = generate::keras_model(&mut generate::Draw::from_bytes(data));
                let read = paradl::oracle::formats::network::read_network(
                    text.as_bytes(),
                    "fuzz.json",
                    &paradl::oracle::formats::network::Hints::default(),
                );
                Some(network_numbers(&read.ok()?.network))
            },
        },
        Target {
            name: "calibrations",
            short: 12,
            seeds: (0u8..4).map(|i| vec![i; 8]).collect(),
            run: |data| {
                // thousands of rows; identical ones give the factor of one row
                let mut draw = generate::Draw::from_bytes(data);
                let rows = 2000 + draw.below(4000) as usize;
                let same = draw.below(2) == 0;
                let text = generate::measured_rows(&mut draw, rows, same);
                let runs = measured::parse(&text).ok()?;
                let scenario = SCENARIO.with(|s| s.clone());
                let template = RunSpec::new(Strategy::Data, 8, Batch::SamplesPerGpu(32.0));
                let c = scenario.calibrate(&runs, &template).ok()?;
                if same {
                    let one = scenario.calibrate(&runs[..1], &template).ok()?;
                    let ratio = c.strategies[0].compute / one.strategies[0].compute;
                    assert!(ratio > 0.5 && ratio < 2.0, "{rows} identical rows: {ratio}");
                }
                Some(vec![c.global.compute, c.global.communication, c.mean_accuracy_after])
            },
        },
    ]);
    all.push(Target {
        name: "profiles",
        short: 300,
        seeds: vec![
            include_bytes!("../profile/resnet18-cpu-b8/profile.json").to_vec(),
            include_bytes!("../profile/mobilenet_v3_small-cpu-b2/profile.json").to_vec(),
        ],
        run: |data| {
            // read, written back the same, applied to ResNet-18's graph and checked against the model
            let p = paradl::oracle::formats::profile::parse(&text(data)).ok()?;
            let written = paradl::oracle::formats::profile::write(&p);
            assert_eq!(
                paradl::oracle::formats::profile::parse(&written).ok().as_ref(),
                Some(&p)
            );
            let network = PROFILED_GRAPH.with(Clone::clone);
            let applied = paradl::oracle::formats::profile::apply(&network, &p, presets::devices::known_gpu).ok()?;
            let scenario = Scenario::new(applied.network, presets::cluster("dgx-h100").ok()?);
            let check = scenario.profile_check(Edition::Realistic)?;
            if check.same_gpu {
                let gap = (check.projected_step_s - check.measured_step_s).abs();
                assert!(gap <= 1e-9 * check.measured_step_s, "{check:?}");
            }
            let mut out = vec![check.projected_step_s, check.projected_memory_bytes];
            let run = RunSpec::new(Strategy::Data, 8, Batch::SamplesPerGpu(p.batch as f64));
            out.extend(exercise(&scenario, &run));
            Some(out)
        },
    });
    all.extend(link_target());
    all
}

#[cfg(feature = "web")]
fn link_target() -> Option<Target> {
    use paradl::app::input::document::Document;
    use paradl::app::input::source::{ClusterSource, ModelSource};
    use paradl::app::page::url;
    let mut custom = presets::network("alexnet").ok()?.spec();
    custom.dataset.samples = 50_000;
    let mut vgg = Document::default();
    vgg.question.run.gpus = 256;
    vgg.question.model = ModelSource::Preset("vgg16".into());
    let mut edited = Document::default();
    edited.question.model = ModelSource::Custom(Box::new(custom));
    edited.question.cluster = ClusterSource::Preset("dgx-h100".into());
    edited.question.run.batch = Batch::MiniBatch(4096);
    let seeds = [vgg, edited].iter().map(|i| url::encode(i).into_bytes()).collect();
    Some(Target {
        name: "share link",
        short: 300,
        seeds,
        run: |data| {
            url::decode(&text(data))
                .ok()
                .map(|d| vec![d.question.run.bytes_per_item])
        },
    })
}

#[cfg(not(feature = "web"))]
fn link_target() -> Option<Target> {
    None
}

/// What a run of one target found.
#[derive(Debug, Default)]
struct Report {
    executions: u64,
    accepted: u64,
    failures: Vec<String>,
    slowest: Duration,
    most_bytes: usize,
}

/// Bounds per input: time and peak heap beyond what was live before.
const MAX_TIME: Duration = Duration::from_secs(5);
const MAX_BYTES_PER_INPUT_BYTE: usize = 400;
const MAX_BYTES_BASE: usize = 64 << 20;

fn fuzz(target: &Target, seed: u64, budget: Budget) -> Report {
    let mut rng = Rng(seed | 1);
    let mut report = Report::default();
    let started = Instant::now();
    while budget.more(report.executions, started) && report.failures.len() < 5 {
        let a = &target.seeds[rng.below(target.seeds.len())];
        let b = &target.seeds[rng.below(target.seeds.len())];
        let input = mutate(&mut rng, a, b);
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let t0 = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| (target.run)(&input)));
        let took = t0.elapsed();
        let bytes = PEAK.load(Ordering::Relaxed).saturating_sub(before);
        report.executions += 1;
        report.slowest = report.slowest.max(took);
        report.most_bytes = report.most_bytes.max(bytes);
        let shown = String::from_utf8_lossy(&input[..input.len().min(120)]).into_owned();
        match outcome {
            Err(_) => report.failures.push(format!("panic on {shown:?}")),
            Ok(None) => {}
            Ok(Some(numbers)) => {
                report.accepted += 1;
                if let Some(bad) = numbers.iter().find(|n| !n.is_finite()) {
                    report.failures.push(format!("{bad} on {shown:?}"));
                }
            }
        }
        if took > MAX_TIME {
            report
                .failures
                .push(format!("{took:?} on an input of {} bytes", input.len()));
        }
        if bytes > MAX_BYTES_BASE + MAX_BYTES_PER_INPUT_BYTE * input.len() {
            report
                .failures
                .push(format!("{bytes} bytes on an input of {} bytes", input.len()));
        }
    }
    report
}

#[derive(Clone, Copy)]
enum Budget {
    Executions(u64),
    Time(Duration),
}

impl Budget {
    fn more(self, done: u64, started: Instant) -> bool {
        match self {
            Self::Executions(n) => done < n,
            Self::Time(t) => started.elapsed() < t,
        }
    }
}

fn run_all(budget: Budget) -> Vec<(&'static str, Report)> {
    let _one = MEASURING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|i| {
        if std::env::var("FUZZ_SHOW").is_ok() {
            eprintln!("{i}")
        }
    }));
    let reports = targets()
        .iter()
        .enumerate()
        .map(|(i, t)| {
            assert!(
                !t.seeds.is_empty() && t.seeds.iter().all(|s| !s.is_empty()),
                "{} has seeds",
                t.name
            );
            let budget = match budget {
                Budget::Executions(_) => Budget::Executions(t.short),
                time => time,
            };
            (t.name, fuzz(t, 2026 + i as u64, budget))
        })
        .collect();
    std::panic::set_hook(hook);
    reports
}

fn print(reports: &[(&str, Report)]) {
    for (name, r) in reports {
        println!(
            "fuzz {name:<14} {:>9} executions ({:>8} accepted), slowest {:>8.2?}, peak {:>6.1} MiB, {} failures",
            r.executions,
            r.accepted,
            r.slowest,
            r.most_bytes as f64 / (1 << 20) as f64,
            r.failures.len()
        );
        for f in &r.failures {
            println!("    {f}");
        }
    }
}

#[test]
fn a_short_fixed_seed_pass_finds_nothing() {
    let reports = run_all(Budget::Executions(300));
    print(&reports);
    for (name, r) in &reports {
        assert!(r.executions >= 12, "{name}");
        assert!(
            r.accepted > 0,
            "{name}: no mutant was accepted, so nothing past the parser was tested"
        );
        assert!(r.failures.is_empty(), "{name}: {:?}", r.failures);
    }
}

#[test]
fn the_mutator_reaches_both_valid_and_invalid_inputs() {
    // a harness whose mutants never parse (or always do) tests little
    let Some(target) = targets().into_iter().find(|t| t.name == ".net") else {
        panic!("no .net target")
    };
    let mut rng = Rng(7);
    let (mut ok, mut bad) = (0, 0);
    for _ in 0..400 {
        let a = &target.seeds[rng.below(target.seeds.len())];
        match net::parse(&text(&mutate(&mut rng, a, a))) {
            Ok(_) => ok += 1,
            Err(e) => {
                assert!(e.line >= 1 && e.column >= 1);
                bad += 1;
            }
        }
    }
    assert!(ok >= 20 && bad >= 20, "{ok} valid, {bad} invalid");
}

#[test]
#[ignore = "a long run: scripts/dev fuzz [SECONDS]"]
fn long_run() {
    let seconds = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let reports = run_all(Budget::Time(Duration::from_secs(seconds)));
    print(&reports);
    let failures: usize = reports.iter().map(|(_, r)| r.failures.len()).sum();
    assert_eq!(failures, 0, "the fuzzer found problems (listed above)");
}

/// A Keras model nested 16 deep: its memory stays a small multiple of the
/// file's size (a config copied at each level of nesting once took 1.6 GB
/// for an 8.7 MB file).
#[test]
fn nested_keras_models_are_read_in_memory_linear_in_the_file() {
    let _one = MEASURING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let relu = |k: usize, i: usize| {
        format!(
            r#"{{"class_name": "ReLU", "config": {{"name": "r{k}_{i}", "padding_for_size": "{}"}}, "inbound_nodes": [{{"args": [{{"config": {{"keras_history": ["{}", 0, 0]}}}}]}}]}}"#,
            "x".repeat(200),
            if i == 0 {
                "in".to_string()
            } else {
                format!("r{k}_{}", i - 1)
            }
        )
    };
    let mut model = String::new();
    for k in 0..16 {
        let mut layers = vec![
            r#"{"class_name": "InputLayer", "config": {"name": "in", "batch_shape": [null, 8, 8, 3]}}"#.to_string(),
        ];
        let mut last = "in".to_string();
        if !model.is_empty() {
            layers.push(format!(r#"{{"class_name": "Functional", "config": {model}, "inbound_nodes": [{{"args": [{{"config": {{"keras_history": ["in", 0, 0]}}}}]}}]}}"#));
            last = format!("nested{}", k - 1);
        }
        for i in 0..2000 {
            let mut l = relu(k, i);
            if i == 0 {
                l = l.replace(r#"["in", 0, 0]"#, &format!(r#"["{last}", 0, 0]"#));
            }
            layers.push(l);
        }
        model = format!(
            r#"{{"name": "nested{k}", "layers": [{}], "output_layers": [["r{k}_1999", 0, 0]]}}"#,
            layers.join(", ")
        );
    }
    let text = format!(r#"{{"class_name": "Functional", "config": {model}}}"#);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let read = paradl::oracle::formats::keras::read(&text, 1000, None);
    let bytes = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    let network = read.expect("the nested model reads");
    assert_eq!(network.layers().len(), 16 * 2000);
    println!(
        "{} bytes of JSON, {bytes} bytes at the peak ({:.1} a byte)",
        text.len(),
        bytes as f64 / text.len() as f64
    );
    assert!(bytes < 30 * text.len(), "{bytes} bytes for {} of JSON", text.len());
}
