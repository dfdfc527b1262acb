//! Everything the user can do, grouped by what it touches: the network,
//! the cluster, the run (each a part of the question, rebuilt alone), the
//! view (nothing recomputed) and the page (history, lesson, notices).

use std::rc::Rc;

use crate::app::input::document::Document;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::input::keys::{ClusterKey, LayerColumn, RunKey};
use crate::app::input::run_fields;
use crate::app::reader::protocol::ReadReply;
use crate::oracle::{AllreduceAlgorithm, Config, LayerKind, Objective, Strategy};

/// An action of the one reducer.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// On the network.
    Model(ModelAction),
    /// On the cluster.
    Cluster(ClusterAction),
    /// On the run.
    Run(RunAction),
    /// On how the answer is looked at.
    View(ViewAction),
    /// On the page.
    Page(PageAction),
}

/// What changes the network.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelAction {
    /// Load a network preset.
    Pick(String),
    /// Load a pasted `.net`, JSON or Keras network (read in the worker).
    Paste(String),
    /// Load uploaded or dropped files, each its bytes and name: a network
    /// (ONNX, `.keras` or a text format, read in the worker; with the input
    /// shape typed for an ONNX graph, blank: the graph's own) and, or, a
    /// measured profile (`profile.json`) applied to it.
    Files(Vec<(Rc<[u8]>, String)>, String),
    /// Open the network file fetched from a link's `?model=ADDRESS`: the
    /// address and its bytes.
    Linked(String, Rc<[u8]>),
    /// The worker's reply to a file handed to it by one of the three above.
    Read(ReadReply),
    /// Type in a layer cell.
    Edit(usize, LayerColumn, String),
    /// Change a layer's kind.
    Kind(usize, LayerKind),
    /// Insert a layer after this one.
    Insert(usize),
    /// Remove a layer.
    Remove(usize),
    /// Move a layer up (`true`) or down.
    Move(usize, bool),
    /// Type the dataset size.
    Samples(String),
}

/// What changes the cluster.
#[derive(Debug, Clone, PartialEq)]
pub enum ClusterAction {
    /// Load a cluster preset.
    Pick(String),
    /// Type in a cluster cell.
    Edit(ClusterKey, String),
    /// Add a switch level.
    AddLevel,
    /// Remove a switch level.
    RemoveLevel(usize),
    /// Choose the Allreduce algorithm (`None`: left out).
    Allreduce(Option<AllreduceAlgorithm>),
}

/// What changes the run.
#[derive(Debug, Clone, PartialEq)]
pub enum RunAction {
    /// Type or choose a run setting.
    Set(RunKey, String),
    /// Train with a preset's usual samples per GPU.
    Usual(f64),
    /// Show a configuration the planner found.
    Load(Box<Config>),
}

/// What changes the view only.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewAction {
    /// Explain a number (open the explanation panel on it).
    Explain(ExplainTarget),
    /// Close the explanation panel.
    CloseExplanation,
    /// Draw how this strategy places the work.
    Draw(Strategy),
    /// Span the scaling plot over these GPU counts, from and to (`None`:
    /// all of them).
    PlotRange(Option<(u64, u64)>),
    /// Draw the other edition's curves, or stop.
    CompareEditions(bool),
    /// Draw this on the scaling plot.
    PlotMetric(crate::app::input::metric::Metric),
    /// Open (`true`) or close the planner.
    OpenPlan(bool),
    /// Type the planner's GPU budget.
    PlanGpus(String),
    /// Type the planner's memory budget per GPU, in GB.
    PlanMemory(String),
    /// Type the planner's money budget to train, in US dollars.
    PlanUsd(String),
    /// Choose what the planner calls best.
    PlanObjective(Objective),
}

/// What changes the page around the view.
#[derive(Debug, Clone, PartialEq)]
pub enum PageAction {
    /// Show the document of a history entry (back, forward, undo, redo)
    /// and where it is among the page's entries.
    Restore(Box<Document>, usize),
    /// A value was committed (a field left or Enter pressed): the next
    /// keystrokes make another history entry.
    EndEdit,
    /// Show a lesson's results (without a guess).
    Reveal,
    /// Commit a guess to a lesson's question and show the results.
    Guess(crate::app::state::Guess),
    /// Open the layer table on a layer (a name in a sentence was followed).
    ShowLayer(usize),
    /// Put the lesson away.
    CloseLesson,
    /// Hide the notice.
    DismissNotice,
    /// Say something about the page (storage, links) in the notice.
    Notify(String),
}

/// Which parts of the document an action touched: only those are rebuilt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Touched {
    /// The network.
    pub model: bool,
    pub cluster: bool,
    pub run: bool,
    pub view: bool,
}

impl Touched {
    /// Whether the question changed (the results must be computed again).
    pub fn question(self) -> bool {
        self.model || self.cluster || self.run
    }
}

impl Action {
    /// What the action touches, group by group.
    pub fn touches(&self) -> Touched {
        let none = Touched::default();
        match self {
            Self::Model(_) => Touched { model: true, ..none },
            Self::Cluster(_) => Touched { cluster: true, ..none },
            Self::Run(_) => Touched { run: true, ..none },
            Self::View(_) => Touched { view: true, ..none },
            Self::Page(_) => none,
        }
    }

    /// The input an action types into: consecutive actions on the same
    /// one (keystrokes in one field) make one history entry.
    pub fn slot(&self) -> Option<String> {
        match self {
            Self::Model(ModelAction::Edit(row, column, _)) => Some(format!("layer {row} {column:?}")),
            Self::Model(ModelAction::Samples(_)) => Some("samples".into()),
            Self::Cluster(ClusterAction::Edit(key, _)) => Some(format!("cluster {key:?}")),
            Self::Run(RunAction::Set(key, _)) if run_fields::field(*key).typed => Some(format!("run {key:?}")),
            Self::View(ViewAction::PlanGpus(_)) => Some("plan gpus".into()),
            Self::View(ViewAction::PlanMemory(_)) => Some("plan memory".into()),
            Self::View(ViewAction::PlanUsd(_)) => Some("plan money".into()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::state::action::*;

    #[test]
    fn each_group_touches_its_part_and_views_touch_no_question() {
        let t = Action::View(ViewAction::CloseExplanation).touches();
        assert!(t.view && !t.question());
        assert!(
            Action::Run(RunAction::Set(RunKey::Gpus, "8".into()))
                .touches()
                .question()
        );
        assert!(!Action::Page(PageAction::Reveal).touches().question());
        assert_eq!(
            Action::Run(RunAction::Set(RunKey::Gpus, "8".into())).slot(),
            Action::Run(RunAction::Set(RunKey::Gpus, "16".into())).slot()
        );
        assert_eq!(
            Action::Run(RunAction::Set(RunKey::Precision, "bf16".into())).slot(),
            None
        );
    }
}
