//! The ONNX importer: the onnx project's nine light test graphs (the
//! model zoo's vision networks with their weights as `ConstantOfShape`)
//! against counts computed independently, each operator family on small graphs built
//! here, and broken files (an error, never a panic).
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::formats::onnx::build::{self, int, int64s, ints, model, node, scalar, text, weight};
use paradl::oracle::formats::onnx::proto::{AttributeProto, ModelProto, NodeProto, TensorProto};
use paradl::oracle::formats::onnx::{self, DEFAULT_SAMPLES};
use paradl::oracle::{Function, LayerKind, OracleError, Precision, Scenario, Shape, presets};
use prost::Message;

use crate::activations;
use activations::activations_per_sample;

fn file(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/tests/onnx/{name}.onnx", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Parameters and forward FLOPs per sample of the nine graphs (from
/// onnx/onnx's `onnx/backend/test/data/light/`), computed apart from the
/// engine: `tests/onnx/count.py` runs onnx's own shape inference (onnx 1.23
/// from PyPI) and sums the contract's formulas (conv weights and biases,
/// Gemm weights and biases, batch-norm scale and bias; FLOPs of section 2
/// and 10). ResNet-50's and VGG-19's parameters are also torchvision's
/// (`resnet50`: 25,557,032; `vgg19`: 143,667,240). DenseNet-121 and
/// Inception v2 were converted from Caffe, whose `Scale` layer follows each
/// batch norm with a trained per-channel scale and offset (a `Mul` and an
/// `Add` of `Unsqueeze`d weights): the importer counts those too, the last
/// column, which count.py's rules leave out.
const COUNTS: [(&str, f64, f64, usize, f64); 9] = [
    ("light_bvlc_alexnet", 60_965_224.0, 1_311_182_184.0, 23, 0.0),
    ("light_resnet50", 25_557_032.0, 8_239_860_200.0, 175, 0.0),
    ("light_squeezenet", 1_235_496.0, 704_034_808.0, 66, 0.0),
    ("light_vgg19", 143_667_240.0, 39_285_107_688.0, 45, 0.0),
    ("light_densenet121", 7_978_856.0, 5_764_887_040.0, 668, 83_648.0),
    ("light_inception_v1", 6_998_552.0, 2_878_301_560.0, 142, 0.0),
    ("light_inception_v2", 11_194_984.0, 4_072_206_952.0, 370, 19_904.0),
    ("light_shufflenet", 1_393_320.0, 267_428_696.0, 154, 0.0),
    ("light_zfnet512", 87_250_536.0, 2_969_207_400.0, 21, 0.0),
];

#[test]
fn the_shared_graphs_match_independent_counts() {
    for (name, parameters, flops, layers, scales) in COUNTS {
        let imported = onnx::read(&file(name), name, None, DEFAULT_SAMPLES).unwrap();
        let n = &imported.network;
        assert_eq!(n.weight_items(), parameters + scales, "{name} parameters");
        assert_eq!(n.forward_flops(), flops, "{name} FLOPs");
        assert_eq!(n.layers().len(), layers, "{name} layers");
        assert_eq!(n.dataset_samples(), DEFAULT_SAMPLES);
        assert_eq!(n.layers()[0].x(), &Shape::from([3, 224, 224]));
        assert!(
            imported.merged.contains_key("ConstantOfShape"),
            "{name}: weights from ConstantOfShape"
        );
    }
}

#[test]
fn groups_concat_and_fc_shapes_come_through() {
    let alexnet = onnx::read(&file("light_bvlc_alexnet"), "a", None, 1000)
        .unwrap()
        .network;
    // BVLC AlexNet's conv2, conv4 and conv5 run in two groups
    let grouped: Vec<u64> = alexnet
        .layers()
        .iter()
        .filter(|l| l.kind() == LayerKind::Conv)
        .map(|l| l.groups())
        .collect();
    assert_eq!(grouped, [1, 2, 1, 2, 2]);
    // the first fully connected layer reads [256, 6, 6] as ParaDL's files do
    let fc6 = alexnet.layers().iter().find(|l| l.kind() == LayerKind::Fc).unwrap();
    assert_eq!(fc6.x(), &Shape::from([256, 6, 6]));
    assert_eq!(fc6.w(), &Shape::from([256, 4096, 6, 6]));
    assert_eq!(fc6.y(), &Shape::from([4096, 1, 1]));
    assert!(fc6.bias());
    // LRN and softmax are activations
    assert_eq!(
        alexnet.layers().iter().filter(|l| l.kind() == LayerKind::Act).count(),
        3
    );

    let squeezenet = onnx::read(&file("light_squeezenet"), "s", None, 1000).unwrap().network;
    let concats: Vec<&Shape> = squeezenet
        .layers()
        .iter()
        .filter(|l| l.kind() == LayerKind::Concat)
        .map(|l| l.y())
        .collect();
    assert_eq!(concats.len(), 8);
    assert_eq!(concats[0], &Shape::from([128, 55, 55]), "fire2: 64 + 64 channels");
}

// ---- small graphs built here ------------------------------------------

/// A depthwise-separable block with a squeeze-and-excitation scale, layer
/// norm, GELU, a PyTorch-style flatten (Shape, Gather, Unsqueeze, Concat,
/// Reshape) and a MatMul with its bias added.
fn modern() -> Vec<u8> {
    let nodes = vec![
        node(
            "Conv",
            "dw",
            &["data", "dw_w"],
            &["a"],
            vec![
                int("group", 8),
                ints("pads", &[1, 1, 1, 1]),
                ints("kernel_shape", &[3, 3]),
            ],
        ),
        node(
            "Conv",
            "pw",
            &["a", "pw_w", "pw_b"],
            &["b"],
            vec![ints("strides", &[2, 2])],
        ),
        node("Clip", "relu6", &["b"], &["c"], vec![]),
        node("GlobalAveragePool", "squeeze", &["c"], &["s"], vec![]),
        node("Sigmoid", "gate", &["s"], &["g"], vec![]),
        node("Mul", "excite", &["c", "g"], &["e"], vec![]),
        node(
            "LayerNormalization",
            "ln",
            &["e", "ln_scale", "ln_bias"],
            &["l"],
            vec![],
        ),
        node("Gelu", "gelu", &["l"], &["h"], vec![]),
        node("Concat", "cat", &["h", "c"], &["k"], vec![int("axis", 1)]),
        node("Shape", "shape", &["k"], &["k_shape"], vec![]),
        node("Gather", "batch", &["k_shape", "zero"], &["n"], vec![int("axis", 0)]),
        node("Unsqueeze", "n1", &["n"], &["n_1"], vec![ints("axes", &[0])]),
        node(
            "Concat",
            "target",
            &["n_1", "minus_one"],
            &["flat_shape"],
            vec![int("axis", 0)],
        ),
        node("Reshape", "flatten", &["k", "flat_shape"], &["f"], vec![]),
        node("MatMul", "fc", &["f", "fc_w"], &["m"], vec![]),
        node("Add", "fc_bias", &["m", "fc_b"], &["out"], vec![]),
    ];
    let weights = vec![
        weight("dw_w", &[8, 1, 3, 3]),
        weight("pw_w", &[16, 8, 1, 1]),
        weight("pw_b", &[16]),
        weight("ln_scale", &[16]),
        weight("ln_bias", &[16]),
        TensorProto {
            dims: vec![],
            ..int64s("zero", &[0])
        },
        int64s("minus_one", &[-1]),
        weight("fc_w", &[32 * 4 * 4, 10]),
        weight("fc_b", &[10]),
    ];
    model(&[None, Some(8), Some(8), Some(8)], nodes, weights)
}

#[test]
fn modern_operators_become_the_new_kinds() {
    let imported = onnx::read(&modern(), "modern", None, 100).unwrap();
    let n = &imported.network;
    let kinds: Vec<LayerKind> = n.layers().iter().map(|l| l.kind()).collect();
    use LayerKind::*;
    assert_eq!(kinds, [Conv, Conv, Act, Avgpool, Act, Mul, Ln, Act, Concat, Fc]);
    let dw = &n.layers()[0];
    assert_eq!((dw.groups(), dw.y()), (8, &Shape::from([8, 8, 8])));
    // depthwise: 8 filters of 1x3x3
    assert_eq!(dw.weight_items(), 72.0);
    assert_eq!(dw.forward_flops(), 2.0 * 1.0 * 8.0 * 9.0 * 64.0);
    let pw = &n.layers()[1];
    assert_eq!(pw.y(), &Shape::from([16, 4, 4]));
    assert_eq!(pw.weight_items(), 8.0 * 16.0 + 16.0, "with its bias");
    assert_eq!(n.layers()[6].weight_items(), 32.0, "layer norm: scale and bias");
    assert_eq!(n.layers()[8].y(), &Shape::from([32, 4, 4]), "16 + 16 channels");
    let fc = &n.layers()[9];
    assert_eq!(fc.x(), &Shape::from([32, 4, 4]));
    assert_eq!(fc.y(), &Shape::from([10, 1, 1]));
    assert!(fc.bias(), "the Add of a constant is the MatMul's bias");
    assert_eq!(fc.weight_items(), 512.0 * 10.0 + 10.0);
    assert_eq!(imported.merged.get("Add (bias)"), Some(&1));
    assert_eq!(imported.merged.get("Reshape"), Some(&1));
    // the symbolic batch was fine; the sample is [8, 8, 8]
    assert_eq!(n.layers()[0].x(), &Shape::from([8, 8, 8]));
}

fn graph_error(bytes: &[u8], shape: Option<&Shape>) -> String {
    match onnx::read(bytes, "t", shape, 100) {
        Err(OracleError::Graph(e)) => e.to_string(),
        other => panic!("expected a graph error, got {other:?}"),
    }
}

#[test]
fn an_unsupported_operator_names_its_node() {
    let bytes = model(
        &[Some(1), Some(3), Some(8), Some(8)],
        vec![
            node("Relu", "first", &["data"], &["a"], vec![]),
            node("Det", "mix", &["a"], &["b"], vec![]),
        ],
        vec![],
    );
    let message = graph_error(&bytes, None);
    assert!(
        message.starts_with("node 1 'mix' (Det): the operator Det is not supported"),
        "{message}"
    );
}

#[test]
fn unknown_sizes_ask_for_the_input_shape() {
    let nodes = || vec![node("Relu", "r", &["data"], &["a"], vec![])];
    let bytes = model(&[None, Some(3), None, None], nodes(), vec![]);
    let message = graph_error(&bytes, None);
    assert!(message.contains("--input-shape 3x224x224"), "{message}");
    let given = Shape::from([3, 32, 32]);
    let n = onnx::read(&bytes, "t", Some(&given), 100).unwrap().network;
    assert_eq!(n.layers()[0].x(), &given);
}

#[test]
fn bad_graphs_are_errors_naming_the_node() {
    // a weight that does not fit the input
    let bytes = model(
        &[Some(1), Some(3), Some(8), Some(8)],
        vec![node("Conv", "c", &["data", "w"], &["a"], vec![])],
        vec![weight("w", &[4, 2, 3, 3])],
    );
    assert!(graph_error(&bytes, None).starts_with("node 0 'c' (Conv): its weight 4x2x3x3 does not fit"));
    // a tensor used before it is made
    let bytes = model(
        &[Some(1), Some(3), Some(8), Some(8)],
        vec![node("Relu", "r", &["later"], &["a"], vec![])],
        vec![],
    );
    assert!(graph_error(&bytes, None).contains("topological order"));
    // a window larger than its input
    let bytes = model(
        &[Some(1), Some(3), Some(2), Some(2)],
        vec![node(
            "MaxPool",
            "p",
            &["data"],
            &["a"],
            vec![ints("kernel_shape", &[3, 3])],
        )],
        vec![],
    );
    assert!(graph_error(&bytes, None).contains("does not fit its input"));
    assert!(graph_error(b"not a model at all", None).starts_with("not an ONNX model"));
    assert_eq!(graph_error(&[], None), "an ONNX model without a graph");
}

#[test]
fn truncated_and_corrupted_files_never_panic() {
    let bytes = file("light_squeezenet");
    for cut in (0..bytes.len()).step_by(97) {
        assert!(
            onnx::read(&bytes[..cut], "t", None, 100).is_err(),
            "a file cut at {cut} bytes"
        );
    }
    let mut state = 2026u64;
    for _ in 0..300 {
        let mut broken = bytes.clone();
        for _ in 0..4 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let at = (state >> 33) as usize % broken.len();
            broken[at] ^= (state >> 17) as u8 | 1;
        }
        // accepted or rejected, but never a panic nor a non-finite number
        if let Ok(imported) = onnx::read(&broken, "t", None, 100) {
            assert!(imported.network.forward_flops().is_finite());
            assert!(imported.network.weight_items().is_finite());
        }
    }
}

