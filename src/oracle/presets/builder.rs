//! A small builder of layer lists for the presets written from published
//! architectures: each call adds a layer to the list (in topological
//! order) and returns the shape of its output, so that branches and joins
//! are written as the papers draw them.

use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{LayerKind, LayerSpec};
use crate::oracle::model::network::{DatasetSpec, Network, NetworkSpec};
use crate::oracle::model::shape::Shape;

/// A tensor's shape: channels, then spatial sizes.
pub type Dims = Vec<u64>;

/// How a convolution is set: kernel, stride, padding, groups, bias.
#[derive(Debug, Clone, Copy)]
pub struct Conv {
    /// Kernel size (the same along every spatial dimension).
    pub kernel: u64,
    /// Stride.
    pub stride: u64,
    /// Padding on each side.
    pub pad: u64,
    /// Groups.
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
    fn push(&mut self, name: &str, kind: LayerKind, x: &[u64], w: Dims, y: Dims) -> Dims {
        self.layers.push(LayerSpec::plain(
            name,
            kind,
            Shape::new(x.to_vec()),
            Shape::new(w),
            Shape::new(y.clone()),
        ));
        y
    }

    /// A convolution with `filters` outputs.
    ///
    /// # Formula
    /// Each spatial size becomes `⌊(s + 2·pad − k)/stride⌋ + 1`.
    pub fn conv(&mut self, name: &str, x: &[u64], filters: u64, c: Conv) -> Dims {
        let spatial = &x[1..];
        let mut w = vec![x[0], filters];
        w.extend(spatial.iter().map(|_| c.kernel));
        let mut y = vec![filters];
        y.extend(spatial.iter().map(|&s| window(s, c.kernel, c.stride, c.pad)));
        let y = self.push(name, LayerKind::Conv, x, w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.groups = c.groups;
            layer.bias = c.bias;
        }
        y
    }

    /// A transposed convolution `k`-wide with stride `k` (an
    /// up-convolution multiplying each spatial size by `k`), with a bias.
    pub fn upconv(&mut self, name: &str, x: &[u64], filters: u64, k: u64) -> Dims {
        let mut w = vec![x[0], filters];
        w.extend(x[1..].iter().map(|_| k));
        let mut y = vec![filters];
        y.extend(x[1..].iter().map(|&s| s * k));
        let y = self.push(name, LayerKind::Deconv, x, w, y);
        if let Some(layer) = self.layers.last_mut() {
            layer.bias = true;
        }
        y
    }

    /// A convolution, its batch norm, and an activation layer of `then`
    /// (relu, or act for the others) if any.
    pub fn conv_bn(&mut self, name: &str, x: &[u64], filters: u64, c: Conv, then: Option<LayerKind>) -> Dims {
        let y = self.conv(name, x, filters, c);
        let y = self.norm(&format!("{name}.bn"), LayerKind::Bn, &y);
        match then {
            Some(kind) => self.same(&format!("{name}.{}", kind.name()), kind, &y),
            None => y,
        }
    }

    /// A normalisation (bn, or ln for layer and instance norms) with its
    /// scale and bias.
    pub fn norm(&mut self, name: &str, kind: LayerKind, x: &[u64]) -> Dims {
        self.push(name, kind, x, vec![2, x[0]], x.to_vec())
    }

    /// A weightless layer that keeps the shape (relu, act, add, dropout).
    pub fn same(&mut self, name: &str, kind: LayerKind, x: &[u64]) -> Dims {
        self.push(name, kind, x, Vec::new(), x.to_vec())
    }

    /// An elementwise product; `scale`: with a trained per-channel scale.
    pub fn mul(&mut self, name: &str, x: &[u64], scale: bool) -> Dims {
        let w = if scale { vec![1, x[0]] } else { Vec::new() };
        self.push(name, LayerKind::Mul, x, w, x.to_vec())
    }

    /// A max or average pool.
    pub fn pool(&mut self, name: &str, kind: LayerKind, x: &[u64], kernel: u64, stride: u64, pad: u64) -> Dims {
        let mut w = vec![0, 0];
        w.extend(x[1..].iter().map(|_| kernel));
        let mut y = vec![x[0]];
        y.extend(x[1..].iter().map(|&s| window(s, kernel, stride, pad)));
        self.push(name, kind, x, w, y)
    }

    /// A global average pool.
    pub fn global_pool(&mut self, name: &str, x: &[u64]) -> Dims {
        let mut w = vec![0, 0];
        w.extend(&x[1..]);
        let mut y = vec![x[0]];
        y.extend(x[1..].iter().map(|_| 1));
        self.push(name, LayerKind::Avgpool, x, w, y)
    }

    /// A concatenation of `parts` along the channels.
    pub fn concat(&mut self, name: &str, parts: &[&[u64]]) -> Dims {
        let mut y = parts.first().map(|p| p.to_vec()).unwrap_or_default();
        if let Some(c) = y.first_mut() {
            *c = parts.iter().map(|p| p[0]).sum();
        }
        self.push(name, LayerKind::Concat, &y.clone(), Vec::new(), y)
    }

    /// A fully connected layer with a bias, reading `x` whole.
    pub fn fc(&mut self, name: &str, x: &[u64], outputs: u64) -> Dims {
        let mut w = vec![x[0], outputs];
        w.extend(&x[1..]);
        let mut y = vec![outputs];
        y.extend(x[1..].iter().map(|_| 1));
        let y = self.push(name, LayerKind::Fc, x, w, y);
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
