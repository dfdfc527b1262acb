//! Bottlenecks and limits of a projection, as the paper's table of
//! limitations: each finding is data (kind, severity, numbers) plus one
//! plain sentence.

use serde::Serialize;

use crate::oracle::cost::communication::{CommKind, Communication};
use crate::oracle::cost::memory::{MemoryParts, Part};
use crate::oracle::cost::strategies::{Redundancy, ScalingBound, StageBalance};
use crate::oracle::model::convergence::How;
use crate::oracle::model::layer::Layer;
use crate::oracle::model::run::RunSpec;
use crate::oracle::model::violation::Violation;
use crate::oracle::report::quantity::Quantity;
use crate::oracle::report::sentence::Sentence;
use crate::oracle::report::training::Training;
use crate::oracle::units;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// Limits efficiency.
    Warning,
    /// Rules the configuration out, or dominates it.
    Critical,
}

/// The numbers behind a finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FindingDetail {
    /// Communication takes a large share of the epoch.
    CommunicationBound {
        /// The kind with the most seconds.
        dominant: CommKind,
        /// Its class in the paper's table.
        class: &'static str,
        /// Communication share of the epoch.
        share: f64,
        /// The dominant kind's share of communication.
        dominant_share: f64,
    },
    /// The global batch is past the largest that converged in the
    /// reference runs of the run's convergence curve: its epochs are
    /// extrapolated (section 13).
    PastConvergedBatch {
        /// `B`.
        global_batch: u64,
        /// The largest batch of the curve.
        largest_batch: u64,
        /// Epochs there.
        largest_epochs: f64,
        /// Epochs at `B` (the critical-batch model).
        epochs: f64,
        /// Time to train, seconds.
        time_s: f64,
    },
    /// What one step is made of at scale (64 GPUs or more): where the
    /// time of a step goes when each GPU holds few samples.
    StepAtScale {
        /// Seconds a step.
        step_s: f64,
        /// Compute seconds a step.
        compute_s: f64,
        /// The least a step's kernels take to launch, seconds.
        launch_s: f64,
        /// Exposed communication seconds a step.
        exposed_s: f64,
        /// Gradient exchange hidden behind the backward pass, seconds a step.
        hidden_s: f64,
    },
    /// Memory close to the capacity.
    MemoryPressure {
        /// Bytes per GPU.
        used_bytes: f64,
        /// `M`.
        capacity_bytes: f64,
        /// `used / M`.
        share: f64,
    },
    /// Memory above the capacity.
    MemoryOverflow {
        /// Bytes per GPU.
        used_bytes: f64,
        /// `M`.
        capacity_bytes: f64,
        /// `used / M`.
        share: f64,
        /// Where activations are the largest part: the layer that keeps the
        /// most of them per sample (`|x| + |y|`), by name...
        #[serde(skip_serializing_if = "Option::is_none")]
        layer: Option<String>,
        /// ... and its index in the network.
        #[serde(skip_serializing_if = "Option::is_none")]
        layer_index: Option<usize>,
    },
    /// A count at, near or past the strategy's bound.
    ScalingLimit {
        limit: Violation,
        /// What is counted.
        counted: &'static str,
        /// What bounds it, in words.
        bounded_by: &'static str,
        /// Its value.
        value: u64,
        bound: u64,
        /// The layer whose size sets the bound (a split's), by name.
        #[serde(skip_serializing_if = "Option::is_none")]
        layer: Option<String>,
        /// Its index in the network.
        #[serde(skip_serializing_if = "Option::is_none")]
        layer_index: Option<usize>,
    },
    /// Pipeline stages of uneven time.
    PipelineImbalance {
        /// `max_i T_i` per sample.
        largest_stage_s: f64,
        /// Mean stage time per sample.
        mean_stage_s: f64,
        /// largest / mean.
        ratio: f64,
    },
    /// What would make a configuration that does not fit fit.
    MemoryFit {
        /// The largest part of memory.
        dominant: &'static str,
        /// Its bytes.
        dominant_bytes: f64,
        /// The options tried, with the memory each would need.
        options: Vec<FitOption>,
    },
    /// Layers left whole by the split, computed by every part.
    RedundantCompute {
        /// Share of each part's compute in whole layers.
        share: f64,
        /// Parts of the split.
        parts: u64,
        /// Layers left whole (with compute).
        whole_layers: usize,
    },
}

