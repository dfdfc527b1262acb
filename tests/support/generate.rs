//! Generators of structured inputs for the fuzz harness: ONNX graphs and
//! Keras models built at random from a seed (valid in their format, with
//! hostile values among the ordinary ones), and calibration files of
//! thousands of rows.

use paradl::oracle::formats::onnx::proto::{
    AttributeProto, Dimension, GraphProto, ModelProto, NodeProto, OperatorSetIdProto, TensorShapeProto, TensorType,
    TypeProto, ValueInfoProto,
};
use prost::Message;

use paradl::oracle::formats::onnx::build::{int, int64s, ints, weight};

/// xorshift64*, seeded from bytes.
pub struct Draw(u64);

impl Draw {
    /// A generator seeded by `bytes` (FNV-1a).
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Self(h | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// One of `values`.
    pub fn pick<T: Copy>(&mut self, values: &[T]) -> T {
        values[(self.next() % values.len() as u64) as usize]
    }

    /// `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Sizes, mostly ordinary, some hostile.
const SIZES: [i64; 14] = [1, 2, 3, 4, 7, 8, 16, 32, 64, 0, -1, -3, 1 << 40, i64::MAX];

/// An ONNX model of 1 to 16 nodes drawn at random: convolutions, pools,
/// normalizations, activations, fully connected layers, joins, reshapes,
/// transposes and shape arithmetic, with attributes drawn from ordinary and
/// hostile sizes.
pub fn onnx_graph(d: &mut Draw) -> Vec<u8> {
    let channels = d.pick(&[1i64, 3, 8, 64]);
    let side = d.pick(&[1i64, 7, 32, 224]);
    let mut nodes = Vec::new();
    let mut weights = Vec::new();
    let mut current = "data".to_string();
    let mut c = channels;
    for i in 0..=d.below(16) {
        let out = format!("t{i}");
        let w = format!("w{i}");
        let node = |op: &str, inputs: Vec<String>, attribute: Vec<AttributeProto>| NodeProto {
            input: inputs,
            output: vec![out.clone()],
            name: Some(format!("{op}_{i}")),
            op_type: Some(op.into()),
            attribute,
            domain: None,
        };
        let n = match d.below(14) {
            0 | 1 => {
                let f = d.pick(&SIZES[..9]);
                let k = d.pick(&[1i64, 3, 5, 7, 0, -1]);
                let g = d.pick(&[1i64, 1, 1, c, 0, -2]);
                let per_group = if g > 0 && c % g == 0 { c / g } else { c };
                weights.push(weight(&w, &[f, per_group, k, k]));
                let mut attrs = vec![int("group", g)];
                if d.below(2) == 0 {
                    attrs.push(ints("strides", &[d.pick(&SIZES); 2]));
                }
                if d.below(2) == 0 {
                    attrs.push(ints("pads", &[d.pick(&SIZES); 4]));
                }
                if d.below(3) == 0 {
                    attrs.push(ints("dilations", &[d.pick(&SIZES); 2]));
                }
                c = f;
                node("Conv", vec![current.clone(), w], attrs)
            }
            2 => node("Relu", vec![current.clone()], vec![]),
            3 => node(
                d.pick(&["MaxPool", "AveragePool"]),
                vec![current.clone()],
                vec![
                    ints("kernel_shape", &[d.pick(&SIZES); 2]),
                    ints("strides", &[d.pick(&SIZES); 2]),
                ],
            ),
            4 => {
                weights.push(weight(&format!("{w}s"), &[c]));
                weights.push(weight(&format!("{w}b"), &[c]));
                weights.push(weight(&format!("{w}m"), &[c]));
                weights.push(weight(&format!("{w}v"), &[c]));
                node(
                    "BatchNormalization",
                    vec![
                        current.clone(),
                        format!("{w}s"),
                        format!("{w}b"),
                        format!("{w}m"),
                        format!("{w}v"),
                    ],
                    vec![],
                )
            }
            5 => node(
                d.pick(&["Sigmoid", "HardSwish", "Clip", "Tanh"]),
                vec![current.clone()],
                vec![],
            ),
            6 => node("GlobalAveragePool", vec![current.clone()], vec![]),
            7 => node(
                "Flatten",
                vec![current.clone()],
                vec![int("axis", d.pick(&[1, 1, 0, 2, -1]))],
            ),
            8 => {
                let f = d.pick(&SIZES[..9]);
                weights.push(weight(&w, &[f, d.pick(&SIZES)]));
                c = f;
                node("Gemm", vec![current.clone(), w], vec![int("transB", 1)])
            }
            9 => node(
                d.pick(&["Add", "Mul", "Concat"]),
                vec![current.clone(), current.clone()],
                vec![int("axis", d.pick(&[1, 1, 0, -1, 5]))],
            ),
            10 => {
                let rank = d.below(6) as usize;
                let shape: Vec<i64> = (0..rank).map(|_| d.pick(&SIZES)).collect();
                weights.push(int64s(&w, &shape));
                node("Reshape", vec![current.clone(), w], vec![])
            }
            11 => {
                let rank = d.below(6) as i64;
                let perm: Vec<i64> = (0..rank).map(|_| d.pick(&[0, 1, 2, 3, -1, 7])).collect();
                node("Transpose", vec![current.clone()], vec![ints("perm", &perm)])
            }
            12 => {
                // a list doubled by concatenations, then used as a shape
                let mut list = format!("{w}l");
                weights.push(int64s(&list, &[1, 2]));
                for k in 0..d.below(40) {
                    let doubled = format!("{w}d{k}");
                    nodes.push(NodeProto {
                        input: vec![list.clone(), list.clone()],
                        output: vec![doubled.clone()],
                        name: Some(doubled.clone()),
                        op_type: Some("Concat".into()),
                        attribute: vec![int("axis", 0)],
                        domain: None,
                    });
                    list = doubled;
                }
                node("Reshape", vec![current.clone(), list], vec![])
            }
            _ => {
                let axes: Vec<i64> = (0..d.pick(&[1u64, 2, 9, 400])).map(|k| k as i64).collect();
                node("Unsqueeze", vec![current.clone()], vec![ints("axes", &axes)])
            }
        };
        nodes.push(n);
        current = out;
    }
    let dim = |v: i64| Dimension {
        dim_value: Some(v),
        dim_param: None,
    };
    let value = |name: &str, dims: Vec<i64>| ValueInfoProto {
        name: Some(name.into()),
        r#type: Some(TypeProto {
            tensor_type: Some(TensorType {
                elem_type: Some(1),
                shape: Some(TensorShapeProto {
                    dim: dims.into_iter().map(dim).collect(),
                }),
            }),
        }),
    };
    let model = ModelProto {
        ir_version: Some(8),
        producer_name: Some("fuzz".into()),
        graph: Some(GraphProto {
            node: nodes,
            name: Some("fuzz".into()),
            initializer: weights,
            input: vec![value("data", vec![1, channels, side, side])],
            output: vec![value(&current, vec![1])],
            sparse_initializer: vec![],
        }),
        opset_import: vec![OperatorSetIdProto {
            domain: None,
            version: Some(d.pick(&[7, 9, 10, 11, 13, 17, 18])),
        }],
    };
    model.encode_to_vec()
}

