//! The realistic edition against what was measured elsewhere: NVIDIA's
//! published ResNet-50 training throughput (tests/validation/), and
//! PyTorch's own count of the bytes autograd saves (tests/torch/, made by
//! tests/torch/truth.py; the tests read the CSV and never run PyTorch).
#![cfg(not(target_arch = "wasm32"))]

use crate::activations;
use activations::activations_per_sample;
use paradl::oracle::validation::{PublishedRun, project_published};
use paradl::oracle::{Batch, MemoryFormat, Optimizer, Precision, RunSpec, Strategy, presets};

/// One published run: cluster preset, GPUs, precision, batch per GPU and
/// images per second.
struct Published {
    cluster: &'static str,
    gpus: u64,
    precision: Precision,
    batch_per_gpu: f64,
    images_per_s: f64,
}

/// The rows of one of DeepLearningExamples' tables (`tests/validation/dle-*.csv`).
fn dle_rows(text: &str) -> Vec<Published> {
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            Published {
                cluster: match f[1] {
                    "A100-80GB" => "dgx-a100",
                    "V100-16GB" => "dgx1-v100-16gb",
                    "V100-32GB" => "dgx1-v100-32gb",
                    other => panic!("no preset for {other}"),
                },
                gpus: f[2].parse().unwrap(),
                precision: match f[5] {
                    "TF32" => Precision::Tf32,
                    "FP32" => Precision::Fp32,
                    "AMP" => Precision::Fp16,
                    other => panic!("precision {other}"),
                },
                batch_per_gpu: f[6].parse().unwrap(),
                images_per_s: f[8].parse().unwrap(),
            }
        })
        .collect()
}

/// Projects each run of `rows` (data parallelism, serial on one GPU; AMP in
/// channels last as the examples' scripts train it) and returns the
/// accuracy of each, asserting that it fits (it ran).
fn project_runs(model: &str, optimizer: Optimizer, rows: Vec<Published>) -> Vec<f64> {
    let mut accuracies = Vec::new();
    for row in rows {
        let s = presets::scenario(model, row.cluster).unwrap();
        let strategy = if row.gpus == 1 {
            Strategy::Serial
        } else {
            Strategy::Data
        };
        let p = s
            .project(&RunSpec {
                precision: row.precision,
                optimizer,
                // the examples' AMP scripts train channels last (--memory-format nhwc)
                memory_format: if row.precision == Precision::Fp16 {
                    MemoryFormat::Nhwc
                } else {
                    MemoryFormat::Nchw
                },
                ..RunSpec::new(strategy, row.gpus, Batch::SamplesPerGpu(row.batch_per_gpu))
            })
            .unwrap();
        let what = format!(
            "{model} on {} {} GPUs {} at {}",
            row.cluster, row.gpus, row.precision, row.batch_per_gpu
        );
        assert!(p.feasible, "{what}: {:?}", p.violations);
        let projected = p.mini_batch as f64 * p.iterations as f64 / p.total_s;
        let accuracy = (projected / row.images_per_s).min(row.images_per_s / projected);
        println!(
            "{what}: {projected:.0} img/s against {}: accuracy {accuracy:.2}",
            row.images_per_s
        );
        accuracies.push(accuracy);
    }
    accuracies
}

/// The least accuracy of an EfficientNet-B0 run, and their mean, as the
/// kernel model stands: the one-GPU runs within 17%, the 8-GPU FP16 runs
/// 1.4x too fast (measured, they scale 6.0-6.7x from one GPU to 8, where
/// the exchange of 5.3 M gradients over NVLink costs the model little).
/// With the depthwise gradients charged as the forward pass (before their
/// measured slowdown) the mean was 0.67. A guard against getting worse.
const MIN_EFFICIENTNET: f64 = 0.65;
const MEAN_EFFICIENTNET: f64 = 0.8;

/// A table of runs: `count` rows of `csv`, projected on the preset `model`
/// trained with `optimizer`; each run within `least` of its measured
/// throughput (as an accuracy, min(p/m, m/p)), their mean within `mean`.
struct Table {
    csv: &'static str,
    count: usize,
    model: &'static str,
    optimizer: Optimizer,
    least: f64,
    mean: f64,
}

fn check(table: Table) {
    let rows = dle_rows(table.csv);
    assert_eq!(rows.len(), table.count);
    let accuracies = project_runs(table.model, table.optimizer, rows);
    let mean = accuracies.iter().sum::<f64>() / accuracies.len() as f64;
    println!("{}: mean accuracy {mean:.3}", table.model);
    assert!(accuracies.iter().all(|a| *a >= table.least), "{accuracies:?}");
    assert!(mean >= table.mean, "{mean}");
}