/// Up-convolution, average pool with ceil mode, instance norm, Transpose,
/// Squeeze and Unsqueeze, Identity, a three-way Sum, Flatten and Gemm.
#[test]
fn shape_operators_and_transposed_convolutions() {
    let nodes = vec![
        node(
            "ConvTranspose",
            "up",
            &["data", "up_w", "up_b"],
            &["a"],
            vec![ints("strides", &[2, 2]), ints("kernel_shape", &[2, 2])],
        ),
        node("InstanceNormalization", "in", &["a", "in_s", "in_b"], &["b"], vec![]),
        node(
            "AveragePool",
            "pool",
            &["b"],
            &["c"],
            vec![
                ints("kernel_shape", &[3, 3]),
                ints("strides", &[2, 2]),
                int("ceil_mode", 1),
            ],
        ),
        node("Transpose", "t", &["c"], &["d"], vec![ints("perm", &[0, 1, 3, 2])]),
        node("Unsqueeze", "u", &["d"], &["e"], vec![ints("axes", &[4])]),
        node("Squeeze", "s", &["e"], &["f"], vec![ints("axes", &[4])]),
        node("Identity", "i", &["f"], &["g"], vec![]),
        node("Sum", "sum", &["g", "f", "d"], &["h"], vec![]),
        node("Flatten", "flat", &["h"], &["k"], vec![]),
        node("Gemm", "fc", &["k", "fc_w", "fc_b"], &["out"], vec![int("transB", 1)]),
    ];
    let weights = vec![
        weight("up_w", &[4, 2, 2, 2]),
        weight("up_b", &[2]),
        weight("in_s", &[2]),
        weight("in_b", &[2]),
        weight("fc_w", &[5, 2 * 8 * 8]),
        weight("fc_b", &[5]),
    ];
    let imported = onnx::read(
        &model(&[Some(1), Some(4), Some(8), Some(8)], nodes, weights),
        "t",
        None,
        10,
    )
    .unwrap();
    let n = &imported.network;
    let kinds: Vec<LayerKind> = n.layers().iter().map(|l| l.kind()).collect();
    use LayerKind::*;
    assert_eq!(kinds, [Deconv, Ln, Avgpool, Add, Fc]);
    let up = &n.layers()[0];
    assert_eq!(up.y(), &Shape::from([2, 16, 16]));
    assert_eq!(
        up.forward_flops(),
        2.0 * 4.0 * 2.0 * 4.0 * 64.0,
        "over the input's positions"
    );
    assert_eq!(up.weight_items(), 4.0 * 2.0 * 4.0 + 2.0);
    assert_eq!(n.layers()[2].y(), &Shape::from([2, 8, 8]), "ceil((16 - 3) / 2) + 1");
    assert_eq!(n.layers()[4].x(), &Shape::from([2, 8, 8]));
    for op in ["Transpose", "Squeeze", "Unsqueeze", "Identity", "Flatten"] {
        assert_eq!(imported.merged.get(op), Some(&1), "{op}");
    }
}