/// A change to a run and the memory per GPU it would then need.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FitOption {
    /// The change, in words (`ZeRO stage 2`, `a mini-batch of 512`).
    pub option: String,
    /// Bytes per GPU with it.
    pub memory_bytes: f64,
    /// Whether that fits in the GPU.
    pub fits: bool,
    /// The run with the change.
    #[serde(skip)]
    pub spec: RunSpec,
}

/// The finding of a configuration that does not fit: its largest part,
/// and the options that would make it fit (or, when none does, the
/// closest). Where it also breaks limits that no option lifts (`blocked`:
/// a split, the GPU count, the pipeline's depth, the dataset), it offers
/// none of them and says which limits stay, so that its advice never
/// contradicts the limit beside it.
pub fn memory_fit(memory: &MemoryParts, options: Vec<FitOption>, blocked: &[Violation]) -> Finding {
    let dominant = memory.dominant();
    let dominant_bytes = memory.get(dominant);
    // an option's numbers and its memory open the explanation of its run
    let describe = |i: usize, o: &FitOption| {
        let quantity = Quantity::FitOption(u8::try_from(i).unwrap_or(u8::MAX));
        Sentence::new().numbers(&o.option, quantity).text(", needing ").figure(
            units::bytes(o.memory_bytes),
            o.memory_bytes,
            quantity,
        )
    };
    let fitting: Vec<Sentence> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.fits)
        .map(|(i, o)| describe(i, o))
        .collect();
    let largest = Sentence::new()
        .text(&units::capitalised(dominant.label()))
        .text(" are the largest part (")
        .figure(units::bytes(dominant_bytes), dominant_bytes, Quantity::Part(dominant))
        .text(")");
    let sentence = if !blocked.is_empty() {
        largest
            .text(". Fitting it in memory would not make it run: it also has ")
            .text(&blocked.iter().map(|v| v.label()).collect::<Vec<_>>().join(" and "))
            .text(", which no memory option lifts.")
    } else if fitting.is_empty() {
        let closest = options
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.memory_bytes.total_cmp(&b.1.memory_bytes))
            .map_or_else(
                || Sentence::new().text("no option applies"),
                |(i, o)| Sentence::new().text("the closest is ").then(describe(i, o)),
            );
        largest
            .text("; no single change tried makes it fit: ")
            .then(closest)
            .text(".")
    } else {
        let joined = fitting.into_iter().enumerate().fold(Sentence::new(), |s, (i, f)| {
            s.text(if i > 0 { "; " } else { "" }).then(f)
        });
        largest.text(". It would fit with: ").then(joined).text(".")
    };
    Finding::new(
        Severity::Warning,
        FindingDetail::MemoryFit {
            dominant: dominant.label(),
            dominant_bytes,
            options,
        },
        sentence,
    )
}

/// One bottleneck or limit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// How much it matters.
    pub severity: Severity,
    /// The numbers.
    #[serde(flatten)]
    pub detail: FindingDetail,
    /// One sentence for people.
    pub message: String,
    /// The same sentence, each number with the quantity that explains it.
    #[serde(skip)]
    pub sentence: Sentence,
}

impl Finding {
    /// A finding saying `sentence`.
    pub fn new(severity: Severity, detail: FindingDetail, sentence: Sentence) -> Self {
        Self {
            severity,
            detail,
            message: sentence.to_string(),
            sentence,
        }
    }
}

/// Thresholds of the findings: (share at or above which it is info,
/// warning, critical).
pub const COMMUNICATION_SHARE: [f64; 3] = [0.25, 0.5, 0.8];
/// Memory share of capacity: info, warning (critical is overflow).
pub const MEMORY_SHARE: [f64; 2] = [0.75, 0.9];
/// Largest over mean pipeline stage: info, warning.
pub const IMBALANCE_RATIO: [f64; 2] = [1.1, 1.5];
/// Share of a part's compute in whole layers: info, warning.
pub const REDUNDANT_SHARE: [f64; 2] = [0.1, 0.5];

