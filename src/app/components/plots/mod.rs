//! The plots of an answer (scaling, comparison, memory) and their frame and
//! marks; each draws with a module of [`crate::app::charts`].

pub mod comparison_plot;
pub mod gpu_range;
pub mod memory_plot;
pub mod plot_frame;
pub mod plot_marks;
pub mod plot_metric;
pub mod scaling_plot;
