//! The cluster panel: the cluster's facts, its switch levels, and what the
//! realistic edition fell back on.

pub mod cluster_panel;
pub mod facts_table;
pub mod fallback_note;
pub mod level_table;
pub mod node_builder;
