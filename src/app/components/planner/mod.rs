//! The planner: its budget, its Pareto front as a table and a plot.

pub mod plan_panel;
pub mod plan_plot;
pub mod plan_table;
