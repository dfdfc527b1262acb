//! How a run trains (contract, section 9): numeric precision and optimizer.

use std::str::FromStr;

use super::errors::InputError;
use super::names::named_enum;

named_enum! {
    /// The arithmetic of a run.
    #[derive(Default)]
    pub enum Precision {
        /// 32-bit floats on the GPU's FP32 units (the contract's model).
        #[default]
        Fp32 => ("fp32", "FP32"),
        /// TF32 tensor cores for matrix work, 32-bit storage.
        Tf32 => ("tf32", "TF32"),
        /// Mixed precision with FP16 and an FP32 master copy.
        Fp16 => ("fp16", "FP16 mixed precision"),
        /// Mixed precision with BF16 and an FP32 master copy.
        Bf16 => ("bf16", "BF16 mixed precision"),
    }
}

named_enum! {
    /// The optimizer, for the state it keeps.
    #[derive(Default)]
    pub enum Optimizer {
        /// No state (the contract's model).
        #[default]
        None => ("none", "none (no state)"),
        /// Plain SGD: only the master copy under mixed precision.
        Sgd => ("sgd", "SGD"),
        /// SGD with momentum: one FP32 buffer.
        Momentum => ("momentum", "SGD with momentum"),
        /// Adam: two FP32 buffers.
        Adam => ("adam", "Adam"),
    }
}

named_enum! {
    /// How the framework lays activations out in memory (section 11).
    #[derive(Default)]
    pub enum MemoryFormat {
        /// Channels first, PyTorch's default (`torch.contiguous_format`):
        /// tensor-core convolutions transpose their tensors to NHWC and back.
        #[default]
        Nchw => ("nchw", "NCHW (PyTorch's default)"),
        /// Channels last (`torch.channels_last`, TensorFlow's default): what
        /// tensor-core convolutions read.
        Nhwc => ("nhwc", "NHWC (channels last)"),
    }
}

named_enum! {
    /// How the framework runs attention (section 15): what autograd saves
    /// of it and which kernels compute it.
    #[derive(Default)]
    pub enum AttentionForm {
        /// PyTorch's `scaled_dot_product_attention` (FlashAttention or the
        /// memory-efficient kernel, as timm and torchvision run it since
        /// PyTorch 2.0): one kernel a pass; saves the queries, keys,
        /// values, output and one FP32 log-sum-exp a query and head; its
        /// backward pass recomputes the scores.
        #[default]
        Fused => ("fused", "fused (scaled_dot_product_attention)"),
        /// Two batched products with the scale and softmax between them,
        /// each its own kernel (PyTorch before 2.0, `fused_attn` off): the
        /// scores and the softmax's output are saved.
        Eager => ("eager", "eager (products and softmax apart)"),
    }
}

impl FromStr for AttentionForm {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "attention", "attention form")
    }
}

impl FromStr for MemoryFormat {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "memory_format", "memory format")
    }
}

impl Precision {
    /// Mixed precision (FP16 or BF16, with an FP32 master copy).
    pub fn is_mixed(self) -> bool {
        matches!(self, Self::Fp16 | Self::Bf16)
    }

    /// `h/δ`: an item's size against an FP32 one (1/2 for FP16 and BF16).
    pub fn item_share(self) -> f64 {
        if self.is_mixed() { 0.5 } else { 1.0 }
    }
}

impl Optimizer {
    /// `s/δ`: FP32 state buffers per parameter (0, 0, 1, 2).
    pub fn state_buffers(self) -> f64 {
        match self {
            Self::None | Self::Sgd => 0.0,
            Self::Momentum => 1.0,
            Self::Adam => 2.0,
        }
    }

    /// FP32 items an optimizer step reads and writes per parameter, as
    /// PyTorch's `torch.optim` steps run (its `foreach` kernels): the
    /// weight and its gradient read and the weight written, each state
    /// buffer read and written (SGD 3, momentum 5, Adam 7); `none` steps
    /// nothing (the contract's model).
    pub fn step_items(self) -> f64 {
        match self {
            Self::None => 0.0,
            _ => 3.0 + 2.0 * self.state_buffers(),
        }
    }
}

impl FromStr for Precision {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "precision", "precision")
    }
}

impl FromStr for Optimizer {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "optimizer", "optimizer")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_sizes() {
        assert_eq!(Precision::default(), Precision::Fp32);
        assert_eq!(Optimizer::default(), Optimizer::None);
        assert_eq!("BF16".parse::<Precision>().unwrap(), Precision::Bf16);
        assert_eq!(Precision::Fp16.item_share(), 0.5);
        assert_eq!(Precision::Tf32.item_share(), 1.0);
        assert_eq!(Optimizer::Adam.state_buffers(), 2.0);
        assert_eq!("lamb".parse::<Optimizer>().unwrap_err().field, "optimizer");
    }
}
