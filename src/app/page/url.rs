//! The share link: the [`Document`] as serde writes it (short keys,
//! first-visit values left out), with the format's version, compressed
//! with DEFLATE and written in unpadded URL-safe base64. A link is
//! untrusted input: its length, its compressed and inflated sizes, its
//! keys and every value are checked, and each failure is a typed
//! [`LinkError`]. This file holds only the limits, the version and the
//! errors; the keys are the document's own.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Map, Value};
use thiserror::Error;

use crate::app::input::document::{self, Document};
use crate::app::input::explain_target::ExplainTarget;
use crate::oracle::formats::measured;
use crate::oracle::{MAX_GPUS, OracleError, Scenario, Strategy};

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
/// The format's version, written as `v` beside the document's keys.
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

/// Encodes `document`; the first visit's gives the empty string.
pub fn encode(document: &Document) -> String {
    let Ok(Value::Object(mut map)) = serde_json::to_value(document) else {
        return String::new();
    };
    if map.is_empty() {
        return String::new();
    }
    map.insert("v".into(), Value::from(VERSION));
    let json = serde_json::to_vec(&map).unwrap_or_default();
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9))
}

/// Decodes and checks a link's document; the empty string gives the
/// first visit's.
///
/// # Errors
/// A [`LinkError`] saying what is wrong; the caller falls back to the
/// defaults.
pub fn decode(text: &str) -> Result<Document, LinkError> {
    decode_within(text, MAX_ENCODED_CHARS, MAX_INFLATED_BYTES)
}

/// Decodes and checks a document kept in the browser's storage: as a
/// link, with the larger limits of [`MAX_STORED_CHARS`] (a view too large
/// for a link is still kept across reloads).
///
/// # Errors
/// As [`decode`].
pub fn decode_stored(text: &str) -> Result<Document, LinkError> {
    decode_within(text, MAX_STORED_CHARS, MAX_STORED_INFLATED_BYTES)
}

fn decode_within(text: &str, max_chars: usize, max_inflated: usize) -> Result<Document, LinkError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Document::default());
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
    let mut map: Map<String, Value> = serde_json::from_slice(&json).map_err(|e| LinkError::NotState(e.to_string()))?;
    let version = match map.remove("v") {
        None => 0,
        Some(v) => v
            .as_u64()
            .and_then(|v| u8::try_from(v).ok())
            .ok_or_else(|| LinkError::NotState(format!("the version {v} is not a number")))?,
    };
    if version > VERSION {
        return Err(LinkError::Version(version));
    }
    read_keys(&map)?;
    let document: Document =
        serde_json::from_value(Value::Object(map)).map_err(|e| LinkError::NotState(e.to_string()))?;
    let document = Document {
        question: document.question.canonical().map_err(LinkError::Invalid)?,
        ..document
    };
    check(&document)?;
    Ok(document)
}

/// The keys a link may hold, and the values whose errors say more than
/// serde's: an explained number and the strategies.
fn read_keys(map: &Map<String, Value>) -> Result<(), LinkError> {
    if let Some(unknown) = map.keys().find(|k| !document::KEYS.contains(&k.as_str())) {
        return Err(LinkError::NotState(format!("unknown key '{unknown}'")));
    }
    if let Some(Value::String(key)) = map.get("ex")
        && ExplainTarget::parse(key).is_none()
    {
        return Err(LinkError::Explained(key.clone()));
    }
    if let Some(Value::String(list)) = map.get("s") {
        Strategy::parse_list(list).map_err(invalid)?;
    }
    Ok(())
}

fn invalid(error: impl Into<OracleError>) -> LinkError {
    LinkError::Invalid(error.into())
}

