//! The run panel: mini-batch, GPUs, how the run trains, the strategies
//! compared and the edition.

pub mod convergence_field;
pub mod costs_fields;
pub mod edition_panel;
pub mod practice_fields;
pub mod run_field;
pub mod run_panel;
pub mod strategy_picker;
