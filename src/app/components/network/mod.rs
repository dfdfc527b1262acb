//! The network panel: picking or importing a network (files dropped,
//! profiles), its layer table, and the notes on what was read.

pub mod file_drop;
pub mod layer_link;
pub mod layer_row;
pub mod layer_table;
pub mod linked_model;
pub mod model_import;
pub mod model_panel;
pub mod profile_drop;
pub mod profile_note;
