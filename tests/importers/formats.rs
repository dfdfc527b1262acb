//! Round trips of every format: the reference files, the presets and
//! random networks, clusters and runs.
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::formats::{json, lc, net, plat};
use paradl::oracle::model::convergence::{CURVES, Convergence};
use paradl::oracle::model::energy::{Costs, GRIDS, Grid, INSTANCES, Price};
use paradl::oracle::{
    AttentionForm, Batch, Cluster, DatasetSpec, Edition, LayerKind, LayerSpec, LinkSpec, MemoryFormat, Network,
    NetworkSpec, Optimizer, Precision, RunSpec, Shape, Strategy as Par, presets,
};
use proptest::prelude::*;

const REFERENCE_NETS: [(&str, &str); 7] = [
    (
        "ALEXNET_ImageNet.net",
        include_str!("../../src/oracle/presets/reference/ALEXNET_ImageNet.net"),
    ),
    (
        "ALEXNET_ImageNet_profall.net_sc",
        include_str!("../../src/oracle/presets/reference/ALEXNET_ImageNet_profall.net_sc"),
    ),
    (
        "VGG_ImageNet_profall.net_sc",
        include_str!("../../src/oracle/presets/reference/VGG_ImageNet_profall.net_sc"),
    ),
    (
        "RESNET50_ImageNet_profall.net_sc",
        include_str!("../../src/oracle/presets/reference/RESNET50_ImageNet_profall.net_sc"),
    ),
    (
        "COSMOFLOW.net",
        include_str!("../../src/oracle/presets/reference/COSMOFLOW.net"),
    ),
    (
        "COSMOFLOW.net_256",
        include_str!("../../src/oracle/presets/reference/COSMOFLOW.net_256"),
    ),
    (
        "ALEXNET (CRLF)",
        "Dataset|ImageNet\r\nInput|10x3x8x8\r\nModel|X\r\nCONV1|3x8x8|3x4x3x3|4x6x6|0.1\r\n",
    ),
];

#[test]
fn reference_networks_round_trip_through_net_and_json() {
    for (name, text) in REFERENCE_NETS {
        let network = net::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = net::write(&network).unwrap();
        assert_eq!(net::parse(&written).unwrap(), network, "{name} via .net");
        assert_eq!(
            json::network(&json::write(&network.spec()).unwrap()).unwrap(),
            network,
            "{name} via JSON"
        );
    }
}

#[test]
fn reference_files_keep_their_quirks() {
    // the 256³ CosmoFlow file has a RELU whose input reads 32x2128x128x128: the file parses
    // as written, and the preset reads it as the convolution's 32x128³ output (the roofline's
    // traffic and autograd's saved ReLU output depend on it)
    let preset = presets::network_preset("cosmoflow-256").unwrap();
    let as_written = net::parse(preset.file().unwrap().1).unwrap();
    assert_eq!(as_written.layers()[4].x().dims(), &[32, 2128, 128, 128]);
    let cosmo = presets::network("cosmoflow-256").unwrap();
    assert_eq!(cosmo.layers()[4].x().dims(), &[32, 128, 128, 128]);
    // "16x255x255x255 |0": blanks around fields are ignored
    let cosmo = presets::network("cosmoflow").unwrap();
    assert_eq!(cosmo.layers()[2].y().dims(), &[16, 255, 255, 255]);
    // comments such as "# Second block group|0" are skipped
    assert_eq!(presets::network("resnet50").unwrap().layers().len(), 166);
}