/// The audit's hostile graphs: each a clear error (or a right answer), at once.
#[test]
fn hostile_graphs_are_errors_naming_the_node_at_once() {
    let started = std::time::Instant::now();
    let input = [Some(1), Some(3), Some(8), Some(8)];
    // a list of shape arithmetic doubled at every Concat (the 1.9 KB file that grew memory
    // until the process aborted): its values stop being kept, and using it as a shape is an error
    let mut nodes = Vec::new();
    let mut list = "two".to_string();
    for k in 0..60 {
        let doubled = format!("d{k}");
        nodes.push(node(
            "Concat",
            &doubled,
            &[&list, &list],
            &[&doubled],
            vec![int("axis", 0)],
        ));
        list = doubled;
    }
    nodes.push(node("Reshape", "r", &["data", &list], &["a"], vec![]));
    let bytes = model(&input, nodes, vec![int64s("two", &[1, 2])]);
    let message = graph_error(&bytes, None);
    assert!(
        message.contains("node 60 'r' (Reshape)") || message.contains("more than 2^53"),
        "{message}"
    );
    // Unsqueeze with 400,000 axes
    let axes: Vec<i64> = (0..400_000).collect();
    let bytes = model(
        &input,
        vec![node("Unsqueeze", "u", &["data"], &["a"], vec![ints("axes", &axes)])],
        vec![],
    );
    assert!(graph_error(&bytes, None).contains("dimensions (at most 8)"));
    // a graph listing its 80,000 weights among its inputs
    let mut weights = Vec::new();
    let mut listed = vec![build::input("data", &input)];
    for k in 0..80_000 {
        weights.push(weight(&format!("w{k}"), &[1]));
        listed.push(build::input(&format!("w{k}"), &[Some(1)]));
    }
    let mut m =
        ModelProto::decode(&model(&input, vec![node("Relu", "r", &["data"], &["a"], vec![])], weights)[..]).unwrap();
    if let Some(g) = m.graph.as_mut() {
        g.input = listed;
    }
    let n = onnx::read(&m.encode_to_vec(), "t", None, 100).unwrap().network;
    assert_eq!(n.layers().len(), 1);
    // values that are not valid are errors, not replaced by valid ones
    for (attribute, needle) in [
        (int("group", 0), "group 0 must be at least 1"),
        (int("group", -3), "group -3 must be at least 1"),
        (ints("strides", &[0, 1]), "strides holds 0"),
        (ints("dilations", &[1, 0]), "dilations holds 0"),
        (ints("pads", &[-20, 0, 0, 0]), "pads holds -20"),
    ] {
        let bytes = model(
            &input,
            vec![node(
                "Conv",
                "c",
                &["data", "w"],
                &["a"],
                vec![attribute, ints("kernel_shape", &[3, 3])],
            )],
            vec![weight("w", &[4, 3, 3, 3])],
        );
        let message = graph_error(&bytes, None);
        assert!(
            message.starts_with("node 0 'c' (Conv)") && message.contains(needle),
            "{message}"
        );
    }
    // a concatenation whose channels overflow
    let big = model(
        &[Some(1), Some(1 << 53), Some(1), Some(1)],
        vec![node(
            "Concat",
            "cat",
            &["data", "data", "data"],
            &["a"],
            vec![int("axis", 1)],
        )],
        vec![],
    );
    assert!(graph_error(&big, None).contains("node 0 'cat' (Concat)"));
    finished_within(started, 5);
}

