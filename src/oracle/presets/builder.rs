//! A small builder of layer lists for the presets written from published
//! architectures: each call adds a layer to the list (in topological
//! order) and returns its output tensor, so that branches and joins are
//! written as the papers draw them, and each layer knows the tensors it
//! reads.

use std::ops::Deref;

use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{Function, LayerKind, LayerSpec};
use crate::oracle::model::network::{DatasetSpec, Network, NetworkSpec};
use crate::oracle::model::shape::Shape;

/// A tensor: its shape (channels, then spatial sizes) and the layer that
/// wrote it (`None`: the network's input).
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    dims: Vec<u64>,
    producer: Option<usize>,
}

impl Tensor {
    /// The network's input, of shape `dims`.
    pub fn input(dims: &[u64]) -> Self {
        Self {
            dims: dims.to_vec(),
            producer: None,
        }
    }
}

impl Deref for Tensor {
    type Target = [u64];

    fn deref(&self) -> &[u64] {
        &self.dims
    }
}

/// What follows a convolution and its norm: a ReLU or an activation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Then {
    /// A ReLU.
    Relu,
    /// An activation of this function.
    Act(Function),
}

/// How a convolution is set: kernel, stride, padding, groups, bias.
#[derive(Debug, Clone, Copy)]
pub struct Conv {
    /// Kernel size (the same along every spatial dimension).
    pub kernel: u64,
    pub stride: u64,
    /// Padding on each side.
    pub pad: u64,
    pub groups: u64,
    /// A bias.
    pub bias: bool,
}

impl Conv {
    /// A `kernel`-wide convolution with "same" padding (`⌊k/2⌋`), stride 1,
    /// one group, no bias.
    pub fn new(kernel: u64) -> Self {
        Self {
            kernel,
            stride: 1,
            pad: kernel / 2,
            groups: 1,
            bias: false,
        }
    }

    /// With a stride.
    #[must_use]
    pub fn stride(self, stride: u64) -> Self {
        Self { stride, ..self }
    }

    /// With a padding.
    #[must_use]
    pub fn pad(self, pad: u64) -> Self {
        Self { pad, ..self }
    }

    /// In groups (`channels`: depthwise).
    #[must_use]
    pub fn groups(self, groups: u64) -> Self {
        Self { groups, ..self }
    }

    /// With a bias.
    #[must_use]
    pub fn bias(self) -> Self {
        Self { bias: true, ..self }
    }
}

/// The layers so far.
#[derive(Debug, Default)]
pub struct Builder {
    layers: Vec<LayerSpec>,
}

fn window(size: u64, kernel: u64, stride: u64, pad: u64) -> u64 {
    (size + 2 * pad).saturating_sub(kernel) / stride.max(1) + 1
}

impl Builder {
    /// Adds a layer of input shape `x` reading `reads`, with output `y`.
    fn push(&mut self, name: &str, kind: LayerKind, x: &[u64], reads: &[&Tensor], w: Vec<u64>, y: Vec<u64>) -> Tensor {
        let index = self.layers.len();
        let mut layer = LayerSpec::plain(name, kind, Shape::new(x.to_vec()), Shape::new(w), Shape::new(y.clone()));
        let reads: Vec<i64> = reads.iter().map(|t| t.producer.map_or(-1, |p| p as i64)).collect();
        layer.set_reads(index, self.layers.last(), reads);
        self.layers.push(layer);
        Tensor {
            dims: y,
            producer: Some(index),
        }
    }

    /// A convolution with `filters` outputs.
    ///
    /// # Formula
    /// Each spatial size becomes `⌊(s + 2·pad − k)/stride⌋ + 1`.
    pub fn conv(&mut self, name: &str, x: &Tensor, filters: u64, c: Conv) -> Tensor {
        let spatial = &x[1..];
        let mut w = vec![x[0], filters];
        w.extend(spatial.iter().map(|_| c.kernel));
        let mut y = vec![filters];
        y.extend(spatial.iter().map(|&s| window(s, c.kernel, c.stride, c.pad)));
        let y = self.push(name, LayerKind::Conv, x, &[x], w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.groups = c.groups;
            layer.bias = c.bias;
        }
        y
    }

    /// A transposed convolution `k`-wide with stride `k` (an
    /// up-convolution multiplying each spatial size by `k`), with a bias.
    pub fn upconv(&mut self, name: &str, x: &Tensor, filters: u64, k: u64) -> Tensor {
        let mut w = vec![x[0], filters];
        w.extend(x[1..].iter().map(|_| k));
        let mut y = vec![filters];
        y.extend(x[1..].iter().map(|&s| s * k));
        let y = self.push(name, LayerKind::Deconv, x, &[x], w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.bias = true;
        }
        y
    }

