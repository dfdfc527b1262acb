//! Activations an exporter writes as several operators, found before the
//! conversion so that each becomes one `act` layer, as the framework ran
//! it: SiLU as `x·Sigmoid(x)`, GELU as `x·0.5·(1 + Erf(x/√2))`, Mish as
//! `x·Tanh(Softplus(x))`, Hardswish as `x·HardSigmoid(x)`.
//!
//! A fused activation is a `Mul` of a tensor `x` by a chain of elementwise
//! nodes that starts at `x`, each reading only the previous one (and
//! constants) and read by nothing else, holding at least one nonlinear
//! operator.

use std::collections::{HashMap, HashSet};

use super::proto::GraphProto;

/// Elementwise operators a chain may hold.
const CHAIN: [&str; 13] = [
    "Sigmoid",
    "Tanh",
    "Erf",
    "HardSigmoid",
    "Softplus",
    "Clip",
    "Relu",
    "Add",
    "Sub",
    "Mul",
    "Div",
    "Pow",
    "Sqrt",
];

/// The nonlinear ones, of which a chain needs one.
const NONLINEAR: [&str; 6] = ["Sigmoid", "Tanh", "Erf", "HardSigmoid", "Softplus", "Clip"];

/// The nodes fused: the chain's nodes (to skip) and the `Mul` that closes
/// each chain (to become one activation), with the activation's name.
#[derive(Debug, Default)]
pub struct Fused {
    /// Indices of the nodes inside chains.
    pub inner: HashSet<usize>,
    /// The closing `Mul` of each chain: its index, the tensor `x` and the
    /// activation's name.
    pub closing: HashMap<usize, (String, &'static str)>,
}

/// Finds the fused activations of `graph`; `constant` says whether a
/// tensor name is a constant (an initializer or a `Constant` output).
pub fn find(graph: &GraphProto, constant: &HashSet<&str>) -> Fused {
    let mut producer: HashMap<&str, usize> = HashMap::new();
    let mut readers: HashMap<&str, usize> = HashMap::new();
    for (i, node) in graph.node.iter().enumerate() {
        for out in &node.output {
            producer.insert(out.as_str(), i);
        }
        for input in node.input.iter().filter(|n| !n.is_empty()) {
            *readers.entry(input.as_str()).or_default() += 1;
        }
    }
    for out in &graph.output {
        if let Some(name) = out.name.as_deref() {
            *readers.entry(name).or_default() += 1;
        }
    }
    let op = |i: usize| graph.node.get(i).and_then(|n| n.op_type.as_deref()).unwrap_or_default();
    // the one computed input of a chain node
    let computed = |i: usize| -> Option<&str> {
        let node = graph.node.get(i)?;
        let mut inputs = node
            .input
            .iter()
            .filter(|n| !n.is_empty() && !constant.contains(n.as_str()));
        match (inputs.next(), inputs.next()) {
            (Some(one), None) => Some(one.as_str()),
            _ => None,
        }
    };
    let mut fused = Fused::default();
    for (m, node) in graph.node.iter().enumerate() {
        if op(m) != "Mul" || node.input.len() != 2 {
            continue;
        }
        for (x, y) in [(0, 1), (1, 0)] {
            let (x, y) = (node.input[x].as_str(), node.input[y].as_str());
            let mut chain = Vec::new();
            let mut at = y;
            let found = loop {
                let Some(&p) = producer.get(at) else { break false };
                if !CHAIN.contains(&op(p)) || readers.get(at).copied().unwrap_or(0) != 1 || chain.len() > 8 {
                    break false;
                }
                let Some(input) = computed(p) else { break false };
                chain.push(p);
                if input == x {
                    break true;
                }
                at = input;
            };
            if found && chain.iter().any(|&p| NONLINEAR.contains(&op(p))) {
                let name = if chain.iter().any(|&p| op(p) == "Erf") {
                    "GELU"
                } else if chain.iter().any(|&p| op(p) == "Softplus") {
                    "Mish"
                } else if chain.iter().any(|&p| op(p) == "Sigmoid") {
                    "SiLU"
                } else {
                    "Hardswish"
                };
                fused.inner.extend(chain);
                fused.closing.insert(m, (x.to_string(), name));
                break;
            }
        }
    }
    fused
}