#[test]
fn the_twelve_deep_learning_examples_runs_fit_and_are_projected_within_30_percent() {
    check(Table {
        csv: include_str!("../validation/dle-resnet50-pytorch.csv"),
        count: 12,
        model: "resnet50",
        optimizer: Optimizer::Momentum,
        least: 0.7,
        mean: 0.85,
    });
}

/// NVIDIA's ResNeXt-101 (32x4d): grouped 3x3 convolutions (32 groups of
/// 4 to 32 channels) between dense 1x1 ones, SGD with momentum at the batch
/// its configs give.
#[test]
fn the_twelve_resnext101_runs_fit_and_are_projected_within_30_percent() {
    check(Table {
        csv: include_str!("../validation/dle-resnext101-pytorch.csv"),
        count: 12,
        model: "resnext101",
        optimizer: Optimizer::Momentum,
        least: 0.7,
        mean: 0.85,
    });
}

/// NVIDIA's SE-ResNeXt-101 (32x4d): ResNeXt-101 with a squeeze-and-
/// excitation gate on every block (two tiny fully connected layers on the
/// pooled channels, a sigmoid and a product over the whole block output).
#[test]
fn the_twelve_seresnext101_runs_fit_and_are_projected_within_30_percent() {
    check(Table {
        csv: include_str!("../validation/dle-seresnext101-pytorch.csv"),
        count: 12,
        model: "seresnext101",
        optimizer: Optimizer::Momentum,
        least: 0.7,
        mean: 0.85,
    });
}

/// NVIDIA's EfficientNet-B0 (the same network as torchvision's, 5.3 M
/// parameters), trained with RMSprop (two state buffers, as Adam's) at the
/// batch its configs give: depthwise and squeeze-excitation layers, the
/// class of network the kernel model projects too fast (issue 26).
#[test]
fn the_eight_efficientnet_runs_fit_and_are_projected_within_a_factor() {
    check(Table {
        csv: include_str!("../validation/dle-efficientnet-b0-pytorch.csv"),
        count: 8,
        model: "efficientnet-b0",
        optimizer: Optimizer::Adam,
        least: MIN_EFFICIENTNET,
        mean: MEAN_EFFICIENTNET,
    });
}

/// PyTorch's numbers for a torchvision network: saved bytes per sample in
/// FP32 and in BF16 autocast.
fn autograd_saved(model: &str) -> Option<(f64, f64)> {
    let text = include_str!("../torch/torchvision.csv");
    text.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split(',').collect();
        (f[0] == model).then(|| (f[4].parse().unwrap(), f[5].parse().unwrap()))
    })
}

#[test]
fn presets_hold_what_autograd_saves() {
    // every preset with a torchvision twin built from the same architecture
    for (preset, twin) in [
        ("resnet18", "resnet18"),
        ("resnet152", "resnet152"),
        ("mobilenet-v2", "mobilenet_v2"),
        ("efficientnet-b0", "efficientnet_b0"),
        ("convnext-tiny", "convnext_tiny"),
        ("resnext50", "resnext50_32x4d"),
        ("densenet121", "densenet121"),
        ("resnet50-torchvision", "resnet50"),
        ("vgg16-torchvision", "vgg16"),
    ] {
        let (fp32, bf16) = autograd_saved(twin).unwrap_or_else(|| panic!("no PyTorch row for {twin}"));
        for (precision, truth) in [(Precision::Fp32, fp32), (Precision::Bf16, bf16)] {
            let ours = activations_per_sample(&presets::scenario(preset, "dgx-a100").unwrap(), precision, 1);
            let ratio = ours / truth;
            println!("{preset} {precision}: {ours:.0} against autograd's {truth:.0} bytes a sample ({ratio:.3})");
            assert!((0.85..=1.35).contains(&ratio), "{preset} {precision}: {ratio}");
        }
    }
}

/// One MLPerf run of a fixture: its system, cluster preset, training GPUs,
/// samples a GPU and measured samples a second.
#[derive(Clone, Copy)]
struct MlperfRun<'a> {
    system: &'a str,
    cluster: &'a str,
    gpus: u64,
    batch: f64,
    measured: f64,
}

