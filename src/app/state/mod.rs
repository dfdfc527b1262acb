//! The app's state and its one reducer: the editors hold what the user
//! typed; the view holds the last inputs that were valid and their results.

pub mod cluster_editor;
pub mod fields;
pub mod inputs;
pub mod model_editor;
pub mod run_editor;

use std::rc::Rc;

use yew::Reducible;

use self::cluster_editor::ClusterEditor;
use self::fields::Errors;
use self::inputs::{ClusterSource, Inputs, ModelSource};
use self::model_editor::{LayerColumn, ModelEditor};
use self::run_editor::{BatchMode, RunEditor};
use super::results::Results;
use crate::oracle::{LayerKind, Scenario, Strategy};

/// Valid inputs and what they give.
#[derive(Debug)]
pub struct View {
    /// The inputs (what the share link carries).
    pub inputs: Inputs,
    /// The network on the cluster.
    pub scenario: Rc<Scenario>,
    /// The projections.
    pub results: Results,
    /// The editors the network and cluster were built from (while they
    /// stay the same, only the run is rebuilt).
    built_from: (ModelEditor, ClusterEditor),
}

impl PartialEq for View {
    fn eq(&self, other: &Self) -> bool {
        self.inputs == other.inputs
    }
}

/// Everything the user can do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Load a network preset.
    PickModel(String),
    /// Load a pasted or uploaded `.net` or JSON network.
    ImportModel(String),
    /// Type in a layer cell.
    EditLayer(usize, LayerColumn, String),
    /// Change a layer's kind.
    SetLayerKind(usize, LayerKind),
    /// Insert a layer after this one.
    InsertLayer(usize),
    /// Remove a layer.
    RemoveLayer(usize),
    /// Move a layer up (`true`) or down.
    MoveLayer(usize, bool),
    /// Type the dataset size.
    SetSamples(String),
    /// Load a cluster preset.
    PickCluster(String),
    /// Type in a cluster field (engine path, text).
    EditCluster(String, String),
    /// Add a switch level.
    AddLevel,
    /// Remove a switch level.
    RemoveLevel(usize),
    /// Type the GPU budget.
    SetGpus(String),
    /// Choose samples per GPU or a global mini-batch.
    SetBatchMode(BatchMode),
    /// Type the samples per GPU.
    SetSamplesPerGpu(String),
    /// Type the mini-batch.
    SetMiniBatch(String),
    /// Show or hide a strategy.
    ToggleStrategy(Strategy),
    /// Type the bytes per item.
    SetBytesPerItem(String),
    /// Type the pipeline segments.
    SetSegments(String),
    /// Type the hybrid group size.
    SetGroupSize(String),
    /// Hide the notice.
    DismissNotice,
}

/// The app's state.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The network editor.
    pub model: ModelEditor,
    /// The cluster editor.
    pub cluster: ClusterEditor,
    /// The run editor.
    pub run: RunEditor,
    /// Errors by field key.
    pub errors: Errors,
    /// Why the last import failed.
    pub import_error: Option<String>,
    /// A message about the link or saved state the page was opened with.
    pub notice: Option<String>,
    /// The last valid inputs and their results.
    pub view: Option<Rc<View>>,
}

impl AppState {
    /// The state showing `inputs` (the defaults if they cannot be shown),
    /// with an optional notice.
    pub fn new(inputs: Inputs, notice: Option<String>) -> Self {
        let loaded = ModelEditor::from_source(&inputs.model)
            .and_then(|m| ClusterEditor::from_source(&inputs.cluster).map(|c| (m, c)));
        let (inputs, model, cluster, notice) = match loaded {
            Ok((m, c)) => (inputs, m, c, notice),
            Err(e) => {
                let defaults = Inputs::default();
                let m = ModelEditor::from_source(&defaults.model).unwrap_or_default();
                let c = ClusterEditor::from_source(&defaults.cluster).unwrap_or_default();
                (defaults, m, c, Some(format!("{e}; showing the defaults")))
            }
        };
        let mut state = Self {
            model,
            cluster,
            run: RunEditor::from_inputs(&inputs),
            errors: Errors::new(),
            import_error: None,
            notice,
            view: None,
        };
        state.refresh();
        state
    }

