//! Shared weights found by an importer (contract, section 10): layers that
//! read one parameter tensor (ONNX nodes reading the same initializer, a
//! Keras layer called on several inputs) hold it once, at its first use.

use std::collections::HashMap;
use std::hash::Hash;

use crate::oracle::model::layer::LayerSpec;

/// Marks the later readers of each weight tensor as sharing the first
/// reader's weights (`shares`). `tensors` pairs a layer's index with the
/// tensor its weights are (an initializer's name, a Keras layer's name),
/// in layer order. A later reader whose weights do not have the first
/// one's shape, groups and bias (a shared weight with a bias of its own)
/// keeps them as its own: counted again rather than refused.
pub fn mark<K: Eq + Hash>(layers: &mut [LayerSpec], tensors: impl IntoIterator<Item = (usize, K)>) {
    let mut first: HashMap<K, usize> = HashMap::new();
    for (index, tensor) in tensors {
        let holder = *first.entry(tensor).or_insert(index);
        if holder >= index {
            continue;
        }
        let same = match (layers.get(holder), layers.get(index)) {
            (Some(a), Some(b)) => a.shares.is_none() && a.w == b.w && a.groups == b.groups && a.bias == b.bias,
            _ => false,
        };
        if same && let Some(layer) = layers.get_mut(index) {
            layer.shares = Some(holder);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::layer::LayerKind;

    fn conv(name: &str) -> LayerSpec {
        LayerSpec::plain(
            name,
            LayerKind::Conv,
            [4, 8, 8].into(),
            [4, 4, 3, 3].into(),
            [4, 8, 8].into(),
        )
    }

    #[test]
    fn later_readers_share_the_first() {
        let mut layers = vec![conv("a"), conv("b"), conv("c"), conv("d")];
        layers[3].bias = true;
        mark(&mut layers, [(0, "W"), (1, "V"), (2, "W"), (3, "W")]);
        let shares: Vec<Option<usize>> = layers.iter().map(|l| l.shares).collect();
        // d has a bias of its own: its weights stay its own
        assert_eq!(shares, [None, None, Some(0), None]);
    }
}
