//! torchvision's detection networks (FCOS, RetinaNet v2, SSD300, SSDlite,
//! Faster/Mask/Keypoint R-CNN) and segmentation networks (FCN, DeepLabv3,
//! LR-ASPP) and a U-Net, exported whole as users export them
//! (`tests/onnx/detection/`, made by `det.py` with torch.onnx, weights
//! lightened): each imports — the input transform of one image without
//! its batch axis, heads joined along their anchors, the inference-only
//! post-processing dropped, and a two-stage detector's second stage left
//! out with its parameters said — with PyTorch's own numbers
//! (`truth.csv`, from `det.py`): the parameter count exactly, convolution
//! and matrix FLOPs within 1% of `FlopCounterMode`'s, and the activations
//! autograd saves within a band.
#![cfg(not(target_arch = "wasm32"))]

use crate::activations;
use crate::flops;
use activations::activations_per_sample;
use flops::gemm_flops;

use paradl::oracle::formats::onnx;
use paradl::oracle::{Precision, Scenario, Shape, presets};

const SECOND_STAGE: &str = "parameters of the second stage, not counted";

#[test]
fn every_torchvision_detection_and_segmentation_network_imports_whole() {
    let cluster = presets::cluster("dgx-a100").unwrap();
    let csv = include_str!("../onnx/detection/truth.csv");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("network,family,input,params,second_stage_params,first_stage_forward_flops,saved_fp32_bytes_per_image")
    );
    let mut count = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let name = f[0];
        let shape: Vec<u64> = f[2].split('x').map(|d| d.parse().unwrap()).collect();
        let number = |i: usize| f[i].parse::<f64>().unwrap();
        let (params, second, flops, saved) = (number(3) as u64, number(4) as u64, number(5), number(6));
        let path = format!("{}/tests/onnx/detection/{name}.onnx", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        // without a shape: the graph's input holds the image's own sizes
        let imported = onnx::read(&bytes, name, None, 1000).unwrap_or_else(|e| panic!("{name}: {e}"));
        let given = onnx::read(&bytes, name, Some(&Shape::new(shape.clone())), 1000).unwrap();
        assert_eq!(imported, given, "{name}: the input's sizes are the image's");
        let n = &imported.network;
        assert_eq!(n.dataset().sample_shape.dims(), shape.as_slice(), "{name}");
        assert_eq!(n.weight_items(), (params - second) as f64, "{name}: parameters");
        assert_eq!(
            imported.merged.get(SECOND_STAGE).copied().unwrap_or(0) as u64,
            second,
            "{name}: the second stage's parameters said"
        );
        if f[1] == "det" {
            let dropped: usize = imported
                .merged
                .iter()
                .filter(|(op, _)| op.contains("inference-only post-processing"))
                .map(|(_, k)| k)
                .sum();
            assert!(dropped > 0, "{name}: its post-processing is dropped and said");
        }
        let ratio = gemm_flops(n) / flops;
        let scenario = Scenario::new(n.clone(), cluster.clone());
        let from = if name.starts_with("deeplabv3") || name.starts_with("ssdlite") {
            2
        } else {
            1
        };
        let fp32 = activations_per_sample(&scenario, Precision::Fp32, from) / saved;
        println!("{name:32} FLOPs {ratio:.4}  FP32 activations / autograd's {fp32:.3}");
        assert!((ratio - 1.0).abs() <= 0.01, "{name}: FLOPs {ratio}");
        // what no export carries: RetinaNet's focal loss over 9 anchors x 91 classes at every
        // position, and a two-stage detector's second stage (its box head on 512 sampled
        // proposals, v2's four convolutions each)
        let low = match name {
            "retinanet_resnet50_fpn_v2" => 0.75,
            _ if second > 0 => 0.7,
            _ => 0.9,
        };
        assert!((low..=1.1).contains(&fp32), "{name}: FP32 activations {fp32}");
        count += 1;
    }
    assert_eq!(count, 13);
}

/// Ultralytics' YOLOv8n and YOLOv5n as `model.export(format='onnx')` writes
/// them (`tests/onnx/yolo/`, made by `export.py`): the fused model's
/// parameters exactly (ultralytics folds each batch norm into its
/// convolution first; `cnt.py` counts them in PyTorch), the Detect head's
/// anchor points and strides (`Constant` nodes) no parameters; YOLO11n's
/// attention (its context written `V·Aᵀ`) too. A network without a fused
/// count is refused at its attention product, naming the node.
#[test]
fn ultralytics_yolo_exports_import_with_the_fused_models_parameters() {
    let mut lines = include_str!("../onnx/yolo/truth.csv").lines();
    assert_eq!(lines.next(), Some("network,params,fused_params"));
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let path = format!("{}/tests/onnx/yolo/{}.onnx", env!("CARGO_MANIFEST_DIR"), f[0]);
        let bytes = std::fs::read(&path).unwrap();
        let read = onnx::read(&bytes, f[0], None, 1000);
        match f[2].parse::<f64>() {
            Ok(fused) => {
                let n = read.unwrap_or_else(|e| panic!("{}: {e}", f[0])).network;
                assert_eq!(n.weight_items(), fused, "{}", f[0]);
                assert_eq!(n.dataset().sample_shape.dims(), [3, 640, 640]);
            }
            Err(_) => {
                let error = read.unwrap_err().to_string();
                assert!(
                    error.contains("attention") && error.contains("MatMul"),
                    "{}: {error}",
                    f[0]
                );
            }
        }
    }
}
