//! "How accurate is this?": measured runs against the projection, and a
//! user's own calibration.

pub mod accuracy_table;
pub mod accuracy_view;
pub mod calibration_panel;
pub mod calibration_table;
