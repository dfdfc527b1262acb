//! The words the page uses, each explained once: the glossary lists them,
//! and each is linked where it first appears (see
//! [`crate::app::components::page::term`]).

/// A word of the page and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    /// Its id (`term-ID` in the page).
    pub id: &'static str,
    /// The word as the page writes it.
    pub word: &'static str,
    /// What it means.
    pub meaning: &'static str,
}

const fn word(id: &'static str, word: &'static str, meaning: &'static str) -> Word {
    Word { id, word, meaning }
}

/// Every word, in the order a reader meets them.
pub const WORDS: [Word; 25] = [
    word(
        "epoch",
        "epoch",
        "One pass over the whole training set: the dataset's samples divided by the mini-batch iterations, each a forward pass, a backward pass and a weight update.",
    ),
    word(
        "iteration",
        "iteration",
        "One step of training on one mini-batch: compute, then the communication the strategy needs.",
    ),
    word(
        "mini-batch",
        "mini-batch",
        "The samples of one iteration, over all GPUs (B).",
    ),
    word(
        "samples-per-gpu",
        "samples per GPU",
        "The mini-batch divided by the GPUs (B/p); a fraction means several GPUs share one sample (a spatial split).",
    ),
    word(
        "weak-scaling",
        "weak scaling",
        "More GPUs with the same samples per GPU: the mini-batch grows with the GPUs.",
    ),
    word(
        "strong-scaling",
        "strong scaling",
        "More GPUs with the same mini-batch: each GPU gets fewer samples.",
    ),
    word(
        "gpu-hours",
        "GPU-hours",
        "The epoch's time multiplied by the GPUs it occupies, in hours: what the epoch costs.",
    ),
    word(
        "time-to-train",
        "to train",
        "The epochs the network takes to reach its target quality at this global batch (from published convergence runs: more as the batch grows) times the time of an epoch.",
    ),
    word(
        "feasible",
        "feasible",
        "A configuration that fits in a GPU's memory and breaks none of its strategy's limits (GPUs, samples, layers to split).",
    ),
    word(
        "limit",
        "limit",
        "What rules a configuration out: memory, the cluster's size, the mini-batch, or the dimension a split divides (layers, filters, channels, width).",
    ),
    word(
        "ideal-edition",
        "ideal edition",
        "ParaDL's published model (HPDC 2021), exactly: compute from FLOPs or a profile, ring collectives, dedicated network paths.",
    ),
    word(
        "realistic-edition",
        "realistic edition",
        "The ideal edition plus what real clusters add, each from a documented fact of the cluster (sections 7 and 11 of the model).",
    ),
    word(
        "realistic-terms",
        "realistic terms",
        "The effects the realistic edition adds: memory-bound layers, kernels and their launch cost, NCCL's measured bandwidths, shared network paths, halos through host memory, memory as autograd holds it.",
    ),
    word(
        "roofline",
        "roofline",
        "A layer takes the longer of its arithmetic at the GPU's speed and its memory traffic at the GPU's bandwidth.",
    ),
    word(
        "calibration",
        "calibration",
        "Multiplying the model's compute and communication by factors taken from runs you measured, so that it reproduces them.",
    ),
    word(
        "kappa",
        "κ",
        "A calibration factor: measured over projected time, for compute (κ_comp) or communication (κ_comm).",
    ),
    word(
        "track-record",
        "×N",
        "How far this edition has typically been from measured runs of the strategy: 1/mean of min(projected/measured, measured/projected).",
    ),
    word(
        "halo",
        "halo",
        "The border rows of a neighbour's slice a spatially split convolution needs, exchanged every layer.",
    ),
    word(
        "zero",
        "ZeRO",
        "Sharding the optimizer states (stage 1), gradients (2) and weights (3) over the data-parallel GPUs, to save memory at the cost of more communication.",
    ),
    word(
        "recompute",
        "recompute",
        "Keeping only a checkpoint every ⌈√L⌉ of the network’s L layers and recomputing the rest in the backward pass: less activation memory, one more forward pass.",
    ),
    word(
        "overlap",
        "overlap",
        "Exchanging gradients bucket by bucket while the backward pass still runs, hiding part of the communication.",
    ),
    word(
        "mixed-precision",
        "mixed precision",
        "FP16 or BF16 arithmetic with an FP32 master copy of the weights; TF32 is FP32 storage with tensor-core arithmetic.",
    ),
    word(
        "group",
        "group",
        "The GPUs of one model-parallel split in a hybrid strategy (a node by default); data parallelism runs between groups.",
    ),
    word(
        "segments",
        "segments",
        "The micro-batches a pipeline splits each mini-batch into, so that its stages work at once.",
    ),
    word(
        "profile",
        "profile",
        "Per-layer times measured on a real GPU (ParaDL's method, or your own with scripts/profile_torch.py) that replace the FLOP estimate.",
    ),
];

/// The word of an id.
pub fn find(id: &str) -> Option<&'static Word> {
    WORDS.iter().find(|w| w.id == id)
}

#[cfg(test)]
mod tests {
    use crate::app::reference::glossary::*;

    #[test]
    fn ids_are_distinct_and_found() {
        let mut ids: Vec<&str> = WORDS.iter().map(|w| w.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), WORDS.len());
        assert_eq!(find("epoch").map(|w| w.word), Some("epoch"));
    }
}
