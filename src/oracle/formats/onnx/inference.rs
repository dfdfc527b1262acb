//! What a whole detection export holds around the network a training step
//! runs (contract, section 10): torchvision's detection models take one
//! image without its batch axis (`[C, H, W]`), normalise it and add the
//! batch axis themselves (`GeneralizedRCNNTransform`), and end in
//! inference-only post-processing (score thresholds, top-k, non-maximum
//! suppression) where a training step computes its loss instead; a
//! two-stage detector's second stage (the RoI heads after `RoiAlign`)
//! runs on proposals sampled at run time.

use std::collections::HashSet;

use super::proto::{GraphProto, NodeProto};

/// Operators whose output depends on the data's values, not only its
/// shape: where a detection export's post-processing starts. A node of
/// one of them on a computed tensor, and every node reading what it
/// wrote, is no layer of a training step.
pub const POST_PROCESSING: [&str; 20] = [
    "NonZero",
    "TopK",
    "NonMaxSuppression",
    "GatherND",
    "GatherElements",
    "RoiAlign",
    "MaxRoiPool",
    "If",
    "Loop",
    "Greater",
    "GreaterOrEqual",
    "Less",
    "LessOrEqual",
    "Equal",
    "Not",
    "And",
    "Or",
    "ArgMax",
    "ArgMin",
    "Unique",
];

/// Why a tensor is no layer of a training step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dropped {
    /// Post-processing of an inference (a score threshold, top-k, NMS).
    PostProcessing,
    /// The second stage of a two-stage detector: what reads `RoiAlign`'s
    /// crops of proposals chosen at run time.
    SecondStage,
}

impl Dropped {
    /// Why a node of operator `op` reading tensors dropped for `inputs`
    /// (the strongest reason: the second stage) is dropped.
    pub fn of(op: &str, inputs: impl Iterator<Item = Self>) -> Self {
        let own = if matches!(op, "RoiAlign" | "MaxRoiPool") {
            Self::SecondStage
        } else {
            Self::PostProcessing
        };
        inputs.fold(own, Self::max)
    }

    /// How the importer lists a node dropped for this reason.
    pub fn label(self, op: &str) -> String {
        match self {
            Self::PostProcessing => format!("{op} (inference-only post-processing, no layer of a training step)"),
            Self::SecondStage => format!("{op} (second stage on sampled proposals: not projected)"),
        }
    }
}

/// The integers a `Constant` node or an initializer named `name` holds
/// (an `Unsqueeze`'s axes from opset 13 on).
fn integers(graph: &GraphProto, name: &str) -> Option<Vec<i64>> {
    let tensor = graph
        .initializer
        .iter()
        .find(|t| t.name.as_deref() == Some(name))
        .or_else(|| {
            graph
                .node
                .iter()
                .find(|n| n.op_type.as_deref() == Some("Constant") && n.output.iter().any(|o| o == name))
                .and_then(|n| n.attribute.iter().find(|a| a.name.as_deref() == Some("value")))
                .and_then(|a| a.t.as_ref())
        })?;
    tensor.integers()
}

fn unsqueezes_axis_zero(graph: &GraphProto, node: &NodeProto) -> bool {
    let axes = node
        .attribute
        .iter()
        .find(|a| a.name.as_deref() == Some("axes"))
        .map(|a| a.ints.clone())
        .or_else(|| node.input.get(1).and_then(|name| integers(graph, name)));
    axes.as_deref() == Some(&[0])
}

/// Whether the data input `data` is one sample without its batch axis:
/// the graph adds the batch itself, an `Unsqueeze` at axis 0 reached from
/// the input through casts and elementwise arithmetic with constants (an
/// image's normalisation).
///
/// # Formula
/// Follows the chain `data → (Cast | Identity | Sub | Div | Mul | Add)* →
/// Unsqueeze(axes = [0])`, each step reading exactly one tensor computed
/// from `data`.
pub fn unbatched(graph: &GraphProto, data: &str) -> bool {
    let mut computed: HashSet<&str> = HashSet::from([data]);
    for node in &graph.node {
        let op = node.op_type.as_deref().unwrap_or_default();
        let reads = node.input.iter().filter(|i| computed.contains(i.as_str())).count();
        if reads == 0 {
            continue;
        }
        if op == "Unsqueeze" && reads == 1 && node.input.first().is_some_and(|i| computed.contains(i.as_str())) {
            return unsqueezes_axis_zero(graph, node);
        }
        if reads != 1 || !matches!(op, "Cast" | "Identity" | "Sub" | "Div" | "Mul" | "Add") {
            return false;
        }
        computed.extend(node.output.iter().map(String::as_str));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_stage_is_the_stronger_reason() {
        assert_eq!(Dropped::of("TopK", std::iter::empty()), Dropped::PostProcessing);
        assert_eq!(Dropped::of("RoiAlign", std::iter::empty()), Dropped::SecondStage);
        assert_eq!(
            Dropped::of("Conv", [Dropped::PostProcessing, Dropped::SecondStage].into_iter()),
            Dropped::SecondStage
        );
        assert!(Dropped::SecondStage.label("Gemm").contains("not projected"));
    }
}
