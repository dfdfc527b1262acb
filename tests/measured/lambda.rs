//! The realistic edition, uncalibrated, on GPUs no one here measured:
//! Lambda's published training runs of ResNet-50 in PyTorch (NVIDIA
//! DeepLearningExamples' script, synthetic data, NCHW, AMP or FP32/TF32,
//! 1 to 8 GPUs of 16 kinds from V100 to B200) and of ResNet-50, ResNet-152
//! and VGG-16 in TensorFlow's tf_cnn_benchmarks (11 kinds from GTX 1080 Ti
//! to A100), `tests/validation/lambda-*.csv` (made by `lambda_extract.py`,
//! see `lambda.md`). Each run is projected on a cluster file written as a
//! user would from the GPU's name alone (`"gpu"` set to the string
//! `nvidia-smi` printed, the node's links generic): the device table
//! (`src/oracle/model/devices/gpus.csv`) brings its datasheet and its
//! architecture's measured fractions. The tests print the accuracy per
//! GPU and precision and hold each architecture and precision to the
//! accuracy it has now: a guard against getting worse, not a fit.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use paradl::oracle::model::devices::{self, Architecture};
use paradl::oracle::validation::throughput;
use paradl::oracle::{Batch, Cluster, MemoryFormat, Optimizer, Precision, RunSpec, Scenario, Strategy, presets};

use crate::quantile;

/// One measured run.
struct Run {
    device: String,
    gpus: u64,
    model: &'static str,
    amp: bool,
    batch_per_gpu: f64,
    images_per_s: f64,
}

fn column(header: &str, name: &str) -> usize {
    header
        .split(',')
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

/// The rows of a Lambda fixture (no field holds a comma before `source`).
fn runs(text: &str, model_column: bool) -> Vec<Run> {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let (d, g, p, b, i) = (
        column(header, "device_string"),
        column(header, "gpus"),
        column(header, "precision"),
        column(header, "batch_per_gpu"),
        column(header, "images_per_s"),
    );
    let m = model_column.then(|| column(header, "model"));
    lines
        .filter_map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let model = match m.map(|m| f[m]) {
                None | Some("resnet50") => "resnet50-torchvision",
                Some("resnet152") => "resnet152",
                Some("vgg16") => "vgg16-torchvision",
                // no preset of these networks (AlexNet's is ParaDL's 227x227 one)
                Some(_) => return None,
            };
            Some(Run {
                device: f[d].to_string(),
                gpus: f[g].parse().unwrap(),
                model,
                amp: matches!(f[p], "AMP" | "FP16"),
                batch_per_gpu: f[b].parse().unwrap(),
                images_per_s: f[i].parse().unwrap(),
            })
        })
        .collect()
}

/// A node of 8 GPUs written from the GPU's name, as a user would: its
/// FP32 peak and memory from the datasheet, NVLink or PCIe between GPUs.
fn cluster(device: &str) -> Cluster {
    let d = devices::device(device, None).unwrap_or_else(|| panic!("{device} is not known"));
    let nvlink = d.name.contains("SXM") || ["H200", "B200", "GH200 96GB HBM3", "V100-SXM2-32GB"].contains(&d.name);
    let json = format!(
        r#"{{"name": "8 x {device}", "gpu": "{device}", "gpu_flops_per_s": {}, "gpu_memory_bytes": {},
            "gpus_per_node": 8, "max_gpus": 8,
            "intra_node": {{"bandwidth_bytes_per_s": {}, "latency_s": 5e-6}},
            "nic": {{"bandwidth_bytes_per_s": 25e9, "latency_s": 5e-6}}, "nics_per_node": 1,
            "switch_levels": [{{"name": "switch", "span_nodes": null, "latency_s": 1e-6}}]}}"#,
        d.peaks.fp32,
        d.memory_bytes,
        if nvlink { 300e9 } else { 25e9 }
    );
    serde_json::from_str(&json).unwrap()
}