#[test]
fn every_preset_round_trips_through_net_and_json() {
    for preset in presets::NETWORKS {
        let network = preset.build().unwrap();
        // a .net file holds ParaDL's kinds, without groups or biases: the
        // modern presets refuse it, naming the first field it cannot hold
        let representable = network
            .layers()
            .iter()
            .all(|l| l.groups() == 1 && !l.bias() && net::kind_from_name(l.name()) == l.kind());
        match net::write(&network) {
            Ok(text) => assert_eq!(net::parse(&text).unwrap(), network, "{}", preset.key),
            Err(e) => {
                assert!(!representable, "{}: {e}", preset.key);
                assert!(
                    matches!(e.rule, paradl::oracle::Rule::NotRepresentable(_)),
                    "{}",
                    preset.key
                );
            }
        }
        assert_eq!(
            json::network(&json::write(&network.spec()).unwrap()).unwrap(),
            network,
            "{}",
            preset.key
        );
    }
    for preset in presets::CLUSTERS {
        let cluster = preset.build().unwrap();
        assert_eq!(
            json::cluster(&json::write(cluster.spec()).unwrap()).unwrap(),
            cluster,
            "{}",
            preset.key
        );
    }
}

#[test]
fn reference_split_sets_read_and_round_trip() {
    let files = [
        (
            "alexnet",
            include_str!("../../src/oracle/presets/reference/filter_alexnet.lc"),
            5,
        ),
        (
            "alexnet",
            include_str!("../../src/oracle/presets/reference/spatial_alexnet.lc"),
            7,
        ),
        (
            "vgg16",
            include_str!("../../src/oracle/presets/reference/filter_vgg.lc"),
            13,
        ),
        (
            "vgg16",
            include_str!("../../src/oracle/presets/reference/spatial_vgg.lc"),
            18,
        ),
        (
            "resnet50",
            include_str!("../../src/oracle/presets/reference/filter_resnet.lc"),
            49,
        ),
        (
            "resnet50",
            include_str!("../../src/oracle/presets/reference/channel_resnet.lc"),
            49,
        ),
        (
            "resnet50",
            include_str!("../../src/oracle/presets/reference/spatial_resnet.lc"),
            49,
        ),
        (
            "cosmoflow",
            include_str!("../../src/oracle/presets/reference/spatial_cosmolow.lc"),
            2,
        ),
    ];
    for (model, text, split) in files {
        let network = presets::network(model).unwrap();
        let flags = lc::parse(text, &network).unwrap_or_else(|e| panic!("{model}: {e}"));
        assert_eq!(flags.iter().filter(|f| **f).count(), split);
        assert_eq!(lc::parse(&lc::write(&network, &flags), &network).unwrap(), flags);
    }
}

#[test]
fn reference_platform_round_trips() {
    let text = include_str!("../../src/oracle/presets/reference/ABCI.plat");
    let cluster = plat::parse(text, "ABCI").unwrap();
    assert_eq!(plat::parse(&plat::write(&cluster).unwrap(), "ABCI").unwrap(), cluster);
    assert_eq!(json::cluster(&json::write(cluster.spec()).unwrap()).unwrap(), cluster);
}

/// The kinds a `.net` file can hold (its names decide them).
const NET_KINDS: [LayerKind; 9] = [
    LayerKind::Conv,
    LayerKind::Fc,
    LayerKind::Maxpool,
    LayerKind::Avgpool,
    LayerKind::Relu,
    LayerKind::Bn,
    LayerKind::Add,
    LayerKind::Dropout,
    LayerKind::Other,
];

fn random_layer() -> impl Strategy<Value = LayerSpec> {
    let kinds = prop::sample::select(NET_KINDS.to_vec());
    (
        kinds,
        1u64..5000,
        1u64..5000,
        1u64..12,
        1u64..600,
        1u64..600,
        0u32..1000,
    )
        .prop_map(|(kind, c, f, k, h, w, tag)| {
            let y_channels = if kind.has_weights() { f } else { c };
            let weights = match kind {
                LayerKind::Conv | LayerKind::Fc => vec![c, f, k, k],
                LayerKind::Maxpool | LayerKind::Avgpool => vec![0, 0, k, k],
                LayerKind::Bn => vec![c, c, 0, 0],
                _ => Vec::new(),
            };
            let prefix = match kind {
                LayerKind::Conv => "CONV",
                LayerKind::Fc => "FC",
                LayerKind::Maxpool => "MPOOL",
                LayerKind::Avgpool => "APOOL",
                LayerKind::Relu => "RELU",
                LayerKind::Bn => "BNORM",
                LayerKind::Add => "ADD",
                LayerKind::Dropout => "DROPOUT",
                _ => "SOFTMAX",
            };
            LayerSpec::plain(
                format!("{prefix}_{tag}"),
                kind,
                [c, h, w].into(),
                Shape::new(weights),
                [y_channels, h, w].into(),
            )
        })
}

