//! The app's one reducer and its editors: the editors hold what the user
//! typed; the answer holds the last document that was valid and what the
//! engine computed for its question. Builds on [`crate::app::input`] and
//! the results; the components build on it.

pub mod action;
pub mod cluster_editor;
pub mod editor;
pub mod import;
pub mod model_editor;
pub mod run_editor;

use std::rc::Rc;

use yew::Reducible;

use self::action::{Action, ClusterAction, ModelAction, PageAction, RunAction, Touched, ViewAction};
use self::cluster_editor::ClusterEditor;
use self::model_editor::ModelEditor;
use self::run_editor::RunEditor;
use crate::app::input::document::Document;
use crate::app::input::keys::{Errors, Key};
use crate::app::input::quantity;
use crate::app::input::question::Question;
use crate::app::input::source::{ClusterSource, ModelSource};
use crate::app::input::view::View;
use crate::app::page::url;
use crate::app::results::Results;
use crate::oracle::{Cluster, MAX_GPUS, Network, Projection, Scenario, units};

/// The largest memory budget per GPU the planner takes, GB.
const MAX_MEMORY_GB: f64 = 1e6;
/// The largest money budget the planner takes, US dollars.
const MAX_USD: f64 = 1e15;

/// A valid document and what the engine computed for its question.
#[derive(Debug)]
pub struct Answer {
    /// The document (what the share link carries).
    pub document: Document,
    /// The network on the cluster.
    pub scenario: Rc<Scenario>,
    /// The projections of the question (shared by every view of it).
    pub results: Rc<Results>,
    /// The share-link state of the document, encoded once for this answer;
    /// `None` when it is longer than a link may be.
    pub link: Option<Rc<str>>,
    /// The state to keep in the browser across reloads (the same encoding,
    /// without the length limit of a link).
    pub stored: Rc<str>,
}

impl PartialEq for Answer {
    fn eq(&self, other: &Self) -> bool {
        self.document == other.document
    }
}

impl Answer {
    fn new(document: Document, scenario: Rc<Scenario>, results: Rc<Results>) -> Self {
        let stored: Rc<str> = url::encode(&document).into();
        let link = (stored.len() <= url::MAX_ENCODED_CHARS).then(|| Rc::clone(&stored));
        Self {
            document,
            scenario,
            results,
            link,
            stored,
        }
    }

    pub fn question(&self) -> &Question {
        &self.document.question
    }

    pub fn view(&self) -> &View {
        &self.document.view
    }

    /// The other edition's sweep when the view draws it, else nothing.
    pub fn other_sweep(&self) -> &[Projection] {
        if self.document.view.compare_editions {
            self.results.other_sweep(&self.scenario)
        } else {
            &[]
        }
    }
}

/// A lesson on screen: which, and whether its results wait for a guess.
#[derive(Debug, Clone, Copy)]
pub struct LessonState {
    pub lesson: &'static crate::app::lessons::Lesson,
    /// Predict, then reveal: the results stay hidden until revealed.
    pub predict: bool,
    /// The student has revealed the results.
    pub revealed: bool,
    /// The guess the student committed to before revealing, if any.
    pub guess: Option<Guess>,
}

pub use crate::app::lessons::guess::Guess;

impl PartialEq for LessonState {
    fn eq(&self, other: &Self) -> bool {
        self.lesson.id == other.lesson.id
            && self.predict == other.predict
            && self.revealed == other.revealed
            && self.guess == other.guess
    }
}