    /// The error of a field, if any.
    pub fn error(&self, key: &str) -> Option<&str> {
        self.errors.get(key).map(String::as_str)
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::PickModel(key) => {
                if let Ok(m) = ModelEditor::from_source(&ModelSource::Preset(key)) {
                    self.model = m;
                    self.import_error = None;
                }
            }
            Action::ImportModel(text) => match ModelEditor::import(&text) {
                Ok(m) => {
                    self.model = m;
                    self.import_error = None;
                }
                Err(e) => self.import_error = Some(fields::import_message(&e)),
            },
            Action::EditLayer(row, column, text) => self.model.edit(row, column, text),
            Action::SetLayerKind(row, kind) => self.model.set_kind(row, kind),
            Action::InsertLayer(row) => self.model.insert_after(row),
            Action::RemoveLayer(row) => self.model.remove(row),
            Action::MoveLayer(row, up) => self.model.shift(row, up),
            Action::SetSamples(text) => self.model.samples = text,
            Action::PickCluster(key) => {
                if let Ok(c) = ClusterEditor::from_source(&ClusterSource::Preset(key)) {
                    self.cluster = c;
                }
            }
            Action::EditCluster(path, text) => self.cluster.edit(path, text),
            Action::AddLevel => self.cluster.add_level(),
            Action::RemoveLevel(index) => self.cluster.remove_level(index),
            Action::SetGpus(text) => self.run.gpus = text,
            Action::SetBatchMode(mode) => self.run.batch_mode = mode,
            Action::SetSamplesPerGpu(text) => self.run.per_gpu = text,
            Action::SetMiniBatch(text) => self.run.mini_batch = text,
            Action::ToggleStrategy(s) => self.run.toggle(s),
            Action::SetBytesPerItem(text) => self.run.bytes_per_item = text,
            Action::SetSegments(text) => self.run.segments = text,
            Action::SetGroupSize(text) => self.run.group_size = text,
            Action::DismissNotice => self.notice = None,
        }
    }

    /// Rebuilds the inputs from the editors; when they are valid, projects
    /// them and replaces the view, else keeps the last view and records
    /// the errors.
    fn refresh(&mut self) {
        let mut errors = Errors::new();
        let mut inputs = self.view.as_ref().map(|v| v.inputs.clone()).unwrap_or_default();
        if let Err(e) = self.run.apply(&mut inputs) {
            errors.extend(e);
        }
        let editors = (self.model.clone(), self.cluster.clone());
        let built = match self.view.as_ref().filter(|v| v.built_from == editors) {
            Some(view) => Some((
                view.inputs.model.clone(),
                view.inputs.cluster.clone(),
                Rc::clone(&view.scenario),
            )),
            None => self.build_scenario(&mut errors),
        };
        if let (Some((model, cluster, scenario)), true) = (built, errors.is_empty()) {
            inputs.model = model;
            inputs.cluster = cluster;
            match Results::compute(&inputs, &scenario) {
                Ok(results) => {
                    self.view = Some(Rc::new(View {
                        inputs,
                        scenario,
                        results,
                        built_from: editors,
                    }))
                }
                Err(e) => errors.extend(e),
            }
        }
        self.errors = errors;
    }

    /// Builds the network and cluster from the editors, reusing the last
    /// view's scenario (and its remembered partitions) when they are the same.
    fn build_scenario(&self, errors: &mut Errors) -> Option<(ModelSource, ClusterSource, Rc<Scenario>)> {
        let model = self.model.build().map_err(|e| errors.extend(e)).ok();
        let cluster = self.cluster.build().map_err(|e| errors.extend(e)).ok();
        let ((model_source, network), (cluster_source, cluster)) = (model?, cluster?);
        let same = self
            .view
            .as_ref()
            .filter(|v| v.inputs.model == model_source && v.inputs.cluster == cluster_source);
        let scenario = match same {
            Some(view) => Rc::clone(&view.scenario),
            None => Rc::new(Scenario::new(network, cluster)),
        };
        Some((model_source, cluster_source, scenario))
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        next.apply(action);
        next.refresh();
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::state::fields;

    fn dispatch(state: Rc<AppState>, action: Action) -> Rc<AppState> {
        state.reduce(action)
    }

    #[test]
    fn the_default_view_is_resnet50_on_abci() {
        let state = AppState::new(Inputs::default(), None);
        let view = state.view.as_ref().unwrap();
        assert_eq!(view.inputs, Inputs::default());
        assert_eq!(view.results.ranking.len(), 7);
        assert!(state.errors.is_empty());
    }

    #[test]
    fn invalid_typing_keeps_the_text_and_the_last_results() {
        let state = Rc::new(AppState::new(Inputs::default(), None));
        let before = state.view.clone().unwrap();
        let state = dispatch(state, Action::SetGpus("0".into()));
        assert_eq!(state.run.gpus, "0");
        assert!(state.error(fields::GPUS).is_some());
        assert_eq!(state.view.as_ref().unwrap().inputs, before.inputs);
        let state = dispatch(state, Action::SetGpus("128".into()));
        assert!(state.errors.is_empty());
        assert_eq!(state.view.as_ref().unwrap().results.gpus, 128);
    }

    #[test]
    fn picking_presets_changes_the_view() {
        let state = Rc::new(AppState::new(Inputs::default(), None));
        let state = dispatch(state, Action::PickModel("vgg16".into()));
        let state = dispatch(state, Action::PickCluster("dgx-h100".into()));
        let view = state.view.as_ref().unwrap();
        assert_eq!(view.inputs.model_preset(), Some("vgg16"));
        assert_eq!(view.inputs.cluster_preset(), Some("dgx-h100"));
        assert_eq!(view.results.capacity_bytes, 80e9);
    }

    #[test]
    fn edits_and_imports() {
        let state = Rc::new(AppState::new(Inputs::default(), None));
        let state = dispatch(state, Action::EditLayer(0, LayerColumn::W, "4x64x7x7".into()));
        assert!(state.error("model.layers[0].w").is_some());
        let state = dispatch(state, Action::EditLayer(0, LayerColumn::W, "3x64x7x7".into()));
        assert!(state.errors.is_empty());
        assert_eq!(state.view.as_ref().unwrap().inputs.model_preset(), Some("resnet50"));
        let state = dispatch(state, Action::ImportModel("Dataset|x\nInput|10x3x8x8\n".into()));
        assert!(state.import_error.as_deref().unwrap_or("").contains("Line 3"));
        let state = dispatch(state, Action::EditCluster("gpu_memory_bytes".into(), "32".into()));
        assert_eq!(state.view.as_ref().unwrap().results.capacity_bytes, 32e9);
        let state = dispatch(state, Action::SetGroupSize("3".into()));
        assert!(state.error(fields::GROUP_SIZE).is_some());
        assert_eq!(state.view.as_ref().unwrap().results.capacity_bytes, 32e9);
    }

    #[test]
    fn the_scenario_is_reused_while_only_the_run_changes() {
        let state = Rc::new(AppState::new(Inputs::default(), None));
        let first = Rc::clone(&state.view.as_ref().unwrap().scenario);
        let state = dispatch(state, Action::SetSamplesPerGpu("16".into()));
        assert!(Rc::ptr_eq(&first, &state.view.as_ref().unwrap().scenario));
        let state = dispatch(state, Action::PickModel("alexnet".into()));
        assert!(!Rc::ptr_eq(&first, &state.view.as_ref().unwrap().scenario));
    }
}
