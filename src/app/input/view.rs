//! How the user looks at the answer: the number explained, the strategy
//! drawn, the planner, the other edition's curves. None of it changes what
//! the engine computes for the question, so changing it recomputes nothing.

use serde::{Deserialize, Serialize};

use crate::app::input::explain_target::ExplainTarget;
use crate::app::input::metric::Metric;
use crate::oracle::{Objective, Strategy};

/// The view of an answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The number the explanation panel explains, if open.
    #[serde(rename = "ex", default, skip_serializing_if = "Option::is_none", with = "explained")]
    pub explaining: Option<ExplainTarget>,
    /// The strategy the diagram draws (`None`: the best at the budget).
    #[serde(rename = "dr", default, skip_serializing_if = "Option::is_none")]
    pub drawing: Option<Strategy>,
    /// The planner.
    #[serde(flatten)]
    pub plan: PlanView,
    /// The GPU counts the scaling plot spans, from and to (`None`: 1 to the
    /// cluster's size).
    #[serde(rename = "gr", default, skip_serializing_if = "Option::is_none")]
    pub gpu_range: Option<(u64, u64)>,
    /// Draw the other edition's scaling curves too.
    #[serde(rename = "ce", default, skip_serializing_if = "is_false")]
    pub compare_editions: bool,
    /// What the scaling plot draws (its epoch time by default).
    #[serde(rename = "pt", default, skip_serializing_if = "Metric::is_epoch")]
    pub plot: Metric,
}

/// The planner: whether it is open (its search runs), its GPU budget and
/// what it calls best.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlanView {
    #[serde(rename = "pl", default, skip_serializing_if = "is_false")]
    pub open: bool,
    /// Its GPU budget (`None`: the run's).
    #[serde(rename = "pg", default, skip_serializing_if = "Option::is_none")]
    pub gpus: Option<u64>,
    /// What it calls best.
    #[serde(rename = "po", default, skip_serializing_if = "is_default_objective")]
    pub objective: Objective,
    /// Its memory budget per GPU, bytes (`None`: the GPU's memory).
    #[serde(rename = "pm", default, skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<f64>,
    /// Its money budget to train, US dollars (`None`: none).
    #[serde(rename = "px", default, skip_serializing_if = "Option::is_none")]
    pub max_usd: Option<f64>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

fn is_default_objective(objective: &Objective) -> bool {
    *objective == Objective::default()
}

/// An explained number as its key, `STRATEGY@GPUS:QUANTITY`.
mod explained {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::app::input::view::ExplainTarget;

    pub fn serialize<S: Serializer>(target: &Option<ExplainTarget>, s: S) -> Result<S::Ok, S::Error> {
        match target {
            Some(t) => s.serialize_str(&t.key()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ExplainTarget>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|key| {
                ExplainTarget::parse(&key).ok_or_else(|| {
                    serde::de::Error::custom(format!("'{key}' is no number of a view (STRATEGY@GPUS:QUANTITY)"))
                })
            })
            .transpose()
    }
}
