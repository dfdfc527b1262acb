//! Attention as the framework runs it (contract, section 15): a network
//! holds attention as layers (the scores `Q·Kᵀ`, a scale or a mask, the
//! softmax, a dropout, the context `A·V`); fused, those layers are one
//! kernel a pass, which never writes the scores to memory and saves only
//! its operands, its output and a log-sum-exp per query and head.

use crate::oracle::model::layer::{Function, LayerKind, Source};
use crate::oracle::model::network::Network;
use crate::oracle::model::practice::AttentionForm;

/// What a layer is to an attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Not part of an attention (or of one the fused kernel does not take).
    Outside,
    /// The scores `Q·Kᵀ`, with the queries and keys it multiplies (before
    /// any scale the kernel applies itself).
    Scores { queries: Source, keys: Source },
    /// A layer between the scores and the context: a scale, a mask or
    /// bias, the softmax, a dropout.
    Inner,
    /// The context `A·V`, with the values it multiplies.
    Context { values: Source },
}

/// A scale by a constant: a product reading one tensor, without weights of
/// its own beyond one item (or an `other` layer of its shape without
/// weights or function: a product by a computed constant, as an exported
/// `scaled_dot_product_attention` scales `Q` and `Kᵀ`).
fn is_scale(network: &Network, index: usize) -> bool {
    let layer = &network.layers()[index];
    let one_input = network.sources(index).len() == 1;
    match layer.kind() {
        LayerKind::Mul => one_input && layer.weight_items() <= 1.0,
        LayerKind::Other => {
            one_input && layer.weight_items() == 0.0 && layer.function().is_none() && layer.x() == layer.y()
        }
        _ => false,
    }
}

/// A trained bias added to the scores (a relative position bias: an
/// `other` layer reading one tensor, of its shape, with weights and no
/// function).
fn is_bias(network: &Network, index: usize) -> bool {
    let layer = &network.layers()[index];
    layer.kind() == LayerKind::Other
        && network.sources(index).len() == 1
        && layer.weight_items() > 0.0
        && layer.function().is_none()
        && layer.x() == layer.y()
}

/// The source a layer reads first.
fn first(network: &Network, index: usize) -> Option<Source> {
    network.sources(index).first().copied()
}

/// Through scales: the tensor a product's operand scales.
fn unscaled(network: &Network, mut source: Source, inner: &mut Vec<usize>) -> Source {
    while let Source::Layer(j) = source
        && is_scale(network, j)
    {
        inner.push(j);
        match first(network, j) {
            Some(s) => source = s,
            None => break,
        }
    }
    source
}

/// Each layer's role as the framework runs attention in `form`: fused,
/// [`roles`]; eager, every layer its own kernel ([`Role::Outside`]).
pub fn roles_in(network: &Network, form: AttentionForm) -> Vec<Role> {
    match form {
        AttentionForm::Fused => roles(network),
        AttentionForm::Eager => vec![Role::Outside; network.layers().len()],
    }
}