/// Random valid networks with no profile, a whole-model time on the first
/// layer, or a time on every layer.
fn random_network() -> impl Strategy<Value = Network> {
    (
        prop::collection::vec(random_layer(), 1..30),
        1u64..100_000_000,
        0u8..3,
        1e-6f64..1.0,
    )
        .prop_map(|(mut layers, samples, profile, time)| {
            for (i, layer) in layers.iter_mut().enumerate() {
                layer.time_s = match profile {
                    0 => None,
                    1 if i == 0 => Some(time),
                    1 => Some(0.0),
                    _ => Some(time * (i + 1) as f64),
                };
            }
            NetworkSpec {
                name: "Random".into(),
                dataset: DatasetSpec {
                    name: "Set".into(),
                    samples,
                    sample_shape: [3, 224, 224].into(),
                },
                layers,
                profiled_on: None,
                step: None,
            }
        })
        .prop_filter_map("valid network", |spec| Network::new(spec).ok())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn random_networks_round_trip(network in random_network()) {
        prop_assert_eq!(&net::parse(&net::write(&network).unwrap()).unwrap(), &network);
        prop_assert_eq!(&json::network(&json::write(&network.spec()).unwrap()).unwrap(), &network);
    }

    #[test]
    fn random_split_sets_round_trip(network in random_network(), seed in any::<u64>()) {
        let flags: Vec<bool> = (0..network.layers().len()).map(|i| (seed >> (i % 64)) & 1 == 1).collect();
        prop_assert_eq!(lc::parse(&lc::write(&network, &flags), &network).unwrap(), flags);
    }

    #[test]
    fn random_flat_clusters_round_trip(
        flops in 1e9f64..1e16, memory in 1e9f64..1e12, per_node in 1u64..17, max in 1u64..100_000,
        bw in 1e8f64..1e12, latency in 0.0f64..1e-3,
    ) {
        // a cluster holds at least one node
        let max = max.max(per_node);
        let cluster = Cluster::flat("flat", flops, memory, per_node, max, LinkSpec { bandwidth_bytes_per_s: bw, latency_s: latency }).unwrap();
        prop_assert_eq!(&plat::parse(&plat::write(&cluster).unwrap(), "flat").unwrap(), &cluster);
        prop_assert_eq!(&json::cluster(&json::write(cluster.spec()).unwrap()).unwrap(), &cluster);
    }

    #[test]
    fn random_runs_round_trip(
        strategy in prop::sample::select(Par::ALL.to_vec()), gpus in 1u64..1_000_000, b in 0.001f64..1000.0,
        mini in any::<bool>(), bytes in 0.5f64..16.0, segments in prop::option::of(1u64..1000),
        group in prop::option::of(1u64..64), split in prop::option::of(prop::collection::vec(any::<bool>(), 0..50)),
        update in prop::sample::select(vec![0.0, 1e-3, 0.25]),
    ) {
        let spec = RunSpec {
            strategy,
            gpus,
            batch: if mini { Batch::MiniBatch(gpus * 3) } else { Batch::SamplesPerGpu(b) },
            bytes_per_item: bytes,
            segments,
            group_size: group,
            split,
            update_s: update,
            edition: if mini { Edition::Ideal } else { Edition::Realistic },
            calibration: None,
            precision: Precision::ALL[(gpus % 4) as usize],
            optimizer: Optimizer::ALL[(gpus / 4 % 4) as usize],
            zero: (gpus % 3) as u8,
            recompute: mini,
            overlap: !mini,
            bucket_mib: if mini { 25.0 } else { b },
            memory_format: MemoryFormat::ALL[(gpus / 3 % 2) as usize],
            attention: AttentionForm::ALL[(gpus / 5 % 2) as usize],
            convergence: match gpus % 3 {
                0 => None,
                1 => Some(Convergence::Epochs(b)),
                _ => Some(Convergence::Curve(CURVES[(gpus % 7) as usize].key.into())),
            },
            // a run's costs round-trip too: keys as strings, figures as numbers
            costs: Costs {
                grid: match gpus % 3 {
                    0 => None,
                    1 => Some(Grid::Intensity(b * 10.0)),
                    _ => Some(Grid::Region(GRIDS[(gpus % GRIDS.len() as u64) as usize].key.into())),
                },
                price: match gpus % 4 {
                    0 => None,
                    1 => Some(Price::PerGpuHour(b)),
                    2 => Some(Price::Named("owned".into())),
                    _ => Some(Price::Named(INSTANCES[(gpus % INSTANCES.len() as u64) as usize].key.into())),
                },
                usd_per_kwh: mini.then_some(b / 100.0),
                pue: (!mini).then_some(1.0 + b / 16.0),
            },
        };
        prop_assert_eq!(json::run(&json::write(&spec).unwrap()).unwrap(), spec);
    }
}

