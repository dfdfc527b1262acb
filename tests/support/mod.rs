//! What the test suites share, declared once per suite by its `main.rs`
//! (`#[path = "../support/mod.rs"] mod support;`): each suite uses what it
//! needs, so the rest is dead code there.
#![allow(dead_code)]

pub mod activations;
pub mod columns;
pub mod cuda_bf16;
pub mod flops;
pub mod generate;
pub mod page;
pub mod timm_zip;
pub mod toy;
pub mod web;
