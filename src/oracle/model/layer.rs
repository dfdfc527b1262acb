//! Layers: kind, input/weight/output shapes and optional profiled time.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::checks;
use super::errors::{InputError, Rule};
use super::field::Field;
use super::names::named_enum;
use super::shape::Shape;

named_enum! {
    /// What a layer computes; decides its FLOPs, memory and how it splits.
    pub enum LayerKind {
        /// Convolution.
        Conv => ("conv", "convolution"),
        /// Fully connected.
        Fc => ("fc", "fully connected"),
        /// Max pooling.
        Maxpool => ("maxpool", "max pooling"),
        /// Average pooling.
        Avgpool => ("avgpool", "average pooling"),
        /// Rectified linear unit (in place).
        Relu => ("relu", "ReLU"),
        /// Batch normalisation (in place).
        Bn => ("bn", "batch normalisation"),
        /// Residual sum.
        Add => ("add", "residual sum"),
        Dropout => ("dropout", "dropout"),
        /// Anything else (no FLOPs).
        Other => ("other", "other"),
        /// Concatenation along the channels (section 10).
        Concat => ("concat", "concatenation"),
        /// Elementwise product, e.g. a squeeze-and-excitation scale (section 10).
        Mul => ("mul", "elementwise product"),
        /// Layer normalisation (section 10).
        Ln => ("ln", "layer normalisation"),
        /// An elementwise activation other than ReLU: sigmoid, tanh, GELU,
        /// SiLU, softmax... (section 10).
        Act => ("act", "activation"),
        /// Transposed convolution (an up-convolution; section 10).
        Deconv => ("deconv", "transposed convolution"),
        /// A product of two computed tensors, head by head (section 15):
        /// attention's scores `Q·Kᵀ` or its output `A·V`. It reads two
        /// tensors, the first as `x`; `groups` are the heads.
        Matmul => ("matmul", "activation product"),
    }
}

impl LayerKind {
    /// Convolution (plain or transposed) or fully connected: layers with a
    /// `[C, F, K...]` weight.
    pub fn has_weights(self) -> bool {
        matches!(self, Self::Conv | Self::Fc | Self::Deconv)
    }

    /// A convolution, plain or transposed: what the default split sets
    /// divide.
    pub fn is_conv(self) -> bool {
        matches!(self, Self::Conv | Self::Deconv)
    }

    /// Layers that act on each position alone (bn, relu, add, dropout,
    /// and section 10's concat, mul, ln, act): they follow a spatial split
    /// without a halo.
    pub fn is_elementwise(self) -> bool {
        matches!(
            self,
            Self::Relu | Self::Bn | Self::Add | Self::Dropout | Self::Concat | Self::Mul | Self::Ln | Self::Act
        )
    }

    /// Normalisations (bn, ln): their weights, if given, are a scale and a
    /// bias per channel.
    pub fn is_norm(self) -> bool {
        matches!(self, Self::Bn | Self::Ln)
    }

    /// A product of two computed tensors (attention's, section 15).
    pub fn is_product(self) -> bool {
        matches!(self, Self::Matmul)
    }

    /// Max or average pooling.
    pub fn is_pool(self) -> bool {
        matches!(self, Self::Maxpool | Self::Avgpool)
    }

    /// Kinds that may not carry weights at all.
    fn must_be_weightless(self) -> bool {
        matches!(
            self,
            Self::Maxpool
                | Self::Avgpool
                | Self::Relu
                | Self::Add
                | Self::Dropout
                | Self::Concat
                | Self::Act
                | Self::Matmul
        )
    }

    /// Kinds that keep the channel count (`y[0] = x[0]`).
    fn keeps_channels(self) -> bool {
        self.is_pool() || self.is_elementwise()
    }
}

