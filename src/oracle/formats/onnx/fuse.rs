//! Activations an exporter writes as several operators, found before the
//! conversion so that each becomes one `act` layer, as the framework ran
//! it: SiLU as `x·Sigmoid(x)`, GELU as `x·0.5·(1 + Erf(x/√2))` or, in its
//! tanh approximation, `x·0.5·(1 + Tanh(√(2/π)·(x + 0.044715·x·x·x)))`,
//! Mish as `x·Tanh(Softplus(x))`, Hardswish as `x·HardSigmoid(x)`.
//!
//! A fused activation is a `Mul` of a tensor `x` by an expression of `x`
//! alone: elementwise nodes whose every input is `x`, a constant or the
//! output of another node of the expression, whose outputs nothing outside
//! the expression reads, holding at least one nonlinear operator.

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

/// The most nodes an activation's expression holds (the tanh GELU's is 9).
const MAX_NODES: usize = 12;

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
    // the nodes of an expression of `x` alone that computes `y`, if it is one
    let expression = |x: &str, y: &str| -> Option<Vec<usize>> {
        let mut nodes: Vec<usize> = Vec::new();
        let mut pending = vec![y];
        let mut reads_x = false;
        while let Some(at) = pending.pop() {
            if at == x {
                reads_x = true;
                continue;
            }
            let &p = producer.get(at)?;
            if !CHAIN.contains(&op(p)) {
                return None;
            }
            if nodes.contains(&p) {
                continue;
            }
            nodes.push(p);
            if nodes.len() > MAX_NODES {
                return None;
            }
            let node = graph.node.get(p)?;
            pending.extend(
                node.input
                    .iter()
                    .filter(|n| !n.is_empty() && !constant.contains(n.as_str()))
                    .map(String::as_str),
            );
        }
        // nothing outside the expression (but the closing Mul, of `y`) reads its tensors
        let inside = |t: &str| -> usize {
            let reads: usize = nodes
                .iter()
                .filter_map(|&n| graph.node.get(n))
                .map(|n| n.input.iter().filter(|i| i.as_str() == t).count())
                .sum();
            reads + usize::from(t == y)
        };
        let closed = nodes
            .iter()
            .filter_map(|&n| graph.node.get(n))
            .flat_map(|n| n.output.iter())
            .all(|o| readers.get(o.as_str()).copied().unwrap_or(0) == inside(o));
        (reads_x && closed && nodes.iter().any(|&p| NONLINEAR.contains(&op(p)))).then_some(nodes)
    };
    let mut fused = Fused::default();
    for (m, node) in graph.node.iter().enumerate() {
        if op(m) != "Mul" || node.input.len() != 2 {
            continue;
        }
        for (x, y) in [(0, 1), (1, 0)] {
            let (x, y) = (node.input[x].as_str(), node.input[y].as_str());
            if x == y || constant.contains(x) {
                continue;
            }
            if let Some(chain) = expression(x, y) {
                let has = |name: &str| chain.iter().any(|&p| op(p) == name);
                let name = if has("Softplus") {
                    "Mish"
                } else if has("Erf") || has("Tanh") {
                    "GELU"
                } else if has("Sigmoid") {
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