/// A hostile graph's import ends within `seconds` of `started` (bounded,
/// not merely correct).
fn finished_within(started: std::time::Instant, seconds: u64) {
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(seconds), "{took:?}");
}

/// Round 3 of the audit: folding that never lists what it only counts,
/// sums that cannot wrap, and graphs that break ONNX's own rules.
#[test]
fn round_3_hostile_graphs_are_bounded_errors_or_right_answers() {
    let started = std::time::Instant::now();
    let input = [Some(1), Some(3), Some(8), Some(8)];
    let relu = || node("Relu", "r", &["data"], &["y"], vec![]);
    // a slice of a 2^40-item constant: its size is counted, not listed
    let bytes = model(
        &input,
        vec![
            node("ConstantOfShape", "big", &["s"], &["b"], vec![]),
            node("Slice", "cut", &["b", "st", "en"], &["c"], vec![]),
            relu(),
        ],
        vec![int64s("s", &[1 << 40]), int64s("st", &[1]), int64s("en", &[1 << 39])],
    );
    assert_eq!(onnx::read(&bytes, "t", None, 100).unwrap().network.layers().len(), 1);
    // the same slice of the data input's own huge width
    let wide = model(
        &[Some(1), Some(1), Some(1), Some(1 << 35)],
        vec![
            node("Slice", "cut", &["data", "st", "en", "ax"], &["a"], vec![]),
            node("Relu", "r", &["a"], &["y"], vec![]),
        ],
        vec![int64s("st", &[1]), int64s("en", &[1 << 34]), int64s("ax", &[3])],
    );
    let n = onnx::read(&wide, "t", None, 100).unwrap().network;
    assert_eq!(n.layers()[0].y().items(), ((1u64 << 34) - 1) as f64);
    // a concatenation of empty constants of 2^50 rows: nothing to copy, at once
    let empty = model(
        &input,
        vec![
            node("ConstantOfShape", "e", &["s"], &["e0"], vec![]),
            node("Concat", "cat", &["e0", "e0"], &["e1"], vec![int("axis", 1)]),
            relu(),
        ],
        vec![int64s("s", &[1 << 50, 0])],
    );
    assert_eq!(onnx::read(&empty, "t", None, 100).unwrap().network.layers().len(), 1);
    // split sizes that wrap around 2^64 to the channel count
    let wrap = model(
        &input,
        vec![node(
            "Split",
            "sp",
            &["data", "parts"],
            &["a", "b", "c"],
            vec![int("axis", 1)],
        )],
        vec![int64s("parts", &[i64::MAX, i64::MAX, 5])],
    );
    let message = graph_error(&wrap, None);
    assert!(message.starts_with("node 0 'sp' (Split)"), "{message}");
    // a kernel_shape that contradicts the weight
    let contradicted = model(
        &input,
        vec![node(
            "Conv",
            "c",
            &["data", "w"],
            &["a"],
            vec![ints("kernel_shape", &[5, 5])],
        )],
        vec![weight("w", &[4, 3, 3, 3])],
    );
    let message = graph_error(&contradicted, None);
    assert!(
        message.contains("kernel_shape") && message.contains("contradicts"),
        "{message}"
    );
    // one tensor written by two nodes
    let twice = model(
        &input,
        vec![relu(), node("Sigmoid", "s", &["data"], &["y"], vec![])],
        vec![],
    );
    let message = graph_error(&twice, None);
    assert!(
        message.starts_with("node 1 's' (Sigmoid)") && message.contains("written"),
        "{message}"
    );
    finished_within(started, 5);
}

/// The folding budget holds for the whole graph, not per tensor: 20,000
/// copies of a 65,536-value constant, and a Sum reading one constant
/// 100,000 times, fold their shapes without holding gigabytes.
#[test]
fn the_folding_budget_is_the_graphs_not_each_tensors() {
    let started = std::time::Instant::now();
    let input = [Some(1), Some(3), Some(8), Some(8)];
    let mut nodes = vec![node("ConstantOfShape", "k", &["s"], &["c"], vec![])];
    for i in 0..20_000 {
        nodes.push(node(
            "Add",
            &format!("copy{i}"),
            &["c", "c"],
            &[&format!("c{i}")],
            vec![],
        ));
    }
    let many: Vec<&str> = vec!["c"; 100_000];
    nodes.push(node("Sum", "sum", &many, &["total"], vec![]));
    nodes.push(node("Relu", "r", &["data"], &["y"], vec![]));
    let bytes = model(&input, nodes, vec![int64s("s", &[65_536])]);
    assert_eq!(onnx::read(&bytes, "t", None, 100).unwrap().network.layers().len(), 1);
    finished_within(started, 20);
}

#[test]
fn an_exporters_default_graph_name_gives_way_to_the_files() {
    use paradl::oracle::formats::network::{Hints, read_network};
    let small = modern();
    let named = |bytes: &[u8], path: &str| {
        read_network(bytes, path, &Hints::default())
            .unwrap()
            .network
            .name()
            .to_string()
    };
    // a graph named by its author keeps its name
    assert_eq!(named(&small, "dir/my-net.onnx"), "small");
    // torch.onnx's "main_graph" says nothing: the file's name is the network's
    let mut proto = ModelProto::decode(&small[..]).unwrap();
    proto.graph.as_mut().unwrap().name = Some("main_graph".into());
    let default = proto.encode_to_vec();
    assert_eq!(named(&default, "uploads/resnet50_finetuned.onnx"), "resnet50_finetuned");
}

