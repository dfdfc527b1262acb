//! Every network PyTorch's torchvision and Keras's applications hold,
//! imported as their own exporters wrote them, against the frameworks' own
//! numbers (made by tests/torch/truth.py and tests/keras/apps.py, committed
//! with the files; the tests never run PyTorch or Keras):
//!
//! - every torchvision classification and segmentation network, exported
//!   by `torch.onnx.export` at opsets 13 and 17 (`tests/torch/onnx.zip`):
//!   torchvision's parameter count exactly, convolution and matrix FLOPs
//!   within 1% of `FlopCounterMode`'s, and the realistic edition's
//!   activations per sample within 0.85 to 1.35 of the bytes autograd
//!   saves, in FP32 and BF16; the transformers (section 15) the same, their
//!   attention products counted, or refused naming the node the importer
//!   cannot read;
//! - every keras.applications network, written by Keras 3 as JSON and as a
//!   `.keras` archive (`tests/keras/applications.zip`): Keras's trainable
//!   parameter count exactly.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{Cursor, Read};

use crate::activations;
use crate::cuda_bf16;
use crate::flops;
use activations::activations_per_sample;
use flops::all_flops;

use paradl::oracle::formats::network::{Hints, read_network};
use paradl::oracle::{Precision, Scenario, presets};

/// Networks with attention (section 15): imported with PyTorch's numbers,
/// or refused naming the node the importer cannot read yet.
const TRANSFORMERS: [&str; 3] = ["vit_", "swin_", "maxvit_"];

fn archive(bytes: &'static [u8]) -> zip::ZipArchive<Cursor<&'static [u8]>> {
    zip::ZipArchive::new(Cursor::new(bytes)).unwrap()
}

fn file(zip: &mut zip::ZipArchive<Cursor<&'static [u8]>>, name: &str) -> Option<Vec<u8>> {
    let mut f = zip.by_name(name).ok()?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).unwrap();
    Some(bytes)
}

#[test]
fn every_torchvision_network_imports_with_pytorchs_own_numbers() {
    let mut zip = archive(include_bytes!("../torch/onnx.zip"));
    let cluster = presets::cluster("dgx-a100").unwrap();
    let csv = include_str!("../torch/torchvision.csv");
    let cuda = cuda_bf16::saved_bytes(include_str!("../torch/cuda_bf16.csv"));
    let (mut imported, mut refused, mut cuda_checked) = (0, 0, 0);
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (name, params, flops) = (f[0], f[2].parse::<f64>().unwrap(), f[3].parse::<f64>().unwrap());
        let (saved32, saved16) = (f[4].parse::<f64>().unwrap(), f[5].parse::<f64>().unwrap());
        let transformer = TRANSFORMERS.iter().any(|p| name.starts_with(p));
        for opset in [13, 17] {
            let path = format!("tv_{name}.opset{opset}.onnx");
            let Some(bytes) = file(&mut zip, &path) else {
                // PyTorch could not export it at this opset (ViT's attention at 13)
                assert!(transformer, "{path} is missing");
                continue;
            };
            let result = read_network(&bytes, &path, &Hints::default());
            let n = match result {
                Err(e) if transformer => {
                    let error = e.to_string();
                    assert!(error.contains("node "), "{path}: {error}");
                    refused += 1;
                    continue;
                }
                Err(e) => panic!("{path}: {e}"),
                Ok(read) => read.network,
            };
            assert_eq!(n.weight_items(), params, "{path}: parameters");
            let ratio = all_flops(&n) / flops;
            assert!((ratio - 1.0).abs() <= 0.01, "{path}: FLOPs {ratio}");
            imported += 1;
            if opset == 17 {
                // DeepLabv3 cannot train on one sample: PyTorch's slope is between 2 and 3
                let from = if name.starts_with("deeplabv3") { 2 } else { 1 };
                let scenario = Scenario::new(n.clone(), cluster.clone());
                let fp32 = activations_per_sample(&scenario, Precision::Fp32, from) / saved32;
                assert!((0.9..=1.1).contains(&fp32), "{path}: FP32 activations {fp32}");
                let bf16 = activations_per_sample(&scenario, Precision::Bf16, from);
                // BF16 as CUDA's autocast runs it (cuda_bf16.csv, tests/timm/cuda_amp.py), where
                // measured; the CPU's autocast runs layer norms in 16 bits (ConvNeXt: 1.09 times
                // fewer bytes there)
                match cuda.get(name) {
                    Some(truth) => {
                        let ratio = bf16 / truth;
                        assert!(
                            (0.9..=1.1).contains(&ratio),
                            "{path}: BF16 activations {ratio} of CUDA's"
                        );
                        cuda_checked += 1;
                    }
                    None => {
                        let ratio = bf16 / saved16;
                        assert!((0.85..=1.35).contains(&ratio), "{path}: BF16 activations {ratio}");
                    }
                }
            }
        }
    }
    println!("{imported} graphs imported, {refused} transformers refused, {cuda_checked} checked against CUDA's BF16");
    assert!(imported >= 167, "{imported}");
    // every transformer imports: ViT's five (nn.MultiheadAttention, its batch moved and folded
    // with the heads), Swin's and Swin V2's twelve (a shifted-window mask written in place, a
    // position bias an MLP computes from constants, a channels-last pad), MaxViT's two (Einsum)
    assert_eq!(refused, 0, "transformers refused");
    // every network that imports at opset 17 (74 without the transformers)
    assert!(cuda_checked >= 74, "{cuda_checked}");
}

#[test]
fn every_keras_application_imports_with_keras_own_parameter_count() {
    let mut zip = archive(include_bytes!("../keras/applications.zip"));
    let csv = include_str!("../keras/applications.csv");
    let mut count = 0;
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (name, trainable) = (f[0], f[2].parse::<f64>().unwrap());
        for ext in ["json", "keras"] {
            let path = format!("{name}.{ext}");
            let bytes = file(&mut zip, &path).unwrap_or_else(|| panic!("{path} is missing"));
            let n = read_network(&bytes, &path, &Hints::default())
                .unwrap_or_else(|e| panic!("{path}: {e}"))
                .network;
            assert_eq!(n.weight_items(), trainable, "{path}: trainable parameters");
            count += 1;
        }
    }
    assert!(count >= 78, "{count}");
}
