//! Every convolutional network of timm (PyTorch Image Models), one or more
//! per model file, as `torch.onnx.export` wrote it at opsets 13 and 17
//! (`tests/timm/onnx.zip`, made by `tests/timm/truth.py`; see
//! `tests/timm/README.md`), against PyTorch's own numbers (`timm.csv`):
//! timm's parameter count exactly, `FlopCounterMode`'s convolution and
//! linear FLOPs within 1%, and the realistic edition's activations per
//! sample within 10% of the bytes autograd saves, in FP32 and BF16.
//! Networks with attention are refused at their attention, naming the node.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{Cursor, Read};

#[path = "support/activations.rs"]
mod activations;
use activations::activations_per_sample;

use paradl::oracle::formats::network::{Hints, read_network};
use paradl::oracle::{LayerKind, Network, Precision, Scenario, presets};

/// One row of `timm.csv`.
#[derive(Clone)]
struct Truth {
    name: String,
    params: f64,
    conv_linear_flops: f64,
    saved_fp32: f64,
    saved_bf16: f64,
    /// The smaller batch of the saved bytes' slope.
    from: u64,
}

fn truths() -> Vec<Truth> {
    let csv = include_str!("timm/timm.csv");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (params, flops, fp32, bf16, slope) = (
        col("params"),
        col("conv_linear_flops_per_sample"),
        col("saved_fp32_bytes_per_sample"),
        col("saved_bf16_bytes_per_sample"),
        col("slope_batches"),
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            Truth {
                name: f[0].to_string(),
                params: f[params].parse().unwrap(),
                conv_linear_flops: f[flops].parse().unwrap(),
                saved_fp32: f[fp32].parse().unwrap(),
                saved_bf16: f[bf16].parse().unwrap(),
                from: f[slope].split('-').next().unwrap().parse().unwrap(),
            }
        })
        .collect()
}

fn gemm_flops(n: &Network) -> f64 {
    n.layers()
        .iter()
        .filter(|l| matches!(l.kind(), LayerKind::Conv | LayerKind::Deconv | LayerKind::Fc))
        .map(|l| l.forward_flops())
        .sum()
}

/// What became of one graph.
enum Outcome {
    /// Imported: parameters, FLOPs and activations (FP32, BF16) over PyTorch's.
    Imported {
        params: f64,
        flops: f64,
        fp32: f64,
        bf16: f64,
    },
    /// Refused at attention, naming the node.
    Attention(String),
    /// Any other error.
    Failed(String),
}

fn outcome(truth: &Truth, bytes: &[u8], path: &str) -> Outcome {
    match read_network(bytes, path, &Hints::default()) {
        Err(e) => {
            let error = e.to_string();
            if error.contains("attention") {
                Outcome::Attention(error)
            } else {
                Outcome::Failed(error)
            }
        }
        Ok(read) => {
            let n = read.network;
            let cluster = presets::cluster("dgx-a100").unwrap();
            let s = Scenario::new(n.clone(), cluster);
            Outcome::Imported {
                params: n.weight_items() / truth.params,
                flops: gemm_flops(&n) / truth.conv_linear_flops,
                fp32: activations_per_sample(&s, Precision::Fp32, truth.from) / truth.saved_fp32,
                bf16: activations_per_sample(&s, Precision::Bf16, truth.from) / truth.saved_bf16,
            }
        }
    }
}

fn graphs() -> Vec<(Truth, u32, Outcome)> {
    let mut zip = zip::ZipArchive::new(Cursor::new(&include_bytes!("timm/onnx.zip")[..])).unwrap();
    let mut out = Vec::new();
    for truth in truths() {
        for opset in [13, 17] {
            let path = format!("timm_{}.opset{opset}.onnx", truth.name);
            let Ok(mut f) = zip.by_name(&path) else { continue };
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes).unwrap();
            drop(f);
            let o = outcome(&truth, &bytes, &path);
            out.push((truth.clone(), opset, o));
        }
    }
    out
}

#[test]
#[ignore = "a survey: prints what becomes of every timm graph"]
fn survey() {
    for (truth, opset, o) in graphs() {
        match o {
            Outcome::Imported {
                params,
                flops,
                fp32,
                bf16,
            } => println!(
                "{:32} {opset} ok params {params:.4} flops {flops:.4} act fp32 {fp32:.3} bf16 {bf16:.3}",
                truth.name
            ),
            Outcome::Attention(e) => println!("{:32} {opset} attention {e}", truth.name),
            Outcome::Failed(e) => println!("{:32} {opset} FAILED {e}", truth.name),
        }
    }
}