named_enum! {
    /// The function of an activation layer (kind `act`), as far as what
    /// autograd saves for it differs (contract, section 11): most save
    /// their input; a sigmoid, tanh or softmax its output; a leaky ReLU or
    /// an ELU, run in place as PyTorch's networks run them, its output,
    /// which is its input's storage.
    pub enum Function {
        /// Logistic sigmoid (saves its output).
        Sigmoid => ("sigmoid", "sigmoid"),
        /// Hyperbolic tangent (saves its output).
        Tanh => ("tanh", "tanh"),
        /// Softmax (saves its output).
        Softmax => ("softmax", "softmax"),
        /// Leaky ReLU, in place (saves its output, its input's storage).
        LeakyRelu => ("leaky_relu", "leaky ReLU (in place)"),
        /// ELU, CELU or SELU, in place (saves its output, its input's storage).
        Elu => ("elu", "ELU (in place)"),
        /// ReLU not in place (saves its output, a tensor of its own): one
        /// of the separate ReLUs of one tensor an exporter merged.
        Relu => ("relu", "ReLU (not in place)"),
        /// An operation on CUDA autocast's FP32 list (a power `x^p`, a norm
        /// `‖x‖₂`): saves its input; under mixed precision it reads and
        /// writes FP32.
        Fp32 => ("fp32", "power or norm (FP32 under autocast)"),
        /// ReLU6 or a clip (saves its input, even in place).
        Relu6 => ("relu6", "ReLU6 or clip"),
        /// SiLU (swish).
        Silu => ("silu", "SiLU"),
        Gelu => ("gelu", "GELU"),
        /// Hard swish.
        Hardswish => ("hardswish", "hard swish"),
        /// Hard sigmoid.
        Hardsigmoid => ("hardsigmoid", "hard sigmoid"),
        Mish => ("mish", "Mish"),
        /// Any other elementwise function (saves its input).
        Other => ("other", "other function"),
    }
}

impl Function {
    /// Whether autograd saves the function's output rather than its input.
    pub fn saves_output(self) -> bool {
        matches!(
            self,
            Self::Sigmoid | Self::Tanh | Self::Softmax | Self::LeakyRelu | Self::Elu | Self::Relu
        )
    }

    /// Whether PyTorch's networks run it in place: its output is its
    /// input's storage.
    pub fn in_place(self) -> bool {
        matches!(self, Self::LeakyRelu | Self::Elu)
    }
}

/// Where a layer's input comes from: the network's input, or the output of
/// an earlier layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The network's input (a sample).
    Input,
    /// The output of the layer of that index.
    Layer(usize),
}

impl Source {
    /// As a layer file writes it: `-1` for the input, else the index.
    pub fn index(self) -> i64 {
        match self {
            Self::Input => -1,
            Self::Layer(i) => i as i64,
        }
    }
}

impl FromStr for Function {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "function", "activation function")
    }
}

impl FromStr for LayerKind {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "kind", "layer kind")
    }
}

/// Largest profiled per-sample time accepted (about 30 years): keeps every
/// epoch time finite.
pub const MAX_TIME_S: f64 = 1e9;

/// A layer as entered: plain data, not yet checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerSpec {
    /// Name (need not be unique).
    pub name: String,
    pub kind: LayerKind,
    /// Input shape `[C, spatial...]`.
    pub x: Shape,
    /// Weight shape `[C, F, K...]`; empty or holding zero items when weightless.
    #[serde(default)]
    pub w: Shape,
    /// Output shape `[F, spatial...]`.
    pub y: Shape,
    /// Profiled per-sample training time in seconds, if the source had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
    /// The profiled per-sample time at the profile's second batch (section
    /// 12: a profile at two batches), seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time2_s: Option<f64>,
    /// `g`: groups of a convolution (1: a plain one; `C`: depthwise).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub groups: u64,
    /// A conv or fc layer with a bias: `F` more weights (section 10).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bias: bool,
    /// The tensors the layer reads: the outputs of these earlier layers
    /// (their indices in the network, `-1` for the network's input).
    /// Left out: the previous layer's output, as a chain reads (the first
    /// layer reads the input).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<Vec<i64>>,
    /// An activation's function (kind `act`), when known; on an `other`
    /// layer, what it saves as that function would (`other`: its input,
    /// as a reflection or replication pad does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<Function>,
    /// The index of an earlier layer whose weights this layer reuses (a
    /// shared initializer, a shared Keras layer, tied weights; section
    /// 10): one parameter tensor, counted once in parameters, gradients,
    /// optimizer state, memory and every exchange, computed with per use.
    /// Left out: the layer's weights are its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shares: Option<usize>,
}

