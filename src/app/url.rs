//! The share-link codec: inputs to a compact, URL-safe string and back.
//!
//! The inputs become a small JSON object with one-letter keys, defaults
//! left out; it is compressed with DEFLATE and written in unpadded
//! URL-safe base64. A link is untrusted input: its length, its compressed
//! and inflated sizes and every value are checked, and each failure is a
//! typed [`LinkError`].

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::state::explain_target::ExplainTarget;
use super::state::inputs::{ClusterSource, DEFAULT_CLUSTER, DEFAULT_GPUS, DEFAULT_MODEL, Inputs, ModelSource};
use crate::oracle::formats::measured;
use crate::oracle::model::run::DEFAULT_BYTES_PER_ITEM;
use crate::oracle::{
    Batch, ClusterSpec, DEFAULT_BUCKET_MIB, Fidelity, MAX_GPUS, NetworkSpec, Objective, Optimizer, OracleError,
    Precision, Scenario, Strategy, presets,
};

/// The query parameter that carries the state.
pub const PARAMETER: &str = "s";
/// Longest encoded state accepted, in characters.
pub const MAX_ENCODED_CHARS: usize = 200_000;
/// Largest inflated state accepted, in bytes.
pub const MAX_INFLATED_BYTES: usize = 4 << 20;
/// Longest state kept in the browser's storage (written by the app itself,
/// for views too large for a link), in characters.
pub const MAX_STORED_CHARS: usize = 16 << 20;
/// Largest inflated stored state, in bytes.
pub const MAX_STORED_INFLATED_BYTES: usize = 256 << 20;
const VERSION: u8 = 1;

/// Why a link could not be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LinkError {
    /// Longer than [`MAX_ENCODED_CHARS`].
    #[error("the link is too long ({length} characters; at most {max})")]
    TooLong {
        /// Its length.
        length: usize,
        /// The limit.
        max: usize,
    },
    /// Not URL-safe base64.
    #[error("the link is damaged: it is not URL-safe base64")]
    NotBase64,
    /// Not DEFLATE data, or inflating to more than [`MAX_INFLATED_BYTES`].
    #[error("the link is damaged or too large once decompressed")]
    NotCompressed,
    /// Not the expected JSON.
    #[error("the link does not describe a view: {0}")]
    NotState(String),
    /// From a newer version of the app.
    #[error("the link was made by a newer version of this app (format {0})")]
    Version(u8),
    /// A value that breaks a rule of the model.
    #[error("the link holds an invalid value: {0}")]
    Invalid(OracleError),
    /// An explained number that is no number of a view.
    #[error("the link explains an unknown number {0:?} (STRATEGY@GPUS:QUANTITY)")]
    Explained(String),
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// The wire form: one-letter keys, defaults left out.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Wire {
    #[serde(default, skip_serializing_if = "is_default")]
    v: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    m: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    n: Option<NetworkSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    k: Option<ClusterSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    g: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    b: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mb: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    s: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    d: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sg: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    p2: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    f: Option<Fidelity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cal: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    ce: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pr: Option<Precision>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    op: Option<Optimizer>,
    #[serde(default, skip_serializing_if = "is_default")]
    z: u8,
    #[serde(default, skip_serializing_if = "is_default")]
    rc: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    ov: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bk: Option<f64>,
    #[serde(default, skip_serializing_if = "is_default")]
    pl: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pg: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    po: Option<Objective>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ex: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dr: Option<Strategy>,
}

