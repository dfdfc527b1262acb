//! Structural edits of a layer list that keep what each layer reads: a
//! layer inserted, removed or moved renumbers the `reads` of the others,
//! so a branched network stays the same graph (a chain stays a chain),
//! and keeps the layers that share one weight tensor sharing it (the
//! first of them holds it).

use std::collections::HashMap;

use super::layer::LayerSpec;

/// Which weight tensor each layer uses: the index of the layer holding it
/// (`shares`, or the layer's own index).
fn tensors(layers: &[LayerSpec]) -> Vec<usize> {
    layers.iter().enumerate().map(|(i, l)| l.shares.unwrap_or(i)).collect()
}

/// Sets every layer's `shares` from `tensors` (one tag per layer, equal for
/// the layers of one tensor): the first layer of a tensor holds it, the
/// later ones share it.
fn reshare(layers: &mut [LayerSpec], tensors: &[usize]) {
    let mut first: HashMap<usize, usize> = HashMap::new();
    for (i, (layer, &tag)) in layers.iter_mut().zip(tensors).enumerate() {
        let holder = *first.entry(tag).or_insert(i);
        layer.shares = (holder < i).then_some(holder);
    }
}

/// The sources of layer `index` as indices (`-1`: the input), its
/// `reads` or the previous layer's output.
fn sources(layers: &[LayerSpec], index: usize) -> Vec<i64> {
    layers
        .get(index)
        .and_then(|l| l.reads.clone())
        .unwrap_or_else(|| vec![index as i64 - 1])
}

/// Renumbers every layer's explicit `reads` by `map` (which may give a
/// list), then drops a `reads` that is the previous layer's whole output (a
/// chain's default, [`LayerSpec::set_reads`]) and replaces one that names a
/// later layer by it.
fn renumber(layers: &mut [LayerSpec], map: impl Fn(i64) -> Vec<i64>) {
    for index in 0..layers.len() {
        let (before, rest) = layers.split_at_mut(index);
        let Some(layer) = rest.first_mut() else { break };
        let Some(reads) = layer.reads.take() else {
            continue;
        };
        let own = index as i64;
        let mapped: Vec<i64> = reads.into_iter().flat_map(&map).collect();
        if !mapped.is_empty() && mapped.iter().all(|&r| (-1..own).contains(&r)) {
            layer.set_reads(index, before.last(), mapped);
        }
    }
}

/// Inserts `layer` at `at` (reading the previous layer's output unless it
/// says otherwise); the layers after it keep reading what they read.
pub fn insert(layers: &mut Vec<LayerSpec>, at: usize, mut layer: LayerSpec) {
    let at = at.min(layers.len());
    let own = layer.reads.take();
    let mut tags = tensors(layers);
    let tag = layer.shares.and_then(|k| tags.get(k).copied()).unwrap_or(usize::MAX);
    tags.insert(at.min(tags.len()), tag);
    layers.insert(at, layer);
    reshare(layers, &tags);
    let inserted = at as i64;
    renumber(layers, |r| vec![if r >= inserted { r + 1 } else { r }]);
    layers[at].reads = own;
}

/// Removes layer `at`: a layer that read it reads what it read; the
/// layers that shared its weights share them with the first of them.
pub fn remove(layers: &mut Vec<LayerSpec>, at: usize) {
    if at >= layers.len() {
        return;
    }
    let replaced = sources(layers, at);
    let mut tags = tensors(layers);
    tags.remove(at);
    layers.remove(at);
    reshare(layers, &tags);
    let removed = at as i64;
    renumber(layers, |r| match r {
        r if r == removed => replaced.clone(),
        r if r > removed => vec![r - 1],
        r => vec![r],
    });
}