impl LayerSpec {
    /// Sets what the layer at `index` reads, after `previous` (the layer
    /// before it): left out where it reads the previous layer's whole output
    /// (a chain's default; the first layer, the network's input), kept where
    /// it reads anything else, a part or a view of that output included
    /// (whose storage it then names, section 11).
    pub fn set_reads(&mut self, index: usize, previous: Option<&LayerSpec>, reads: Vec<i64>) {
        let chained = reads == [index as i64 - 1] && previous.is_none_or(|p| p.y == self.x);
        self.reads = (!chained).then_some(reads);
    }

    /// A layer of one group, without a bias or a profiled time (what the
    /// importers and the preset builder start from).
    pub fn plain(name: impl Into<String>, kind: LayerKind, x: Shape, w: Shape, y: Shape) -> Self {
        Self {
            name: name.into(),
            kind,
            x,
            w,
            y,
            time_s: None,
            time2_s: None,
            groups: 1,
            bias: false,
            reads: None,
            function: None,
            shares: None,
        }
    }
}

fn one() -> u64 {
    1
}

fn is_one(value: &u64) -> bool {
    *value == 1
}

/// A checked layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "LayerSpec", into = "LayerSpec")]
pub struct Layer(LayerSpec);

impl Layer {
    /// Checks a layer.
    ///
    /// Rules: a non-blank name; `x` and `y` of 2 to 4 dimensions, all at
    /// least 1 and of equal rank; conv and fc weights `[C, F, K...]` with one
    /// kernel dimension per spatial dimension, `C = x[0]`, `F = y[0]`, all
    /// dimensions at least 1; pool weights empty or `0x0xK...` with kernels
    /// of at least 1; relu, add and dropout weightless; kinds other than
    /// conv, fc and other keep the channel count; a profiled time finite,
    /// not negative and at most [`MAX_TIME_S`]; `groups` at least 1, 1 for
    /// every kind but conv, deconv and matmul, and dividing their `C` and
    /// `F`; a bias only on conv, deconv and fc; a matmul weightless, with
    /// the positions of its input (`y`'s spatial sizes those of `x`: one
    /// row of products per query).
    ///
    /// # Errors
    /// An [`InputError`] whose field is relative to the layer (`x`, `w[0]`, ...).
    pub fn new(spec: LayerSpec) -> Result<Self, InputError> {
        Self::check(&spec)?;
        Ok(Self(spec))
    }

    /// Checks a layer's data without taking it (the rules of [`Layer::new`]).
    ///
    /// # Errors
    /// As [`Layer::new`].
    pub fn check(spec: &LayerSpec) -> Result<(), InputError> {
        checks::name("name", &spec.name)?;
        spec.x.check_activation(&Field::from("x"))?;
        spec.y.check_activation(&Field::from("y"))?;
        if spec.y.rank() != spec.x.rank() {
            return Err(InputError::new(
                "y",
                Rule::Rank {
                    expected: format!("{} dimensions (as x)", spec.x.rank()),
                    found: spec.y.rank(),
                },
            ));
        }
        check_weights(spec)?;
        check_groups(spec)?;
        if spec.bias && !spec.kind.has_weights() {
            return Err(InputError::new(
                "bias",
                Rule::UnexpectedWeights {
                    kind: spec.kind.name().into(),
                    items: spec.y.channels(),
                },
            ));
        }
        if spec.function.is_some() && !matches!(spec.kind, LayerKind::Act | LayerKind::Other) {
            return Err(InputError::new(
                "function",
                Rule::KindOnly {
                    kind: format!("{} or {}", LayerKind::Act.name(), LayerKind::Other.name()),
                    found: spec.kind.name().into(),
                },
            ));
        }
        if spec.kind.is_product()
            && !spec.sums_over_positions()
            && let Some(i) = (1..spec.x.rank()).find(|&i| spec.y.dims()[i] != spec.x.dims()[i])
        {
            return Err(InputError::new(
                Field::from("y").index(i),
                Rule::Mismatch {
                    what: format!(
                        "x[{i}] (a product keeps its input's positions, or sums over all of them: every position of y 1)"
                    ),
                    expected: spec.x.dims()[i],
                    found: spec.y.dims()[i],
                },
            ));
        }
        if spec.kind.keeps_channels() && spec.y.channels() != spec.x.channels() {
            return Err(InputError::new(
                "y[0]",
                Rule::Mismatch {
                    what: "the input channels x[0]".into(),
                    expected: spec.x.channels(),
                    found: spec.y.channels(),
                },
            ));
        }
        if let Some(time) = spec.time_s {
            checks::within("time_s", time, 0.0, MAX_TIME_S)?;
        }
        if let Some(time) = spec.time2_s {
            checks::within("time2_s", time, 0.0, MAX_TIME_S)?;
        }
        Ok(())
    }