/// A graph of `nodes` over an `[N, 8, 8, 8]` input, imported.
fn small(nodes: Vec<NodeProto>, weights: Vec<TensorProto>, name: &str) -> onnx::Imported {
    onnx::read(
        &model(&[None, Some(8), Some(8), Some(8)], nodes, weights),
        name,
        None,
        100,
    )
    .unwrap()
}

/// A 1x1 convolution, then GELU in its tanh approximation as torch.onnx
/// writes `GELU(approximate='tanh')` below opset 20 (nine operators:
/// `x·(1 + Tanh(√(2/π)·(x + 0.044715·x·x·x)))`, then `·0.5`), then a
/// convolution; `leak` also reads the cube `x·x·x` elsewhere, which makes
/// it no activation's own tensor.
fn tanh_gelu(leak: bool) -> Vec<u8> {
    let mut nodes = vec![
        node("Conv", "conv1", &["data", "w1"], &["x"], vec![]),
        node("Mul", "act/Mul", &["x", "x"], &["x2"], vec![]),
        node("Mul", "act/Mul_1", &["x", "x2"], &["x3"], vec![]),
        node("Mul", "act/Mul_2", &["c_0.044715", "x3"], &["cube"], vec![]),
        node("Add", "act/Add", &["x", "cube"], &["inner"], vec![]),
        node("Mul", "act/Mul_3", &["c_sqrt_2_pi", "inner"], &["scaled"], vec![]),
        node("Tanh", "act/Tanh", &["scaled"], &["t"], vec![]),
        node("Add", "act/Add_1", &["c_1", "t"], &["one_t"], vec![]),
        node("Mul", "act/Mul_4", &["x", "one_t"], &["gx"], vec![]),
        node("Mul", "act/Mul_5", &["c_0.5", "gx"], &["y"], vec![]),
        node("Conv", "conv2", &["y", "w2"], &["out"], vec![]),
    ];
    if leak {
        nodes.push(node("Conv", "conv3", &["x3", "w2"], &["out3"], vec![]));
    }
    // the scalars as the exporter writes them: Constant nodes
    for (name, v) in [
        ("c_0.044715", 0.044715f32),
        ("c_sqrt_2_pi", 0.797_884_6),
        ("c_1", 1.0),
        ("c_0.5", 0.5),
    ] {
        nodes.insert(0, scalar(name, v));
    }
    let weights = vec![weight("w1", &[16, 8, 1, 1]), weight("w2", &[8, 16, 1, 1])];
    model(&[None, Some(8), Some(8), Some(8)], nodes, weights)
}

#[test]
fn the_tanh_approximation_of_gelu_is_one_activation() {
    let imported = onnx::read(&tanh_gelu(false), "tanh_gelu", None, 100).unwrap();
    let layers = imported.network.layers();
    let kinds: Vec<LayerKind> = layers.iter().map(|l| l.kind()).collect();
    use LayerKind::*;
    // the GELU, then its factor 0.5 (a scalar operation: a layer of its own), then conv2
    assert_eq!(kinds, [Conv, Act, Other, Conv]);
    assert_eq!(layers[1].function(), Some(Function::Gelu));
    // saved per sample: conv1's input, the GELU's input, conv2's input (the 0.5's output)
    let saved = 4.0 * (8.0 + 16.0 + 16.0) * 64.0;
    let s = Scenario::new(imported.network.clone(), presets::cluster("dgx-a100").unwrap());
    assert_eq!(activations_per_sample(&s, Precision::Fp32, 1), saved);

    // when a tensor of the expression is read elsewhere, it is not the activation's own: not fused
    let leaked = onnx::read(&tanh_gelu(true), "tanh_gelu", None, 100).unwrap();
    assert!(
        leaked
            .network
            .layers()
            .iter()
            .all(|l| l.function() != Some(Function::Gelu)),
        "{:?}",
        leaked.network.layers().iter().map(|l| l.kind()).collect::<Vec<_>>()
    );
}

#[test]
fn a_reflection_pad_is_an_operation_that_saves_its_input() {
    let padded = |mode: Option<&str>| {
        let attributes = mode.map(|m| text("mode", m)).into_iter().collect();
        let nodes = vec![
            node("Conv", "conv1", &["data", "w1"], &["x"], vec![]),
            node("Pad", "aa/Pad", &["x", "pads"], &["p"], attributes),
            node("Conv", "aa/Conv", &["p", "w2"], &["out"], vec![]),
        ];
        let weights = vec![
            weight("w1", &[8, 8, 1, 1]),
            weight("w2", &[8, 8, 3, 3]),
            int64s("pads", &[0, 0, 1, 1, 0, 0, 1, 1]),
        ];
        let read = small(nodes, weights, "pad");
        let pad = &read.network.layers()[1];
        assert_eq!((pad.kind(), pad.y()), (LayerKind::Other, &Shape::from([8, 10, 10])));
        pad.function()
    };
    assert_eq!(padded(Some("reflect")), Some(Function::Other));
    assert_eq!(padded(Some("edge")), Some(Function::Other));
    assert_eq!(padded(Some("constant")), None);
    assert_eq!(padded(None), None);
}

/// A cell whose two branches each open with a ReLU of the cell's input, as
/// torch.onnx writes NASNet-A's after merging the two into one node (named
/// after the first branch, read by both); `closing`: the ReLU closes the
/// first block instead and the next block reads it, which is one tensor.
fn branches(closing: bool) -> Vec<u8> {
    let (relu, first, second) = if closing {
        ("/block0/act/Relu", "/block1/conv/Conv", "/block1/conv2/Conv")
    } else {
        (
            "/cell/branch_a/act_1/Relu",
            "/cell/branch_a/separable/Conv",
            "/cell/branch_b/separable/Conv",
        )
    };
    let nodes = vec![
        node("Conv", "/stem/Conv", &["data", "w1"], &["x"], vec![]),
        node("Relu", relu, &["x"], &["r"], vec![]),
        node("Conv", first, &["r", "w1"], &["a"], vec![]),
        node("Conv", second, &["r", "w1"], &["b"], vec![]),
        node("Add", "/cell/Add", &["a", "b"], &["out"], vec![]),
    ];
    let weights = vec![weight("w1", &[8, 8, 1, 1])];
    model(&[None, Some(8), Some(8), Some(8)], nodes, weights)
}

