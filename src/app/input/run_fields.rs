//! The run's fields, described once: each setting's key, input id, label,
//! unit, help, engine path (where its errors come from), how it is shown
//! and how what the user types is read into the [`Question`]. The run
//! editor, the error keys and the inputs all read this table; a new run
//! setting is a field of [`crate::oracle::RunSpec`], a row here and, at
//! most, a widget.

use std::str::FromStr;

use crate::app::input::keys::{Key, RunKey};
use crate::app::input::quantity;
use crate::app::input::question::Question;
use crate::oracle::model::convergence::Convergence;
use crate::oracle::model::energy::{Grid, Price};
use crate::oracle::{
    AttentionForm, Batch, Edition, InputError, MAX_ZERO_STAGE, Optimizer, Precision, RankBy, Strategy, units,
};

/// One run setting.
#[derive(Debug, Clone, Copy)]
pub struct RunField {
    /// Its key.
    pub key: RunKey,
    /// The input's id in the page.
    pub id: &'static str,
    pub label: &'static str,
    /// Display unit (blank for a choice).
    pub unit: &'static str,
    /// Typed (keystrokes of one edit make one history entry), not chosen.
    pub typed: bool,
    /// What it is, in a sentence (the input's description).
    pub help: &'static str,
    /// The engine's field path of its errors (empty: none of its own).
    pub path: &'static [&'static str],
    /// Its value as shown.
    pub text: fn(&Question) -> String,
    /// Reads what the user typed or chose.
    pub set: fn(&mut Question, &str) -> Result<(), String>,
}

/// Batch modes as [`RunKey::BatchMode`] writes them.
pub const PER_GPU: &str = "per-gpu";
/// See [`PER_GPU`].
pub const GLOBAL: &str = "global";

fn whole(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| "Must be a whole number".to_string())
}

fn number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err("Must be a number".into()),
    }
}

/// A byte size typed bare (in `unit`) or with its own unit ("64 MB",
/// "2 B"), in `unit` (of `scale` bytes).
fn sized(text: &str, unit: &str, scale: f64) -> Result<f64, String> {
    match quantity::parse(text, unit, scale)? {
        v if v.is_finite() => Ok(v),
        _ => Err("Must be a number".into()),
    }
}

/// Blank means the default (`None`).
fn optional(text: &str) -> Result<Option<u64>, String> {
    match text.trim() {
        "" => Ok(None),
        t => whole(t).map(Some),
    }
}

fn named<T: FromStr>(text: &str, what: &str) -> Result<T, String> {
    T::from_str(text.trim()).map_err(|_| format!("Not a known {what}: '{}'", text.trim()))
}

fn flag(text: &str) -> Result<bool, String> {
    match text.trim() {
        "true" | "on" => Ok(true),
        "false" | "off" => Ok(false),
        other => Err(format!("Must be on or off, not '{other}'")),
    }
}