    /// A convolution, its batch norm, and `then` (a ReLU or an activation)
    /// if any.
    pub fn conv_bn(&mut self, name: &str, x: &Tensor, filters: u64, c: Conv, then: Option<Then>) -> Tensor {
        let y = self.conv(name, x, filters, c);
        let y = self.norm(&format!("{name}.bn"), LayerKind::Bn, &y);
        self.then(name, &y, then)
    }

    /// `then` applied to `x`: a ReLU, an activation, or `x` itself.
    pub fn then(&mut self, name: &str, x: &Tensor, then: Option<Then>) -> Tensor {
        match then {
            Some(Then::Relu) => self.same(&format!("{name}.relu"), LayerKind::Relu, x),
            Some(Then::Act(function)) => self.act(&format!("{name}.{}", function.name()), x, function),
            None => x.clone(),
        }
    }

    /// A normalisation (bn, or ln for layer and instance norms) with its
    /// scale and bias.
    pub fn norm(&mut self, name: &str, kind: LayerKind, x: &Tensor) -> Tensor {
        self.push(name, kind, x, &[x], vec![2, x[0]], x.to_vec())
    }

    /// A weightless layer that keeps the shape (relu, act, dropout).
    pub fn same(&mut self, name: &str, kind: LayerKind, x: &Tensor) -> Tensor {
        self.push(name, kind, x, &[x], Vec::new(), x.to_vec())
    }

    /// An activation of `function`.
    pub fn act(&mut self, name: &str, x: &Tensor, function: Function) -> Tensor {
        let y = self.same(name, LayerKind::Act, x);
        if let Some(layer) = self.layers.last_mut() {
            layer.function = Some(function);
        }
        y
    }

    /// The sum of `x` and `other` (a residual join).
    pub fn add(&mut self, name: &str, x: &Tensor, other: &Tensor) -> Tensor {
        self.push(name, LayerKind::Add, x, &[x, other], Vec::new(), x.to_vec())
    }

    /// An elementwise product of `x` by a trained per-channel scale (a
    /// layer scale).
    pub fn scale(&mut self, name: &str, x: &Tensor) -> Tensor {
        self.push(name, LayerKind::Mul, x, &[x], vec![1, x[0]], x.to_vec())
    }

    /// An elementwise product of `x` by `gate` (a squeeze-and-excitation
    /// scale).
    pub fn gate(&mut self, name: &str, x: &Tensor, gate: &Tensor) -> Tensor {
        self.push(name, LayerKind::Mul, x, &[x, gate], Vec::new(), x.to_vec())
    }

    /// A squeeze-and-excitation of `x` named `name`: a global average
    /// pool, a 1×1 convolution with a bias to `squeezed` channels and
    /// `then`, a 1×1 convolution with a bias back, a sigmoid, and `x`
    /// scaled by it.
    pub fn squeeze_excitation(&mut self, name: &str, x: &Tensor, squeezed: u64, then: Then) -> Tensor {
        let s = self.global_pool(&format!("{name}.pool"), x);
        let s = self.conv(&format!("{name}.fc1"), &s, squeezed, Conv::new(1).bias());
        let s = self.then(name, &s, Some(then));
        let s = self.conv(&format!("{name}.fc2"), &s, x[0], Conv::new(1).bias());
        let s = self.act(&format!("{name}.sigmoid"), &s, Function::Sigmoid);
        self.gate(&format!("{name}.scale"), x, &s)
    }

    /// A max or average pool.
    pub fn pool(&mut self, name: &str, kind: LayerKind, x: &Tensor, kernel: u64, stride: u64, pad: u64) -> Tensor {
        let mut w = vec![0, 0];
        w.extend(x[1..].iter().map(|_| kernel));
        let mut y = vec![x[0]];
        y.extend(x[1..].iter().map(|&s| window(s, kernel, stride, pad)));
        self.push(name, kind, x, &[x], w, y)
    }

    /// A global average pool.
    pub fn global_pool(&mut self, name: &str, x: &Tensor) -> Tensor {
        let mut w = vec![0, 0];
        w.extend(&x[1..]);
        let mut y = vec![x[0]];
        y.extend(x[1..].iter().map(|_| 1));
        self.push(name, LayerKind::Avgpool, x, &[x], w, y)
    }