#[test]
fn relus_the_exporter_merged_are_separate_again() {
    let per_sample = |network: &paradl::oracle::Network| {
        let s = Scenario::new(network.clone(), presets::cluster("dgx-a100").unwrap());
        activations_per_sample(&s, Precision::Fp32, 1)
    };
    let t = 4.0 * 8.0 * 64.0;
    let merged = onnx::read(&branches(false), "cell", None, 100).unwrap().network;
    let kinds: Vec<(LayerKind, Option<Function>)> = merged.layers().iter().map(|l| (l.kind(), l.function())).collect();
    use LayerKind::*;
    let relu = (Act, Some(Function::Relu));
    assert_eq!(
        kinds,
        [(Conv, None), relu, relu, (Conv, None), (Conv, None), (Add, None)]
    );
    assert!(merged.layers()[2].name().contains("merged copy"));
    // branch_b's convolution reads the copy
    assert_eq!(merged.layers()[4].spec().reads, Some(vec![2]));
    // the stem's input, each ReLU's own output
    assert_eq!(per_sample(&merged), 3.0 * t);

    let closing = onnx::read(&branches(true), "blocks", None, 100).unwrap().network;
    let kinds: Vec<LayerKind> = closing.layers().iter().map(|l| l.kind()).collect();
    assert_eq!(kinds, [Conv, Relu, Conv, Conv, Add]);
    // the stem's input, the ReLU's output written in place over the stem's
    assert_eq!(per_sample(&closing), 2.0 * t);
}

#[test]
fn a_power_runs_in_fp32_under_autocast() {
    // StarReLU's square: conv, relu, pow 2, conv
    let mut nodes = vec![
        node("Conv", "conv1", &["data", "w1"], &["x"], vec![]),
        node("Relu", "act/Relu", &["x"], &["r"], vec![]),
        node("Pow", "act/Pow", &["r", "two"], &["p"], vec![]),
        node("Conv", "conv2", &["p", "w2"], &["out"], vec![]),
    ];
    nodes.insert(0, scalar("two", 2.0));
    let weights = vec![weight("w1", &[16, 8, 1, 1]), weight("w2", &[8, 16, 1, 1])];
    let read = small(nodes, weights, "pow");
    let pow = &read.network.layers()[2];
    assert_eq!((pow.kind(), pow.function()), (LayerKind::Act, Some(Function::Fp32)));
    let s = Scenario::new(read.network.clone(), presets::cluster("dgx-a100").unwrap());
    let per_sample = |precision| activations_per_sample(&s, precision, 1);
    let (x, y) = (8.0 * 64.0, 16.0 * 64.0);
    // FP32: conv1's input, the relu's output (which the power saves too), the power's output
    assert_eq!(per_sample(Precision::Fp32), 4.0 * (x + y + y));
    // BF16 autocast: conv1's 16-bit copy of the input, the relu's 16-bit output, the power's FP32
    // copy of it, a 16-bit copy of the power's FP32 output for conv2
    assert_eq!(per_sample(Precision::Bf16), 2.0 * x + 2.0 * y + 4.0 * y + 2.0 * y);
}

/// RetinaNet's sharing in small: a head (`head_w`, `head_b`) applied to two
/// levels of features, read by two Conv nodes; a third Conv reads an
/// Identity of `head_w`, as torch.onnx writes a parameter of equal values
/// (contract, section 11: a parameter of its own).
#[test]
fn nodes_reading_one_initializer_share_it() {
    let head = |name: &str, x: &str, w: &str, y: &str| {
        node("Conv", name, &[x, w, "head_b"], &[y], vec![ints("pads", &[1, 1, 1, 1])])
    };
    let nodes = vec![
        node("Conv", "p3", &["data", "stem_w"], &["p3"], vec![]),
        node("Conv", "p4", &["p3", "down_w"], &["p4"], vec![ints("strides", &[2, 2])]),
        head("head_p3", "p3", "head_w", "h3"),
        head("head_p4", "p4", "head_w", "h4"),
        node("Identity", "copy", &["head_w"], &["head_w_copy"], vec![]),
        head("other_p4", "h4", "head_w_copy", "o4"),
    ];
    let weights = vec![
        weight("stem_w", &[8, 8, 1, 1]),
        weight("down_w", &[8, 8, 1, 1]),
        weight("head_w", &[8, 8, 3, 3]),
        weight("head_b", &[8]),
    ];
    let n = small(nodes, weights, "retina").network;
    let shares: Vec<Option<usize>> = n.layers().iter().map(|l| l.shares()).collect();
    assert_eq!(shares, [None, None, None, Some(2), None]);
    let head = 8.0 * 8.0 * 9.0 + 8.0;
    // stem, down, the head once, the Identity's copy
    assert_eq!(n.weight_items(), 64.0 + 64.0 + head + head);
    // the head's FLOPs at both levels
    let flops: Vec<f64> = n.layers().iter().map(|l| l.forward_flops()).collect();
    assert_eq!(flops[2], 2.0 * 8.0 * 8.0 * 9.0 * 64.0);
    assert_eq!(flops[3], 2.0 * 8.0 * 8.0 * 9.0 * 16.0);
    let inventory = paradl::oracle::Inventory::of(&n);
    assert_eq!(inventory.layers[2].sharing, "shared with 1 other layer");
    assert_eq!(inventory.layers[3].sharing, "shares the weights of head_p3 (layer 2)");
    // the JSON form keeps it
    let json = paradl::oracle::formats::json::write(&n).unwrap();
    assert_eq!(paradl::oracle::formats::json::network(&json).unwrap(), n);
}

