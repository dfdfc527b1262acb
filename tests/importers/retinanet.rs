//! MLPerf's RetinaNet (ResNeXt50-32x4d + FPN, 800x800, heads shared over
//! five levels, frozen batch norms), imported from ONNX
//! (`tests/onnx/retinanet/`), against NVIDIA's published MLPerf Training
//! runs from one node to 2,528 H100s (`tests/validation/mlperf-retinanet.csv`,
//! made by `mlperf_retinanet_extract.py`): realistic edition, uncalibrated,
//! on the preset of each system, AMP in channels last, Adam, the gradient
//! exchange overlapped with the backward pass (PyTorch DDP). The accuracy
//! by scale is printed and held to today's: a guard, not a fit.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use crate::columns;

use paradl::oracle::formats::onnx;
use paradl::oracle::validation::throughput;
use paradl::oracle::{Batch, MemoryFormat, Optimizer, Precision, RunSpec, Scenario, Shape, Strategy, presets};

#[test]
fn retinanet_from_one_node_to_2528_gpus() {
    let bytes = std::fs::read(format!(
        "{}/tests/onnx/retinanet/retinanet_resnext50_fpn_mlperf.onnx",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // OpenImages-MLPerf's training images
    let network = onnx::read(&bytes, "retinanet", Some(&Shape::from([3, 800, 800])), 1_170_301)
        .unwrap()
        .network;
    let table = columns::rows(
        include_str!("../validation/mlperf-retinanet.csv"),
        ["system", "cluster", "gpus", "samples_per_gpu", "images_per_s_per_gpu"],
    );
    let mut by_scale: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for [system, cluster, gpus, samples, measured] in table {
        let n: u64 = gpus.parse().unwrap();
        let mut spec = presets::cluster(cluster).unwrap().spec().clone();
        spec.max_gpus = spec.max_gpus.max(n);
        let scenario = Scenario::new(network.clone(), paradl::oracle::Cluster::new(spec).unwrap());
        let settings = RunSpec {
            precision: Precision::Fp16,
            memory_format: MemoryFormat::Nhwc,
            optimizer: Optimizer::Adam,
            overlap: true,
            ..RunSpec::new(Strategy::Serial, 1, Batch::SamplesPerGpu(1.0))
        };
        let b: f64 = samples.parse().unwrap();
        let (projected, feasible) = throughput(&scenario, n, b, settings).unwrap();
        assert!(feasible, "{system}: it ran");
        let ratio = projected / n as f64 / measured.parse::<f64>().unwrap();
        println!("{system:32} {n:5} GPUs x {b:2}: projected/measured {ratio:.2}");
        let scale = match n {
            1..=8 => "1 node",
            9..=63 => "2-63",
            64..=511 => "64-511",
            _ => "512+",
        };
        by_scale.entry(scale).or_default().push(ratio);
    }
    let accuracy = |r: &f64| r.min(1.0 / r);
    for (scale, floor) in [("1 node", 0.8), ("64-511", 0.85), ("512+", 0.75)] {
        let ratios = &by_scale[scale];
        let mean = ratios.iter().map(accuracy).sum::<f64>() / ratios.len() as f64;
        println!("{scale}: {} runs, mean accuracy {mean:.3}", ratios.len());
        assert!(mean >= floor, "{scale}: {mean}");
        assert!(ratios.iter().all(|r| accuracy(r) > 0.6), "{scale}: {ratios:?}");
    }
}