fn shown_optional(value: Option<u64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The run's settings, in the order they are read (the GPU budget and the
/// batch mode before the batch).
pub const RUN_FIELDS: [RunField; 23] = [
    RunField {
        key: RunKey::Gpus,
        id: "gpus",
        label: "GPU budget",
        unit: "GPUs",
        typed: true,
        help: "How many GPUs every strategy runs on.",
        path: &["gpus"],
        text: |q| q.run.gpus.to_string(),
        set: |q, t| whole(t).map(|g| q.run.gpus = g),
    },
    RunField {
        key: RunKey::BatchMode,
        id: "batch-mode",
        label: "Batch",
        unit: "",
        typed: false,
        help: "Samples per GPU (weak scaling: the mini-batch grows with the GPUs) or a global mini-batch (strong scaling).",
        path: &[],
        text: |q| match q.run.batch {
            Batch::SamplesPerGpu(_) => PER_GPU.into(),
            Batch::MiniBatch(_) => GLOBAL.into(),
        },
        set: |q, t| {
            let gpus = q.run.gpus as f64;
            q.run.batch = match (t.trim(), q.run.batch) {
                (PER_GPU, Batch::MiniBatch(b)) => Batch::SamplesPerGpu(b as f64 / gpus),
                (GLOBAL, Batch::SamplesPerGpu(b)) => Batch::MiniBatch((b * gpus).round() as u64),
                (PER_GPU | GLOBAL, same) => same,
                (other, _) => return Err(format!("Not a batch mode: '{other}'")),
            };
            Ok(())
        },
    },
    RunField {
        key: RunKey::SamplesPerGpu,
        id: "samples-per-gpu",
        label: "Samples per GPU",
        unit: "samples",
        typed: true,
        help: "Samples each GPU holds per iteration; the mini-batch is this times the GPUs.",
        path: &["batch", "samples_per_gpu"],
        text: |q| match q.run.batch {
            Batch::SamplesPerGpu(b) => b.to_string(),
            Batch::MiniBatch(b) => (b as f64 / q.run.gpus as f64).to_string(),
        },
        // read only while the batch is given per GPU
        set: |q, t| {
            if let Batch::SamplesPerGpu(_) = q.run.batch {
                q.run.batch = Batch::SamplesPerGpu(number(t)?);
            }
            Ok(())
        },
    },
    RunField {
        key: RunKey::MiniBatch,
        id: "mini-batch",
        label: "Mini-batch",
        unit: "samples",
        typed: true,
        help: "Samples per iteration over all GPUs.",
        path: &["batch", "mini_batch"],
        text: |q| match q.run.batch {
            Batch::MiniBatch(b) => b.to_string(),
            Batch::SamplesPerGpu(b) => (b * q.run.gpus as f64).round().to_string(),
        },
        // read only while the batch is global
        set: |q, t| {
            if let Batch::MiniBatch(_) = q.run.batch {
                q.run.batch = Batch::MiniBatch(whole(t)?);
            }
            Ok(())
        },
    },
    RunField {
        key: RunKey::Strategies,
        id: "strategies",
        label: "Strategies",
        unit: "",
        typed: false,
        help: "The strategies drawn in the plots (the ranking lists every one).",
        path: &[],
        text: |q| {
            let names: Vec<&str> = q.strategies.iter().map(|s| s.name()).collect();
            names.join(",")
        },
        set: |q, t| {
            if t.trim().is_empty() {
                return Err("Pick at least one strategy".into());
            }
            let mut strategies = Strategy::parse_list(t).map_err(|e| e.to_string())?;
            strategies.sort();
            strategies.dedup();
            q.strategies = strategies;
            Ok(())
        },
    },
    RunField {
        key: RunKey::BytesPerItem,
        id: "bytes-per-item",
        label: "Bytes per item",
        unit: "B",
        typed: true,
        help: "Bytes of one number of the activations, weights and gradients (δ; 4 for FP32).",
        path: &["bytes_per_item"],
        text: |q| q.run.bytes_per_item.to_string(),
        set: |q, t| sized(t, "B", 1.0).map(|d| q.run.bytes_per_item = d),
    },
    RunField {
        key: RunKey::Segments,
        id: "segments",
        label: "Pipeline segments",
        unit: "micro-batches",
        typed: true,
        help: "Micro-batches a pipeline splits each mini-batch into (blank: the GPU count).",
        path: &["segments"],
        text: |q| shown_optional(q.run.segments),
        set: |q, t| optional(t).map(|s| q.run.segments = s),
    },
    RunField {
        key: RunKey::GroupSize,
        id: "group-size",
        label: "Hybrid group size",
        unit: "GPUs",
        typed: true,
        help: "GPUs per model-parallel group of a hybrid (blank: the GPUs per node).",
        path: &["group_size"],
        text: |q| shown_optional(q.run.group_size),
        set: |q, t| optional(t).map(|p| q.run.group_size = p),
    },
    RunField {
        key: RunKey::Edition,
        id: "fidelity",
        label: "Edition",
        unit: "",
        typed: false,
        help: "ParaDL's published model (ideal) or with what real clusters add (realistic).",
        path: &["fidelity"],
        text: |q| q.run.edition.name().into(),
        set: |q, t| {
            q.run.edition = Edition::from_name(t.trim()).ok_or_else(|| format!("Not an edition: '{}'", t.trim()))?;
            Ok(())
        },
    },
    RunField {
        key: RunKey::Precision,
        id: "precision",
        label: "Precision",
        unit: "",
        typed: false,
        help: "The arithmetic: FP32, TF32, or FP16/BF16 mixed precision with an FP32 master copy.",
        path: &["precision"],
        text: |q| q.run.precision.name().into(),
        set: |q, t| named::<Precision>(t, "precision").map(|p| q.run.precision = p),
    },
    RunField {
        key: RunKey::Optimizer,
        id: "optimizer",
        label: "Optimizer (its state in memory)",
        unit: "",
        typed: false,
        help: "The optimizer, for the state it keeps per parameter.",
        path: &["optimizer"],
        text: |q| q.run.optimizer.name().into(),
        set: |q, t| named::<Optimizer>(t, "optimizer").map(|o| q.run.optimizer = o),
    },
    RunField {
        key: RunKey::Attention,
        id: "attention",
        label: "Attention (transformers)",
        unit: "",
        typed: false,
        help: "How a transformer's attention runs: fused (PyTorch's scaled_dot_product_attention, one kernel that never keeps the N×N scores) or eager (two products and a softmax, each kept for the backward pass). No effect on a network without attention.",
        path: &["attention"],
        text: |q| q.run.attention.name().into(),
        set: |q, t| named::<AttentionForm>(t, "attention").map(|a| q.run.attention = a),
    },
    RunField {
        key: RunKey::Zero,
        id: "zero",
        label: "ZeRO stage (data-parallel strategies)",
        unit: "",
        typed: false,
        help: "Shards optimizer states (1), gradients (2) and weights (3) over the data-parallel GPUs.",
        path: &["zero"],
        text: |q| q.run.zero.to_string(),
        set: |q, t| match t.trim().parse::<u8>() {
            Ok(z) if z <= MAX_ZERO_STAGE => {
                q.run.zero = z;
                Ok(())
            }
            _ => Err(format!("Must be a stage from 0 to {MAX_ZERO_STAGE}")),
        },
    },
    RunField {
        key: RunKey::Recompute,
        id: "recompute",
        label: "Recompute activations (checkpoint every √layers)",
        unit: "",
        typed: false,
        help: "Keeps a checkpoint every ⌈√L⌉ of the L layers and recomputes the rest: less memory, one more forward pass.",
        path: &["recompute"],
        text: |q| q.run.recompute.to_string(),
        set: |q, t| flag(t).map(|on| q.run.recompute = on),
    },
    RunField {
        key: RunKey::Overlap,
        id: "overlap",
        label: "Overlap the gradient exchange with the backward pass",
        unit: "",
        typed: false,
        help: "Exchanges gradients bucket by bucket while the backward pass runs.",
        path: &["overlap"],
        text: |q| q.run.overlap.to_string(),
        set: |q, t| flag(t).map(|on| q.run.overlap = on),
    },
    RunField {
        key: RunKey::BucketMib,
        id: "bucket-mib",
        label: "Gradient bucket",
        unit: "MiB",
        typed: true,
        help: "The gradients exchanged at once when overlapping.",
        path: &["bucket_mib"],
        text: |q| q.run.bucket_mib.to_string(),
        set: |q, t| sized(t, "MiB", 1024.0 * 1024.0).map(|b| q.run.bucket_mib = b),
    },
    RunField {
        key: RunKey::Convergence,
        id: "convergence",
        label: "Trained until",
        unit: "",
        typed: true,
        help: "How many epochs the network takes to train: a published convergence curve (its epochs grow with the global batch) or a number of epochs (blank: 90 assumed).",
        path: &["convergence"],
        text: |q| match &q.run.convergence {
            None => String::new(),
            Some(Convergence::Curve(key)) => key.clone(),
            Some(Convergence::Epochs(e)) => e.to_string(),
        },
        set: |q, t| {
            q.run.convergence = match t.trim() {
                "" => None,
                text => Some(Convergence::parse(text).map_err(|e| units::capitalised(&e.rule.to_string()))?),
            };
            Ok(())
        },
    },
    RunField {
        key: RunKey::Grid,
        id: "grid",
        label: "Grid",
        unit: "g/kWh",
        typed: true,
        help: "Where the electricity comes from: a region's annual average carbon intensity (location-based), or grams of CO2 per kWh (blank: the cluster's, else the world's).",
        path: &["costs", "grid"],
        text: |q| match &q.run.costs.grid {
            None => String::new(),
            Some(Grid::Region(key)) => key.clone(),
            Some(Grid::Intensity(g)) => shown(*g),
        },
        set: |q, t| {
            q.run.costs.grid = match t.trim() {
                "" => None,
                text => Some(Grid::parse(text).map_err(|e| units::capitalised(&e.rule.to_string()))?),
            };
            Ok(())
        },
    },
    RunField {
        key: RunKey::Price,
        id: "price",
        label: "A GPU-hour costs",
        unit: "$/GPU-h",
        typed: true,
        help: "A cloud instance's on-demand list price, the cluster as yours (its electricity), or dollars per GPU-hour (blank: the cheapest listed instance of this GPU, else yours).",
        path: &["costs", "price"],
        text: |q| match &q.run.costs.price {
            None => String::new(),
            Some(Price::Named(key)) => key.clone(),
            Some(Price::PerGpuHour(usd)) => shown(*usd),
        },
        set: |q, t| {
            q.run.costs.price = match t.trim() {
                "" => None,
                text => Some(Price::parse(text).map_err(|e| units::capitalised(&e.rule.to_string()))?),
            };
            Ok(())
        },
    },
    RunField {
        key: RunKey::KwhPrice,
        id: "usd-per-kwh",
        label: "Electricity",
        unit: "$/kWh",
        typed: true,
        help: "What a kWh costs an owned cluster (blank: the US industrial average, EIA 2023).",
        path: &["costs", "usd_per_kwh"],
        text: |q| q.run.costs.usd_per_kwh.map(shown).unwrap_or_default(),
        set: |q, t| {
            q.run.costs.usd_per_kwh = match t.trim() {
                "" => None,
                text => Some(number(text)?),
            };
            Ok(())
        },
    },
    RunField {
        key: RunKey::Pue,
        id: "pue",
        label: "PUE",
        unit: "",
        typed: true,
        help: "The facility's power usage effectiveness: its energy over its IT equipment's (blank: the cluster's, else 1.58, the Uptime Institute's 2023 average).",
        path: &["costs", "pue"],
        text: |q| q.run.costs.pue.map(shown).unwrap_or_default(),
        set: |q, t| {
            q.run.costs.pue = match t.trim() {
                "" => None,
                text => Some(number(text)?),
            };
            Ok(())
        },
    },
    RunField {
        key: RunKey::RankBy,
        id: "rank-by",
        label: "Best by",
        unit: "",
        typed: false,
        help: "What the ranking calls best: the shortest epoch, or the shortest time to train (the epochs to converge grow with the global batch).",
        path: &[],
        text: |q| rank_by_name(q.rank_by).into(),
        set: |q, t| {
            q.rank_by = match t.trim() {
                "epoch" => RankBy::Time,
                "train" => RankBy::TimeToTrain,
                "energy" => RankBy::Energy,
                "co2" => RankBy::Carbon,
                "money" => RankBy::Money,
                other => return Err(format!("Not an order: '{other}'")),
            };
            Ok(())
        },
    },
    RunField {
        key: RunKey::Measured,
        id: "measured",
        label: "Measured runs",
        unit: "",
        typed: true,
        help: "Runs you measured, as CSV (strategy, gpus, mini_batch, group, iteration_s, compute_s, communication_s): they calibrate the model.",
        path: &[],
        text: |q| q.measured.clone(),
        // checked line by line by the run editor
        set: |q, t| {
            q.measured = t.to_string();
            Ok(())
        },
    },
];

/// How [`RunKey::RankBy`] writes an order.
pub fn rank_by_name(by: RankBy) -> &'static str {
    match by {
        RankBy::TimeToTrain => "train",
        RankBy::Energy => "energy",
        RankBy::Carbon => "co2",
        RankBy::Money => "money",
        RankBy::Time | RankBy::Cost => "epoch",
    }
}

