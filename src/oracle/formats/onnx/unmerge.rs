//! ReLUs the exporter merged: torch.onnx's TorchScript exporter eliminates
//! common subexpressions, so separate, not in-place ReLUs of one tensor
//! (NASNet-A's and PNASNet's branches each open with their own `nn.ReLU()`
//! of the cell's input) become one `Relu` node read by every branch. In
//! PyTorch each wrote a tensor of its own, which it saved for its gradient.
//!
//! The exporter names a node after its module's path (`/cell_0/
//! comb_iter_0_left/act_1/Relu`). A `Relu` that opens its module (read by
//! a node inside the module that holds it, `/cell_0/comb_iter_0_left/`)
//! and is also read outside that module was merged: each outside module
//! that reads it (`/cell_0/comb_iter_4_left/`, or `/cell_1/` for a reader
//! in another cell) ran a ReLU of its own. A ReLU that closes its module
//! (a block's output, read by the next block) has no reader inside and
//! stays one.

use std::collections::HashMap;

use super::proto::GraphProto;

/// The merged ReLUs of a graph and who reads each copy.
#[derive(Debug, Default)]
pub struct Unmerged<'g> {
    /// For each merged `Relu` node (its index), the copies it stands for
    /// beside itself: their ids, in the order their readers come.
    pub copies: HashMap<usize, Vec<usize>>,
    /// For a reader (node index) of a merged ReLU's output (the tensor's
    /// name), the copy it reads.
    pub redirect: HashMap<(usize, &'g str), usize>,
}

/// The components of a node's name (`/a/b/Relu` → `[a, b, Relu]`).
fn path(name: &str) -> Vec<&str> {
    name.split('/').filter(|c| !c.is_empty()).collect()
}

/// Finds the merged ReLUs of `graph`.
pub fn find(graph: &GraphProto) -> Unmerged<'_> {
    let mut readers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, node) in graph.node.iter().enumerate() {
        for input in node.input.iter().filter(|n| !n.is_empty()) {
            let list = readers.entry(input.as_str()).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    let name = |i: usize| graph.node.get(i).and_then(|n| n.name.as_deref()).unwrap_or_default();
    let op = |i: usize| graph.node.get(i).and_then(|n| n.op_type.as_deref()).unwrap_or_default();
    let mut unmerged = Unmerged::default();
    let mut next_copy = 0;
    for (r, node) in graph.node.iter().enumerate() {
        let (Some("Relu"), Some(out)) = (node.op_type.as_deref(), node.output.first()) else {
            continue;
        };
        let own = path(name(r));
        // the module that holds the ReLU's own module
        let Some(owner) = own.get(..own.len().saturating_sub(2)).filter(|o| !o.is_empty()) else {
            continue;
        };
        let Some(list) = readers.get(out.as_str()) else {
            continue;
        };
        let inside = |i: usize| path(name(i)).starts_with(owner);
        if !list.iter().any(|&i| inside(i) && op(i) != "Shape") {
            continue;
        }
        // each outside module that reads it: the reader's path to its first component off the owner's
        let mut groups: HashMap<Vec<&str>, usize> = HashMap::new();
        let mut copies = Vec::new();
        for &i in list.iter().filter(|&&i| !inside(i)) {
            let theirs = path(name(i));
            let split = theirs.iter().zip(owner).take_while(|(a, b)| a == b).count();
            let key: Vec<&str> = theirs.iter().take(split + 1).copied().collect();
            let copy = *groups.entry(key).or_insert_with(|| {
                copies.push(next_copy);
                next_copy += 1;
                next_copy - 1
            });
            unmerged.redirect.insert((i, out.as_str()), copy);
        }
        if !copies.is_empty() {
            unmerged.copies.insert(r, copies);
        }
    }
    unmerged
}
