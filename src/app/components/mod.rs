//! The Yew components, one per file. Panels read the app state from the
//! context ([`AppContext`]); leaf components take plain props.

pub mod accuracy_table;
pub mod accuracy_view;
pub mod app;
pub mod calibration_panel;
pub mod calibration_table;
pub mod cluster_panel;
pub mod comparison_plot;
pub mod edition_note;
pub mod edition_panel;
pub mod explain_button;
pub mod explain_panel;
pub mod explanation_view;
pub mod exports;
pub mod facts_table;
pub mod findings;
pub mod glossary;
pub mod history;
pub mod input_section;
pub mod layer_row;
pub mod layer_table;
pub mod lesson_box;
pub mod lessons_list;
pub mod level_table;
pub mod linked_model;
pub mod media;
pub mod memory_plot;
pub mod model_doc_view;
pub mod model_import;
pub mod model_panel;
pub mod notice;
pub mod number_field;
pub mod plan_panel;
pub mod plan_plot;
pub mod plan_table;
pub mod plot_frame;
pub mod plot_marks;
pub mod practice_fields;
pub mod profile_note;
pub mod ranking_table;
pub mod run_panel;
pub mod scaling_plot;
pub mod select_field;
pub mod share_bar;
pub mod stale_note;
pub mod strategy_diagram;
pub mod strategy_picker;
pub mod why_wins;

use yew::UseReducerHandle;

use super::state::AppState;

/// The app state and its dispatcher, shared with every panel.
pub type AppContext = UseReducerHandle<AppState>;

/// Props of the components that show a view's results.
#[derive(yew::Properties, Clone, Debug)]
pub struct ViewProps {
    /// The view.
    pub view: std::rc::Rc<super::state::View>,
}

/// The caption of a view's exported plot: what it shows (the plot, the
/// network on the cluster, the budget, the batch, the edition) and the
/// link that reproduces it.
pub fn caption(view: &super::state::View, plot: &str) -> std::rc::Rc<Vec<String>> {
    let inputs = &view.inputs;
    let batch = match inputs.batch {
        crate::oracle::Batch::SamplesPerGpu(b) => format!("{b} samples per GPU"),
        crate::oracle::Batch::MiniBatch(b) => format!("mini-batch {b}"),
    };
    let link = view.link.as_deref().map_or_else(
        || "(too large for a link: download the network to share it)".to_string(),
        super::browser::share_url,
    );
    std::rc::Rc::new(vec![
        format!(
            "{plot}: {} on {}, {} GPUs, {batch}, {} edition",
            view.scenario.network().name(),
            view.scenario.cluster().name(),
            inputs.gpus,
            inputs.fidelity.name()
        ),
        format!("ParaDL oracle · {link}"),
    ])
}

impl PartialEq for ViewProps {
    fn eq(&self, other: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.view, &other.view)
    }
}