/// Swaps layers `a` and `b`, each keeping what it reads where it can (a
/// layer that would read one after it reads its predecessor).
pub fn swap(layers: &mut [LayerSpec], a: usize, b: usize) {
    if a >= layers.len() || b >= layers.len() || a == b {
        return;
    }
    let mut tags = tensors(layers);
    tags.swap(a, b);
    layers.swap(a, b);
    reshare(layers, &tags);
    let (a, b) = (a as i64, b as i64);
    renumber(layers, |r| {
        vec![match r {
            r if r == a => b,
            r if r == b => a,
            r => r,
        }]
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::layer::LayerKind;

    fn layer(name: &str, reads: Option<Vec<i64>>) -> LayerSpec {
        let mut l = LayerSpec::plain(
            name,
            LayerKind::Relu,
            [4, 2, 2].into(),
            Vec::new().into(),
            [4, 2, 2].into(),
        );
        l.reads = reads;
        l
    }

    fn reads(layers: &[LayerSpec]) -> Vec<Option<Vec<i64>>> {
        layers.iter().map(|l| l.reads.clone()).collect()
    }

    /// a, b, c reading a (a branch), d reading b and c
    fn branched() -> Vec<LayerSpec> {
        vec![
            layer("a", None),
            layer("b", None),
            layer("c", Some(vec![0])),
            layer("d", Some(vec![1, 2])),
        ]
    }

    #[test]
    fn an_insertion_keeps_the_graph() {
        let mut layers = branched();
        insert(&mut layers, 1, layer("new", None));
        // a, new, b (now reading new: a chain), c reading a, d reading b and c
        assert_eq!(reads(&layers), [None, None, None, Some(vec![0]), Some(vec![2, 3])]);
    }

    #[test]
    fn a_removal_reconnects_its_readers() {
        let mut layers = branched();
        remove(&mut layers, 1);
        // a, c reading a (now its predecessor: a chain), d reading a (b's input) and c
        assert_eq!(reads(&layers), [None, None, Some(vec![0, 1])]);
        let mut layers = branched();
        remove(&mut layers, 0);
        // b and c read the input a read
        assert_eq!(reads(&layers), [None, Some(vec![-1]), Some(vec![0, 1])]);
    }

    #[test]
    fn a_read_of_part_of_the_previous_output_stays_named() {
        // a, b, then c reading a's [4, 2, 2] output through a piece of [2, 2, 2] (a Split's)
        let mut part = layer("c", Some(vec![0]));
        part.x = [2, 2, 2].into();
        let mut layers = vec![layer("a", None), layer("b", None), part];
        remove(&mut layers, 1);
        // c now follows a, but reads a piece of its output: that storage stays named
        assert_eq!(reads(&layers), [None, Some(vec![0])]);
    }

    #[test]
    fn a_swap_renumbers_and_never_reads_ahead() {
        let mut layers = branched();
        swap(&mut layers, 1, 2);
        // a, c reading a, b (a chain: reads c now), d reading b and c: [2, 1]
        assert_eq!(reads(&layers), [None, None, None, Some(vec![2, 1])]);
        let mut layers = branched();
        swap(&mut layers, 2, 3);
        // d before c would read c ahead of it: it reads its predecessor; c still reads a
        assert_eq!(reads(&layers), [None, None, None, Some(vec![0])]);
    }

    fn shares(layers: &[LayerSpec]) -> Vec<Option<usize>> {
        layers.iter().map(|l| l.shares).collect()
    }

    /// a, b, c and d sharing b's weights
    fn shared() -> Vec<LayerSpec> {
        let mut layers: Vec<LayerSpec> = ["a", "b", "c", "d"].iter().map(|n| layer(n, None)).collect();
        layers[2].shares = Some(1);
        layers[3].shares = Some(1);
        layers
    }

    #[test]
    fn edits_keep_one_tensor_shared() {
        let mut layers = shared();
        insert(&mut layers, 1, layer("new", None));
        assert_eq!(shares(&layers), [None, None, None, Some(2), Some(2)]);
        let mut layers = shared();
        remove(&mut layers, 1);
        // c, the first of the rest, now holds the tensor
        assert_eq!(shares(&layers), [None, None, Some(1)]);
        let mut layers = shared();
        swap(&mut layers, 1, 2);
        assert_eq!(shares(&layers), [None, None, Some(1), Some(1)]);
        let mut layers = shared();
        swap(&mut layers, 0, 1);
        assert_eq!(shares(&layers), [None, None, Some(0), Some(0)]);
        let mut layers = shared();
        let mut tied = layer("tied", None);
        tied.shares = Some(2);
        insert(&mut layers, 4, tied);
        assert_eq!(shares(&layers), [None, None, Some(1), Some(1), Some(1)]);
    }
}
