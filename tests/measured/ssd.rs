//! SSD300 as the published runs define it, imported from ONNX
//! (`tests/onnx/ssd/`, made by `ssd.py` from the runs' own model code):
//! NVIDIA DeepLearningExamples' SSD300 with a ResNet-50 backbone and
//! MLPerf Training's SSD with a ResNet-34 one, with PyTorch's own numbers
//! (`truth.csv`), then projected against the published runs: NVIDIA's
//! DeepLearningExamples tables on DGX-1 V100 and DGX A100, 1 to 8 GPUs
//! (`validation/dle-ssd300-pytorch.csv`, the newest README of each
//! configuration), and NVIDIA's MLPerf Training v0.6-v1.1 SSD runs from 8
//! to 1,024 GPUs (`validation/mlperf-ssd.csv`; both made by the scripts
//! beside them, setups in `validation/detection-runs.md`): realistic
//! edition, uncalibrated, on the preset of each system, SGD with
//! momentum, the gradient exchange overlapped (DDP). Accuracy printed and
//! held to today's: a guard, not a fit.
#![cfg(not(target_arch = "wasm32"))]

use crate::columns;
use crate::flops;
use flops::gemm_flops;

use paradl::oracle::formats::onnx;
use paradl::oracle::validation::throughput;
use paradl::oracle::{Batch, Network, Precision, RunSpec, Scenario, Shape, Strategy, presets};

/// COCO 2017's training images.
const COCO_TRAIN: u64 = 117_266;

fn network(name: &str) -> Network {
    let path = format!("{}/tests/onnx/ssd/{name}.onnx", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(path).unwrap();
    onnx::read(&bytes, name, Some(&Shape::from([3, 300, 300])), COCO_TRAIN)
        .unwrap()
        .network
}

/// Images per second per GPU projected over measured, for `gpus` GPUs of
/// `cluster` at `samples` per GPU.
fn ratio(network: &Network, cluster: &str, gpus: u64, samples: f64, precision: Precision, measured: f64) -> f64 {
    let mut spec = presets::cluster(cluster).unwrap().spec().clone();
    spec.max_gpus = spec.max_gpus.max(gpus);
    let scenario = Scenario::new(network.clone(), paradl::oracle::Cluster::new(spec).unwrap());
    let settings = crate::as_trained(
        RunSpec::new(Strategy::Serial, 1, Batch::SamplesPerGpu(1.0)),
        precision,
        true,
    );
    let (projected, feasible) = throughput(&scenario, gpus, samples, settings).unwrap();
    assert!(feasible, "{cluster} {gpus} GPUs at {samples}: it ran");
    projected / gpus as f64 / measured
}

fn accuracy(ratio: f64) -> f64 {
    ratio.min(1.0 / ratio)
}

#[test]
fn both_ssds_import_with_pytorchs_numbers() {
    let mut lines = include_str!("../onnx/ssd/truth.csv").lines();
    assert_eq!(
        lines.next(),
        Some("network,input,params,forward_flops,saved_fp32_bytes_per_image")
    );
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let n = network(f[0]);
        assert_eq!(n.weight_items(), f[2].parse::<f64>().unwrap(), "{}", f[0]);
        let flops = gemm_flops(&n) / f[3].parse::<f64>().unwrap();
        assert!((flops - 1.0).abs() <= 0.01, "{}: {flops}", f[0]);
    }
}

#[test]
fn deep_learning_examples_ssd300_runs() {
    let n = network("ssd_resnet50_nvidia");
    let mut lines = include_str!("../validation/dle-ssd300-pytorch.csv").lines();
    assert_eq!(
        lines.next(),
        Some("model,cluster,gpus,samples_per_gpu,precision,images_per_s_per_gpu,readme_date,commit,file")
    );
    let mut accuracies = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let precision = match f[4] {
            "AMP" => Precision::Fp16,
            "TF32" => Precision::Tf32,
            _ => Precision::Fp32,
        };
        let (gpus, samples, measured) = (f[2].parse().unwrap(), f[3].parse().unwrap(), f[5].parse().unwrap());
        let r = ratio(&n, f[1], gpus, samples, precision, measured);
        println!(
            "{:16} {gpus} GPUs x {samples:3} {:4}: projected/measured {r:.2}",
            f[1], f[4]
        );
        assert!((0.4..=2.5).contains(&r), "{line}: {r}");
        accuracies.push(accuracy(r));
    }
    let mean = accuracies.iter().sum::<f64>() / accuracies.len() as f64;
    println!("DLE SSD300: {} runs, mean accuracy {mean:.3}", accuracies.len());
    assert_eq!(accuracies.len(), 33);
    assert!(mean >= 0.6, "{mean}");
}

#[test]
fn mlperf_ssd_runs_from_one_node_to_1024_gpus() {
    let n = network("ssd_resnet34_mlperf");
    let table = columns::rows(
        include_str!("../validation/mlperf-ssd.csv"),
        ["system", "cluster", "gpus", "samples_per_gpu", "images_per_s_per_gpu"],
    );
    let (mut node, mut scale) = (Vec::new(), Vec::new());
    for [system, cluster, gpus, samples, measured] in table {
        let g: u64 = gpus.parse().unwrap();
        let b: f64 = samples.parse().unwrap();
        let r = ratio(&n, cluster, g, b, Precision::Fp16, measured.parse().unwrap());
        println!("{system:32} {g:5} GPUs x {b:3}: projected/measured {r:.2}");
        assert!((0.4..=2.5).contains(&r), "{system}: {r}");
        if g <= 8 { &mut node } else { &mut scale }.push(accuracy(r));
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "MLPerf SSD: 1 node {} runs, mean accuracy {:.3}; more {} runs, {:.3}",
        node.len(),
        mean(&node),
        scale.len(),
        mean(&scale)
    );
    assert!(mean(&node) >= 0.6 && mean(&scale) >= 0.5);
}