/// Projects each run (data parallelism, serial on one GPU; NCHW; AMP as
/// FP16, FP32 as TF32 where the GPU has TF32, as PyTorch's cuDNN and
/// TensorFlow 2.4 run it); returns `(architecture and precision, GPU,
/// projected / measured)`.
fn project(runs: Vec<Run>, optimizer: Optimizer, overlap: bool) -> Vec<(String, String, f64)> {
    runs.into_iter()
        .map(|run| {
            let cluster = cluster(&run.device);
            let gpu = cluster.device().unwrap().clone();
            let precision = match (run.amp, gpu.peaks.tf32 > 0.0) {
                (true, _) => Precision::Fp16,
                (false, true) => Precision::Tf32,
                (false, false) => Precision::Fp32,
            };
            let scenario = Scenario::new(presets::network(run.model).unwrap(), cluster);
            let settings = RunSpec {
                precision,
                optimizer,
                overlap: overlap && run.gpus > 1,
                memory_format: MemoryFormat::Nchw,
                ..RunSpec::new(Strategy::Serial, 1, Batch::SamplesPerGpu(1.0))
            };
            let (projected, feasible) = throughput(&scenario, run.gpus, run.batch_per_gpu, settings).unwrap();
            let what = format!(
                "{} x{} {} {precision} b={}",
                run.device, run.gpus, run.model, run.batch_per_gpu
            );
            assert!(feasible, "{what} ran");
            (
                format!("{} {precision}", gpu.architecture),
                format!("{} {precision}", gpu.name),
                projected / run.images_per_s,
            )
        })
        .collect()
}

fn accuracy(ratio: f64) -> f64 {
    ratio.min(1.0 / ratio)
}

/// Mean accuracy per key, printed with the geometric mean of the ratios.
fn by(results: &[(String, String, f64)], key: impl Fn(&(String, String, f64)) -> &String) -> BTreeMap<String, f64> {
    let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in results {
        groups.entry(key(r).clone()).or_default().push(r.2);
    }
    groups
        .into_iter()
        .map(|(k, ratios)| {
            let n = ratios.len() as f64;
            let mean = ratios.iter().map(|r| accuracy(*r)).sum::<f64>() / n;
            let gm = (ratios.iter().map(|r| r.ln()).sum::<f64>() / n).exp();
            println!(
                "{k:48} n={:3} projected/measured {gm:.2} accuracy {mean:.3}",
                ratios.len()
            );
            (k, mean)
        })
        .collect()
}

/// Holds every class to its floor; returns the overall mean accuracy.
fn check(results: &[(String, String, f64)], floors: &[(&str, f64)]) -> f64 {
    by(results, |r| &r.1);
    let classes = by(results, |r| &r.0);
    for (class, floor) in floors {
        let mean = classes.get(*class).unwrap_or_else(|| panic!("no run of {class}"));
        assert!(mean >= floor, "{class}: mean accuracy {mean:.3} below {floor}");
    }
    let mean = results.iter().map(|r| accuracy(r.2)).sum::<f64>() / results.len() as f64;
    let off = results.iter().filter(|r| accuracy(r.2) < 0.5).count();
    println!(
        "{} runs: mean accuracy {mean:.3}, {off} off by more than 2x",
        results.len()
    );
    mean
}

#[test]
fn pytorch_resnet50_on_sixteen_kinds_of_gpu() {
    let rows = runs(include_str!("../validation/lambda-pytorch-resnet50.csv"), false);
    assert_eq!(rows.len(), 292);
    let results = project(rows, Optimizer::Momentum, true);
    // every GPU of the fixture is known by the string nvidia-smi printed
    let mean = check(
        &results,
        &[
            ("volta fp16", 0.9),
            ("volta fp32", 0.9),
            ("turing fp16", 0.85),
            ("turing fp32", 0.75),
            ("ampere_ga100 fp16", 0.8),
            ("ampere_ga100 tf32", 0.85),
            ("ampere_ga10x fp16", 0.75),
            ("ampere_ga10x tf32", 0.7),
            ("ada fp16", 0.8),
            ("ada tf32", 0.75),
            ("hopper fp16", 0.7),
            ("hopper tf32", 0.9),
            ("blackwell fp16", 0.3),
            ("blackwell tf32", 0.6),
        ],
    );
    assert!(mean >= 0.84, "{mean}");
}