/// Everything the findings look at.
#[derive(Debug, Clone)]
pub struct Evidence<'a> {
    /// Compute seconds per epoch.
    pub compute_s: f64,
    /// Communication per epoch.
    pub communication: &'a Communication,
    /// Bytes per GPU, by part.
    pub memory: &'a MemoryParts,
    /// `M`.
    pub capacity_bytes: f64,
    /// Scaling bounds, the GPU count against `P_max` among them.
    pub bounds: &'a [ScalingBound],
    /// Redundant compute of a split.
    pub redundancy: Option<Redundancy>,
    /// Pipeline balance.
    pub stages: Option<StageBalance>,
    /// Whether the gradient exchange already overlaps the backward pass.
    pub overlapped: bool,
    /// The network's layers (a bound names the one that sets it).
    pub layers: &'a [Layer],
}

/// Every finding, most severe first.
pub fn findings(evidence: &Evidence<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    found.extend(memory(evidence));
    found.extend(communication(evidence));
    found.extend(evidence.bounds.iter().filter_map(|b| scaling(b, evidence.layers)));
    found.extend(evidence.stages.and_then(imbalance));
    found.extend(evidence.redundancy.and_then(redundant));
    found.sort_by_key(|f| std::cmp::Reverse(f.severity));
    found
}

fn level(value: f64, thresholds: &[f64]) -> Option<Severity> {
    const LEVELS: [Severity; 3] = [Severity::Info, Severity::Warning, Severity::Critical];
    thresholds
        .iter()
        .zip(LEVELS)
        .filter(|(t, _)| value >= **t)
        .map(|(_, s)| s)
        .next_back()
}

fn memory(e: &Evidence<'_>) -> Option<Finding> {
    let memory_bytes = e.memory.total();
    let share = memory_bytes / e.capacity_bytes;
    // the memory's explanation lists its parts and the capacity M
    let used = |words: &str| {
        Sentence::new()
            .text(words)
            .figure(units::bytes(memory_bytes), memory_bytes, Quantity::Memory)
    };
    let capacity = Sentence::new().figure(units::bytes(e.capacity_bytes), e.capacity_bytes, Quantity::Memory);
    let share_of = Sentence::new()
        .text(" (")
        .figure(units::percent(share), share, Quantity::Memory)
        .text("): ");
    if share > 1.0 {
        let largest = (e.memory.dominant() == Part::Activations)
            .then(|| largest_activations(e.layers))
            .flatten();
        return Some(Finding::new(
            Severity::Critical,
            FindingDetail::MemoryOverflow {
                used_bytes: memory_bytes,
                capacity_bytes: e.capacity_bytes,
                share,
                layer: largest.as_ref().map(|l| l.0.clone()),
                layer_index: largest.map(|l| l.1),
            },
            used("Needs ")
                .text(" per GPU but a GPU holds ")
                .then(capacity)
                .then(share_of)
                .text("it does not fit."),
        ));
    }
    let severity = level(share, &MEMORY_SHARE)?;
    Some(Finding::new(
        severity,
        FindingDetail::MemoryPressure {
            used_bytes: memory_bytes,
            capacity_bytes: e.capacity_bytes,
            share,
        },
        used("Uses ")
            .text(" of ")
            .then(capacity)
            .text(" per GPU")
            .then(share_of)
            .text("little room left for a larger batch."),
    ))
}

