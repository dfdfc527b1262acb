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