/// Every object of `value` (by its path), for inserting keys into.
fn object_paths(value: &serde_json::Value, path: Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        serde_json::Value::Object(map) => {
            out.push(path.clone());
            for (k, v) in map {
                let mut p = path.clone();
                p.push(k.clone());
                object_paths(v, p, out);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let mut p = path.clone();
                p.push(i.to_string());
                object_paths(v, p, out);
            }
        }
        _ => {}
    }
}

fn object_at<'v>(
    value: &'v mut serde_json::Value,
    path: &[String],
) -> &'v mut serde_json::Map<String, serde_json::Value> {
    let mut at = value;
    for step in path {
        at = match at {
            serde_json::Value::Array(items) => &mut items[step.parse::<usize>().unwrap()],
            other => &mut other[step.as_str()],
        };
    }
    at.as_object_mut().unwrap()
}

/// A key misspelled anywhere in a network, a cluster, a calibration or a
/// run is refused with its line and column and the known name nearest it,
/// never read as a default (round 4: a layer's `time` for `time_s`).
#[test]
fn a_misspelled_key_anywhere_in_a_document_is_refused() {
    let calibration = r#"{"fidelity": "realistic", "global": {"compute": 1.2, "communication": 0.8},
        "strategies": [{"strategy": "data", "compute": 1.1, "communication": 0.9, "runs": 2}],
        "runs": [], "mean_accuracy_before": 0.5, "mean_accuracy_after": 0.9, "warnings": []}"#;
    assert!(
        json::factors(calibration).is_ok(),
        "paradl calibrate's own output reads"
    );
    let run = json::write(&RunSpec::new(Par::Data, 8, Batch::MiniBatch(256))).unwrap();
    let documents = [
        (
            "network",
            json::write(&presets::network("resnet18").unwrap().spec()).unwrap(),
        ),
        (
            "cluster",
            json::write(presets::cluster("dgx-h100").unwrap().spec()).unwrap(),
        ),
        ("calibration", calibration.to_string()),
        ("run", run),
    ];
    let read = |what: &str, text: &str| -> Result<(), String> {
        match what {
            "network" => json::network(text).map(|_| ()).map_err(|e| e.to_string()),
            "cluster" => json::cluster(text).map(|_| ()).map_err(|e| e.to_string()),
            "calibration" => json::factors(text).map(|_| ()).map_err(|e| e.to_string()),
            _ => json::run(text).map(|_| ()).map_err(|e| e.to_string()),
        }
    };
    for (what, text) in documents {
        assert_eq!(read(what, &text), Ok(()), "{what} reads as written");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut paths = Vec::new();
        object_paths(&value, Vec::new(), &mut paths);
        // every object of a preset network is many layers alike: a sample of them
        paths.truncate(40);
        for path in paths {
            let mut bad = value.clone();
            let object = object_at(&mut bad, &path);
            let known = object.keys().next().cloned().unwrap_or_else(|| "name".into());
            // a run's batch is one of two keys (an enum): misspell it; anywhere else, add one
            let tag = what == "run" && path == ["batch"];
            if tag {
                let value = object.remove(&known).unwrap();
                object.insert(format!("{known}x"), value);
            } else {
                object.insert(format!("{known}x"), serde_json::Value::from(1));
            }
            let text = serde_json::to_string_pretty(&bad).unwrap();
            let err = read(what, &text).unwrap_err();
            let unknown = if tag { "variant" } else { "field" };
            assert!(
                err.contains(&format!("unknown {unknown} `{known}x`"))
                    && err.contains(&format!("did you mean `{known}`?")),
                "{what} {path:?}: {err}"
            );
            assert!(err.starts_with("line "), "{what} {path:?}: {err}");
        }
    }
}