fn communication(e: &Evidence<'_>) -> Option<Finding> {
    let comm_s = e.communication.total_s();
    let total_s = comm_s + e.compute_s;
    if total_s <= 0.0 || comm_s <= 0.0 {
        return None;
    }
    let share = comm_s / total_s;
    let severity = level(share, &COMMUNICATION_SHARE)?;
    let dominant = e.communication.dominant()?;
    let dominant_share = e.communication.get(dominant) / comm_s;
    let verdict = if severity >= Severity::Warning {
        "the run is communication-bound"
    } else {
        "a notable overhead"
    };
    // the class only when it says more than the kind's own name
    let class = if dominant.class() == dominant.label() {
        String::new()
    } else {
        format!(" ({})", dominant.class())
    };
    // the epoch's explanation shows compute and communication; the
    // communication's, each kind
    let sentence = Sentence::new()
        .text("Communication takes ")
        .figure(units::percent(share), share, Quantity::Total)
        .text(" of the epoch, ")
        .figure(units::percent(dominant_share), dominant_share, Quantity::Communication)
        .text(&format!(" of it {}{class}: {verdict}.", dominant.label()))
        .text(match dominant {
            CommKind::GradientAllreduce if !e.overlapped => {
                " PyTorch's DDP, Horovod and MXNet overlap it with the backward pass by default, \
                 bucket by bucket: the overlap option (--overlap) hides part of it."
            }
            // the textbook reason spatial parallelism stops scaling
            CommKind::Halo => {
                " A halo is the rows at a part's edges, as many whatever the number of parts, \
                 while each part's compute shrinks with its slice: past a few parts the exchange \
                 outweighs the compute it saves, and more GPUs make the epoch longer."
            }
            _ => "",
        });
    Some(Finding::new(
        severity,
        FindingDetail::CommunicationBound {
            dominant,
            class: dominant.class(),
            share,
            dominant_share,
        },
        sentence,
    ))
}

/// GPUs from which a projection says what a step is made of.
pub const AT_SCALE_GPUS: u64 = 64;

/// A step's parts at scale, seconds a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    pub gpus: u64,
    /// Compute.
    pub compute_s: f64,
    /// The least its kernels take to launch: kernels × launch cost.
    pub launch_s: f64,
    /// Exposed communication.
    pub exposed_s: f64,
    /// Gradient exchange hidden behind the backward pass.
    pub hidden_s: f64,
}

/// What a step is made of, at [`AT_SCALE_GPUS`] GPUs or more: compute (and
/// the kernels' launches in it), the exposed exchange and the hidden one,
/// each a step, so that what bounds a run at scale is said with its values.
///
/// # Formula
/// `T_step = T_compute + T_exposed` a step (the epoch's over its
/// iterations); the launch floor `K·o` (kernels a step times their launch
/// cost, section 11).
pub fn at_scale(step: Step) -> Option<Finding> {
    let step_s = step.compute_s + step.exposed_s;
    if step.gpus < AT_SCALE_GPUS || step_s <= 0.0 {
        return None;
    }
    let bound = if step.exposed_s > step.compute_s {
        "the exposed exchange bounds the step"
    } else if step.launch_s >= 0.5 * step.compute_s {
        "launching kernels bounds the compute"
    } else {
        "compute bounds the step"
    };
    // the step's numbers open the compute's and the communication's explanations (the
    // epoch's are these times the iterations)
    let mut sentence = Sentence::new()
        .text("At this scale a step takes ")
        .figure(units::seconds(step_s), step_s, Quantity::Compute)
        .text(": compute ")
        .figure(units::seconds(step.compute_s), step.compute_s, Quantity::Compute);
    if step.launch_s > 0.0 {
        sentence = sentence
            .text(" (its kernels take at least ")
            .figure(units::seconds(step.launch_s), step.launch_s, Quantity::Compute)
            .text(" to launch)");
    }
    sentence = sentence.text(", exposed communication ").figure(
        units::seconds(step.exposed_s),
        step.exposed_s,
        Quantity::Communication,
    );
    if step.hidden_s > 0.0 {
        sentence = sentence
            .text(" (and ")
            .figure(units::seconds(step.hidden_s), step.hidden_s, Quantity::Communication)
            .text(" of gradient exchange hidden behind the backward pass)");
    }
    Some(Finding::new(
        Severity::Info,
        FindingDetail::StepAtScale {
            step_s,
            compute_s: step.compute_s,
            launch_s: step.launch_s,
            exposed_s: step.exposed_s,
            hidden_s: step.hidden_s,
        },
        sentence.text(&format!("; {bound}.")),
    ))
}