    /// A concatenation of `parts` along the channels.
    pub fn concat(&mut self, name: &str, parts: &[&Tensor]) -> Tensor {
        let mut y = parts.first().map(|p| p.to_vec()).unwrap_or_default();
        if let Some(c) = y.first_mut() {
            *c = parts.iter().map(|p| p[0]).sum();
        }
        self.push(name, LayerKind::Concat, &y.clone(), parts, Vec::new(), y)
    }

    /// The first `channels` channels of `x` times a constant (attention's
    /// queries scaled by `1/√d`, a view of the projection they come from).
    pub fn slice_scale(&mut self, name: &str, x: &Tensor, channels: u64) -> Tensor {
        let mut dims = x.to_vec();
        if let Some(c) = dims.first_mut() {
            *c = channels;
        }
        self.push(name, LayerKind::Mul, &dims.clone(), &[x], Vec::new(), dims)
    }

    /// The product of `x` by `other`, head by head (section 15): for each
    /// of `x`'s positions, `outputs` items (a row per head).
    pub fn product(&mut self, name: &str, x: &Tensor, other: &Tensor, heads: u64, outputs: u64) -> Tensor {
        let mut y = x.to_vec();
        if let Some(c) = y.first_mut() {
            *c = outputs;
        }
        let y = self.push(name, LayerKind::Matmul, x, &[x, other], Vec::new(), y);
        if let Some(layer) = self.layers.last_mut() {
            layer.groups = heads;
        }
        y
    }

    /// A vision transformer's tokens: the patches `x` as one row of
    /// positions, a trained class token before them and a trained position
    /// embedding added, `tokens` in all (the patches and the class token).
    pub fn tokens(&mut self, name: &str, x: &Tensor, tokens: u64) -> Tensor {
        let positions: u64 = x[1..].iter().product();
        let width = x[0];
        self.push(
            name,
            LayerKind::Other,
            &[width, positions],
            &[x],
            vec![tokens + 1, width],
            vec![width, tokens],
        )
    }

    /// The class token of the tokens `x` (the first position): a view, no
    /// layer.
    pub fn class_token(&mut self, _name: &str, x: &Tensor) -> Tensor {
        Tensor {
            dims: vec![x[0], 1],
            producer: x.producer,
        }
    }

    /// A linear layer at each position of `x` (a transformer's `nn.Linear`
    /// on its tokens, section 15), with a bias or not: a GEMM over the
    /// positions.
    pub fn linear(&mut self, name: &str, x: &Tensor, outputs: u64, bias: bool) -> Tensor {
        let mut w = vec![x[0], outputs];
        w.extend(x[1..].iter().map(|_| 1));
        let mut y = vec![outputs];
        y.extend(&x[1..]);
        let y = self.push(name, LayerKind::Fc, x, &[x], w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.bias = bias;
        }
        y
    }

    /// A trained table added to `x` (a relative position bias, its values
    /// gathered for every query and key): an `other` layer holding the
    /// table `w`, of `x`'s shape.
    pub fn table(&mut self, name: &str, x: &Tensor, w: Vec<u64>) -> Tensor {
        self.push(name, LayerKind::Other, x, &[x], w, x.to_vec())
    }

    /// `k×k` neighbouring positions joined into `k²·C` channels (a patch
    /// merging's space-to-depth): a copy, no weights.
    pub fn space_to_depth(&mut self, name: &str, x: &Tensor, k: u64) -> Tensor {
        let mut y = vec![x[0] * k.pow(x[1..].len() as u32)];
        y.extend(x[1..].iter().map(|&s| s / k.max(1)));
        self.push(name, LayerKind::Other, x, &[x], Vec::new(), y)
    }

    /// A fully connected layer with a bias, reading `x` whole.
    pub fn fc(&mut self, name: &str, x: &Tensor, outputs: u64) -> Tensor {
        let mut w = vec![x[0], outputs];
        w.extend(&x[1..]);
        let mut y = vec![outputs];
        y.extend(x[1..].iter().map(|_| 1));
        let y = self.push(name, LayerKind::Fc, x, &[x], w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.bias = true;
        }
        y
    }

    /// The network.
    ///
    /// # Errors
    /// An [`InputError`] if a layer breaks a rule (the presets' tests
    /// prove none does).
    pub fn network(self, name: &str, dataset: &str, samples: u64, sample: &[u64]) -> Result<Network, InputError> {
        Network::new(NetworkSpec {
            name: name.into(),
            dataset: DatasetSpec {
                name: dataset.into(),
                samples,
                sample_shape: Shape::new(sample.to_vec()),
            },
            layers: self.layers,
            profiled_on: None,
            step: None,
        })
    }
}
