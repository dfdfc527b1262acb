//! The share link's document: the question and the view, as serde writes
//! them with the short keys every link has used (`m`, `g`, `b`, `ex`, ...),
//! each left out at the first visit's value. [`crate::app::page::url`] adds the
//! version, compresses it and checks what it reads.

use serde::{Deserialize, Serialize};

use crate::app::input::question::Question;
use crate::app::input::view::View;

/// Everything a view depends on: what a share link carries.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// What is asked.
    #[serde(flatten)]
    pub question: Question,
    /// How the answer is looked at.
    #[serde(flatten)]
    pub view: View,
}

/// Every key a document may hold, for the link's check that refuses keys
/// it does not know (serde's flattening cannot). A test holds the list to
/// what serde writes.
pub const KEYS: [&str; 35] = [
    "m", "n", "c", "k", "g", "b", "mb", "d", "sg", "p2", "f", "pr", "op", "z", "rc", "ov", "bk", "cv", "ci", "gh",
    "kw", "pu", "s", "cal", "rb", "ex", "dr", "pl", "pg", "po", "pm", "px", "gr", "ce", "pt",
];

impl Document {
    /// A document of a question, viewed as at first.
    pub fn of(question: Question) -> Self {
        Self {
            question,
            view: View::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::input::document::*;
    use crate::app::input::explain_target::ExplainTarget;
    use crate::app::input::source::{ClusterSource, ModelSource};
    use crate::oracle::{Batch, Edition, Objective, Optimizer, Precision, Quantity, Strategy, presets};

    /// A document with every field away from the first visit's value.
    pub fn everything() -> Document {
        let mut question = Question {
            model: ModelSource::Custom(Box::new(presets::network("alexnet").unwrap().spec())),
            ..Question::default()
        };
        question.run.gpus = 256;
        question.run.batch = Batch::MiniBatch(8192);
        question.run.bytes_per_item = 2.0;
        question.run.segments = Some(64);
        question.run.group_size = Some(8);
        question.run.edition = Edition::Ideal;
        question.run.precision = Precision::Bf16;
        question.run.optimizer = Optimizer::Adam;
        question.run.zero = 2;
        question.run.recompute = true;
        question.run.overlap = true;
        question.run.bucket_mib = 50.0;
        question.run.convergence = Some(crate::oracle::model::convergence::Convergence::Epochs(42.0));
        question.run.costs = crate::oracle::model::energy::Costs {
            grid: Some(crate::oracle::model::energy::Grid::Intensity(300.0)),
            price: Some(crate::oracle::model::energy::Price::Named("aws-p5.48xlarge".into())),
            usd_per_kwh: Some(0.12),
            pue: Some(1.2),
        };
        question.rank_by = crate::oracle::RankBy::TimeToTrain;
        question.strategies = vec![Strategy::Data];
        question.measured = "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\n".into();
        let mut view = View {
            explaining: Some(ExplainTarget::new(Strategy::Data, 8, Quantity::Total)),
            drawing: Some(Strategy::Data),
            compare_editions: true,
            gpu_range: Some((64, 1024)),
            plot: crate::app::input::metric::Metric::Energy,
            ..View::default()
        };
        view.plan.open = true;
        view.plan.gpus = Some(512);
        view.plan.objective = Objective::Memory;
        view.plan.memory_bytes = Some(40e9);
        view.plan.max_usd = Some(500.0);
        let mut doc = Document { question, view };
        // the other source of each: a preset, a custom cluster
        doc.question.cluster = ClusterSource::Custom(Box::new(presets::cluster("abci").unwrap().spec().clone()));
        doc
    }

    fn keys_of(doc: &Document) -> Vec<String> {
        let value = serde_json::to_value(doc).unwrap();
        value.as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn the_key_list_is_every_key_serde_writes() {
        let mut written = keys_of(&everything());
        let mut presets_too = everything();
        presets_too.question.model = ModelSource::Preset("vgg16".into());
        presets_too.question.cluster = ClusterSource::Preset("dgx-a100".into());
        presets_too.question.run.batch = Batch::SamplesPerGpu(8.0);
        written.extend(keys_of(&presets_too));
        written.sort();
        written.dedup();
        let mut listed: Vec<String> = KEYS.iter().map(|k| k.to_string()).collect();
        listed.sort();
        assert_eq!(written, listed);
    }

    #[test]
    fn the_first_visit_writes_nothing() {
        assert_eq!(serde_json::to_string(&Document::default()).unwrap(), "{}");
        let doc: Document = serde_json::from_str("{}").unwrap();
        assert_eq!(doc, Document::default());
    }

    #[test]
    fn documents_round_trip() {
        let doc = everything();
        let text = serde_json::to_string(&doc).unwrap();
        assert_eq!(serde_json::from_str::<Document>(&text).unwrap(), doc);
    }
}
