//! The importers against the frameworks' own numbers and against
//! strangers' files: ONNX graphs (the onnx project's, torchvision's, timm's,
//! detection exports), Keras models, ParaDL's files and JSON, presets,
//! profiles, and a fuzz harness (bad input is an error, never a panic).
#![cfg(not(target_arch = "wasm32"))]

#[path = "../support/mod.rs"]
mod support;
use support::{activations, columns, cuda_bf16, flops, generate, timm_zip};

mod detection;
mod formats;
mod fuzz;
mod keras;
mod onnx;
mod presets;
mod profile;
mod retinanet;
mod timm;
