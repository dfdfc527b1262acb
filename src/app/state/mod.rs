//! The app's state and its one reducer: the editors hold what the user
//! typed; the view holds the last inputs that were valid and their results.

pub mod cluster_editor;
pub mod explain_target;
pub mod fields;
pub mod inputs;
pub mod model_editor;
pub mod quantity;
pub mod run_editor;

use std::rc::Rc;

use yew::Reducible;

use self::cluster_editor::ClusterEditor;
use self::explain_target::ExplainTarget;
use self::fields::{ClusterKey, Errors, Key};
use self::inputs::{ClusterSource, Inputs, ModelSource};
use self::model_editor::{LayerColumn, ModelEditor};
use self::run_editor::{BatchMode, RunEditor};
use super::results::Results;
use super::url;
use crate::oracle::{
    AllreduceAlgorithm, Cluster, Config, Fidelity, LayerKind, Network, Objective, Optimizer, Precision, Scenario,
    Strategy,
};

/// Valid inputs and what they give.
#[derive(Debug)]
pub struct View {
    /// The inputs (what the share link carries).
    pub inputs: Inputs,
    /// The network on the cluster.
    pub scenario: Rc<Scenario>,
    /// The projections.
    pub results: Results,
    /// The share-link state of the inputs, encoded once for this view;
    /// `None` when it is longer than a link may be.
    pub link: Option<Rc<str>>,
    /// The state to keep in the browser across reloads (the same encoding,
    /// without the length limit of a link).
    pub stored: Rc<str>,
}

impl PartialEq for View {
    fn eq(&self, other: &Self) -> bool {
        self.inputs == other.inputs
    }
}

/// A lesson on screen: which, and whether its results wait for a guess.
#[derive(Debug, Clone, Copy)]
pub struct LessonState {
    /// The lesson.
    pub lesson: &'static crate::app::lessons::Lesson,
    /// Predict, then reveal: the results stay hidden until revealed.
    pub predict: bool,
    /// The student has revealed the results.
    pub revealed: bool,
}

impl PartialEq for LessonState {
    fn eq(&self, other: &Self) -> bool {
        self.lesson.id == other.lesson.id && self.predict == other.predict && self.revealed == other.revealed
    }
}

impl LessonState {
    /// Whether the results are hidden (a guess is awaited).
    pub fn hides_results(&self) -> bool {
        self.predict && !self.revealed
    }
}

/// Everything the user can do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Load a network preset.
    PickModel(String),
    /// Load a pasted or uploaded `.net` or JSON network.
    ImportModel(String),
    /// Load an uploaded or dropped file (ONNX, `.keras` or a text format):
    /// its bytes, its name and the input shape typed for an ONNX graph
    /// (blank: the graph's own).
    ImportFile(Rc<[u8]>, String, String),
    /// Open the network file fetched from a link's `?model=ADDRESS`: the
    /// address and its bytes (an ONNX graph, or a text format).
    OpenLinkedModel(String, Rc<[u8]>),
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
    /// Type in a cluster cell.
    EditCluster(ClusterKey, String),
    /// Add a switch level.
    AddLevel,
    /// Remove a switch level.
    RemoveLevel(usize),
    /// Choose the Allreduce algorithm (`None`: left out).
    SetAllreduce(Option<AllreduceAlgorithm>),
    /// Type the GPU budget.
    SetGpus(String),
    /// Choose samples per GPU or a global mini-batch.
    SetBatchMode(BatchMode),
    /// Type the samples per GPU.
    SetSamplesPerGpu(String),
    /// Train with a preset's typical samples per GPU.
    UseTypicalRun(f64),
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
    /// Choose the edition of the model.
    SetFidelity(Fidelity),
    /// Draw the other edition's curves, or stop.
    ToggleCompareEditions,
    /// Type (or paste) the measured runs.
    SetMeasured(String),
    /// Choose the arithmetic.
    SetPrecision(Precision),
    /// Choose the optimizer.
    SetOptimizer(Optimizer),
    /// Choose the ZeRO stage.
    SetZero(u8),
    /// Checkpoint activations, or stop.
    ToggleRecompute,
    /// Overlap the gradient exchange, or stop.
    ToggleOverlap,
    /// Type the gradient bucket (MiB).
    SetBucketMib(String),
    /// Open (`true`) or close the planner.
    OpenPlan(bool),
    /// Type the planner's GPU budget.
    SetPlanGpus(String),
    /// Choose what the planner calls best.
    SetPlanObjective(Objective),
    /// Show a configuration the planner found in the main view.
    LoadConfig(Box<Config>),
    /// Show the view of a history entry (back, forward, undo, redo).
    Restore(Box<Inputs>),
    /// Show a lesson's results (after a guess).
    Reveal,
    /// Put the lesson away.
    CloseLesson,
    /// Explain a number (open the explanation panel on it).
    Explain(ExplainTarget),
    /// Close the explanation panel.
    CloseExplanation,
    /// Draw how this strategy places the work.
    DrawStrategy(Strategy),
    /// Hide the notice.
    DismissNotice,
    /// Say something about the page (storage, links) in the notice.
    Notify(String),
}