/// The finding of a run whose global batch is past the largest that
/// converged in its curve's reference runs; `None` for any other.
///
/// # Formula
/// Section 13: `E(B) = e_n·(1 + B/B_crit)/(1 + B_n/B_crit)` past `B_n`.
pub fn past_converged(training: &Training) -> Option<Finding> {
    let How::PastLargest {
        largest_batch,
        largest_epochs,
        critical_batch,
    } = training.epochs.how
    else {
        return None;
    };
    // a curve whose epochs do not grow has nothing to extrapolate: its
    // epochs are kept, and said to be a floor
    let (model, middle, tail) = match critical_batch {
        Some(_) => (
            " epochs): the critical-batch model gives ",
            " epochs, so it takes ",
            " to train. A smaller global batch converges in fewer epochs.",
        ),
        None => (
            " epochs): its epochs do not grow in those runs, so ",
            " epochs are kept and it takes ",
            " to train at the least; a larger batch may need more epochs, which no run measured.",
        ),
    };
    let e = &training.epochs;
    let q = Quantity::TimeToTrain;
    let count = |n: f64| units::significant(n, 3);
    let sentence = Sentence::new()
        .text("A global batch of ")
        .figure(e.global_batch.to_string(), e.global_batch as f64, q)
        .text(" is past the largest that converged in the reference runs (")
        .figure(largest_batch.to_string(), largest_batch as f64, q)
        .text(" samples, ")
        .figure(count(largest_epochs), largest_epochs, q)
        .text(model)
        .figure(count(e.epochs), e.epochs, q)
        .text(middle)
        .figure(units::seconds(training.time_s), training.time_s, q)
        .text(tail);
    Some(Finding::new(
        Severity::Warning,
        FindingDetail::PastConvergedBatch {
            global_batch: e.global_batch,
            largest_batch,
            largest_epochs,
            epochs: e.epochs,
            time_s: training.time_s,
        },
        sentence,
    ))
}

/// A count against its bound, each number opening the bound's
/// explanation: `64 GPUs exceeds the fewest filters of a split layer (32)`.
pub fn against_bound(
    limit: Violation,
    value: u64,
    counted: &str,
    verdict: &str,
    bounded_by: &str,
    bound: u64,
    layer: Option<(&str, usize)>,
) -> Sentence {
    let quantity = Quantity::Bound(limit);
    let sentence = Sentence::new()
        .figure(value.to_string(), value as f64, quantity)
        .text(&format!(" {counted} {verdict} {bounded_by} ("))
        .figure(bound.to_string(), bound as f64, quantity);
    match layer {
        Some((name, index)) => sentence.text(", layer ").layer(name, index).text(")"),
        None => sentence.text(")"),
    }
}

/// The layer that keeps the most activation items per sample, by name and
/// index (the first of equals; none in a network without activations).
fn largest_activations(layers: &[Layer]) -> Option<(String, usize)> {
    layers
        .iter()
        .enumerate()
        .filter(|(_, l)| l.activation_items() > 0.0)
        .max_by(|(i, a), (j, b)| a.activation_items().total_cmp(&b.activation_items()).then(j.cmp(i)))
        .map(|(i, l)| (l.name().to_string(), i))
}

fn scaling(bound: &ScalingBound, layers: &[Layer]) -> Option<Finding> {
    let (severity, verdict) = if bound.value > bound.bound {
        (Severity::Critical, "exceeds")
    } else if bound.value == bound.bound {
        (Severity::Warning, "has reached")
    } else if bound.value > 1 && bound.value.saturating_mul(2) > bound.bound {
        (Severity::Info, "is within a factor of two of")
    } else {
        return None;
    };
    let consequence = match severity {
        Severity::Critical => "this configuration is ruled out",
        Severity::Warning => "this strategy cannot scale further",
        Severity::Info => "little headroom is left",
    };
    let layer = bound
        .layer
        .and_then(|i| layers.get(i).map(|l| (l.name().to_string(), i)));
    let sentence = against_bound(
        bound.limit,
        bound.value,
        bound.counted,
        verdict,
        bound.bounded_by,
        bound.bound,
        layer.as_ref().map(|(name, i)| (name.as_str(), *i)),
    )
    .text(&format!(": {consequence}."));
    Some(Finding::new(
        severity,
        FindingDetail::ScalingLimit {
            limit: bound.limit,
            counted: bound.counted,
            bounded_by: bound.bounded_by,
            value: bound.value,
            bound: bound.bound,
            layer_index: layer.as_ref().map(|l| l.1),
            layer: layer.map(|l| l.0),
        },
        sentence,
    ))
}