/// Encodes `inputs`; the defaults give the empty string.
pub fn encode(inputs: &Inputs) -> String {
    let defaults = Inputs::default();
    let wire = Wire {
        v: 0,
        m: match &inputs.model {
            ModelSource::Preset(key) if key != DEFAULT_MODEL => Some(key.clone()),
            _ => None,
        },
        n: match &inputs.model {
            ModelSource::Custom(spec) => Some(spec.as_ref().clone()),
            ModelSource::Preset(_) => None,
        },
        c: match &inputs.cluster {
            ClusterSource::Preset(key) if key != DEFAULT_CLUSTER => Some(key.clone()),
            _ => None,
        },
        k: match &inputs.cluster {
            ClusterSource::Custom(spec) => Some(spec.as_ref().clone()),
            ClusterSource::Preset(_) => None,
        },
        g: (inputs.gpus != DEFAULT_GPUS).then_some(inputs.gpus),
        b: match inputs.batch {
            Batch::SamplesPerGpu(b) if inputs.batch != defaults.batch => Some(b),
            _ => None,
        },
        mb: match inputs.batch {
            Batch::MiniBatch(b) => Some(b),
            Batch::SamplesPerGpu(_) => None,
        },
        s: (inputs.strategies != defaults.strategies).then(|| {
            let names: Vec<&str> = inputs.strategies.iter().map(|s| s.name()).collect();
            names.join(",")
        }),
        d: (inputs.bytes_per_item != DEFAULT_BYTES_PER_ITEM).then_some(inputs.bytes_per_item),
        sg: inputs.segments,
        p2: inputs.group_size,
        f: (inputs.fidelity != defaults.fidelity).then_some(inputs.fidelity),
        cal: inputs.calibrated().then(|| inputs.measured.clone()),
        ce: inputs.compare_editions,
        pr: (inputs.precision != Precision::default()).then_some(inputs.precision),
        op: (inputs.optimizer != Optimizer::default()).then_some(inputs.optimizer),
        z: inputs.zero,
        rc: inputs.recompute,
        ov: inputs.overlap,
        bk: (inputs.bucket_mib != DEFAULT_BUCKET_MIB).then_some(inputs.bucket_mib),
        pl: inputs.plan_open,
        pg: inputs.plan_gpus,
        po: (inputs.plan_objective != Objective::default()).then_some(inputs.plan_objective),
        ex: inputs.explaining.map(|t| t.key()),
        dr: inputs.drawing,
    };
    if wire == Wire::default() {
        return String::new();
    }
    let wire = Wire { v: VERSION, ..wire };
    let json = serde_json::to_vec(&wire).unwrap_or_default();
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9))
}

/// Decodes and checks a link's state; the empty string gives the defaults.
///
/// # Errors
/// A [`LinkError`] saying what is wrong; the caller falls back to the
/// defaults.
pub fn decode(text: &str) -> Result<Inputs, LinkError> {
    decode_within(text, MAX_ENCODED_CHARS, MAX_INFLATED_BYTES)
}

/// Decodes and checks a state kept in the browser's storage: as a link,
/// with the larger limits of [`MAX_STORED_CHARS`] (a view too large for a
/// link is still kept across reloads).
///
/// # Errors
/// As [`decode`].
pub fn decode_stored(text: &str) -> Result<Inputs, LinkError> {
    decode_within(text, MAX_STORED_CHARS, MAX_STORED_INFLATED_BYTES)
}

fn decode_within(text: &str, max_chars: usize, max_inflated: usize) -> Result<Inputs, LinkError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Inputs::default());
    }
    if text.len() > max_chars {
        return Err(LinkError::TooLong {
            length: text.len(),
            max: max_chars,
        });
    }
    let compressed = URL_SAFE_NO_PAD.decode(text).map_err(|_| LinkError::NotBase64)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, max_inflated)
        .map_err(|_| LinkError::NotCompressed)?;
    let wire: Wire = serde_json::from_slice(&json).map_err(|e| LinkError::NotState(e.to_string()))?;
    if wire.v > VERSION {
        return Err(LinkError::Version(wire.v));
    }
    let inputs = from_wire(wire)?;
    check(&inputs)?;
    Ok(inputs)
}

fn invalid(error: impl Into<OracleError>) -> LinkError {
    LinkError::Invalid(error.into())
}

fn from_wire(wire: Wire) -> Result<Inputs, LinkError> {
    let defaults = Inputs::default();
    let model = match (wire.n, wire.m) {
        (Some(spec), _) => ModelSource::Custom(Box::new(spec)),
        (None, Some(key)) => ModelSource::Preset(presets::network_preset(&key).map_err(invalid)?.key.into()),
        (None, None) => defaults.model,
    };
    let cluster = match (wire.k, wire.c) {
        (Some(spec), _) => ClusterSource::Custom(Box::new(spec)),
        (None, Some(key)) => ClusterSource::Preset(presets::cluster_preset(&key).map_err(invalid)?.key.into()),
        (None, None) => defaults.cluster,
    };
    let batch = match (wire.mb, wire.b) {
        (Some(b), _) => Batch::MiniBatch(b),
        (None, Some(b)) => Batch::SamplesPerGpu(b),
        (None, None) => defaults.batch,
    };
    let explaining = match wire.ex {
        Some(key) => Some(ExplainTarget::parse(&key).ok_or(LinkError::Explained(key))?),
        None => None,
    };
    let strategies = match wire.s {
        Some(list) => Strategy::parse_list(&list).map_err(invalid)?,
        None => defaults.strategies,
    };
    Ok(Inputs {
        model,
        cluster,
        gpus: wire.g.unwrap_or(defaults.gpus),
        batch,
        strategies,
        bytes_per_item: wire.d.unwrap_or(defaults.bytes_per_item),
        segments: wire.sg,
        group_size: wire.p2,
        fidelity: wire.f.unwrap_or(defaults.fidelity),
        measured: wire.cal.unwrap_or_default(),
        compare_editions: wire.ce,
        precision: wire.pr.unwrap_or_default(),
        optimizer: wire.op.unwrap_or_default(),
        zero: wire.z,
        recompute: wire.rc,
        overlap: wire.ov,
        bucket_mib: wire.bk.unwrap_or(DEFAULT_BUCKET_MIB),
        plan_open: wire.pl,
        plan_gpus: wire.pg,
        plan_objective: wire.po.unwrap_or_default(),
        explaining,
        drawing: wire.dr,
    })
}