/// A Keras model's JSON of 1 to 12 layers drawn at random, Sequential or
/// functional (a chain), with configs drawn from ordinary and hostile
/// values (negative kernels, huge paddings and multipliers, numbers out of
/// range, nested models).
pub fn keras_model(d: &mut Draw) -> String {
    let hostile = [
        "1",
        "3",
        "7",
        "0",
        "-3",
        "1e400",
        "4611686018427387905",
        "[3, 3]",
        "[-3, -3]",
        "null",
    ];
    let mut layers = Vec::new();
    let side = d.pick(&["32", "7", "1", "null", "1073741824"]);
    layers.push(format!(
        r#"{{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": [null, {side}, {side}, 3]}}}}"#
    ));
    let mut previous = "in".to_string();
    for i in 0..=d.below(12) {
        let v = |d: &mut Draw| d.pick(&hostile);
        let name = format!("l{i}");
        let config = match d.below(10) {
            0 => (
                "Conv2D",
                format!(
                    r#""filters": {}, "kernel_size": {}, "strides": {}, "padding": "{}""#,
                    v(d),
                    v(d),
                    v(d),
                    d.pick(&["same", "valid"])
                ),
            ),
            1 => (
                "DepthwiseConv2D",
                format!(r#""kernel_size": {}, "depth_multiplier": {}"#, v(d), v(d)),
            ),
            2 => (
                "ZeroPadding2D",
                format!(
                    r#""padding": {}"#,
                    d.pick(&["1", "[[1, 1], [2, 2]]", "18446744073709551596", "[[-1, 0], [0, 0]]"])
                ),
            ),
            3 => ("MaxPooling2D", format!(r#""pool_size": {}, "strides": {}"#, v(d), v(d))),
            4 => ("BatchNormalization", String::new()),
            5 => (
                "Activation",
                format!(r#""activation": "{}""#, d.pick(&["relu", "swish", "hard_sigmoid"])),
            ),
            6 => ("Flatten", String::new()),
            7 => ("Dense", format!(r#""units": {}"#, v(d))),
            8 => (
                "Reshape",
                format!(r#""target_shape": {}"#, d.pick(&["[1, 1, 3]", "[-1]", "[0, 2]"])),
            ),
            _ => ("GlobalAveragePooling2D", String::new()),
        };
        let call = format!(r#"{{"args": [{{"config": {{"keras_history": ["{previous}", 0, 0]}}}}]}}"#);
        let inbound = match d.below(8) {
            // called twice: a shared layer
            0 => format!("[{call}, {call}]"),
            // two inputs (a Concatenate or an Add of the previous tensor with itself)
            1 => format!(
                r#"[{{"args": [[{{"config": {{"keras_history": ["{previous}", 0, 0]}}}}, {{"config": {{"keras_history": ["{previous}", 0, 0]}}}}]]}}]"#
            ),
            _ => format!("[{call}]"),
        };
        let config = if d.below(8) == 0 {
            (d.pick(&["Concatenate", "Add"]), String::new())
        } else {
            config
        };
        layers.push(format!(
            r#"{{"class_name": "{}", "config": {{"name": "{name}"{}{}}}, "inbound_nodes": {inbound}}}"#,
            config.0,
            if config.1.is_empty() { "" } else { ", " },
            config.1
        ));
        previous = name;
    }
    let class = d.pick(&["Functional", "Sequential"]);
    let model = format!(
        r#"{{"class_name": "{class}", "config": {{"name": "fuzz", "layers": [{}], "output_layers": [["{previous}", 0, 0]]}}}}"#,
        layers.join(", ")
    );
    // sometimes nested: the model as a layer of another, many times over
    let depth = d.pick(&[0u64, 0, 1, 40]);
    (0..depth).fold(model, |inner, k| {
        let config = inner
            .strip_prefix(r#"{"class_name": "Functional", "config": "#)
            .or_else(|| inner.strip_prefix(r#"{"class_name": "Sequential", "config": "#))
            .and_then(|c| c.strip_suffix('}'))
            .unwrap_or("{}")
            .replacen(r#""name": "fuzz""#, &format!(r#""name": "nested{k}""#), 1);
        format!(
            r#"{{"class_name": "Functional", "config": {{"name": "outer{k}", "layers": [{{"class_name": "InputLayer", "config": {{"name": "in", "batch_shape": [null, 8, 8, 3]}}}}, {{"class_name": "Functional", "config": {config}, "inbound_nodes": [{{"args": [{{"config": {{"keras_history": ["in", 0, 0]}}}}]}}]}}], "output_layers": [["nested{k}", 0, 0]]}}}}"#
        )
    })
}

/// Measured runs: `rows` rows of data parallelism at random GPU counts,
/// each iteration drawn near one time (identical when `same`).
pub fn measured_rows(d: &mut Draw, rows: usize, same: bool) -> String {
    let mut text = String::from(paradl::oracle::formats::measured::HEADER);
    text.push('\n');
    for _ in 0..rows {
        let gpus = 1u64 << d.below(9);
        let time = if same {
            0.45
        } else {
            0.3 + d.below(1000) as f64 / 1000.0
        };
        text.push_str(&format!("data,{gpus},{},,{time},,\n", gpus * 32));
    }
    text
}