/// Which inputs an action touched: only those are rebuilt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Touched {
    model: bool,
    cluster: bool,
    run: bool,
}

impl Action {
    /// The input an action types into: consecutive actions on the same
    /// one (keystrokes in one field) make one history entry.
    fn slot(&self) -> Option<String> {
        let field = match self {
            Self::EditLayer(row, column, _) => format!("layer {row} {column:?}"),
            Self::EditCluster(key, _) => format!("cluster {key:?}"),
            Self::SetSamples(_) => "samples".into(),
            Self::SetGpus(_) => "gpus".into(),
            Self::SetSamplesPerGpu(_) => "per gpu".into(),
            Self::SetMiniBatch(_) => "mini-batch".into(),
            Self::SetBytesPerItem(_) => "bytes".into(),
            Self::SetSegments(_) => "segments".into(),
            Self::SetGroupSize(_) => "group".into(),
            Self::SetMeasured(_) => "measured".into(),
            Self::SetBucketMib(_) => "bucket".into(),
            Self::SetPlanGpus(_) => "plan gpus".into(),
            _ => return None,
        };
        Some(field)
    }

    fn touches(&self) -> Touched {
        match self {
            Self::PickModel(_)
            | Self::ImportModel(_)
            | Self::ImportFile(..)
            | Self::OpenLinkedModel(..)
            | Self::EditLayer(..)
            | Self::SetLayerKind(..)
            | Self::InsertLayer(_)
            | Self::RemoveLayer(_)
            | Self::MoveLayer(..)
            | Self::SetSamples(_) => Touched {
                model: true,
                ..Touched::default()
            },
            Self::PickCluster(_)
            | Self::EditCluster(..)
            | Self::AddLevel
            | Self::RemoveLevel(_)
            | Self::SetAllreduce(_) => Touched {
                cluster: true,
                ..Touched::default()
            },
            Self::DismissNotice | Self::Notify(_) | Self::Restore(_) | Self::Reveal | Self::CloseLesson => {
                Touched::default()
            }
            _ => Touched {
                run: true,
                ..Touched::default()
            },
        }
    }
}

/// What an editor last built: the source and its checked value, or the
/// errors of its cells.
type Built<T, S> = Rc<Result<(S, T), Errors>>;