/// RetinaNet's two heads are applied to five FPN levels with one set of
/// weights: imported as PyTorch counts it (`tests/onnx/retinanet/`,
/// `torch_truth.json`: torchvision 0.29's parameters and FlopCounterMode's
/// forward FLOPs of the exported module). Before the importer counted a
/// shared initializer once, torchvision's RetinaNet imported with 60.8 M
/// parameters and MLPerf's with 78.3 M.
#[test]
fn retinanets_heads_are_counted_once() {
    let truth: serde_json::Value = serde_json::from_str(include_str!("../onnx/retinanet/torch_truth.json")).unwrap();
    // MLPerf's backbone freezes its batch norms (FrozenBatchNorm2d), exported as a per-channel
    // Mul and Add of constants computed from the running statistics: folded into the
    // convolutions, they train nothing (they were 68,224 parameters and 106 layers)
    for (file_name, key, batch_norms) in [
        ("retinanet/retinanet_resnet50_fpn", "tv_r50_91", 53),
        ("retinanet/retinanet_resnext50_fpn_mlperf", "mlperf_rx50_264", 0),
    ] {
        let imported = onnx::read(
            &file(file_name),
            key,
            Some(&Shape::from([3, 800, 800])),
            DEFAULT_SAMPLES,
        )
        .unwrap();
        let n = &imported.network;
        let params = truth[key]["params"].as_f64().unwrap();
        assert_eq!(n.weight_items(), params, "{key}");
        let bn = n.layers().iter().filter(|l| l.kind() == LayerKind::Bn).count();
        assert_eq!(bn, batch_norms, "{key}");
        if batch_norms == 0 {
            assert!(imported.merged.keys().any(|k| k.contains("frozen batch norm")), "{key}");
        }
        let shared = n.layers().iter().filter(|l| l.shares().is_some()).count();
        // each head's five convolutions of four levels after the first
        assert!(shared >= 4 * 5 * 2, "{key}: {shared}");
        let flops = truth[key]["heads_wrapper_forward_flops"].as_f64().unwrap();
        let ratio = n.forward_flops() / flops;
        assert!((ratio - 1.0).abs() < 0.01, "{key}: FLOPs {ratio}");
    }
}

/// A float-list attribute (as `scales` before opset 9, or `pads` written
/// wrongly as floats).
fn floats(name: &str, values: &[f32]) -> paradl::oracle::formats::onnx::proto::AttributeProto {
    paradl::oracle::formats::onnx::proto::AttributeProto {
        name: Some(name.into()),
        floats: values.to_vec(),
        r#type: Some(6),
        ..Default::default()
    }
}

fn read_at(opset: Option<i64>, nodes: Vec<NodeProto>, weights: Vec<TensorProto>) -> Result<onnx::Imported, String> {
    let graph = build::graph(&[Some(1), Some(8), Some(8), Some(8)], nodes, weights);
    onnx::read(&build::model_at(opset, graph), "round4", None, 100).map_err(|e| e.to_string())
}

/// Round 4: each operator is read by the definition of the opset the file
/// declares (Resize's scales at opset 10, Upsample's at 7 and 9), and a
/// file that declares no opset or one no ONNX defines is refused.
#[test]
fn operators_are_read_by_their_opset() {
    let up = |dims: &[u64]| dims.to_vec() == [8, 16, 16];
    let y = |i: onnx::Imported| i.network.layers()[0].spec().y.dims().to_vec();
    let scales = build::floats("scales", &[1.0, 1.0, 2.0, 2.0]);
    // Resize: (X, scales) at opset 10, (X, roi, scales, sizes) from 11
    let resize10 = read_at(
        Some(10),
        vec![node("Resize", "r", &["data", "scales"], &["y"], vec![])],
        vec![scales.clone()],
    );
    assert!(up(&y(resize10.unwrap())));
    let resize13 = read_at(
        Some(13),
        vec![node("Resize", "r", &["data", "", "scales"], &["y"], vec![])],
        vec![scales.clone()],
    );
    assert!(up(&y(resize13.unwrap())));
    // Upsample: its scales an attribute at opset 7, an input at 9
    let upsample7 = read_at(
        Some(7),
        vec![node(
            "Upsample",
            "u",
            &["data"],
            &["y"],
            vec![floats("scales", &[1.0, 1.0, 2.0, 2.0])],
        )],
        vec![],
    );
    assert!(up(&y(upsample7.unwrap())));
    let upsample9 = read_at(
        Some(9),
        vec![node("Upsample", "u", &["data", "scales"], &["y"], vec![])],
        vec![scales],
    );
    assert!(up(&y(upsample9.unwrap())));
    let relu = || vec![node("Relu", "r", &["data"], &["y"], vec![])];
    let none = read_at(None, relu(), vec![]).unwrap_err();
    assert!(none.contains("declares no version"), "{none}");
    let absurd = read_at(Some(1_000_000_000), relu(), vec![]).unwrap_err();
    assert!(
        absurd.contains("opset 1000000000") && absurd.contains("no ONNX defines"),
        "{absurd}"
    );
}

