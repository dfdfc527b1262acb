//! ResNet-18 and ResNet-152 from their published architecture (He et al.,
//! "Deep Residual Learning for Image Recognition", CVPR 2016, table 1):
//! 224×224 input, a 7×7/2 stem and 3×3/2 max pool, four stages at 56, 28,
//! 14 and 7 pixels, projection shortcuts (1×1 convolution and batch norm)
//! where a block changes shape, global average pool and a 1000-way fc.
//! As in the original tool's ResNet-50 file, a stage's stride sits in the
//! first convolution of its first block. Layer names follow the `.net`
//! convention so that the presets export to that format.

use crate::oracle::model::errors::InputError;
use crate::oracle::model::layer::{LayerKind, LayerSpec};
use crate::oracle::model::network::{DatasetSpec, Network, NetworkSpec};
use crate::oracle::model::shape::Shape;

use super::IMAGENET_SAMPLES;

/// Channels in and out of a block and the width of its output.
#[derive(Clone, Copy)]
struct Block {
    stage: u32,
    index: u32,
    in_channels: u64,
    out_channels: u64,
    /// Spatial size of the block's input and output.
    in_size: u64,
    out_size: u64,
}

struct Builder {
    layers: Vec<LayerSpec>,
}

impl Builder {
    fn push(&mut self, name: String, kind: LayerKind, x: [u64; 3], w: Vec<u64>, y: [u64; 3]) {
        self.push_reading(name, kind, x, w, y, None);
    }

    /// Adds a layer reading the outputs of the layers `reads` (`None`: the
    /// previous layer's).
    fn push_reading(
        &mut self,
        name: String,
        kind: LayerKind,
        x: [u64; 3],
        w: Vec<u64>,
        y: [u64; 3],
        reads: Option<Vec<i64>>,
    ) {
        self.layers.push(LayerSpec {
            name,
            kind,
            x: x.into(),
            w: Shape::new(w),
            y: y.into(),
            time_s: None,
            time2_s: None,
            groups: 1,
            bias: false,
            reads,
            function: None,
            shares: None,
        });
    }

    /// The index of the last layer added (the block's input before a block).
    fn last(&self) -> i64 {
        self.layers.len() as i64 - 1
    }

    /// A convolution followed by its batch norm (and a ReLU if `relu`).
    fn conv_bn(&mut self, name: String, x: [u64; 3], filters: u64, kernel: u64, out_size: u64, relu: bool) -> [u64; 3] {
        self.conv_bn_reading(name, x, filters, kernel, out_size, relu, None)
    }

    /// [`Builder::conv_bn`] whose convolution reads the output of layer
    /// `reads` (`None`: the previous layer's).
    #[allow(clippy::too_many_arguments)]
    fn conv_bn_reading(
        &mut self,
        name: String,
        x: [u64; 3],
        filters: u64,
        kernel: u64,
        out_size: u64,
        relu: bool,
        reads: Option<i64>,
    ) -> [u64; 3] {
        let y = [filters, out_size, out_size];
        self.push_reading(
            name,
            LayerKind::Conv,
            x,
            vec![x[0], filters, kernel, kernel],
            y,
            reads.map(|r| vec![r]),
        );
        self.push("BNORM".into(), LayerKind::Bn, y, vec![filters, filters, 0, 0], y);
        if relu {
            self.push("RELU".into(), LayerKind::Relu, y, vec![filters, filters, 0, 0], y);
        }
        y
    }

    /// The shortcut from the block's input, the output of layer `input`
    /// (a projection if the shape changes), the sum and ReLU.
    fn close(&mut self, block: Block, input: i64) {
        let x = [block.in_channels, block.in_size, block.in_size];
        let y = [block.out_channels, block.out_size, block.out_size];
        let main = self.last();
        let shortcut = if x == y {
            input
        } else {
            let name = format!("CONV_{}_{}_proj", block.stage, block.index);
            self.conv_bn_reading(name, x, block.out_channels, 1, block.out_size, false, Some(input));
            self.last()
        };
        self.push_reading(
            "ADD".into(),
            LayerKind::Add,
            y,
            vec![y[0], y[0], 0, 0],
            y,
            Some(vec![main, shortcut]),
        );
        self.push("RELU".into(), LayerKind::Relu, y, vec![y[0], y[0], 0, 0], y);
    }

    /// Two 3×3 convolutions.
    fn basic(&mut self, b: Block) {
        let name = |k: u32| format!("CONV_{}_{}_{k}", b.stage, b.index);
        let x = [b.in_channels, b.in_size, b.in_size];
        let input = self.last();
        let y = self.conv_bn(name(1), x, b.out_channels, 3, b.out_size, true);
        self.conv_bn(name(2), y, b.out_channels, 3, b.out_size, false);
        self.close(b, input);
    }