impl LessonState {
    /// Whether the results are hidden (a guess is awaited).
    pub fn hides_results(&self) -> bool {
        self.predict && !self.revealed
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
    /// The view as the user sets it (the planner's budget as typed).
    pub view: View,
    /// The planner's GPU budget as typed (blank: the cluster's size).
    pub plan_gpus: String,
    /// The planner's memory budget per GPU as typed, GB (blank: the GPU's).
    pub plan_memory: String,
    /// The planner's money budget to train as typed, US dollars (blank: none).
    pub plan_usd: String,
    /// Errors by field key.
    pub errors: Errors,
    /// Why the last import failed.
    pub import_error: Option<String>,
    /// What the last import gave (layers, parameters, operators merged).
    pub import_summary: Option<String>,
    /// A message about the link or saved state the page was opened with.
    pub notice: Option<String>,
    /// What picking a preset applied to the run (its usual samples per GPU,
    /// its GPU's usual precision), in one line; undo takes it back.
    pub applied: Option<String>,
    /// The last valid document and its results.
    pub answer: Option<Rc<Answer>>,
    /// History entries this page has pushed (it pushes one whenever this
    /// grows).
    pub pushes: usize,
    /// The entry shown, among the page's own: 0 is the one it opened on.
    pub position: usize,
    /// The last of the page's entries (forward of `position` after undo).
    pub last: usize,
    /// The input the last change typed into.
    /// (Not shown: ending an edit changes it in place, so that the page is
    /// not redrawn over a field the browser has just changed.)
    slot: std::cell::RefCell<Option<String>>,
    /// The layer the table was last asked to show, and how many times it
    /// was asked (so that following the same name again shows it again).
    pub shown_layer: Option<(usize, u64)>,
    /// The lesson the page was opened with, if any.
    pub lesson: Option<LessonState>,
    /// The file being read in the worker, if any.
    pub reading: Option<Rc<import::PendingRead>>,
    /// Reads begun (the last one's id).
    reads: u64,
    model_built: Built<Network, ModelSource>,
    cluster_built: Built<Cluster, ClusterSource>,
}

impl AppState {
    /// The state showing `document` (the defaults if it cannot be shown),
    /// with an optional notice.
    pub fn new(document: Document, notice: Option<String>) -> Self {
        let loaded = ModelEditor::from_source(&document.question.model)
            .and_then(|m| ClusterEditor::from_source(&document.question.cluster).map(|c| (m, c)));
        let (document, model, cluster, notice) = match loaded {
            Ok((m, c)) => (document, m, c, notice),
            Err(e) => {
                let defaults = Document::default();
                let m = ModelEditor::from_source(&defaults.question.model).unwrap_or_default();
                let c = ClusterEditor::from_source(&defaults.question.cluster).unwrap_or_default();
                (defaults, m, c, Some(format!("{e}; showing the defaults")))
            }
        };
        let model_built = Rc::new(model.build());
        let cluster_built = Rc::new(cluster.build());
        let mut state = Self {
            model: Rc::new(model),
            cluster: Rc::new(cluster),
            run: RunEditor::of(&document.question),
            plan_gpus: document.view.plan.gpus.map(|g| g.to_string()).unwrap_or_default(),
            plan_memory: document
                .view
                .plan
                .memory_bytes
                .map(|b| units::significant(b / 1e9, 6))
                .unwrap_or_default(),
            plan_usd: document
                .view
                .plan
                .max_usd
                .map(|usd| units::significant(usd, 12))
                .unwrap_or_default(),
            view: document.view.clone(),
            errors: Errors::new(),
            import_error: None,
            import_summary: None,
            notice,
            applied: None,
            answer: None,
            pushes: 0,
            position: 0,
            last: 0,
            slot: std::cell::RefCell::new(None),
            shown_layer: None,
            lesson: None,
            reading: None,
            reads: 0,
            model_built,
            cluster_built,
        };
        state.refresh(Touched {
            model: true,
            cluster: true,
            run: true,
            view: true,
        });
        state
    }

    /// Whether undo can act: an earlier entry of this page to go back to.
    pub fn can_undo(&self) -> bool {
        self.position > 0
    }

    /// Whether redo can act: an entry undone to go forward to.
    pub fn can_redo(&self) -> bool {
        self.position < self.last
    }