/// The app's state. Editors sit behind `Rc`, so that an action copies only
/// what it changes.
#[derive(Debug, Clone, PartialEq)]
pub struct AppState {
    /// The network editor.
    pub model: Rc<ModelEditor>,
    /// The cluster editor.
    pub cluster: Rc<ClusterEditor>,
    /// The run editor.
    pub run: RunEditor,
    /// Errors by field key.
    pub errors: Errors,
    /// Why the last import failed.
    pub import_error: Option<String>,
    /// What the last ONNX import gave (layers, parameters, operators merged).
    pub import_summary: Option<String>,
    /// A message about the link or saved state the page was opened with.
    pub notice: Option<String>,
    /// The last valid inputs and their results.
    pub view: Option<Rc<View>>,
    /// History entries this page has made (what back and undo can reach);
    /// the page pushes an entry whenever it grows.
    pub entries: usize,
    /// The input the last view change typed into.
    slot: Option<String>,
    /// The lesson the page was opened with, if any.
    pub lesson: Option<LessonState>,
    model_built: Built<Network, ModelSource>,
    cluster_built: Built<Cluster, ClusterSource>,
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
        let model_built = Rc::new(model.build());
        let cluster_built = Rc::new(cluster.build());
        let run = RunEditor::from_inputs(&inputs);
        let mut state = Self {
            model: Rc::new(model),
            cluster: Rc::new(cluster),
            run,
            errors: Errors::new(),
            import_error: None,
            import_summary: None,
            notice,
            view: None,
            entries: 0,
            slot: None,
            lesson: None,
            model_built,
            cluster_built,
        };
        state.refresh(Touched {
            model: true,
            cluster: true,
            run: true,
        });
        state
    }

    /// The error of a field, if any.
    pub fn error(&self, key: Key) -> Option<&str> {
        self.errors.get(&key).map(String::as_str)
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::PickModel(key) => {
                if let Ok(m) = ModelEditor::from_source(&ModelSource::Preset(key)) {
                    self.model = Rc::new(m);
                    self.import_error = None;
                }
            }
            Action::ImportModel(text) => match ModelEditor::import(&text) {
                Ok(m) => {
                    self.import_summary = Some(m.summary("the pasted network"));
                    self.model = Rc::new(m);
                    self.import_error = None;
                }
                Err(e) => self.import_error = Some(fields::import_message(&e)),
            },
            Action::ImportFile(bytes, name, shape) => match ModelEditor::import_file(&bytes, &name, &shape) {
                Ok((m, summary)) => {
                    self.model = Rc::new(m);
                    self.import_error = None;
                    self.import_summary = Some(summary);
                }
                Err(e) => self.import_error = Some(format!("{name}: {}", fields::import_message(&e))),
            },
            Action::OpenLinkedModel(address, bytes) => {
                let name = address.rsplit('/').next().unwrap_or(&address).to_string();
                match ModelEditor::import_file(&bytes, &name, "") {
                    Ok((m, summary)) => {
                        self.model = Rc::new(m);
                        self.import_error = None;
                        self.import_summary = Some(summary);
                    }
                    Err(e) => {
                        let message = fields::import_message(&e);
                        self.notice = Some(format!(
                            "The network at {address} is not a file this tool reads ({message}), so the view is unchanged."
                        ));
                        self.import_error = Some(format!("{name}: {message}"));
                    }
                }
            }
            Action::EditLayer(row, column, text) => Rc::make_mut(&mut self.model).edit(row, column, text),
            Action::SetLayerKind(row, kind) => Rc::make_mut(&mut self.model).set_kind(row, kind),
            Action::InsertLayer(row) => Rc::make_mut(&mut self.model).insert_after(row),
            Action::RemoveLayer(row) => Rc::make_mut(&mut self.model).remove(row),
            Action::MoveLayer(row, up) => Rc::make_mut(&mut self.model).shift(row, up),
            Action::SetSamples(text) => Rc::make_mut(&mut self.model).samples = text,
            Action::PickCluster(key) => {
                if let Ok(c) = ClusterEditor::from_source(&ClusterSource::Preset(key)) {
                    self.cluster = Rc::new(c);
                }
            }
            Action::EditCluster(key, text) => Rc::make_mut(&mut self.cluster).edit(key, text),
            Action::AddLevel => Rc::make_mut(&mut self.cluster).add_level(),
            Action::RemoveLevel(index) => Rc::make_mut(&mut self.cluster).remove_level(index),
            Action::SetAllreduce(algorithm) => Rc::make_mut(&mut self.cluster).set_allreduce(algorithm),
            Action::SetGpus(text) => self.run.gpus = text,
            Action::SetBatchMode(mode) => self.run.batch_mode = mode,
            Action::SetSamplesPerGpu(text) => self.run.per_gpu = text,
            Action::UseTypicalRun(samples) => {
                self.run.batch_mode = BatchMode::PerGpu;
                self.run.per_gpu = samples.to_string();
            }
            Action::SetMiniBatch(text) => self.run.mini_batch = text,
            Action::ToggleStrategy(s) => self.run.toggle(s),
            Action::SetBytesPerItem(text) => self.run.bytes_per_item = text,
            Action::SetSegments(text) => self.run.segments = text,
            Action::SetGroupSize(text) => self.run.group_size = text,
            Action::SetFidelity(fidelity) => self.run.fidelity = fidelity,
            Action::ToggleCompareEditions => self.run.compare_editions = !self.run.compare_editions,
            Action::SetMeasured(text) => self.run.measured = text,
            Action::SetPrecision(precision) => self.run.precision = precision,
            Action::SetOptimizer(optimizer) => self.run.optimizer = optimizer,
            Action::SetZero(stage) => self.run.zero = stage,
            Action::ToggleRecompute => self.run.recompute = !self.run.recompute,
            Action::ToggleOverlap => self.run.overlap = !self.run.overlap,
            Action::SetBucketMib(text) => self.run.bucket_mib = text,
            Action::OpenPlan(open) => self.run.plan_open = open,
            Action::SetPlanGpus(text) => self.run.plan_gpus = text,
            Action::SetPlanObjective(objective) => self.run.plan_objective = objective,
            Action::LoadConfig(config) => self.run.load(&config),
            // handled by `reduce`, which rebuilds the whole state
            Action::Restore(_) => {}
            Action::Reveal => {
                if let Some(lesson) = &mut self.lesson {
                    lesson.revealed = true;
                }
            }
            Action::CloseLesson => self.lesson = None,
            Action::Explain(target) => self.run.explaining = Some(target),
            Action::CloseExplanation => self.run.explaining = None,
            Action::DrawStrategy(strategy) => self.run.drawing = Some(strategy),
            Action::DismissNotice => self.notice = None,
            Action::Notify(text) => self.notice = Some(text),
        }
    }

    /// Rebuilds what an action touched (the network, the cluster or only
    /// the run); when every input is valid, projects them and replaces the
    /// view, else keeps the last view and records the errors.
    fn refresh(&mut self, touched: Touched) {
        if touched == Touched::default() {
            return;
        }
        if touched.model {
            self.model_built = Rc::new(self.model.build());
        }
        if touched.cluster {
            self.cluster_built = Rc::new(self.cluster.build());
        }
        let mut errors = Errors::new();
        for built in [
            self.model_built.as_ref().as_ref().err(),
            self.cluster_built.as_ref().as_ref().err(),
        ]
        .into_iter()
        .flatten()
        {
            errors.extend(built.clone());
        }
        let mut inputs = self.view.as_ref().map(|v| v.inputs.clone()).unwrap_or_default();
        if let Err(e) = self.run.apply(&mut inputs) {
            errors.extend(e);
        }
        let (Ok((model_source, network)), Ok((cluster_source, cluster))) =
            (self.model_built.as_ref(), self.cluster_built.as_ref())
        else {
            self.errors = errors;
            return;
        };
        if !errors.is_empty() {
            self.errors = errors;
            return;
        }
        let same = self.view.as_ref().filter(|v| {
            (!touched.model && !touched.cluster)
                || (&v.inputs.model == model_source && &v.inputs.cluster == cluster_source)
        });
        let scenario = match same {
            Some(view) => Rc::clone(&view.scenario),
            None => Rc::new(Scenario::new(network.clone(), cluster.clone())),
        };
        inputs.model = model_source.clone();
        inputs.cluster = cluster_source.clone();
        match Results::compute(&inputs, &scenario) {
            Ok(results) => {
                let stored: Rc<str> = url::encode(&inputs).into();
                let link = (stored.len() <= url::MAX_ENCODED_CHARS).then(|| Rc::clone(&stored));
                self.view = Some(Rc::new(View {
                    inputs,
                    scenario,
                    results,
                    link,
                    stored,
                }));
            }
            Err(e) => errors.extend(e),
        }
        self.errors = errors;
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if let Action::Restore(inputs) = action {
            // a history entry's view: rebuilt from its inputs, not a new entry
            let mut next = AppState::new(*inputs, self.notice.clone());
            next.entries = self.entries;
            next.lesson = self.lesson;
            return Rc::new(next);
        }
        let touched = action.touches();
        let slot = action.slot();
        let before = self.view.clone();
        let mut next = Rc::unwrap_or_clone(self);
        next.apply(action);
        next.refresh(touched);
        let changed = match (&before, &next.view) {
            (Some(a), Some(b)) => !Rc::ptr_eq(a, b) && a.inputs != b.inputs,
            (None, Some(_)) => true,
            _ => false,
        };
        if changed {
            // a new entry, unless the same input is being typed into again
            if slot.is_none() || slot != next.slot {
                next.entries += 1;
            }
            next.slot = slot;
        }
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
        assert!(state.error(Key::Run(fields::RunKey::Gpus)).is_some());
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
        assert!(state.error(Key::Layer(0, LayerColumn::W)).is_some());
        let state = dispatch(state, Action::EditLayer(0, LayerColumn::W, "3x64x7x7".into()));
        assert!(state.errors.is_empty());
        assert_eq!(state.view.as_ref().unwrap().inputs.model_preset(), Some("resnet50"));
        let state = dispatch(state, Action::ImportModel("Dataset|x\nInput|10x3x8x8\n".into()));
        assert!(state.import_error.as_deref().unwrap_or("").contains("Line 3"));
        let state = dispatch(state, Action::EditCluster(ClusterKey::Param(1), "32".into()));
        assert_eq!(state.view.as_ref().unwrap().results.capacity_bytes, 32e9);
        let state = dispatch(state, Action::SetGroupSize("3".into()));
        assert!(state.error(Key::Run(fields::RunKey::GroupSize)).is_some());
        assert_eq!(state.view.as_ref().unwrap().results.capacity_bytes, 32e9);
    }

    #[test]
    fn an_onnx_graph_imports_and_a_broken_one_keeps_the_view() {
        let bytes: Rc<[u8]> = include_bytes!("../../../tests/onnx/light_squeezenet.onnx")
            .as_slice()
            .into();
        let state = Rc::new(AppState::new(Inputs::default(), None));
        let before = state.view.clone().unwrap();
        let broken: Rc<[u8]> = bytes[..bytes.len() / 3].into();
        let state = dispatch(state, Action::ImportFile(broken, "cut.onnx".into(), String::new()));
        assert!(
            state
                .import_error
                .as_deref()
                .unwrap_or("")
                .starts_with("cut.onnx: ONNX graph")
        );
        assert_eq!(
            state.view.as_ref().unwrap().inputs,
            before.inputs,
            "the previous network stays"
        );
        let state = dispatch(
            state,
            Action::ImportFile(bytes, "squeezenet.onnx".into(), String::new()),
        );
        assert_eq!(state.import_error, None);
        let view = state.view.as_ref().unwrap();
        assert_eq!(view.scenario.network().layers().len(), 66);
        assert_eq!(view.scenario.network().weight_items(), 1_235_496.0);
        let summary = state.import_summary.as_deref().unwrap_or("");
        assert!(
            summary.contains("66 layers") && summary.contains("ConstantOfShape 39"),
            "{summary}"
        );
        // the imported network travels in the share link
        let reopened = crate::app::url::decode(view.link.as_deref().unwrap_or("")).unwrap();
        assert_eq!(reopened.network().unwrap().weight_items(), 1_235_496.0);
    }

    #[test]
    fn a_pasted_keras_model_imports_with_a_summary() {
        let text = include_str!("../../../tests/keras/lenet.json");
        let state = Rc::new(AppState::new(Inputs::default(), None));
        let state = dispatch(state, Action::ImportModel(text.into()));
        assert_eq!(state.import_error, None);
        let summary = state.import_summary.as_deref().unwrap_or("");
        assert!(
            summary.contains("9 layers") && summary.contains("35474 parameters"),
            "{summary}"
        );
        assert_eq!(state.view.as_ref().unwrap().scenario.network().weight_items(), 35_474.0);
    }

    #[test]
    fn a_new_view_is_a_history_entry_but_keystrokes_in_one_field_are_one() {
        let state = Rc::new(AppState::new(Inputs::default(), None));
        assert_eq!(state.entries, 0);
        let state = dispatch(state, Action::SetGpus("1".into()));
        assert_eq!(state.entries, 1, "a first change is an entry");
        let state = dispatch(state, Action::SetGpus("12".into()));
        assert_eq!(state.entries, 1, "the next keystroke replaces it");
        let state = dispatch(state, Action::SetGpus("128".into()));
        assert_eq!(state.entries, 1);
        let state = dispatch(state, Action::PickModel("vgg16".into()));
        assert_eq!(state.entries, 2, "another input is another entry");
        let state = dispatch(state, Action::SetGpus("0".into()));
        assert!(state.errors.contains_key(&Key::Run(fields::RunKey::Gpus)));
        // back to the first view: restored from its inputs, no new entry
        let state = dispatch(state, Action::Restore(Box::default()));
        assert_eq!(state.view.as_ref().unwrap().inputs, Inputs::default());
        assert_eq!(state.run.gpus, "64", "the editors show it too");
        assert_eq!(state.entries, 2, "a restore is no new entry");
    }

    #[test]
    fn a_preset_offers_its_typical_run() {
        let state = Rc::new(AppState::new(Inputs::default(), None));
        let state = dispatch(state, Action::PickModel("cosmoflow".into()));
        let (samples, _) = crate::oracle::presets::network_preset("cosmoflow")
            .unwrap()
            .typical_samples_per_gpu
            .unwrap();
        let state = dispatch(state, Action::UseTypicalRun(samples));
        let view = state.view.as_ref().unwrap();
        assert_eq!(view.inputs.batch, crate::oracle::Batch::SamplesPerGpu(0.25));
        assert!(view.results.ranking.iter().any(|p| p.feasible), "something fits");
    }

    #[test]
    fn a_lesson_in_predict_mode_hides_results_until_revealed() {
        let lesson = crate::app::lessons::find("memory-wall").unwrap();
        let mut state = AppState::new((lesson.inputs)(), None);
        state.lesson = Some(LessonState {
            lesson,
            predict: true,
            revealed: false,
        });
        let state = Rc::new(state);
        assert!(state.lesson.unwrap().hides_results());
        let state = dispatch(state, Action::SetGpus("16".into()));
        assert!(state.lesson.unwrap().hides_results(), "editing keeps the lesson");
        let state = dispatch(state, Action::Reveal);
        assert!(!state.lesson.unwrap().hides_results());
        let state = dispatch(state, Action::CloseLesson);
        assert!(state.lesson.is_none());
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