/// Round 4: a layer's `reads` whose shapes its kind cannot take (a ReLU
/// reading two tensors, a sum of tensors that neither view nor broadcast
/// to its input, a concatenation of fewer items than it holds) is refused
/// naming the layer; a branch that fits (a residual sum, a per-channel
/// gate) reads.
#[test]
fn reads_whose_shapes_cannot_fit_are_refused() {
    let network = |last: &str| {
        format!(
            r#"{{"name": "n", "dataset": {{"name": "d", "samples": 10, "sample_shape": [8, 4, 4]}}, "layers": [
  {{"name": "a", "kind": "conv", "x": [8, 4, 4], "w": [8, 8, 1, 1], "y": [8, 4, 4]}},
  {{"name": "b", "kind": "conv", "x": [8, 4, 4], "w": [8, 3, 1, 1], "y": [3, 4, 4], "reads": [-1]}},
  {{"name": "g", "kind": "avgpool", "x": [8, 4, 4], "w": [0, 0, 4, 4], "y": [8, 1, 1], "reads": [0]}},
  {last}
]}}"#
        )
    };
    let fits = [
        r#"{"name": "sum", "kind": "add", "x": [8, 4, 4], "w": [], "y": [8, 4, 4], "reads": [0, -1]}"#,
        r#"{"name": "gate", "kind": "mul", "x": [8, 4, 4], "w": [], "y": [8, 4, 4], "reads": [0, 2]}"#,
        r#"{"name": "cat", "kind": "concat", "x": [11, 4, 4], "w": [], "y": [11, 4, 4], "reads": [0, 1]}"#,
    ];
    for last in fits {
        assert!(json::network(&network(last)).is_ok(), "{last}");
    }
    for (last, says) in [
        (
            r#"{"name": "r", "kind": "relu", "x": [8, 4, 4], "w": [], "y": [8, 4, 4], "reads": [0, -1]}"#,
            "one tensor",
        ),
        (
            r#"{"name": "sum", "kind": "add", "x": [8, 4, 4], "w": [], "y": [8, 4, 4], "reads": [0, 1]}"#,
            "items that divide",
        ),
        (
            r#"{"name": "cat", "kind": "concat", "x": [19, 4, 4], "w": [], "y": [19, 4, 4], "reads": [0, 1]}"#,
            "input's items together",
        ),
    ] {
        let e = json::network(&network(last)).unwrap_err().to_string();
        assert!(e.contains(says) && e.contains("reads"), "{says}: {e}");
    }
}