    /// The error of a field, if any.
    pub fn error(&self, key: Key) -> Option<&str> {
        self.errors.get(&key).map(String::as_str)
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Model(a) => self.apply_model(a),
            Action::Cluster(a) => {
                let cluster = Rc::make_mut(&mut self.cluster);
                match a {
                    ClusterAction::Pick(key) => {
                        if let Ok(c) = ClusterEditor::from_source(&ClusterSource::Preset(key.clone())) {
                            let largest = c.base().max_gpus;
                            *cluster = c;
                            let said: Vec<String> = [self.run.use_usual_precision(&key), self.run.fit_gpus(largest)]
                                .into_iter()
                                .flatten()
                                .collect();
                            self.applied = (!said.is_empty()).then(|| said.join(" "));
                        }
                    }
                    ClusterAction::Edit(key, text) => cluster.edit(key, text),
                    ClusterAction::AddLevel => cluster.add_level(),
                    ClusterAction::RemoveLevel(index) => cluster.remove_level(index),
                    ClusterAction::Allreduce(algorithm) => cluster.set_allreduce(algorithm),
                }
            }
            Action::Run(a) => match a {
                RunAction::Set(key, text) => self.run.set(key, text),
                RunAction::Usual(samples) => self.run.use_samples_per_gpu(samples),
                RunAction::Load(config) => {
                    // the planner's budget was the run's: it stays what it was, so
                    // that the pick does not start another search
                    if self.plan_gpus.trim().is_empty()
                        && let Some(answer) = &self.answer
                    {
                        self.plan_gpus = answer.results.gpus.to_string();
                    }
                    self.run.load(&config);
                    self.view.drawing = Some(config.strategy);
                }
            },
            Action::View(a) => match a {
                ViewAction::Explain(target) => self.view.explaining = Some(target),
                ViewAction::CloseExplanation => self.view.explaining = None,
                ViewAction::Draw(strategy) => self.view.drawing = Some(strategy),
                ViewAction::CompareEditions(on) => self.view.compare_editions = on,
                ViewAction::PlotMetric(metric) => self.view.plot = metric,
                ViewAction::PlotRange(range) => self.view.gpu_range = range.filter(|(from, to)| from < to),
                ViewAction::OpenPlan(open) => self.view.plan.open = open,
                ViewAction::PlanGpus(text) => self.plan_gpus = text,
                ViewAction::PlanMemory(text) => self.plan_memory = text,
                ViewAction::PlanUsd(text) => self.plan_usd = text,
                ViewAction::PlanObjective(objective) => self.view.plan.objective = objective,
            },
            Action::Page(a) => match a {
                // handled by `reduce`, which rebuilds the whole state
                PageAction::Restore(..) | PageAction::EndEdit => {}
                PageAction::Reveal => {
                    if let Some(lesson) = &mut self.lesson {
                        lesson.revealed = true;
                    }
                }
                PageAction::Guess(guess) => {
                    if let Some(lesson) = &mut self.lesson {
                        lesson.guess = Some(guess);
                        lesson.revealed = true;
                    }
                }
                PageAction::CloseLesson => self.lesson = None,
                PageAction::ShowLayer(index) => {
                    let asked = self.shown_layer.map_or(0, |(_, n)| n) + 1;
                    self.shown_layer = Some((index, asked));
                }
                PageAction::DismissNotice => self.notice = None,
                PageAction::Notify(text) => self.notice = Some(text),
            },
        }
    }

