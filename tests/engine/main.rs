//! The engine against its contract (`src/oracle/ORACLE-MODEL.md`), a
//! module per concern: the contract's worked numbers, the strategies' terms,
//! the realistic edition, training practice, placement, properties that
//! hold for every input, explanations, the planner's search, ranking,
//! calibration, today's clusters, shared weights, and the layering of the
//! code itself.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../support/mod.rs"]
mod support;
use support::toy;

/// `got` equals `want` to 1e-9 of it (the engine's arithmetic against the
/// contract's, done another way).
fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1e-300),
        "got {got:e}, want {want:e}"
    );
}

mod calibration;
mod contract;
mod explain;
mod layering;
mod placement;
mod practice;
mod properties;
mod ranking;
mod realistic;
mod search;
mod shared_weights;
mod strategies;
mod today;