/// Each layer's role in the network's attentions.
///
/// # Formula
/// A context is a product whose first operand is a softmax's output,
/// through dropouts; the softmax reads, through scales, masks and biases
/// (products by a constant, sums, a trained bias), a product: the scores.
/// Scales of the scores' operands are inner layers too (the fused kernel
/// scales). With a trained bias, both operands are scaled, as the export
/// of `scaled_dot_product_attention` writes its scale (`√s` on `Q` and on
/// `K`): a network that adds its bias to scores it computed itself (timm's
/// Swin and LeViT, torchvision's Swin and MaxViT) runs that attention
/// eagerly.
pub fn roles(network: &Network) -> Vec<Role> {
    let layers = network.layers();
    let mut roles = vec![Role::Outside; layers.len()];
    for (c, layer) in layers.iter().enumerate() {
        if !layer.kind().is_product() {
            continue;
        }
        let sources = network.sources(c);
        let (Some(&probabilities), Some(&values)) = (sources.first(), sources.get(1)) else {
            continue;
        };
        let mut inner = Vec::new();
        let mut at = probabilities;
        while let Source::Layer(j) = at
            && layers[j].kind() == LayerKind::Dropout
        {
            inner.push(j);
            at = first(network, j).unwrap_or(Source::Input);
        }
        let Source::Layer(softmax) = at else { continue };
        if layers[softmax].kind() != LayerKind::Act || layers[softmax].function() != Some(Function::Softmax) {
            continue;
        }
        inner.push(softmax);
        at = first(network, softmax).unwrap_or(Source::Input);
        let mut biased = false;
        while let Source::Layer(j) = at
            && (is_scale(network, j) || is_bias(network, j) || layers[j].kind() == LayerKind::Add)
        {
            biased |= is_bias(network, j);
            inner.push(j);
            at = first(network, j).unwrap_or(Source::Input);
        }
        let Source::Layer(scores) = at else { continue };
        if !layers[scores].kind().is_product() || roles[scores] != Role::Outside {
            continue;
        }
        let operands = network.sources(scores);
        let (Some(&q), Some(&k)) = (operands.first(), operands.get(1)) else {
            continue;
        };
        let before = inner.len();
        let queries = unscaled(network, q, &mut inner);
        let scaled_queries = inner.len() > before;
        let before = inner.len();
        let keys = unscaled(network, k, &mut inner);
        let scaled_keys = inner.len() > before;
        if biased && !(scaled_queries && scaled_keys) {
            // a trained bias (a relative position bias) added to scores that were not
            // computed by scaled_dot_product_attention: the network runs it eagerly
            continue;
        }
        roles[scores] = Role::Scores { queries, keys };
        roles[c] = Role::Context {
            values: unscaled(network, values, &mut inner),
        };
        for j in inner {
            roles[j] = Role::Inner;
        }
    }
    roles
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn a_vits_blocks_are_each_one_attention() {
        let n = presets::network("deit-ti").unwrap();
        let roles = roles(&n);
        let name = |i: usize| n.layers()[i].name().to_string();
        let scores: Vec<String> = (0..roles.len())
            .filter(|&i| matches!(roles[i], Role::Scores { .. }))
            .map(name)
            .collect();
        assert_eq!(scores.len(), 12);
        assert_eq!(scores[0], "blocks.0.attn.scores");
        let inner: Vec<String> = (0..roles.len())
            .filter(|&i| roles[i] == Role::Inner)
            .map(name)
            .collect();
        assert_eq!(inner[..2], ["blocks.0.attn.scale", "blocks.0.attn.softmax"]);
        assert_eq!(inner.len(), 24);
        // the queries are the projection's output, not their scaled copy
        let qkv = n.layers().iter().position(|l| l.name() == "blocks.0.attn.qkv").unwrap();
        let first = roles.iter().find(|r| matches!(r, Role::Scores { .. })).unwrap();
        assert_eq!(
            *first,
            Role::Scores {
                queries: Source::Layer(qkv),
                keys: Source::Layer(qkv)
            }
        );
    }

    /// Tokens `[64, 8]` attending over themselves with a trained bias
    /// `[64, 64]` added to the scores, `Q` scaled, and `K` too where
    /// `keys_scaled` (as the export of `scaled_dot_product_attention`
    /// writes its scale).
    fn biased(keys_scaled: bool) -> Network {
        use crate::oracle::formats::onnx::build::{int, int64s, ints, model, node, scalar, weight};
        let keys = if keys_scaled { "ks" } else { "x" };
        let nodes = vec![
            node("Reshape", "tokens", &["data", "shape"], &["x"], vec![]),
            node("Transpose", "q", &["x"], &["q"], vec![ints("perm", &[0, 2, 1])]),
            scalar("s", 0.5),
            node("Mul", "qs", &["q", "s"], &["qs"], vec![]),
            node("Mul", "ks", &["x", "s"], &["ks"], vec![]),
            node("MatMul", "scores", &["qs", keys], &["a"], vec![]),
            node("Add", "bias", &["a", "table"], &["b"], vec![]),
            node("Softmax", "softmax", &["b"], &["p"], vec![int("axis", -1)]),
            node("MatMul", "context", &["p", "q"], &["c"], vec![]),
        ];
        let bytes = model(
            &[None, Some(8), Some(8), Some(8)],
            nodes,
            vec![int64s("shape", &[1, 8, 64]), weight("table", &[64, 64])],
        );
        crate::oracle::formats::onnx::read(&bytes, "biased", None, 1000)
            .unwrap()
            .network
    }

    #[test]
    fn a_trained_bias_is_fused_where_both_operands_were_scaled_as_the_fused_function_exports_them() {
        let fused = biased(true);
        let found = roles(&fused);
        let of = |name: &str| found[fused.layers().iter().position(|l| l.name() == name).unwrap()];
        assert!(matches!(of("scores"), Role::Scores { .. }));
        assert_eq!(of("bias"), Role::Inner);
        assert!(matches!(of("context"), Role::Context { .. }));
        // the bias added to scores the network computed itself: eager
        let eager = biased(false);
        assert!(roles(&eager).iter().all(|r| *r == Role::Outside));
    }

    #[test]
    fn a_cnn_has_none() {
        let n = presets::network("resnet50").unwrap();
        assert!(roles(&n).iter().all(|r| *r == Role::Outside));
    }
}