    fn apply_model(&mut self, action: ModelAction) {
        match action {
            ModelAction::Pick(key) => {
                if let Ok(m) = ModelEditor::from_source(&ModelSource::Preset(key.clone())) {
                    self.model = Rc::new(m);
                    self.import_error = None;
                    let said: Vec<String> = [
                        self.run.use_usual_samples(&key),
                        self.run.use_own_convergence(Some(&key)),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    self.applied = (!said.is_empty()).then(|| said.join(" "));
                }
            }
            ModelAction::Paste(text) => self.begin_read(
                ("pasted text".into(), String::new()),
                text.into_bytes().into(),
                None,
                None,
                import::ReadOrigin::Paste,
            ),
            ModelAction::Files(files, shape) => self.read_files(files, shape),
            ModelAction::Linked(address, bytes) => {
                let name = address.rsplit('/').next().unwrap_or(&address).to_string();
                self.begin_read(
                    (name, String::new()),
                    bytes,
                    None,
                    None,
                    import::ReadOrigin::Linked(address),
                );
            }
            ModelAction::Read(reply) => self.finish_read(reply),
            ModelAction::Edit(row, column, text) => {
                Rc::make_mut(&mut self.model).edit(row, column, text);
                self.keep_preset_convergence();
            }
            ModelAction::Kind(row, kind) => {
                Rc::make_mut(&mut self.model).set_kind(row, kind);
                self.keep_preset_convergence();
            }
            ModelAction::Insert(row) => {
                Rc::make_mut(&mut self.model).insert_after(row);
                self.keep_preset_convergence();
            }
            ModelAction::Remove(row) => {
                Rc::make_mut(&mut self.model).remove(row);
                self.keep_preset_convergence();
            }
            ModelAction::Move(row, up) => {
                Rc::make_mut(&mut self.model).shift(row, up);
                self.keep_preset_convergence();
            }
            ModelAction::Samples(text) => Rc::make_mut(&mut self.model).set_samples(text),
        }
    }

    /// A preset edited is the user's network, which names no convergence:
    /// the run keeps the preset's own curve, written into the run (so the
    /// link keeps it) and said, unless the user chose one.
    fn keep_preset_convergence(&mut self) {
        let Some(key) = self.model.preset.clone() else {
            return;
        };
        if let Some(line) = self.run.keep_convergence_of(&key) {
            self.applied = Some(line);
        }
    }

    /// The view as typed, checked: the planner's budget read.
    fn read_view(&self, errors: &mut Errors) -> Option<View> {
        let mut view = self.view.clone();
        view.plan.gpus = match self.plan_gpus.trim() {
            "" => None,
            text => match text.parse::<u64>() {
                Ok(g) if (1..=MAX_GPUS).contains(&g) => Some(g),
                Ok(_) => {
                    errors.insert(Key::PlanGpus, format!("Must be 1 to {MAX_GPUS} GPUs"));
                    return None;
                }
                Err(_) => {
                    errors.insert(Key::PlanGpus, "Must be a whole number".into());
                    return None;
                }
            },
        };
        // in GB, or with a unit people type (the cluster fields' reading: "24 GiB")
        view.plan.memory_bytes = match self.plan_memory.trim() {
            "" => None,
            text => match quantity::parse(text, "GB", 1e9) {
                Ok(gb) if gb.is_finite() && gb > 0.0 && gb <= MAX_MEMORY_GB => Some(gb * 1e9),
                Ok(_) => {
                    errors.insert(
                        Key::PlanMemory,
                        format!("Must be a number of GB above 0 and at most {MAX_MEMORY_GB}"),
                    );
                    return None;
                }
                Err(message) => {
                    errors.insert(Key::PlanMemory, message);
                    return None;
                }
            },
        };
        view.plan.max_usd = match self.plan_usd.trim() {
            "" => None,
            text => match text.trim_start_matches('$').trim().parse::<f64>() {
                Ok(usd) if usd.is_finite() && usd > 0.0 && usd <= MAX_USD => Some(usd),
                _ => {
                    errors.insert(
                        Key::PlanUsd,
                        format!("Must be a number of dollars above 0 and at most {MAX_USD}"),
                    );
                    return None;
                }
            },
        };
        Some(view)
    }

    /// Rebuilds what an action touched (the network, the cluster, the run
    /// or only the view); when everything is valid, replaces the answer
    /// (a view change keeps the question's results), else keeps the last
    /// answer and records the errors.
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
        let mut question = self
            .answer
            .as_ref()
            .map(|a| a.document.question.clone())
            .unwrap_or_default();
        if let Err(e) = self.run.apply(&mut question) {
            errors.extend(e);
        }
        let view = self.read_view(&mut errors);
        let (Ok((model_source, network)), Ok((cluster_source, cluster)), Some(view)) =
            (self.model_built.as_ref(), self.cluster_built.as_ref(), view)
        else {
            self.errors = errors;
            return;
        };
        if !errors.is_empty() {
            self.errors = errors;
            return;
        }
        question.model = model_source.clone();
        question.cluster = cluster_source.clone();
        let same = self.answer.as_ref().filter(|a| a.document.question == question);
        let answer = match same {
            // only the view changed: the results stand
            Some(answer) => Answer::new(
                Document { question, view },
                Rc::clone(&answer.scenario),
                Rc::clone(&answer.results),
            ),
            None => {
                let reused = self.answer.as_ref().filter(|a| {
                    a.document.question.model == question.model && a.document.question.cluster == question.cluster
                });
                let scenario = match reused {
                    Some(answer) => Rc::clone(&answer.scenario),
                    None => Rc::new(Scenario::new(network.clone(), cluster.clone())),
                };
                match Results::compute_ranking(&question, &scenario) {
                    Ok(results) => Answer::new(Document { question, view }, scenario, Rc::new(results)),
                    Err(e) => {
                        errors.extend(e);
                        self.errors = errors;
                        return;
                    }
                }
            }
        };
        self.answer = Some(Rc::new(answer));
        self.errors = errors;
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if let Action::Page(PageAction::Restore(document, position)) = action {
            // a history entry's document: rebuilt from it, not a new entry
            let mut next = AppState::new(*document, self.notice.clone());
            next.pushes = self.pushes;
            next.last = self.last;
            next.position = position.min(self.last);
            next.lesson = self.lesson;
            next.reads = self.reads;
            return Rc::new(next);
        }
        if let Action::Page(PageAction::EndEdit) = action {
            // a committed value: the next keystroke starts another entry.
            // Nothing shown changes, so the same state is returned and the
            // page is not redrawn (a redraw would put back the value of a
            // field the browser changed without an input event)
            self.slot.replace(None);
            return self;
        }
        let touched = action.touches();
        let slot = action.slot();
        let before = self.answer.clone();
        let mut next = Rc::unwrap_or_clone(self);
        if touched.question() {
            // what a pick applied is said until the question changes again
            next.applied = None;
        }
        next.apply(action);
        next.refresh(touched);
        let changed = match (&before, &next.answer) {
            (Some(a), Some(b)) => !Rc::ptr_eq(a, b) && a.document != b.document,
            (None, Some(_)) => true,
            _ => false,
        };
        if changed {
            // a new entry (the ones forward of it dropped, as the browser
            // does), unless the same input is being typed into again
            if slot.is_none() || slot != *next.slot.borrow() {
                next.pushes += 1;
                next.position += 1;
                next.last = next.position;
            }
            *next.slot.get_mut() = slot;
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use crate::app::input::keys::{ClusterKey, LayerColumn, RunKey};
    use crate::app::state::action::{ModelAction, PageAction};
    use crate::app::state::*;

    /// Sends an action; a file it hands to the worker is read as the
    /// worker reads it ([`crate::app::reader::protocol::answer`]) and the
    /// reply sent back, as the page does.
    /// Reduces `action`, the worker answering each read it hands over (a
    /// network dropped with a profile is two: the network, then the
    /// profile applied to it).
    fn dispatch(state: Rc<AppState>, action: Action) -> Rc<AppState> {
        let mut state = state.reduce(action);
        while let Some(pending) = state.reading.clone() {
            let reply = crate::app::reader::protocol::answer(&pending.request, &pending.bytes);
            state = state.reduce(Action::Model(ModelAction::Read(reply)));
        }
        state
    }

    #[test]
    fn a_file_is_read_off_the_page_and_only_the_last_reply_counts() {
        let bytes: Rc<[u8]> = include_bytes!("../../../tests/onnx/light_squeezenet.onnx")
            .as_slice()
            .into();
        let state = Rc::new(AppState::new(Document::default(), None));
        let files = |name: &str| {
            Action::Model(ModelAction::Files(
                vec![(Rc::clone(&bytes), name.into())],
                String::new(),
            ))
        };
        // handed to the worker: nothing changes until it answers
        let first = Rc::clone(&state).reduce(files("a.onnx"));
        let pending = first.reading.clone().unwrap();
        assert_eq!(first.model, state.model);
        assert_eq!(
            first.answer.as_ref().unwrap().document,
            state.answer.as_ref().unwrap().document
        );
        // a second file replaces the first: the first's reply is ignored
        let second = Rc::clone(&first).reduce(files("b.onnx"));
        let newer = second.reading.clone().unwrap();
        assert!(newer.request.id > pending.request.id);
        let stale = crate::app::reader::protocol::answer(&pending.request, &pending.bytes);
        let after_stale = Rc::clone(&second).reduce(Action::Model(ModelAction::Read(stale)));
        assert_eq!(after_stale.model, second.model);
        assert!(after_stale.reading.is_some());
        let reply = crate::app::reader::protocol::answer(&newer.request, &newer.bytes);
        let done = after_stale.reduce(Action::Model(ModelAction::Read(reply)));
        assert!(done.reading.is_none());
        assert!(
            done.import_summary
                .as_deref()
                .unwrap_or("")
                .starts_with("Imported b.onnx")
        );
        assert_eq!(
            done.answer.as_ref().unwrap().scenario.network().weight_items(),
            1_235_496.0
        );
    }

    #[test]
    fn the_default_view_is_resnet50_on_abci() {
        let state = AppState::new(Document::default(), None);
        let answer = state.answer.as_ref().unwrap();
        assert_eq!(answer.document, Document::default());
        assert_eq!(answer.results.ranking.len(), 7);
        assert!(state.errors.is_empty());
    }

    #[test]
    fn invalid_typing_keeps_the_text_and_the_last_results() {
        let state = Rc::new(AppState::new(Document::default(), None));
        let before = state.answer.clone().unwrap();
        let state = dispatch(state, Action::Run(RunAction::Set(RunKey::Gpus, "0".into())));
        assert_eq!(state.run.text(RunKey::Gpus), "0");
        assert!(state.error(Key::Run(RunKey::Gpus)).is_some());
        assert_eq!(state.answer.as_ref().unwrap().document, before.document);
        let state = dispatch(state, Action::Run(RunAction::Set(RunKey::Gpus, "128".into())));
        assert!(state.errors.is_empty());
        assert_eq!(state.answer.as_ref().unwrap().results.gpus, 128);
    }

    #[test]
    fn picking_presets_changes_the_view() {
        let state = Rc::new(AppState::new(Document::default(), None));
        let state = dispatch(state, Action::Model(ModelAction::Pick("vgg16".into())));
        let state = dispatch(state, Action::Cluster(ClusterAction::Pick("dgx-h100".into())));
        let answer = state.answer.as_ref().unwrap();
        assert_eq!(answer.question().model.preset(), Some("vgg16"));
        assert_eq!(answer.question().cluster.preset(), Some("dgx-h100"));
        assert_eq!(answer.results.capacity_bytes, 80e9);
    }

    #[test]
    fn an_edited_preset_keeps_its_convergence_written_into_the_run() {
        let state = Rc::new(AppState::new(Document::default(), None));
        assert_eq!(state.run.text(RunKey::Convergence), "");
        let state = dispatch(
            state,
            Action::Model(ModelAction::Edit(0, LayerColumn::W, "4x64x7x7".into())),
        );
        assert_eq!(state.run.text(RunKey::Convergence), "mlperf-resnet50");
        assert!(
            state
                .applied
                .as_deref()
                .unwrap_or("")
                .contains("still trains until the epochs of ResNet-50"),
            "{:?}",
            state.applied
        );
        // a curve the user chose stays
        let state = dispatch(state, Action::Run(RunAction::Set(RunKey::Convergence, "40".into())));
        let state = dispatch(
            state,
            Action::Model(ModelAction::Edit(0, LayerColumn::W, "3x64x7x7".into())),
        );
        assert_eq!(state.run.text(RunKey::Convergence), "40");
    }

    #[test]
    fn edits_and_imports() {
        let state = Rc::new(AppState::new(Document::default(), None));
        let state = dispatch(
            state,
            Action::Model(ModelAction::Edit(0, LayerColumn::W, "4x64x7x7".into())),
        );
        assert!(state.error(Key::Layer(0, LayerColumn::W)).is_some());
        let state = dispatch(
            state,
            Action::Model(ModelAction::Edit(0, LayerColumn::W, "3x64x7x7".into())),
        );
        assert!(state.errors.is_empty());
        assert_eq!(
            state.answer.as_ref().unwrap().question().model.preset(),
            Some("resnet50")
        );
        let state = dispatch(
            state,
            Action::Model(ModelAction::Paste("Dataset|x\nInput|10x3x8x8\n".into())),
        );
        assert!(state.import_error.as_deref().unwrap_or("").contains("Line 3"));
        let state = dispatch(
            state,
            Action::Cluster(ClusterAction::Edit(
                ClusterKey::Field(&["gpu_memory_bytes"]),
                "32".into(),
            )),
        );
        assert_eq!(state.answer.as_ref().unwrap().results.capacity_bytes, 32e9);
        let state = dispatch(state, Action::Run(RunAction::Set(RunKey::GroupSize, "3".into())));
        assert!(state.error(Key::Run(RunKey::GroupSize)).is_some());
        assert_eq!(state.answer.as_ref().unwrap().results.capacity_bytes, 32e9);
    }

    #[test]
    fn an_onnx_graph_imports_and_a_broken_one_keeps_the_view() {
        let bytes: Rc<[u8]> = include_bytes!("../../../tests/onnx/light_squeezenet.onnx")
            .as_slice()
            .into();
        let state = Rc::new(AppState::new(Document::default(), None));
        let before = state.answer.clone().unwrap();
        let broken: Rc<[u8]> = bytes[..bytes.len() / 3].into();
        let state = dispatch(
            state,
            Action::Model(ModelAction::Files(vec![(broken, "cut.onnx".into())], String::new())),
        );
        assert!(
            state
                .import_error
                .as_deref()
                .unwrap_or("")
                .starts_with("cut.onnx: ONNX graph")
        );
        assert_eq!(
            state.answer.as_ref().unwrap().document,
            before.document,
            "the previous network stays"
        );
        let state = dispatch(
            state,
            Action::Model(ModelAction::Files(
                vec![(bytes, "squeezenet.onnx".into())],
                String::new(),
            )),
        );
        assert_eq!(state.import_error, None);
        let answer = state.answer.as_ref().unwrap();
        assert_eq!(answer.scenario.network().layers().len(), 66);
        assert_eq!(answer.scenario.network().weight_items(), 1_235_496.0);
        let summary = state.import_summary.as_deref().unwrap_or("");
        assert!(
            summary.contains("66 layers") && summary.contains("ConstantOfShape 39"),
            "{summary}"
        );
        // the imported network travels in the share link
        let reopened = crate::app::page::url::decode(answer.link.as_deref().unwrap_or("")).unwrap();
        assert_eq!(reopened.question.network().unwrap().weight_items(), 1_235_496.0);
    }

    #[test]
    fn a_pasted_keras_model_imports_with_a_summary() {
        let text = include_str!("../../../tests/keras/lenet.json");
        let state = Rc::new(AppState::new(Document::default(), None));
        let state = dispatch(state, Action::Model(ModelAction::Paste(text.into())));
        assert_eq!(state.import_error, None);
        let summary = state.import_summary.as_deref().unwrap_or("");
        assert!(
            summary.contains("9 layers") && summary.contains("35474 parameters"),
            "{summary}"
        );
        assert_eq!(
            state.answer.as_ref().unwrap().scenario.network().weight_items(),
            35_474.0
        );
    }

    #[test]
    fn a_new_view_is_a_history_entry_but_keystrokes_in_one_field_are_one() {
        let gpus = |text: &str| Action::Run(RunAction::Set(RunKey::Gpus, text.into()));
        let state = Rc::new(AppState::new(Document::default(), None));
        assert_eq!((state.pushes, state.can_undo(), state.can_redo()), (0, false, false));
        let state = dispatch(state, gpus("1"));
        assert_eq!(state.pushes, 1, "a first change is an entry");
        let state = dispatch(state, gpus("12"));
        assert_eq!(state.pushes, 1, "the next keystroke replaces it");
        let state = dispatch(state, gpus("128"));
        assert_eq!(state.pushes, 1);
        // committed: the next value typed is another entry
        let state = dispatch(state, Action::Page(PageAction::EndEdit));
        let state = dispatch(state, gpus("256"));
        assert_eq!((state.pushes, state.position), (2, 2));
        let state = dispatch(state, Action::Model(ModelAction::Pick("vgg16".into())));
        assert_eq!(state.pushes, 3, "another input is another entry");
        assert!(state.can_undo() && !state.can_redo());
        let state = dispatch(state, gpus("0"));
        assert!(state.errors.contains_key(&Key::Run(RunKey::Gpus)));
        // back to the first view: restored from its document, no new entry
        let state = dispatch(state, Action::Page(PageAction::Restore(Box::default(), 0)));
        assert_eq!(state.answer.as_ref().unwrap().document, Document::default());
        assert_eq!(state.run.text(RunKey::Gpus), "64", "the editors show it too");
        assert_eq!(state.pushes, 3, "a restore is no new entry");
        assert!(!state.can_undo() && state.can_redo(), "undo never leaves the app");
        // a new view from there drops the ones forward of it
        let state = dispatch(state, gpus("32"));
        assert_eq!((state.position, state.last), (1, 1));
        assert!(!state.can_redo());
    }

    #[test]
    fn a_preset_brings_its_usual_run_said_in_one_line_and_undone_by_the_history() {
        let state = Rc::new(AppState::new(Document::default(), None));
        let state = dispatch(state, Action::Model(ModelAction::Pick("cosmoflow".into())));
        let answer = state.answer.as_ref().unwrap();
        assert_eq!(answer.question().run.batch, crate::oracle::Batch::SamplesPerGpu(0.25));
        assert!(answer.results.ranking.iter().any(|p| p.feasible), "something fits");
        let said = state.applied.as_deref().unwrap();
        assert!(
            said.contains("0.25 samples per GPU") && said.contains("Undo puts back 32"),
            "{said}"
        );
        assert_eq!(
            state.position, 1,
            "one history entry: undo takes the pick and its run back"
        );
        // the next change of the question clears the line; the usual run is offered again
        let state = dispatch(state, Action::Run(RunAction::Set(RunKey::SamplesPerGpu, "2".into())));
        assert!(state.applied.is_none());
        let state = dispatch(state, Action::Run(RunAction::Usual(0.25)));
        assert_eq!(state.run.text(RunKey::SamplesPerGpu), "0.25");
        // a preset already run its usual way says nothing
        let state = dispatch(state, Action::Model(ModelAction::Pick("resnet50".into())));
        assert!(state.applied.as_deref().unwrap().contains("32 samples per GPU"));
        let state = dispatch(state, Action::Model(ModelAction::Pick("resnet152".into())));
        assert!(state.applied.is_none());
    }

    #[test]
    fn the_planners_memory_budget_reads_gb_or_a_unit_and_refuses_the_rest() {
        let budget = |text: &str| {
            let state = dispatch(
                Rc::new(AppState::new(Document::default(), None)),
                Action::View(ViewAction::PlanMemory(text.into())),
            );
            (
                state.answer.as_ref().unwrap().view().plan.memory_bytes,
                state.error(Key::PlanMemory).map(str::to_string),
                state.plan_memory.clone(),
            )
        };
        assert_eq!(budget("6").0, Some(6e9));
        assert_eq!(budget("6 GB").0, Some(6e9));
        assert_eq!(budget("24 GiB").0, Some(24.0 * 1024f64.powi(3)));
        assert_eq!(budget("").0, None);
        for bad in ["0", "-3", "2e6", "x", "6 GB/s"] {
            let (_, error, typed) = budget(bad);
            assert!(error.is_some(), "{bad}");
            assert_eq!(typed, bad, "what was typed is kept");
        }
    }

    #[test]
    fn a_cluster_brings_the_precision_of_its_gpu() {
        let state = Rc::new(AppState::new(Document::default(), None));
        assert_eq!(state.run.text(RunKey::Precision), "fp32", "ABCI: ParaDL's runs");
        let state = dispatch(state, Action::Cluster(ClusterAction::Pick("dgx-h100".into())));
        let answer = state.answer.as_ref().unwrap();
        assert_eq!(answer.question().run.precision, crate::oracle::Precision::Fp16);
        assert!(state.applied.as_deref().unwrap().contains("Undo puts back FP32"));
        // a node built from any GPU the engine knows
        let state = dispatch(
            state,
            Action::Cluster(ClusterAction::Pick("node:2:pcie4:GeForce GTX 1080 Ti".into())),
        );
        let answer = state.answer.as_ref().unwrap();
        assert_eq!(
            answer.question().cluster,
            ClusterSource::Preset("node:2:pcie4:GeForce GTX 1080 Ti".into())
        );
        assert_eq!(answer.scenario.cluster().spec().max_gpus, 2);
        assert_eq!(answer.results.gpus, 2, "the budget fits the node");
        assert!(state.applied.as_deref().unwrap().contains("GPUs set to 2"));
        assert_eq!(
            answer.question().run.precision,
            crate::oracle::Precision::Fp32,
            "Pascal: no tensor cores"
        );
    }

    #[test]
    fn a_lesson_in_predict_mode_hides_results_until_revealed() {
        let lesson = crate::app::lessons::find("memory-wall").unwrap();
        let mut state = AppState::new((lesson.inputs)(), None);
        state.lesson = Some(LessonState {
            lesson,
            predict: true,
            revealed: false,
            guess: None,
        });
        let state = Rc::new(state);
        assert!(state.lesson.unwrap().hides_results());
        let state = dispatch(state, Action::Run(RunAction::Set(RunKey::Gpus, "16".into())));
        assert!(state.lesson.unwrap().hides_results(), "editing keeps the lesson");
        let state = dispatch(state, Action::Page(PageAction::Reveal));
        assert!(!state.lesson.unwrap().hides_results());
        let state = dispatch(state, Action::Page(PageAction::CloseLesson));
        assert!(state.lesson.is_none());
    }

    #[test]
    fn the_scenario_is_reused_while_only_the_run_changes() {
        let state = Rc::new(AppState::new(Document::default(), None));
        let first = Rc::clone(&state.answer.as_ref().unwrap().scenario);
        let state = dispatch(state, Action::Run(RunAction::Set(RunKey::SamplesPerGpu, "16".into())));
        assert!(Rc::ptr_eq(&first, &state.answer.as_ref().unwrap().scenario));
        let state = dispatch(state, Action::Model(ModelAction::Pick("alexnet".into())));
        assert!(!Rc::ptr_eq(&first, &state.answer.as_ref().unwrap().scenario));
    }

    #[test]
    fn a_profile_dropped_with_its_graph_times_the_network_and_travels_in_the_link() {
        let onnx: Rc<[u8]> = include_bytes!("../../../tests/profile/resnet18-cpu-b8/model.onnx")
            .as_slice()
            .into();
        let profile: Rc<[u8]> = include_bytes!("../../../tests/profile/resnet18-cpu-b8/profile.json")
            .as_slice()
            .into();
        let state = Rc::new(AppState::new(Document::default(), None));
        // a profile alone on a preset it did not measure: an error that names why, the view kept
        let before = state.answer.clone().unwrap();
        let state = dispatch(
            state,
            Action::Model(ModelAction::Files(
                vec![(Rc::clone(&profile), "profile.json".into())],
                String::new(),
            )),
        );
        let error = state.import_error.clone().unwrap_or_default();
        assert!(error.contains("the profile is of another network"), "{error}");
        assert_eq!(state.answer.as_ref().unwrap().document, before.document);
        // both files, in either order
        let state = dispatch(
            state,
            Action::Model(ModelAction::Files(
                vec![(profile, "profile.json".into()), (onnx, "model.onnx".into())],
                String::new(),
            )),
        );
        assert_eq!(state.import_error, None);
        let summary = state.import_summary.clone().unwrap_or_default();
        assert!(
            summary.contains("from the profile of resnet18 measured on x86_64 at batch 8"),
            "{summary}"
        );
        let answer = state.answer.as_ref().unwrap();
        let network = answer.scenario.network();
        assert_eq!(network.step().map(|s| s.batch), Some(8));
        let check = answer.scenario.profile_check(answer.results.edition).unwrap();
        assert!(
            check
                .source()
                .starts_with("compute from your profile of resnet18 on x86_64 (cpu) at batch 8")
        );
        assert!((check.projected_step_s - check.measured_step_s).abs() < 1e-9 * check.measured_step_s);
        // the share link carries the profile, compactly, and reopens it exactly
        let link = answer.link.as_deref().unwrap_or_default();
        assert!(link.len() < 12_000, "{} characters", link.len());
        let reopened = crate::app::page::url::decode(link).unwrap();
        assert_eq!(reopened, answer.document);
        assert_eq!(reopened.question.network().unwrap().step(), network.step());
    }
}