/// The row of `key`.
pub fn field(key: RunKey) -> &'static RunField {
    // every key has its row (a test checks it); the first row otherwise
    RUN_FIELDS.iter().find(|f| f.key == key).unwrap_or(&RUN_FIELDS[0])
}

/// The key an engine error of a run belongs to: the run field of its path,
/// the planner's budget, else the strategies.
pub fn of_run(error: &InputError) -> Key {
    if error.field.is(&["max_gpus"]) {
        return Key::PlanGpus;
    }
    let key = RUN_FIELDS
        .iter()
        .find(|f| !f.path.is_empty() && error.field.is(f.path))
        .map_or(RunKey::Strategies, |f| f.key);
    Key::Run(key)
}

/// A number as a field shows it when it is not typed (as many significant
/// digits as it has, up to 12).
pub fn shown(value: f64) -> String {
    units::significant(value, 12)
}

#[cfg(test)]
mod tests {
    use crate::app::input::run_fields::*;
    use crate::oracle::{Field, Rule};

    #[test]
    fn every_key_has_one_row_with_a_distinct_id() {
        let mut ids: Vec<&str> = RUN_FIELDS.iter().map(|f| f.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), RUN_FIELDS.len());
        for f in &RUN_FIELDS {
            assert_eq!(field(f.key).key, f.key);
        }
    }

    #[test]
    fn each_field_reads_back_what_it_shows() {
        let mut q = Question::default();
        q.run.precision = Precision::Bf16;
        q.run.segments = Some(8);
        q.run.recompute = true;
        for f in &RUN_FIELDS {
            let mut copy = q.clone();
            (f.set)(&mut copy, &(f.text)(&q)).unwrap();
            assert_eq!(copy, q, "{}", f.id);
        }
    }

    #[test]
    fn typed_values_and_their_errors() {
        let mut q = Question::default();
        (field(RunKey::BucketMib).set)(&mut q, "64 MB").unwrap();
        assert!((q.run.bucket_mib - 64e6 / 1048576.0).abs() < 1e-12);
        assert!((field(RunKey::BucketMib).set)(&mut q, "3 s").is_err());
        assert_eq!(
            (field(RunKey::Gpus).set)(&mut q, "sixty"),
            Err("Must be a whole number".into())
        );
        (field(RunKey::BatchMode).set)(&mut q, GLOBAL).unwrap();
        assert_eq!(q.run.batch, Batch::MiniBatch(2048));
        (field(RunKey::SamplesPerGpu).set)(&mut q, "not read while global").unwrap();
        (field(RunKey::MiniBatch).set)(&mut q, "4096").unwrap();
        assert_eq!(q.run.batch, Batch::MiniBatch(4096));
        assert!((field(RunKey::Strategies).set)(&mut q, "").is_err());
        (field(RunKey::Strategies).set)(&mut q, "pipeline,data").unwrap();
        assert_eq!(q.strategies, [Strategy::Data, Strategy::Pipeline]);
        assert!((field(RunKey::Zero).set)(&mut q, "4").is_err());
        assert!((field(RunKey::Precision).set)(&mut q, "fp8").is_err());
    }

    #[test]
    fn engine_errors_land_on_their_field() {
        let at = |path: &'static str| of_run(&InputError::new(Field::from(path), Rule::Empty));
        assert_eq!(at("gpus"), Key::Run(RunKey::Gpus));
        assert_eq!(at("group_size"), Key::Run(RunKey::GroupSize));
        assert_eq!(at("bucket_mib"), Key::Run(RunKey::BucketMib));
        assert_eq!(at("max_gpus"), Key::PlanGpus);
        assert_eq!(at("split"), Key::Run(RunKey::Strategies));
        let batch = InputError::new(Field::from("batch").key("samples_per_gpu"), Rule::Empty);
        assert_eq!(of_run(&batch), Key::Run(RunKey::SamplesPerGpu));
    }
}
