//! The Keras importer on models written by Keras itself
//! (`tests/keras/make.py`, Keras 3): trainable parameters equal Keras's
//! count, shapes follow, and errors sit at the line and column of the
//! layer that cannot be read.
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::formats::keras;
use paradl::oracle::{LayerKind, OracleError, Shape};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/keras/{name}.json", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn a_functional_model_with_every_modern_layer() {
    let text = fixture("modern");
    assert!(keras::looks_like_keras(&text));
    let n = keras::read(&text, 1000, None).unwrap();
    // sum(w.size for w in model.trainable_weights), as make.py prints it
    assert_eq!(n.weight_items(), 6_770.0);
    assert_eq!(
        n.layers()[0].x(),
        &Shape::from([3, 34, 34]),
        "channels first, after the zero padding"
    );
    let kinds: Vec<LayerKind> = n.layers().iter().map(|l| l.kind()).collect();
    use LayerKind::*;
    assert_eq!(
        kinds,
        [
            Conv, Bn, Relu, Conv, Act, Conv, Conv, Relu, Add, Avgpool, Conv, Act, Mul, Concat, Ln, Maxpool, Conv,
            Dropout, Fc, Act
        ]
    );
    let dw = &n.layers()[3];
    assert_eq!((dw.groups(), dw.y()), (16, &Shape::from([16, 16, 16])));
    assert_eq!(n.layers()[13].y(), &Shape::from([32, 16, 16]), "16 + 16 channels");
    // a Dense on a feature map acts on each position
    assert_eq!(n.layers()[16].y(), &Shape::from([8, 8, 8]));
    let classes = &n.layers()[18];
    assert_eq!(classes.x(), &Shape::from([512, 1, 1]), "flattened (and dropped out)");
    assert_eq!(classes.weight_items(), 512.0 * 10.0 + 10.0);
}

#[test]
fn a_sequential_model() {
    let n = keras::read(&fixture("lenet"), 60_000, None).unwrap();
    assert_eq!(n.weight_items(), 35_474.0);
    assert_eq!(n.dataset_samples(), 60_000);
    let shapes: Vec<String> = n.layers().iter().map(|l| l.y().to_string()).collect();
    assert_eq!(shapes[0], "8x24x24");
    assert_eq!(shapes[2], "8x12x12");
    assert_eq!(shapes[3], "16x8x8");
    assert_eq!(n.layers().iter().filter(|l| l.kind() == LayerKind::Fc).count(), 2);
}

#[test]
fn errors_sit_at_the_layer_in_the_file() {
    let text = fixture("lenet").replace("\"Conv2D\"", "\"Conv2DTranspose\"");
    let Err(OracleError::Parse(e)) = keras::read(&text, 10, None) else {
        panic!("an error at a position")
    };
    let line = text.lines().nth(e.line - 1).unwrap();
    assert!(line.contains("\"name\": \"c1\""), "{line}");
    assert!(e.to_string().contains("Conv2DTranspose is not supported"), "{e}");
    let Err(OracleError::Parse(e)) = keras::read("{\"class_name\": \"Sequential\",\n  \"config\": [}", 10, None) else {
        panic!("a syntax error")
    };
    assert_eq!(e.line, 2);
    assert!(keras::read("{\"class_name\": \"Functional\", \"config\": {}}", 10, None).is_err());
    assert!(!keras::looks_like_keras(
        "{\"name\": \"x\", \"dataset\": {}, \"layers\": []}"
    ));
}