    /// The layer's data.
    pub fn spec(&self) -> &LayerSpec {
        &self.0
    }

    pub fn name(&self) -> &str {
        &self.0.name
    }

    pub fn kind(&self) -> LayerKind {
        self.0.kind
    }

    /// Input shape.
    pub fn x(&self) -> &Shape {
        &self.0.x
    }

    /// Weight shape.
    pub fn w(&self) -> &Shape {
        &self.0.w
    }

    /// Output shape.
    pub fn y(&self) -> &Shape {
        &self.0.y
    }

    /// Profiled per-sample time, if any.
    pub fn time_s(&self) -> Option<f64> {
        self.0.time_s
    }

    /// Profiled per-sample time at the profile's second batch, if any.
    pub fn time2_s(&self) -> Option<f64> {
        self.0.time2_s
    }

    /// `g`: groups of a convolution (1 otherwise).
    pub fn groups(&self) -> u64 {
        self.0.groups
    }

    /// Kernel dimensions `K...` (`w[2..]`), empty if none.
    pub fn kernel(&self) -> &[u64] {
        self.0.w.dims().get(2..).unwrap_or(&[])
    }

    /// `K_l`: the first kernel dimension, 0 if none.
    pub fn kernel_size(&self) -> u64 {
        self.kernel().first().copied().unwrap_or(0)
    }

    /// Forward FLOPs per sample.
    ///
    /// # Formula
    /// conv, fc: `2·(C/g)·F·ΠK·Π(spatial of y)`; deconv: `2·(C/g)·F·ΠK·Π(spatial
    /// of x)` (each input item is spread over a window); maxpool, avgpool:
    /// `C·ΠK·Π(spatial of y)`; relu, add, mul, act: `|y|`; bn, ln: `4·|x|`;
    /// dropout, concat, other: 0; matmul (section 15): `2·|y|·K`, each
    /// output item a dot product over `K` items ([`Layer::contraction`]:
    /// `Q·Kᵀ`: `2·h·N_q·N_k·d`; `A·V`: `2·h·N_q·d·N_k`). `C = x[0]`, `F = y[0]`,
    /// `g` the groups (1 but for a grouped convolution), the heads `h` of
    /// a matmul.
    pub fn forward_flops(&self) -> f64 {
        let c = if self.kind().is_product() {
            self.contraction()
        } else {
            self.x().channels() as f64 / self.groups() as f64
        };
        let f = self.y().channels() as f64;
        let kernel: f64 = self.kernel().iter().map(|&k| k as f64).product();
        let out_spatial: f64 = self.y().spatial().iter().map(|&d| d as f64).product();
        match self.kind() {
            LayerKind::Conv | LayerKind::Fc => 2.0 * c * f * kernel * out_spatial,
            LayerKind::Deconv => {
                let in_spatial: f64 = self.x().spatial().iter().map(|&d| d as f64).product();
                2.0 * c * f * kernel * in_spatial
            }
            LayerKind::Maxpool | LayerKind::Avgpool => c * kernel * out_spatial,
            LayerKind::Matmul => 2.0 * self.y().items() * c,
            LayerKind::Relu | LayerKind::Add | LayerKind::Mul | LayerKind::Act => self.y().items(),
            LayerKind::Bn | LayerKind::Ln => 4.0 * self.x().items(),
            LayerKind::Dropout | LayerKind::Concat | LayerKind::Other => 0.0,
        }
    }

    /// Activation items kept for the backward pass.
    ///
    /// # Formula
    /// `act = |x| + |y|`, except 0 for relu and bn (in place).
    pub fn activation_items(&self) -> f64 {
        match self.kind() {
            LayerKind::Relu | LayerKind::Bn => 0.0,
            _ => self.x().items() + self.y().items(),
        }
    }

    /// Whether it is a product that sums over its input's positions
    /// (section 15: `Kᵀ·V` of a linear attention, XCiT's and DaViT's
    /// attention across channels, a global-context block's pooling).
    ///
    /// # Formula
    /// A matmul whose input has more than one position and whose output
    /// has one.
    pub fn sums_over_positions(&self) -> bool {
        self.spec().sums_over_positions()
    }

