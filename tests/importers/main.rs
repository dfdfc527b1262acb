//! The importers against the frameworks' own numbers and against
//! strangers' files: ONNX graphs (the onnx project's, torchvision's, timm's,
//! detection exports), Keras models, ParaDL's files and JSON, presets,
//! profiles, and a fuzz harness (bad input is an error, never a panic).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../support/activations.rs"]
#[allow(dead_code)]
mod activations;
#[path = "../support/columns.rs"]
#[allow(dead_code)]
mod columns;
#[path = "../support/cuda_bf16.rs"]
#[allow(dead_code)]
mod cuda_bf16;
#[path = "../support/flops.rs"]
#[allow(dead_code)]
mod flops;
#[path = "../support/generate.rs"]
#[allow(dead_code)]
mod generate;
#[path = "../support/timm_zip.rs"]
mod timm_zip;

mod detection;
mod formats;
mod fuzz;
mod keras;
mod onnx;
mod presets;
mod profile;
mod retinanet;
mod timm;