/// Round 4: a directive given twice in a `.net` file (the profile's GPU,
/// a layer's reads) or a field past a `.lc` line's end is an error at its
/// line, not a value silently dropped.
#[test]
fn directives_given_twice_and_extra_fields_are_errors_at_their_line() {
    let net = "Dataset|D\nInput|10x3x8x8\nModel|M\nCONV1|3x8x8|3x4x1x1|4x8x8\nCONV2|3x8x8|3x4x1x1|4x8x8\n";
    let reads = format!("{net}#reads|1|-1\n");
    assert!(net::parse(&reads).is_ok());
    let twice = format!("{reads}#reads|1|0\n");
    let e = net::parse(&twice).unwrap_err().to_string();
    assert!(e.starts_with("line 7") && e.contains("appears twice"), "{e}");
    let gpu = "#profiled_on|Tesla V100-SXM2-16GB|15.7e12|900e9\n";
    assert!(net::parse(&format!("{gpu}{net}")).is_ok());
    let e = net::parse(&format!("{gpu}{net}{gpu}")).unwrap_err().to_string();
    assert!(e.starts_with("line 7") && e.contains("appears twice"), "{e}");
    let e = net::parse(&format!("{reads}#reads|0|-1|2\n")).unwrap_err().to_string();
    assert!(e.contains("the end of the line"), "{e}");
    let network = net::parse(net).unwrap();
    assert!(lc::parse("CONV1|1\nCONV2|0\n", &network).is_ok());
    let e = lc::parse("CONV1|1|1\nCONV2|0\n", &network).unwrap_err();
    assert_eq!((e.line, e.column), (1, 9));
}

/// Round 4: a hostile name (escape sequences, a bell, a right-to-left
/// override, a megabyte long) reaches no message raw, in any format: every
/// error shows it escaped and cut, its length said.
#[test]
fn a_hostile_name_reaches_no_message_raw_in_any_format() {
    use paradl::oracle::formats::onnx::{self, build};
    let hostile = format!("A\u{202e}\u{1b}[2J\u{7}\0{}", "x".repeat(1 << 20));
    let json_name = serde_json::to_string(&hostile).unwrap();
    let errors = [
        // a JSON layer named so (its shapes wrong too)
        json::network(&format!(
            r#"{{"name": "n", "dataset": {{"name": "d", "samples": 10, "sample_shape": [3, 8, 8]}},
                "layers": [{{"name": {json_name}, "kind": "conv", "x": [3, 8, 8], "w": [4, 4, 1, 1], "y": [4, 8, 8]}}]}}"#
        ))
        .map(|_| ())
        .unwrap_err()
        .to_string(),
        // a JSON key named so
        json::cluster(&format!(r#"{{"name": "c", {json_name}: 1}}"#)).map(|_| ()).unwrap_err().to_string(),
        // a .net layer named so
        net::parse(&format!("Dataset|D\nInput|10x3x8x8\nModel|M\n{hostile}|3x8x8|4x4x1x1|4x8x8\n"))
            .map(|_| ())
            .unwrap_err()
            .to_string(),
        // an ONNX node named so, of an operator the importer does not know
        onnx::read(
            &build::model(&[Some(1), Some(3), Some(8), Some(8)], vec![build::node("Frobnicate", &hostile, &["data"], &["y"], vec![])], vec![]),
            "hostile.onnx",
            None,
            10,
        )
        .map(|_| ())
        .unwrap_err()
        .to_string(),
        // a Keras layer named so
        paradl::oracle::formats::keras::read(
            &format!(
                r#"{{"class_name": "Sequential", "config": {{"name": "m", "layers": [
  {{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": [null, 8, 8, 3]}}}},
  {{"class_name": "Frobnicate", "config": {{"name": {json_name}}}}}]}}}}"#
            ),
            10,
            None,
        )
        .map(|_| ())
        .unwrap_err()
        .to_string(),
    ];
    for e in errors {
        assert!(e.len() < 4000, "{} bytes", e.len());
        assert!(
            !e.chars()
                .any(|c| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
            "{}",
            e.escape_debug()
        );
        assert!(e.contains("more characters"), "{}", &e[..e.len().min(300)]);
    }
}