    /// `K`: the items each output item of a product sums (section 15).
    ///
    /// # Formula
    /// `P_x`, the input's positions, for a product that sums over them
    /// ([`Layer::sums_over_positions`]); else `C/g`, a head's width.
    pub fn contraction(&self) -> f64 {
        if self.sums_over_positions() {
            self.x().spatial().iter().map(|&d| d as f64).product()
        } else {
            self.x().channels() as f64 / self.groups() as f64
        }
    }

    /// Items per sample of a product's other operand (section 15): a
    /// self-attention's keys (for `Q·Kᵀ`, as many as its queries) or values
    /// (for `A·V`, as many as its output); 0 for any other layer.
    ///
    /// # Formula
    /// `min(|x|, |y|)` for a matmul, `h·P_x·F/C` for one that sums over
    /// the positions (`h` heads of `[P_x, F/C]`), else 0.
    pub fn other_operand_items(&self) -> f64 {
        if self.sums_over_positions() {
            // `h` heads of `[P_x, N]`, `N = F/C` a head's columns
            self.groups() as f64 * self.contraction() * self.y().channels() as f64 / self.x().channels().max(1) as f64
        } else if self.kind().is_product() {
            self.x().items().min(self.y().items())
        } else {
            0.0
        }
    }

    /// `|w|`: weight items the layer computes with (per use: a layer that
    /// shares another's weights reads all of them; FLOPs and the kernels'
    /// weight traffic use this).
    ///
    /// # Formula
    /// The product of `w`'s dimensions, divided by the groups `g` (a
    /// grouped convolution's `[C, F, K...]` holds `F·(C/g)·ΠK` weights),
    /// plus `F` for a bias.
    pub fn weight_items(&self) -> f64 {
        let bias = if self.0.bias { self.y().channels() as f64 } else { 0.0 };
        self.w().items() / self.groups() as f64 + bias
    }

    /// The trainable parameters the layer holds: its weights counted once
    /// (section 10, shared weights). Parameters, gradients, optimizer
    /// state, weight memory and every gradient or weight exchange use this.
    ///
    /// # Formula
    /// `|w|` ([`Layer::weight_items`]), or 0 when the layer shares an
    /// earlier layer's weights (`shares`).
    pub fn own_weight_items(&self) -> f64 {
        if self.0.shares.is_some() {
            0.0
        } else {
            self.weight_items()
        }
    }

    /// The earlier layer whose weights this layer reuses, if any.
    pub fn shares(&self) -> Option<usize> {
        self.0.shares
    }

    /// Whether the layer has a bias.
    pub fn bias(&self) -> bool {
        self.0.bias
    }

    /// An activation's function, when known.
    pub fn function(&self) -> Option<Function> {
        self.0.function
    }
}

impl TryFrom<LayerSpec> for Layer {
    type Error = InputError;

    fn try_from(spec: LayerSpec) -> Result<Self, Self::Error> {
        Self::new(spec)
    }
}

impl From<Layer> for LayerSpec {
    fn from(layer: Layer) -> Self {
        layer.0
    }
}

fn check_weights(spec: &LayerSpec) -> Result<(), InputError> {
    let w = &spec.w;
    let kernel_rank = spec.x.rank() + 1;
    if spec.kind.has_weights() {
        if w.rank() != kernel_rank {
            return Err(InputError::new(
                "w",
                Rule::Rank {
                    expected: format!("{kernel_rank} dimensions ([C, F] then one kernel size per spatial dimension)"),
                    found: w.rank(),
                },
            ));
        }
        w.check_dims(&Field::from("w"), 1)?;
        for (index, what, expected) in [
            (0, "the input channels x[0]", spec.x.channels()),
            (1, "the output channels y[0]", spec.y.channels()),
        ] {
            let found = w.dims()[index];
            if found != expected {
                return Err(InputError::new(
                    Field::from("w").index(index),
                    Rule::Mismatch {
                        what: what.into(),
                        expected,
                        found,
                    },
                ));
            }
        }
        return Ok(());
    }
    if spec.kind.must_be_weightless() && w.items() != 0.0 {
        return Err(InputError::new(
            "w",
            Rule::UnexpectedWeights {
                kind: spec.kind.name().into(),
                items: checks::product(w.dims()),
            },
        ));
    }
    if spec.kind.is_pool() {
        if w.rank() != kernel_rank {
            return Err(InputError::new(
                "w",
                Rule::Rank {
                    expected: format!("{kernel_rank} dimensions (0x0 then one kernel size per spatial dimension)"),
                    found: w.rank(),
                },
            ));
        }
        for (i, &k) in w.dims().iter().enumerate().skip(2) {
            if k < 1 {
                return Err(InputError::new(
                    Field::from("w").index(i),
                    Rule::CountTooSmall { min: 1, found: k },
                ));
            }
        }
    }
    w.check_dims(&Field::from("w"), 0)
}