/// Round 4: attributes of the wrong type, count or value, parameters of
/// the wrong length, extra inputs and inputs listed twice are errors naming
/// the node, never defaults; a sparse initializer is a weight.
#[test]
fn malformed_attributes_inputs_and_parameters_are_errors_naming_the_node() {
    let conv = |attributes: Vec<AttributeProto>, inputs: &[&str]| {
        read_at(
            Some(17),
            vec![node("Conv", "c", inputs, &["y"], attributes)],
            vec![weight("w", &[4, 8, 3, 3]), weight("b", &[4]), weight("b5", &[5])],
        )
    };
    assert!(conv(vec![ints("pads", &[1, 1, 1, 1])], &["data", "w", "b"]).is_ok());
    for (attributes, inputs, says) in [
        (
            vec![floats("pads", &[1.0, 1.0, 1.0, 1.0])],
            &["data", "w"][..],
            "must be integers (INTS), found floats",
        ),
        (vec![ints("pads", &[1])], &["data", "w"][..], "has 1 values, not 4"),
        (
            vec![ints("strides", &[2, 2]), ints("strides", &[1, 1])],
            &["data", "w"][..],
            "'strides' is given twice",
        ),
        (
            vec![build::text("auto_pad", "SAME")],
            &["data", "w"][..],
            "auto_pad 'SAME'",
        ),
        (
            vec![int("group", 1), ints("dilations", &[1, 1, 1])],
            &["data", "w"][..],
            "has 3 values, not 2",
        ),
        (vec![], &["data", "w", "b5"][..], "not one value per filter (4)"),
        (vec![], &["data", "w", "b", "b"][..], "takes at most 3"),
    ] {
        let e = conv(attributes, inputs).unwrap_err();
        assert!(e.contains(says) && e.contains("Conv"), "{says}: {e}");
    }
    let bn = read_at(
        Some(17),
        vec![node(
            "BatchNormalization",
            "bn",
            &["data", "s", "o", "m", "v"],
            &["y"],
            vec![],
        )],
        vec![
            weight("s", &[8]),
            weight("o", &[8]),
            weight("m", &[8]),
            weight("v", &[7]),
        ],
    )
    .unwrap_err();
    assert!(bn.contains("not one per channel (8)"), "{bn}");
    let relu = read_at(
        Some(17),
        vec![node("Relu", "r", &["data", "data"], &["y"], vec![])],
        vec![],
    )
    .unwrap_err();
    assert!(relu.contains("takes at most 1"), "{relu}");
    // an input listed twice
    let mut graph = build::graph(
        &[Some(1), Some(8), Some(8), Some(8)],
        vec![node("Relu", "r", &["data"], &["y"], vec![])],
        vec![],
    );
    graph
        .input
        .push(build::input("data", &[Some(1), Some(8), Some(8), Some(8)]));
    let twice = onnx::read(&build::model_at(Some(17), graph), "twice", None, 100)
        .unwrap_err()
        .to_string();
    assert!(twice.contains("lists its input 'data' twice"), "{twice}");
    // a weight stored sparse
    let mut graph = build::graph(
        &[Some(1), Some(8), Some(8), Some(8)],
        vec![node("Conv", "c", &["data", "w"], &["y"], vec![])],
        vec![],
    );
    graph
        .sparse_initializer
        .push(paradl::oracle::formats::onnx::proto::SparseTensorProto {
            values: Some(TensorProto {
                dims: vec![3],
                data_type: Some(1),
                name: Some("w".into()),
                ..TensorProto::default()
            }),
            dims: vec![4, 8, 3, 3],
        });
    let sparse = onnx::read(&build::model_at(Some(17), graph), "sparse", None, 100).unwrap();
    assert_eq!(sparse.network.weight_items(), 4.0 * 8.0 * 9.0);
}

/// Round 4: a graph named as exporters name every graph takes its file's
/// name, whose control characters (a tab) become spaces rather than make
/// the network refused.
#[test]
fn a_file_name_with_a_tab_names_the_network() {
    let mut graph = build::graph(
        &[Some(1), Some(8), Some(8), Some(8)],
        vec![node("Relu", "r", &["data"], &["y"], vec![])],
        vec![],
    );
    graph.name = Some("main_graph".into());
    let imported = onnx::read(&build::model_at(Some(17), graph), "my\tnet.onnx", None, 100).unwrap();
    assert_eq!(imported.network.name(), "my net.onnx");
}

/// Round 4, the family: every attribute the importer reads, given with a
/// type ONNX does not define for it, on every operator that has it, at
/// each opset, is an error naming the attribute, never a default.
#[test]
fn every_attribute_of_the_wrong_type_is_refused_at_every_opset() {
    // (operator, its attributes the importer reads, and their ONNX types: 1 float, 2 int, 3 string, 7 ints)
    let operators: [(&str, &[(&str, i32)]); 16] = [
        (
            "Conv",
            &[
                ("strides", 7),
                ("pads", 7),
                ("dilations", 7),
                ("kernel_shape", 7),
                ("group", 2),
                ("auto_pad", 3),
            ],
        ),
        (
            "ConvTranspose",
            &[("strides", 7), ("pads", 7), ("output_padding", 7), ("group", 2)],
        ),
        (
            "MaxPool",
            &[
                ("kernel_shape", 7),
                ("strides", 7),
                ("pads", 7),
                ("ceil_mode", 2),
                ("auto_pad", 3),
            ],
        ),
        ("AveragePool", &[("kernel_shape", 7), ("count_include_pad", 2)]),
        ("Transpose", &[("perm", 7)]),
        ("Flatten", &[("axis", 2)]),
        ("Concat", &[("axis", 2)]),
        ("Split", &[("axis", 2), ("split", 7)]),
        ("Softmax", &[("axis", 2)]),
        ("LeakyRelu", &[("alpha", 1)]),
        ("Gemm", &[("transA", 2), ("transB", 2), ("alpha", 1), ("beta", 1)]),
        ("Squeeze", &[("axes", 7)]),
        ("ReduceMean", &[("axes", 7), ("keepdims", 2)]),
        ("Resize", &[("mode", 3), ("coordinate_transformation_mode", 3)]),
        ("BatchNormalization", &[("epsilon", 1), ("momentum", 1)]),
        ("Gelu", &[("approximate", 3)]),
    ];
    // a value of each type other than the right one
    let wrong = |name: &str, right: i32| -> Vec<AttributeProto> {
        let base = AttributeProto {
            name: Some(name.into()),
            ..Default::default()
        };
        [
            AttributeProto {
                f: Some(1.5),
                r#type: Some(1),
                ..base.clone()
            },
            AttributeProto {
                i: Some(2),
                r#type: Some(2),
                ..base.clone()
            },
            AttributeProto {
                s: Some(b"SAME".to_vec()),
                r#type: Some(3),
                ..base.clone()
            },
            AttributeProto {
                floats: vec![1.0, 1.0],
                r#type: Some(6),
                ..base.clone()
            },
            AttributeProto {
                ints: vec![1, 1],
                r#type: Some(7),
                ..base.clone()
            },
        ]
        .into_iter()
        .filter(|a| a.r#type != Some(right))
        .collect()
    };
    let mut cases = 0;
    for opset in [7, 9, 11, 13, 17, 18] {
        for (op, attributes) in operators {
            for &(name, right) in attributes {
                for attribute in wrong(name, right) {
                    let node = node(op, "n", &["data", "w"], &["y"], vec![attribute]);
                    let e = read_at(Some(opset), vec![node], vec![weight("w", &[8, 8, 1, 1])]).unwrap_err();
                    assert!(
                        e.contains(&format!("attribute '{name}' must be")) && e.contains(op),
                        "opset {opset} {op}.{name}: {e}"
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 500, "{cases}");
}