/// Every value of a link must be valid: network, cluster, the run of
/// every strategy that applies at the budget, and the measured runs (they
/// must calibrate). A budget beyond the cluster's largest allocation is
/// valid (the views show it, marked infeasible by the engine's `gpus`
/// limit).
fn check(document: &Document) -> Result<(), LinkError> {
    let question = &document.question;
    let network = question.network().map_err(LinkError::Invalid)?;
    let cluster = question.cluster().map_err(LinkError::Invalid)?;
    question.check_runs(&network, &cluster).map_err(invalid)?;
    if let Some((from, to)) = document.view.gpu_range {
        crate::oracle::model::checks::count("gpu_range", from, 1, MAX_GPUS).map_err(invalid)?;
        crate::oracle::model::checks::count("gpu_range", to, from.saturating_add(1), MAX_GPUS).map_err(invalid)?;
    }
    if let Some(budget) = document.view.plan.gpus {
        crate::oracle::model::checks::count("max_gpus", budget, 1, MAX_GPUS).map_err(invalid)?;
    }
    if let Some(bytes) = document.view.plan.memory_bytes {
        crate::oracle::model::checks::within("memory_budget", bytes, 1.0, 1e15).map_err(invalid)?;
    }
    if let Some(usd) = document.view.plan.max_usd {
        crate::oracle::model::checks::within("money_budget", usd, 1e-6, 1e15).map_err(invalid)?;
    }
    if question.calibrated() {
        let runs = measured::parse(&question.measured).map_err(invalid)?;
        Scenario::new(network, cluster)
            .calibrate(&runs, &question.run_of(Strategy::Data))
            .map_err(invalid)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::app::page::url::*;

    use crate::app::input::question::Question;
    use crate::app::input::source::{ClusterSource, ModelSource};
    use crate::app::input::view::View;
    use crate::oracle::{Batch, Edition, Objective, Optimizer, Precision, presets};

    fn custom() -> Document {
        let mut spec = presets::network("alexnet").unwrap().spec();
        spec.layers[0].y = [96, 54, 54].into();
        spec.dataset.samples = 50_000;
        let mut cluster = presets::cluster("dgx-a100").unwrap().spec().clone();
        cluster.nic.latency_s = 5e-6;
        // a GPU this tool does not know, by its datasheet: the link keeps it
        cluster.gpu = Some("NVIDIA GeForce RTX 6090".into());
        cluster.datasheet = Some(crate::oracle::model::devices::Datasheet {
            architecture: crate::oracle::model::devices::Architecture::BlackwellGb20x,
            sms: 192,
            fp32_flops_per_s: 130e12,
            tf32_flops_per_s: Some(130e12),
            fp16_flops_per_s: Some(260e12),
            bf16_flops_per_s: None,
            memory_bytes: 48e9,
            memory_bandwidth_bytes_per_s: 2.2e12,
        });
        let mut question = Question {
            model: ModelSource::Custom(Box::new(spec)),
            cluster: ClusterSource::Custom(Box::new(cluster)),
            strategies: vec![Strategy::Data, Strategy::DataFilter],
            measured: "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,8,2048,,0.9,,\n"
                .into(),
            ..Question::default()
        };
        let run = &mut question.run;
        run.gpus = 256;
        run.batch = Batch::MiniBatch(8192);
        run.bytes_per_item = 2.0;
        run.segments = Some(64);
        run.group_size = Some(8);
        run.edition = Edition::Ideal;
        run.precision = Precision::Bf16;
        run.optimizer = Optimizer::Adam;
        run.zero = 2;
        run.recompute = true;
        run.overlap = true;
        run.bucket_mib = 50.0;
        let mut view = View {
            explaining: Some(ExplainTarget::new(
                Strategy::DataFilter,
                128,
                crate::oracle::Quantity::Kind(crate::oracle::CommKind::LayerCollectives),
            )),
            drawing: Some(Strategy::DataFilter),
            compare_editions: true,
            ..View::default()
        };
        view.plan.open = true;
        view.plan.gpus = Some(512);
        view.plan.objective = Objective::Memory;
        Document { question, view }
    }

    fn with(edit: impl FnOnce(&mut Question)) -> Document {
        let mut question = Question::default();
        edit(&mut question);
        Document::of(question)
    }

    #[test]
    fn defaults_encode_to_nothing() {
        assert_eq!(encode(&Document::default()), "");
        assert_eq!(decode("").unwrap(), Document::default());
    }

    #[test]
    fn round_trips() {
        let cases = [
            Document::default(),
            with(|q| q.run.gpus = 8),
            with(|q| {
                q.model = ModelSource::Preset("cosmoflow".into());
                q.run.batch = Batch::SamplesPerGpu(0.25);
                q.strategies = vec![Strategy::DataSpatial];
            }),
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
    fn a_node_a_plot_range_and_a_memory_budget_round_trip_and_bad_ones_are_refused() {
        let mut doc = with(|q| q.cluster = ClusterSource::Preset("node:4:pcie4:RTX 4090".into()));
        doc.view.gpu_range = Some((64, 1024));
        doc.view.plan.memory_bytes = Some(24e9);
        let text = encode(&doc);
        assert!(text.len() < 120, "{text}");
        assert_eq!(decode(&text).unwrap(), doc);
        for bad in [Some((0, 8)), Some((64, 64)), Some((1024, 64)), Some((1, MAX_GPUS + 1))] {
            doc.view.gpu_range = bad;
            assert!(matches!(decode(&encode(&doc)), Err(LinkError::Invalid(_))), "{bad:?}");
        }
        doc.view.gpu_range = None;
        for bad in [0.0, -1.0, 1e300] {
            doc.view.plan.memory_bytes = Some(bad);
            assert!(decode(&encode(&doc)).is_err(), "{bad}");
        }
        doc.view.plan.memory_bytes = None;
        // a money budget too, and a costs choice
        doc.view.plan.max_usd = Some(250.0);
        doc.question.run.costs.grid = Some(crate::oracle::model::energy::Grid::Region("fr".into()));
        assert_eq!(decode(&encode(&doc)).unwrap(), doc);
        for bad in [0.0, -1.0, 1e300] {
            doc.view.plan.max_usd = Some(bad);
            assert!(decode(&encode(&doc)).is_err(), "{bad}");
        }
        doc.view.plan.max_usd = None;
        doc.question.run.costs.grid = Some(crate::oracle::model::energy::Grid::Region("mars".into()));
        assert!(matches!(decode(&encode(&doc)), Err(LinkError::Invalid(_))));
        let unknown = with(|q| q.cluster = ClusterSource::Preset("node:4:pcie4:RTX 9999".into()));
        assert!(decode(&encode(&unknown)).is_err());
    }

    #[test]
    fn links_are_compact() {
        let preset = encode(&with(|q| {
            q.model = ModelSource::Preset("vgg16".into());
            q.run.gpus = 256;
        }));
        assert!(preset.len() < 40, "{preset}");
        // a whole edited ResNet-152 (514 layers) still fits in a few KB
        let mut spec = presets::network("resnet152").unwrap().spec();
        spec.dataset.samples = 1000;
        let big = encode(&with(|q| q.model = ModelSource::Custom(Box::new(spec))));
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
        let inputs = with(|q| q.model = ModelSource::Custom(Box::new(spec)));
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
        assert_eq!(
            decode(&wrap(r#"{"v":1,"g":8192}"#)).map(|d| d.question.run.gpus),
            Ok(8192)
        );
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
            decode(&wrap(r#"{"ex":"pipeline@8:memory-optimizer","dr":"pipeline"}"#)).map(|d| d.view.drawing),
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

    /// The links the app wrote before its inputs became one document open
    /// the same views: the lessons, a calibrated view, an imported ONNX
    /// network, a plan, and a view with every run setting changed.
    #[test]
    fn links_written_before_the_document_open_the_same_views() {
        let file = include_str!("../../../tests/links/before-the-document.txt");
        let link = |name: &str| {
            file.lines()
                .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
                .unwrap_or_else(|| panic!("no link {name}"))
        };
        // the lessons of that time (later ones never had such a link)
        for lesson in &crate::app::lessons::LESSONS[..3] {
            assert_eq!(
                decode(link(&format!("lesson-{}", lesson.id))).unwrap(),
                (lesson.inputs)(),
                "{}",
                lesson.id
            );
        }
        let calibrated = with(|q| {
            q.measured = crate::oracle::validation::measured_csv("resnet50", crate::oracle::validation::Tier::Head);
        });
        assert!(calibrated.question.calibrated());
        assert_eq!(decode(link("CALIBRATED")).unwrap(), calibrated);
        let bytes = include_bytes!("../../../tests/onnx/light_squeezenet.onnx");
        let read =
            crate::oracle::formats::network::read_network(bytes, "squeezenet.onnx", &Default::default()).unwrap();
        // a link written before layers named the tensors they read holds none: a chain
        let mut spec = read.network.spec();
        for layer in &mut spec.layers {
            layer.reads = None;
            layer.function = None;
        }
        let onnx = with(|q| {
            q.model = ModelSource::Custom(Box::new(spec));
            q.run.gpus = 16;
        });
        assert_eq!(decode(link("ONNX")).unwrap(), onnx);
        let mut plan = with(|q| q.model = ModelSource::Preset("resnet152".into()));
        plan.view.plan.open = true;
        plan.view.plan.gpus = Some(2048);
        plan.view.plan.objective = Objective::Cost;
        assert_eq!(decode(link("PLAN")).unwrap(), plan);
        let mut full = custom();
        full.question.model = ModelSource::default();
        full.question.measured = String::new();
        full.view = View {
            drawing: Some(Strategy::DataFilter),
            compare_editions: true,
            ..View::default()
        };
        // the cluster of a link is the one it was written with (the preset's facts of then, and
        // no GPU's name, which clusters did not have): everything else is today's view
        let mut old = decode(link("FULL")).unwrap();
        let ClusterSource::Custom(cluster) = &old.question.cluster else {
            panic!("an edited cluster")
        };
        assert_eq!(
            (cluster.name.as_str(), cluster.nic.latency_s, cluster.gpu.as_deref()),
            ("DGX A100 SuperPOD", 5e-6, None)
        );
        old.question.cluster = full.question.cluster.clone();
        assert_eq!(old, full);
        // written again (keys in the document's order), they read back the same, the GPU's name too
        assert_eq!(decode(&encode(&full)).unwrap(), full);
    }
}