fn imbalance(stages: StageBalance) -> Option<Finding> {
    if stages.mean_s <= 0.0 {
        return None;
    }
    let ratio = stages.largest_s / stages.mean_s;
    let severity = level(ratio, &IMBALANCE_RATIO)?;
    Some(Finding::new(
        severity,
        FindingDetail::PipelineImbalance {
            largest_stage_s: stages.largest_s,
            mean_stage_s: stages.mean_s,
            ratio,
        },
        Sentence::new()
            .text("The slowest pipeline stage takes ")
            .figure(format!("{}×", units::significant(ratio, 3)), ratio, Quantity::Compute)
            .text(" the mean stage time: the other GPUs wait for it."),
    ))
}

fn redundant(r: Redundancy) -> Option<Finding> {
    let severity = level(r.whole_share, &REDUNDANT_SHARE)?;
    // the compute's explanation shows the split's t_split, Σt, |Sp| and p2
    Some(Finding::new(
        severity,
        FindingDetail::RedundantCompute {
            share: r.whole_share,
            parts: r.parts,
            whole_layers: r.whole_layers,
        },
        Sentence::new()
            .figure(units::percent(r.whole_share), r.whole_share, Quantity::Compute)
            .text(" of each GPU's compute is in ")
            .figure(r.whole_layers.to_string(), r.whole_layers as f64, Quantity::Compute)
            .text(" layers the split leaves whole, computed again by all ")
            .figure(r.parts.to_string(), r.parts as f64, Quantity::Compute)
            .text(" parts."),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn used(bytes: f64) -> MemoryParts {
        MemoryParts {
            activations_bytes: bytes,
            ..MemoryParts::default()
        }
    }

    static ONE_GB: MemoryParts = MemoryParts {
        weights_bytes: 0.0,
        gradients_bytes: 0.0,
        optimizer_bytes: 0.0,
        activations_bytes: 1e9,
        reserved_bytes: 0.0,
        transient_bytes: 0.0,
        workspace_bytes: 0.0,
        allocator_bytes: 0.0,
    };

    fn evidence<'a>(comm: &'a Communication, bounds: &'a [ScalingBound]) -> Evidence<'a> {
        Evidence {
            compute_s: 10.0,
            communication: comm,
            memory: &ONE_GB,
            capacity_bytes: 16e9,
            bounds,
            redundancy: None,
            stages: None,
            overlapped: false,
            layers: &[],
        }
    }

    #[test]
    fn a_step_at_scale_says_what_bounds_it() {
        let step = Step {
            gpus: 2528,
            compute_s: 0.010,
            launch_s: 0.006,
            exposed_s: 0.002,
            hidden_s: 0.004,
        };
        let found = at_scale(step).unwrap();
        assert_eq!(found.severity, Severity::Info);
        assert!(
            found.message.starts_with("At this scale a step takes 12 ms"),
            "{}",
            found.message
        );
        assert!(
            found.message.contains("launching kernels bounds the compute"),
            "{}",
            found.message
        );
        let exposed = at_scale(Step {
            exposed_s: 0.02,
            ..step
        })
        .unwrap();
        assert!(exposed.message.contains("the exposed exchange bounds the step"));
        assert!(at_scale(Step { gpus: 32, ..step }).is_none());
    }

    #[test]
    fn communication_bound_names_the_dominant_kind() {
        let comm = Communication::of(CommKind::GradientAllreduce, 20.0).with(CommKind::Halo, 5.0);
        let found = findings(&evidence(&comm, &[]));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].severity, Severity::Warning);
        match &found[0].detail {
            FindingDetail::CommunicationBound {
                dominant,
                share,
                dominant_share,
                class,
            } => {
                assert_eq!(*dominant, CommKind::GradientAllreduce);
                assert_eq!(*class, "gradient exchange");
                assert!((share - 25.0 / 35.0).abs() < 1e-12);
                assert!((dominant_share - 0.8).abs() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
        assert!(found[0].message.contains("gradient allreduce"));
        // a gradient exchange not yet overlapped names the option that hides it
        assert!(found[0].message.contains("the overlap option"), "{}", found[0].message);
        let overlapped = Evidence {
            overlapped: true,
            ..evidence(&comm, &[])
        };
        assert!(!findings(&overlapped)[0].message.contains("overlap option"));
        // another kind dominating: no such hint
        let halo = Communication::of(CommKind::Halo, 20.0);
        assert!(!findings(&evidence(&halo, &[]))[0].message.contains("overlap option"));
    }

    #[test]
    fn memory_levels() {
        let comm = Communication::default();
        let mut e = evidence(&comm, &[]);
        assert!(findings(&e).is_empty());
        let pressed = used(15e9);
        e.memory = &pressed;
        let f = findings(&e);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(matches!(f[0].detail, FindingDetail::MemoryPressure { .. }));
        let over = used(17e9);
        e.memory = &over;
        let f = findings(&e);
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(matches!(f[0].detail, FindingDetail::MemoryOverflow { .. }));
        assert!(f[0].message.contains("17 GB"));
    }

    #[test]
    fn what_would_make_it_fit() {
        let options = vec![
            FitOption {
                option: "ZeRO stage 1".into(),
                memory_bytes: 18e9,
                fits: false,
                spec: RunSpec::new(crate::oracle::Strategy::Data, 8, crate::oracle::Batch::MiniBatch(64)),
            },
            FitOption {
                option: "recompute".into(),
                memory_bytes: 9e9,
                fits: true,
                spec: RunSpec::new(crate::oracle::Strategy::Data, 8, crate::oracle::Batch::MiniBatch(64)),
            },
        ];
        let f = memory_fit(&used(17e9), options.clone(), &[]);
        assert_eq!(
            f.message,
            "Activations are the largest part (17 GB). It would fit with: recompute, needing 9 GB."
        );
        let none = vec![
            FitOption {
                fits: false,
                ..options[1].clone()
            },
            options[0].clone(),
        ];
        let f = memory_fit(&used(17e9), none.clone(), &[]);
        assert!(
            f.message
                .ends_with("no single change tried makes it fit: the closest is recompute, needing 9 GB."),
            "{}",
            f.message
        );
        // a split limit that memory options do not lift: no option offered
        let f = memory_fit(&used(17e9), none, &[Violation::Split]);
        assert!(!f.message.contains("would fit with"), "{}", f.message);
        assert!(
            f.message.contains("also has more parts than the split can make"),
            "{}",
            f.message
        );
    }

    #[test]
    fn scaling_limits_and_order() {
        let comm = Communication::of(CommKind::LayerCollectives, 3.0);
        let bound = |value, bound| ScalingBound {
            limit: Violation::Split,
            counted: "GPUs",
            value,
            bounded_by: "the fewest filters of a split layer",
            bound,
            layer: None,
        };
        // 3 s of 13 s is under the 25% communication threshold; 8 of 64 is far from the bound
        let bounds = [bound(8, 64), bound(64, 64), bound(128, 64), bound(40, 64)];
        let f = findings(&evidence(&comm, &bounds));
        let severities: Vec<Severity> = f.iter().map(|f| f.severity).collect();
        assert_eq!(severities, [Severity::Critical, Severity::Warning, Severity::Info]);
        assert_eq!(
            f[0].message,
            "128 GPUs exceeds the fewest filters of a split layer (64): this configuration is ruled out."
        );
    }

    #[test]
    fn a_halo_bound_run_says_why_spatial_stops_scaling() {
        let comm = Communication::of(CommKind::Halo, 20.0);
        let found = findings(&evidence(&comm, &[]));
        assert!(
            found[0].message.contains("A halo is the rows at a part's edges"),
            "{}",
            found[0].message
        );
        let allreduce = findings(&evidence(&Communication::of(CommKind::GradientAllreduce, 20.0), &[]));
        assert!(!allreduce[0].message.contains("halo"));
    }

    /// `model` on ABCI projected with `strategy` at `gpus`, and its limits
    /// in words.
    fn limits_of(
        model: &str,
        strategy: crate::oracle::Strategy,
        gpus: u64,
        per_gpu: f64,
    ) -> (crate::oracle::Scenario, crate::oracle::Projection, String) {
        let scenario = crate::oracle::presets::scenario(model, "abci").unwrap();
        let run = RunSpec::new(strategy, gpus, crate::oracle::Batch::SamplesPerGpu(per_gpu));
        let p = scenario.project(&run).unwrap();
        let said = p.limits().join("; ");
        (scenario, p, said)
    }

    #[test]
    fn a_memory_limit_names_its_largest_part_and_the_layer_keeping_the_most() {
        let (scenario, _, said) = limits_of("vgg16", crate::oracle::Strategy::Data, 16, 256.0);
        let layers = scenario.network().layers();
        let most = layers.iter().map(|l| l.activation_items()).fold(0.0, f64::max);
        let name = layers.iter().find(|l| l.activation_items() == most).unwrap().name();
        assert!(
            said.starts_with("needs ") && said.contains("per GPU (activations "),
            "{said}"
        );
        assert!(
            said.contains(&format!(
                ", layer {name} keeping the most per sample), a GPU holds 16 GB"
            )),
            "{said}"
        );
    }

    #[test]
    fn a_split_limit_names_the_layer_that_sets_it() {
        let (scenario, p, said) = limits_of("resnet50", crate::oracle::Strategy::Spatial, 1024, 32.0);
        let name = scenario
            .network()
            .layers()
            .iter()
            .find(|l| l.kind().is_conv())
            .unwrap()
            .name();
        assert!(said.contains("the narrowest split layer's width ("), "{said}");
        assert!(said.contains(&format!(", layer {name})")), "{said}");
        // the name is a name, not figures (its digits open no explanation)
        let sentences = p.limit_sentences();
        let sentence = sentences
            .iter()
            .find(|s| s.to_string().contains("split layer"))
            .unwrap();
        assert!(
            sentence
                .pieces()
                .iter()
                .any(|piece| matches!(piece, crate::oracle::report::sentence::Piece::Name(n, _) if n == name))
        );
        assert!(sentence.figures().all(|f| !name.contains(&f.text)));
    }

    #[test]
    fn imbalance_and_redundancy() {
        let comm = Communication::default();
        let mut e = evidence(&comm, &[]);
        e.stages = Some(StageBalance {
            largest_s: 2.0,
            mean_s: 1.0,
        });
        e.redundancy = Some(Redundancy {
            parts: 4,
            whole_share: 0.2,
            whole_layers: 3,
        });
        let f = findings(&e);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(matches!(f[0].detail, FindingDetail::PipelineImbalance { ratio, .. } if ratio == 2.0));
        assert!(matches!(f[1].detail, FindingDetail::RedundantCompute { parts: 4, .. }));
        let json = serde_json::to_value(&f[1]).unwrap();
        assert_eq!(json["kind"], "redundant_compute");
        assert_eq!(json["severity"], "info");
    }
}

#[cfg(test)]
mod past_converged_tests {
    use super::*;
    use crate::oracle::model::convergence::Convergence;

    #[test]
    fn past_a_curve_that_does_not_grow_the_epochs_are_a_floor_and_said_so() {
        let goyal = Convergence::Curve("goyal-sgd-resnet50".into());
        let t = Training::of(Some(&goyal), 32_768, 10.0, 512, None);
        let f = past_converged(&t).unwrap().message;
        assert!(
            f.contains("(8192 samples, 90 epochs)") && f.contains("at the least"),
            "{f}"
        );
        let kfac = Convergence::Curve("kfac-resnet50d".into());
        let t = Training::of(Some(&kfac), 262_144, 10.0, 2048, None);
        let f = past_converged(&t).unwrap().message;
        assert!(f.contains("critical-batch model gives"), "{f}");
        // within the curve: no finding
        assert!(past_converged(&Training::of(Some(&kfac), 65_536, 10.0, 2048, None)).is_none());
    }
}