/// The runs of `validation/mlperf-*.csv`, columns found by their header.
fn mlperf_runs(text: &str) -> Vec<MlperfRun<'_>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |names: &[&str]| header.iter().position(|h| names.contains(h)).unwrap();
    let (system, cluster) = (column(&["system"]), column(&["cluster"]));
    let gpus = column(&["gpus", "training_gpus"]);
    let (batch, measured) = (column(&["batch_per_gpu"]), column(&["images_per_s", "samples_per_s"]));
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            MlperfRun {
                system: f[system],
                cluster: f[cluster],
                gpus: f[gpus].parse().unwrap(),
                batch: f[batch].parse().unwrap(),
                measured: f[measured].parse().unwrap(),
            }
        })
        .collect()
}

impl MlperfRun<'_> {
    /// The samples a second projected for this run of `model` on its preset
    /// (enlarged to the run's GPUs where the run was larger): data
    /// parallelism in FP16 channels last, a momentum buffer (LARS, SGD), the
    /// gradient exchange overlapped with the backward pass as MXNet runs it.
    /// Asserts that the run fits (it ran).
    fn projected(&self, model: &str) -> f64 {
        let p = project_published(PublishedRun {
            source: "MLPerf Training".into(),
            system: self.system.into(),
            model: model.into(),
            cluster: self.cluster.into(),
            gpus: self.gpus,
            samples_per_gpu: self.batch,
            precision: Precision::Fp16,
            memory_format: MemoryFormat::Nhwc,
            optimizer: Optimizer::Momentum,
            overlap: true,
            measured_samples_per_s: self.measured,
            reference: String::new(),
        })
        .unwrap();
        assert!(p.feasible, "{} with {model}", self.system);
        p.projected_samples_per_s
    }
}

/// NVIDIA's MLPerf Training ResNet-50 runs (`validation/mlperf-resnet50.csv`,
/// made by `validation/mlperf_resnet_extract.py`, see `validation/mlperf.md`):
/// MXNet, FP16 channels last, LARS (a momentum buffer), the gradient
/// exchange overlapped with the backward pass; 8 to 4,320 GPUs of V100, A100,
/// H100 and H200. Each projected with data parallelism on its preset,
/// enlarged to the run's GPU count where the run was larger.
#[test]
fn mlperf_resnet50_runs_are_projected_from_one_gpu_to_thousands() {
    let (mut all, mut at_scale) = (Vec::new(), Vec::new());
    for run in mlperf_runs(include_str!("../validation/mlperf-resnet50.csv")) {
        let MlperfRun {
            system, gpus, batch, ..
        } = run;
        let ratio = run.projected("resnet50-torchvision") / run.measured;
        let accuracy = ratio.min(1.0 / ratio);
        println!("{system} {gpus} GPUs at {batch}: projected / measured {ratio:.2}");
        // no run off by more than 30%
        assert!(accuracy >= 0.7, "{system}: {ratio}");
        all.push(accuracy);
        if gpus >= 512 {
            at_scale.push(accuracy);
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "MLPerf ResNet-50: {} runs, mean accuracy {:.3}; {} at 512 GPUs or more, {:.3}",
        all.len(),
        mean(&all),
        at_scale.len(),
        mean(&at_scale)
    );
    assert_eq!(all.len(), 24);
    assert!(mean(&all) >= 0.85, "{}", mean(&all));
    // at scale (15-42 samples a GPU) within 15% on average
    assert!(mean(&at_scale) >= 0.85, "{}", mean(&at_scale));
}

/// NVIDIA's MLPerf Training 3D U-Net runs without a spatial split
/// (`validation/mlperf-unet3d.csv`: one node at 7 samples a GPU, 56 GPUs at
/// one), MXNet in FP16, projected with data parallelism on the `unet3d`
/// preset. The A100 runs are projected 1.45-1.7x too slow (their instance
/// norms and activations are fused kernels, which the model runs one by one
/// at the STREAM bandwidth); the H100 and H200 runs within 20%. A guard, not
/// a goal.
#[test]
fn mlperf_unet3d_runs_are_projected_within_a_factor() {
    let mut accuracies = Vec::new();
    for run in mlperf_runs(include_str!("../validation/mlperf-unet3d.csv")) {
        let MlperfRun {
            system, gpus, batch, ..
        } = run;
        let ratio = run.projected("unet3d") / run.measured;
        println!("{system} {gpus} GPUs at {batch}: projected / measured {ratio:.2}");
        assert!((0.55..=1.1).contains(&ratio), "{system}: {ratio}");
        accuracies.push(ratio.min(1.0 / ratio));
    }
    let mean = accuracies.iter().sum::<f64>() / accuracies.len() as f64;
    println!("MLPerf 3D U-Net: {} runs, mean accuracy {mean:.3}", accuracies.len());
    assert_eq!(accuracies.len(), 12);
    assert!(mean >= 0.7, "{mean}");
}