    /// 1×1 reduce, 3×3, 1×1 expand (×4).
    fn bottleneck(&mut self, b: Block) {
        let name = |k: u32| format!("CONV_{}_{}_{k}", b.stage, b.index);
        let mid = b.out_channels / 4;
        let x = [b.in_channels, b.in_size, b.in_size];
        let input = self.last();
        let y = self.conv_bn(name(1), x, mid, 1, b.out_size, true);
        let y = self.conv_bn(name(2), y, mid, 3, b.out_size, true);
        self.conv_bn(name(3), y, b.out_channels, 1, b.out_size, false);
        self.close(b, input);
    }
}

fn build(name: &str, blocks: [u32; 4], bottleneck: bool) -> Result<Network, InputError> {
    let mut b = Builder { layers: Vec::new() };
    let stem = b.conv_bn("CONV_1".into(), [3, 224, 224], 64, 7, 112, true);
    b.push("MPOOL".into(), LayerKind::Maxpool, stem, vec![0, 0, 3, 3], [64, 56, 56]);
    let expansion = if bottleneck { 4 } else { 1 };
    let mut channels = 64;
    let mut size = 56;
    for (s, &count) in blocks.iter().enumerate() {
        let stage = s as u32 + 2;
        let out_channels = (64 * expansion) << s;
        let out_size = 56 >> s;
        for index in 1..=count {
            let block = Block {
                stage,
                index,
                in_channels: channels,
                out_channels,
                in_size: size,
                out_size,
            };
            if bottleneck {
                b.bottleneck(block);
            } else {
                b.basic(block);
            }
            channels = out_channels;
            size = out_size;
        }
    }
    b.push(
        "APOOL".into(),
        LayerKind::Avgpool,
        [channels, 7, 7],
        vec![0, 0, 7, 7],
        [channels, 1, 1],
    );
    b.push(
        "FC".into(),
        LayerKind::Fc,
        [channels, 1, 1],
        vec![channels, 1000, 1, 1],
        [1000, 1, 1],
    );
    Network::new(NetworkSpec {
        name: name.into(),
        dataset: DatasetSpec {
            name: "ImageNet".into(),
            samples: IMAGENET_SAMPLES,
            sample_shape: [3, 224, 224].into(),
        },
        layers: b.layers,
        profiled_on: None,
        step: None,
    })
}

/// ResNet-18: basic blocks 2, 2, 2, 2.
pub fn resnet18() -> Result<Network, InputError> {
    build("ResNet18", [2, 2, 2, 2], false)
}

/// ResNet-152: bottleneck blocks 3, 8, 36, 3.
pub fn resnet152() -> Result<Network, InputError> {
    build("ResNet152", [3, 8, 36, 3], true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parameters as torchvision counts them: conv and fc weights, two per
    /// batch-norm channel, and the fc bias.
    fn torchvision_parameters(net: &Network) -> f64 {
        let bn: f64 = net
            .layers()
            .iter()
            .filter(|l| l.kind() == LayerKind::Bn)
            .map(|l| 2.0 * l.x().channels() as f64)
            .sum();
        net.weight_items() + bn + 1000.0
    }

    #[test]
    fn parameter_counts_match_torchvision() {
        // torchvision.models.resnet18().parameters(): 11,689,512
        assert_eq!(torchvision_parameters(&resnet18().unwrap()), 11_689_512.0);
        // torchvision.models.resnet152().parameters(): 60,192,808
        assert_eq!(torchvision_parameters(&resnet152().unwrap()), 60_192_808.0);
    }

    #[test]
    fn conv_weights_and_shortcuts() {
        let r18 = resnet18().unwrap();
        let convs = r18.layers().iter().filter(|l| l.kind() == LayerKind::Conv).count();
        assert_eq!(convs, 1 + 16 + 3, "stem, 16 block convs, 3 projections");
        let r152 = resnet152().unwrap();
        let convs = r152.layers().iter().filter(|l| l.kind() == LayerKind::Conv).count();
        assert_eq!(convs, 1 + 150 + 4, "stem, 150 block convs, 4 projections");
        assert_eq!(r152.layers().last().unwrap().y().dims(), &[1000, 1, 1]);
    }

    #[test]
    fn multiply_adds_match_the_paper() {
        // He et al. table 1: 1.8 and 11.3 billion FLOPs (multiply-adds)
        let macs = |n: &Network| n.forward_flops() / 2.0 / 1e9;
        assert!(
            (macs(&resnet18().unwrap()) - 1.8).abs() < 0.05,
            "{}",
            macs(&resnet18().unwrap())
        );
        assert!(
            (macs(&resnet152().unwrap()) - 11.3).abs() < 0.3,
            "{}",
            macs(&resnet152().unwrap())
        );
    }
}