fn check_groups(spec: &LayerSpec) -> Result<(), InputError> {
    let g = spec.groups;
    if g < 1 {
        return Err(InputError::new("groups", Rule::CountTooSmall { min: 1, found: g }));
    }
    if g == 1 {
        return Ok(());
    }
    if !spec.kind.is_conv() && !spec.kind.is_product() {
        return Err(InputError::new("groups", Rule::CountTooLarge { max: 1, found: g }));
    }
    for (what, channels) in [("x[0]", spec.x.channels()), ("y[0]", spec.y.channels())] {
        if !channels.is_multiple_of(g) {
            return Err(InputError::new(
                "groups",
                Rule::MustDivide {
                    what: what.into(),
                    count: channels,
                    found: g,
                },
            ));
        }
    }
    Ok(())
}

impl LayerSpec {
    /// See [`Layer::sums_over_positions`].
    pub fn sums_over_positions(&self) -> bool {
        let positions = |s: &Shape| s.spatial().iter().product::<u64>();
        self.kind.is_product() && positions(&self.x) > 1 && positions(&self.y) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(x: &[u64], w: &[u64], y: &[u64]) -> LayerSpec {
        LayerSpec {
            name: "CONV1".into(),
            kind: LayerKind::Conv,
            x: Shape::new(x.to_vec()),
            w: Shape::new(w.to_vec()),
            y: Shape::new(y.to_vec()),
            time_s: None,
            time2_s: None,
            groups: 1,
            bias: false,
            reads: None,
            function: None,
            shares: None,
        }
    }

    /// A product of `heads` heads reading `x`, writing `y`.
    fn product(x: &[u64], y: &[u64], heads: u64) -> LayerSpec {
        LayerSpec {
            name: "attn".into(),
            kind: LayerKind::Matmul,
            w: Shape::new(Vec::new()),
            groups: heads,
            reads: Some(vec![-1, -1]),
            ..conv(x, &[], y)
        }
    }

    #[test]
    fn a_product_keeps_its_positions_or_sums_over_all_of_them() {
        // scores of 4 heads of 16 wide over 49 tokens: 2·4·49·49·16
        let scores = Layer::new(product(&[64, 7, 7], &[4 * 49, 7, 7], 4)).unwrap();
        assert!(!scores.sums_over_positions());
        assert_eq!(scores.contraction(), 16.0);
        assert_eq!(scores.forward_flops(), 2.0 * 4.0 * 49.0 * 49.0 * 16.0);
        // XCiT's `q̂ᵀ·k̂`: 4 heads of `[16, 49]` by `[49, 16]`, summed over the 49 tokens
        let channels = Layer::new(product(&[64, 7, 7], &[4 * 16 * 16, 1, 1], 4)).unwrap();
        assert!(channels.sums_over_positions());
        assert_eq!(channels.contraction(), 49.0);
        assert_eq!(channels.forward_flops(), 2.0 * 4.0 * 16.0 * 16.0 * 49.0);
        assert_eq!(channels.other_operand_items(), 4.0 * 49.0 * 16.0);
        // a part of the positions is neither
        let e = Layer::new(product(&[64, 7, 7], &[4 * 16 * 16, 7, 1], 4)).unwrap_err();
        assert_eq!(e.field.to_string(), "y[2]");
        assert!(e.to_string().contains("sums over all of them"), "{e}");
    }

    #[test]
    fn alexnet_conv1_flops_by_hand() {
        // 2 · 3 · 96 · 11·11 · 54·54 = 203,233,536
        let layer = Layer::new(conv(&[3, 226, 226], &[3, 96, 11, 11], &[96, 54, 54])).unwrap();
        assert_eq!(layer.forward_flops(), 203_233_536.0);
        assert_eq!(layer.weight_items(), 34_848.0);
        assert_eq!(layer.activation_items(), 3.0 * 226.0 * 226.0 + 96.0 * 54.0 * 54.0);
        assert_eq!(layer.kernel_size(), 11);
    }

    #[test]
    fn pool_relu_bn_flops_by_hand() {
        let pool = Layer::new(LayerSpec {
            name: "MPOOL".into(),
            kind: LayerKind::Maxpool,
            x: [96, 54, 54].into(),
            w: [0, 0, 3, 3].into(),
            y: [96, 27, 27].into(),
            time_s: None,
            time2_s: None,
            groups: 1,
            bias: false,
            reads: None,
            function: None,
            shares: None,
        })
        .unwrap();
        assert_eq!(pool.forward_flops(), 96.0 * 9.0 * 27.0 * 27.0);
        let relu = Layer::new(LayerSpec {
            name: "RELU".into(),
            kind: LayerKind::Relu,
            x: [96, 54, 54].into(),
            w: [96, 96, 0, 0].into(),
            y: [96, 54, 54].into(),
            time_s: Some(0.0),
            time2_s: None,
            groups: 1,
            bias: false,
            reads: None,
            function: None,
            shares: None,
        })
        .unwrap();
        assert_eq!(relu.forward_flops(), 96.0 * 54.0 * 54.0);
        assert_eq!(relu.activation_items(), 0.0);
        assert_eq!(relu.weight_items(), 0.0);
        let bn = Layer::new(LayerSpec {
            kind: LayerKind::Bn,
            name: "BNORM".into(),
            ..relu.spec().clone()
        })
        .unwrap();
        assert_eq!(bn.forward_flops(), 4.0 * 96.0 * 54.0 * 54.0);
    }

    #[test]
    fn conv_channel_mismatch_names_the_weight_field() {
        let err = Layer::new(conv(&[3, 8, 8], &[4, 16, 3, 3], &[16, 6, 6])).unwrap_err();
        assert_eq!(err.field, "w[0]");
        assert!(matches!(
            err.rule,
            Rule::Mismatch {
                expected: 3,
                found: 4,
                ..
            }
        ));
        let err = Layer::new(conv(&[3, 8, 8], &[3, 16, 3, 3], &[8, 6, 6])).unwrap_err();
        assert_eq!(err.field, "w[1]");
    }

    #[test]
    fn bad_shapes_and_times_are_errors() {
        let err = Layer::new(conv(&[3, 8, 8], &[3, 16, 3], &[16, 6, 6])).unwrap_err();
        assert_eq!(err.field, "w");
        let err = Layer::new(conv(&[3, 8, 8], &[3, 16, 3, 3], &[16, 6, 6, 6])).unwrap_err();
        assert_eq!(err.field, "y");
        let err = Layer::new(conv(&[3, 0, 8], &[3, 16, 3, 3], &[16, 6, 6])).unwrap_err();
        assert_eq!(err.field, "x[1]");
        let mut spec = conv(&[3, 8, 8], &[3, 16, 3, 3], &[16, 6, 6]);
        spec.time_s = Some(-1.0);
        assert_eq!(Layer::new(spec.clone()).unwrap_err().field, "time_s");
        spec.time_s = Some(f64::NAN);
        assert_eq!(Layer::new(spec.clone()).unwrap_err().field, "time_s");
        spec.time_s = None;
        spec.name = "  ".into();
        assert_eq!(Layer::new(spec).unwrap_err().rule, Rule::Empty);
    }

    #[test]
    fn weightless_kinds_reject_weights() {
        let err = Layer::new(LayerSpec {
            name: "RELU".into(),
            kind: LayerKind::Relu,
            x: [4, 2, 2].into(),
            w: [4, 4, 1, 1].into(),
            y: [4, 2, 2].into(),
            time_s: None,
            time2_s: None,
            groups: 1,
            bias: false,
            reads: None,
            function: None,
            shares: None,
        })
        .unwrap_err();
        assert!(matches!(err.rule, Rule::UnexpectedWeights { items: 16, .. }));
    }

    #[test]
    fn kind_names_parse() {
        for kind in LayerKind::ALL {
            assert_eq!(kind.name().parse::<LayerKind>().unwrap(), kind);
        }
        assert!("lstm".parse::<LayerKind>().is_err());
    }
}