/// Every value of a link must be valid: network, cluster, the run of
/// every strategy that applies at the budget, and the measured runs (they
/// must calibrate). A budget beyond the cluster's largest allocation is
/// valid (the views show it, marked infeasible by the engine's `gpus`
/// limit).
fn check(inputs: &Inputs) -> Result<(), LinkError> {
    let network = inputs.network().map_err(LinkError::Invalid)?;
    let cluster = inputs.cluster().map_err(LinkError::Invalid)?;
    inputs.check_runs(&network, &cluster).map_err(invalid)?;
    if let Some(budget) = inputs.plan_gpus {
        crate::oracle::model::checks::count("max_gpus", budget, 1, MAX_GPUS).map_err(invalid)?;
    }
    if inputs.calibrated() {
        let runs = measured::parse(&inputs.measured).map_err(invalid)?;
        Scenario::new(network, cluster)
            .calibrate(&runs, &inputs.run(Strategy::Data))
            .map_err(invalid)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn custom() -> Inputs {
        let mut spec = presets::network("alexnet").unwrap().spec();
        spec.layers[0].y = [96, 54, 54].into();
        spec.dataset.samples = 50_000;
        let mut cluster = presets::cluster("dgx-a100").unwrap().spec().clone();
        cluster.nic.latency_s = 5e-6;
        Inputs {
            model: ModelSource::Custom(Box::new(spec)),
            cluster: ClusterSource::Custom(Box::new(cluster)),
            gpus: 256,
            batch: Batch::MiniBatch(8192),
            strategies: vec![Strategy::Data, Strategy::DataFilter],
            bytes_per_item: 2.0,
            segments: Some(64),
            group_size: Some(8),
            fidelity: Fidelity::Ideal,
            measured: "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,8,2048,,0.9,,\n"
                .into(),
            compare_editions: true,
            precision: Precision::Bf16,
            optimizer: Optimizer::Adam,
            zero: 2,
            recompute: true,
            overlap: true,
            bucket_mib: 50.0,
            plan_open: true,
            plan_gpus: Some(512),
            plan_objective: Objective::Memory,
            explaining: Some(ExplainTarget::new(
                Strategy::DataFilter,
                128,
                crate::oracle::Quantity::Kind(crate::oracle::CommKind::LayerCollectives),
            )),
            drawing: Some(Strategy::DataFilter),
        }
    }

    #[test]
    fn defaults_encode_to_nothing() {
        assert_eq!(encode(&Inputs::default()), "");
        assert_eq!(decode("").unwrap(), Inputs::default());
    }

    #[test]
    fn round_trips() {
        let cases = [
            Inputs::default(),
            Inputs {
                gpus: 8,
                ..Inputs::default()
            },
            Inputs {
                model: ModelSource::Preset("cosmoflow".into()),
                batch: Batch::SamplesPerGpu(0.25),
                strategies: vec![Strategy::DataSpatial],
                ..Inputs::default()
            },
            custom(),
        ];
        for inputs in cases {
            let text = encode(&inputs);
            assert!(
                text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
                "{text}"
            );
            assert_eq!(decode(&text).unwrap(), inputs);
        }
    }

    #[test]
    fn links_are_compact() {
        let preset = encode(&Inputs {
            model: ModelSource::Preset("vgg16".into()),
            gpus: 256,
            ..Inputs::default()
        });
        assert!(preset.len() < 40, "{preset}");
        // a whole edited ResNet-152 (514 layers) still fits in a few KB
        let mut spec = presets::network("resnet152").unwrap().spec();
        spec.dataset.samples = 1000;
        let big = encode(&Inputs {
            model: ModelSource::Custom(Box::new(spec)),
            ..Inputs::default()
        });
        assert!(big.len() < 8000, "{}", big.len());
    }

    #[test]
    fn a_view_too_large_for_a_link_is_still_kept_in_storage() {
        let mut spec = presets::network("resnet152").unwrap().spec();
        let layers = spec.layers.clone();
        for _ in 0..80 {
            spec.layers.extend(layers.iter().cloned());
        }
        // distinct names defeat most of the compression, as real networks do
        for (i, layer) in spec.layers.iter_mut().enumerate() {
            layer.name = format!("{}_{i}", layer.name);
        }
        let inputs = Inputs {
            model: ModelSource::Custom(Box::new(spec)),
            ..Inputs::default()
        };
        let text = encode(&inputs);
        assert!(text.len() > MAX_ENCODED_CHARS, "{} characters", text.len());
        assert!(matches!(decode(&text), Err(LinkError::TooLong { .. })));
        assert_eq!(decode_stored(&text).unwrap(), inputs);
    }

    #[test]
    fn malformed_links_are_typed_errors() {
        assert_eq!(decode("!!!"), Err(LinkError::NotBase64));
        assert_eq!(decode("AAAA"), Err(LinkError::NotCompressed));
        let not_json = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"hello", 9));
        assert!(matches!(decode(&not_json), Err(LinkError::NotState(_))));
        let long = "A".repeat(MAX_ENCODED_CHARS + 1);
        assert!(matches!(decode(&long), Err(LinkError::TooLong { .. })));
        let wrap = |json: &str| URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9));
        assert!(matches!(decode(&wrap(r#"{"v":9}"#)), Err(LinkError::Version(9))));
        assert!(matches!(decode(&wrap(r#"{"m":"lenet"}"#)), Err(LinkError::Invalid(_))));
        assert!(matches!(decode(&wrap(r#"{"g":0}"#)), Err(LinkError::Invalid(_))));
        // more GPUs than ABCI's 4096: a view the app shows (infeasible), so a valid link
        assert_eq!(decode(&wrap(r#"{"v":1,"g":8192}"#)).map(|i| i.gpus), Ok(8192));
        assert!(matches!(decode(&wrap(r#"{"p2":3}"#)), Err(LinkError::Invalid(_))));
        // the ranking shows every strategy: a bad group size is caught even when no hybrid is plotted
        assert!(matches!(
            decode(&wrap(r#"{"p2":3,"s":"data"}"#)),
            Err(LinkError::Invalid(_))
        ));
        assert!(matches!(decode(&wrap(r#"{"b":-1}"#)), Err(LinkError::Invalid(_))));
        assert!(matches!(
            decode(&wrap(r#"{"s":"data,nonsense"}"#)),
            Err(LinkError::Invalid(_))
        ));
        assert!(matches!(decode(&wrap(r#"{"x":1}"#)), Err(LinkError::NotState(_))));
        assert!(matches!(decode(&wrap(r#"{"f":"exact"}"#)), Err(LinkError::NotState(_))));
        assert!(matches!(decode(&wrap(r#"{"z":4}"#)), Err(LinkError::Invalid(_))));
        // an explained number must be one: a strategy, a count and a quantity
        assert_eq!(
            decode(&wrap(r#"{"ex":"data@64:nonsense"}"#)),
            Err(LinkError::Explained("data@64:nonsense".into()))
        );
        assert!(matches!(decode(&wrap(r#"{"dr":"warp"}"#)), Err(LinkError::NotState(_))));
        assert_eq!(
            decode(&wrap(r#"{"ex":"pipeline@8:memory-optimizer","dr":"pipeline"}"#)).map(|i| i.drawing),
            Ok(Some(Strategy::Pipeline))
        );
        assert!(matches!(decode(&wrap(r#"{"bk":0}"#)), Err(LinkError::Invalid(_))));
        assert!(matches!(decode(&wrap(r#"{"pr":"fp8"}"#)), Err(LinkError::NotState(_))));
        // measured runs that do not parse, or do not calibrate, are refused
        assert!(matches!(
            decode(&wrap(r#"{"cal":"strategy\ndata"}"#)),
            Err(LinkError::Invalid(_))
        ));
        let zero = r#"{"cal":"strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,8,256,,0,,"}"#;
        assert!(matches!(decode(&wrap(zero)), Err(LinkError::Invalid(_))));
        // a decompression bomb stops at the limit
        let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&vec![b' '; 8 << 20], 10));
        assert!(bomb.len() < MAX_ENCODED_CHARS);
        assert_eq!(decode(&bomb), Err(LinkError::NotCompressed));
    }
}