#[test]
fn tensorflow_cnns_on_eleven_kinds_of_gpu() {
    let rows = runs(include_str!("../validation/lambda-tf.csv"), true);
    assert_eq!(rows.len(), 227);
    // tf_cnn_benchmarks: SGD, all-reduce after the backward pass
    let results = project(rows, Optimizer::Sgd, false);
    let mean = check(
        &results,
        &[
            ("pascal fp32", 0.7),
            ("volta fp32", 0.85),
            ("volta fp16", 0.7),
            ("turing fp32", 0.83),
            ("turing fp16", 0.7),
            ("ampere_ga100 tf32", 0.85),
            ("ampere_ga100 fp16", 0.8),
            ("ampere_ga10x tf32", 0.73),
            ("ampere_ga10x fp16", 0.65),
        ],
    );
    assert!(mean >= 0.77, "{mean}");
}

#[test]
fn the_track_record_is_what_the_runs_give() {
    use paradl::oracle::report::track_record::{ACROSS_NODES, POOLED, PrecisionClass, Scale, TRACK_RECORD};
    // every committed published run: (architecture, precision class, scale) -> (GPUs, measured/projected time)
    type Class = (Architecture, PrecisionClass, Scale);
    let mut classes: BTreeMap<Class, Vec<(u64, f64)>> = BTreeMap::new();
    let mut add = |arch: Architecture, precision: Precision, scale: Scale, gpus: u64, ratio: f64| {
        classes
            .entry((arch, PrecisionClass::of(precision), scale))
            .or_default()
            .push((gpus, ratio));
    };
    let pytorch = runs(include_str!("../validation/lambda-pytorch-resnet50.csv"), false);
    let tensorflow = runs(include_str!("../validation/lambda-tf.csv"), true);
    for (runs, optimizer, overlap) in [
        (pytorch, Optimizer::Momentum, true),
        (tensorflow, Optimizer::Sgd, false),
    ] {
        let gpus: Vec<u64> = runs.iter().map(|r| r.gpus).collect();
        for ((class, _, ratio), gpus) in project(runs, optimizer, overlap).into_iter().zip(gpus) {
            let (arch, precision) = class.split_once(' ').unwrap();
            // Lambda's machines are one node of at most 8 GPUs (`cluster`)
            add(
                Architecture::from_name(arch).unwrap(),
                precision.parse().unwrap(),
                Scale::of(gpus, 8),
                gpus,
                ratio,
            );
        }
    }
    for p in paradl::oracle::validation::published_report().unwrap() {
        let cluster = presets::cluster(&p.run.cluster).unwrap();
        let arch = cluster.device().unwrap().architecture;
        let scale = Scale::of(p.run.gpus, cluster.gpus_per_node());
        add(arch, p.run.precision, scale, p.run.gpus, p.ratio);
    }
    let spread = |runs: Vec<&(u64, f64)>| {
        let mut ratios: Vec<f64> = runs.iter().map(|r| r.1).collect();
        let max = runs.iter().map(|r| r.0).max().unwrap();
        (
            ratios.len(),
            max,
            quantile(&mut ratios, 0.1),
            quantile(&mut ratios, 0.9),
        )
    };
    let pooled = spread(classes.values().flatten().collect());
    let across = spread(
        classes
            .iter()
            .filter(|(c, _)| c.2 == Scale::Nodes)
            .flat_map(|(_, r)| r)
            .collect(),
    );
    let mut table = format!("POOLED {pooled:?}\nACROSS_NODES {across:?}\n");
    for ((arch, class, scale), runs) in &classes {
        let (n, max, low, high) = spread(runs.iter().collect());
        table += &format!("    record((A::{arch:?}, P::{class:?}, {scale:?}), ({n}, {max}), {low:.2}, {high:.2}),\n");
    }
    println!("{table}");
    for (spread, (n, max, low, high)) in [(POOLED, pooled), (ACROSS_NODES, across)] {
        assert_eq!((spread.runs as usize, spread.max_gpus), (n, max), "{table}");
        assert!(
            (spread.low - low).abs() < 0.006 && (spread.high - high).abs() < 0.006,
            "{table}"
        );
    }
    assert_eq!(
        TRACK_RECORD.len(),
        classes.len(),
        "the table (print it with --nocapture):\n{table}"
    );
    for r in &TRACK_RECORD {
        let runs = &classes[&(r.architecture, r.precision, r.scale)];
        let (n, max, low, high) = spread(runs.iter().collect());
        assert_eq!((r.runs as usize, r.max_gpus), (n, max), "{r:?}\n{table}");
        assert!(
            (low - r.low).abs() < 0.006 && (high - r.high).abs() < 0.006,
            "{r:?}\n{table}"
        );
    }
}