#[test]
fn a_keras_file_is_read_from_its_archive() {
    // written by model.save("lenet.keras") (make.py's sequential model)
    let bytes = std::fs::read(format!("{}/tests/keras/lenet.keras", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(keras::looks_like_archive(&bytes));
    let n = keras::read_archive(&bytes, 60_000, None).unwrap();
    assert_eq!(n, keras::read(&fixture("lenet"), 60_000, None).unwrap());
    // a cut archive and a zip without config.json are errors that say so
    let Err(OracleError::Parse(e)) = keras::read_archive(&bytes[..bytes.len() / 2], 10, None) else {
        panic!("an error")
    };
    assert!(
        e.to_string().contains("zip archive") || e.to_string().contains("config.json"),
        "{e}"
    );
    assert!(keras::read_archive(b"PK\x03\x04 nothing", 10, None).is_err());
}

#[test]
fn a_volume_model_in_3d() {
    let n = keras::read(&fixture("volume"), 100, None).unwrap();
    // Keras: 3996 trainable (batch norm without its bias: the scale only)
    assert_eq!(n.weight_items(), 3_996.0);
    assert_eq!(n.layers()[0].x(), &Shape::from([2, 16, 16, 16]));
    let c2 = n.layers().iter().find(|l| l.name() == "c2").unwrap();
    assert_eq!(c2.y(), &Shape::from([16, 6, 6, 6]), "valid 3×3×3 on 8³");
    let bn = n.layers().iter().find(|l| l.kind() == LayerKind::Bn).unwrap();
    assert_eq!(bn.weight_items(), 16.0);
}

/// The audit's hostile Keras configs: each an error at the layer, with its
/// line and column, never a value quietly replaced.
#[test]
fn hostile_configs_are_errors_at_their_layer() {
    let model = |layer: &str| {
        format!(
            r#"{{"class_name": "Sequential", "config": {{"name": "m", "layers": [
  {{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": [null, 32, 32, 3]}}}},
  {layer}
]}}}}"#
        )
    };
    for (layer, needle) in [
        (
            r#"{"class_name": "DepthwiseConv2D", "config": {"name": "dw", "kernel_size": 3, "depth_multiplier": 4611686018427387905}}"#,
            "depth_multiplier",
        ),
        (
            r#"{"class_name": "ZeroPadding2D", "config": {"name": "pad", "padding": [[18446744073709551596, 0], [0, 0]]}}"#,
            "padding",
        ),
        (
            r#"{"class_name": "Conv2D", "config": {"name": "c", "filters": 8, "kernel_size": [-3, -3]}}"#,
            "kernel_size holds -3",
        ),
        (
            r#"{"class_name": "Conv2D", "config": {"name": "c", "filters": 0, "kernel_size": 3}}"#,
            "filters is 0",
        ),
        (
            r#"{"class_name": "Conv2D", "config": {"name": "c", "filters": 8, "kernel_size": 3, "groups": 2}}"#,
            "2 groups do not divide its 3 channels",
        ),
    ] {
        let Err(OracleError::Parse(e)) = keras::read(&model(layer), 10, None) else {
            panic!("{layer} was accepted")
        };
        assert_eq!(e.line, 3, "{layer}: {e}");
        assert!(e.to_string().contains(needle), "{layer}: {e}");
    }
    // sizes that would wrap: a Flatten of 2^90 items
    let huge = model(r#"{"class_name": "Flatten", "config": {"name": "f"}}"#)
        .replace("[null, 32, 32, 3]", "[null, 1073741824, 1073741824, 1073741824]");
    let Err(OracleError::Parse(e)) = keras::read(&huge, 10, None) else {
        panic!("a Flatten of 2^90 items was accepted")
    };
    assert!(e.to_string().contains("more than 2^53 items"), "{e}");
    // a functional model: channels that add up past 2^40, and a layer called twice
    let functional = |input_channels: &str, layers: &str| {
        format!(
            r#"{{"class_name": "Functional", "config": {{"name": "f", "layers": [
  {{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": [null, 4, 4, {input_channels}]}}, "inbound_nodes": []}},
  {layers}
], "output_layers": [["out", 0, 0]]}}}}"#
        )
    };
    let concat = functional(
        "1099511627776",
        r#"{"class_name": "Concatenate", "config": {"name": "out"}, "inbound_nodes": [[["in", 0, 0, {}], ["in", 0, 0, {}]]]}"#,
    );
    let Err(OracleError::Parse(e)) = keras::read(&concat, 10, None) else {
        panic!("2^41 channels were accepted")
    };
    assert!(e.to_string().contains("add up to more than 2^40"), "{e}");
    let shared = functional(
        "3",
        r#"{"class_name": "Conv2D", "config": {"name": "c", "filters": 3, "kernel_size": 1}, "inbound_nodes": [[["in", 0, 0, {}]], [["in", 0, 0, {}]]]},
  {"class_name": "Add", "config": {"name": "out"}, "inbound_nodes": [[["c", 0, 0, {}], ["c", 1, 0, {}]]]}"#,
    );
    // a layer called twice is a layer per call, the second sharing the first's weights
    let n = keras::read(&shared, 10, None).unwrap();
    let names: Vec<&str> = n.layers().iter().map(|l| l.name()).collect();
    assert_eq!(names, ["c", "c#1", "out"]);
    assert_eq!(n.layers()[1].shares(), Some(0));
    assert_eq!(n.weight_items(), 3.0 * 3.0 + 3.0, "one kernel and bias");
    assert_eq!(
        n.forward_flops(),
        2.0 * (2.0 * 3.0 * 3.0 * 16.0) + 3.0 * 16.0,
        "two calls' FLOPs"
    );
    // called once, the same model reads
    let once = functional(
        "3",
        r#"{"class_name": "Conv2D", "config": {"name": "c", "filters": 3, "kernel_size": 1}, "inbound_nodes": [[["in", 0, 0, {}]]]},
  {"class_name": "Add", "config": {"name": "out"}, "inbound_nodes": [[["c", 0, 0, {}], ["in", 0, 0, {}]]]}"#,
    );
    assert_eq!(keras::read(&once, 10, None).unwrap().layers().len(), 2);
    // a number out of range is a JSON error where it is, whatever the file is read as
    let text = model(r#"{"class_name": "Dense", "config": {"name": "d", "units": 1e400}}"#);
    let read = paradl::oracle::formats::network::read_network(
        text.as_bytes(),
        "m.json",
        &paradl::oracle::formats::network::Hints::default(),
    );
    let message = read.unwrap_err().to_string();
    assert!(
        message.starts_with("line 3") && message.contains("number out of range"),
        "{message}"
    );
    // models nested too deep
    let mut nested = r#"{"class_name": "Sequential", "config": {"name": "n", "layers": [{"class_name": "ReLU", "config": {"name": "r"}}]}}"#.to_string();
    for k in 0..20 {
        nested = format!(r#"{{"class_name": "Sequential", "config": {{"name": "s{k}", "layers": [{nested}]}}}}"#);
    }
    let Err(OracleError::Parse(e)) = keras::read(&model(&nested), 10, None) else {
        panic!("20 nested models were accepted")
    };
    assert!(e.to_string().contains("nested more than 16 deep"), "{e}");
}

/// A layer called on two inputs and a nested model called on two inputs
/// (`tests/keras/shared.json`, written by hand in Keras 3's format): each
/// call is a layer, the later calls sharing the first's weights, so the
/// parameters are Keras's count (`model.count_params()`: stem 224, head 36,
/// the encoder's convolution 148).
#[test]
fn shared_layers_and_models_count_their_weights_once() {
    let n = keras::read(&fixture("shared"), 1000, None).unwrap();
    assert_eq!(n.weight_items(), 224.0 + 36.0 + 148.0);
    let rows: Vec<(&str, Option<usize>)> = n.layers().iter().map(|l| (l.name(), l.shares())).collect();
    assert_eq!(
        rows,
        [
            ("stem", None),
            ("stem.relu", None),
            ("pool", None),
            ("head", None),
            ("head#1", Some(3)),
            ("enc_conv", None),
            ("enc_conv.relu", None),
            ("enc_gap", None),
            ("enc_conv", Some(5)),
            ("enc_conv.relu", None),
            ("enc_gap", None),
            ("out", None),
        ]
    );
    // each call computes: the head at 16x16 and at 8x8
    assert_eq!(n.layers()[3].forward_flops(), 2.0 * 8.0 * 4.0 * 256.0);
    assert_eq!(n.layers()[4].forward_flops(), 2.0 * 8.0 * 4.0 * 64.0);
    assert_eq!(n.layers()[11].y(), &Shape::from([8, 1, 1]), "both calls' features");
    assert_eq!(n.layers()[11].spec().reads, Some(vec![7, 10]));
}
