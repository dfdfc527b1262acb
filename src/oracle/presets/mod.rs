//! Built-in networks and clusters.
//!
//! The networks `alexnet`, `vgg16`, `resnet50`, `cosmoflow` and
//! `cosmoflow-256` are the original tool's files (in `reference/`), read by
//! the `.net` importer, with their profiled times. `resnet18`,
//! `resnet152`, `mobilenet-v2`, `efficientnet-b0`, `convnext-tiny`,
//! `resnext50`, `resnext101`, `seresnext101`, `densenet121`, `unet3d`, `resnet50-torchvision` and
//! `vgg16-torchvision`, and the transformers `vit-b16`, `deit-s`,
//! `deit-ti`, `swin-t`, and the hybrids `mobilevit-s` and `coatnet-0`, are built from their published
//! architectures (each file says which). The clusters are described in
//! [`clusters`].

mod builder;
pub mod clusters;
mod coatnet;
mod convnext;
mod densenet;
pub use super::model::devices;
mod efficientnet;
mod mobilenet;
mod mobilevit;
pub mod node;
mod resnet;
mod resnext;
mod swin;
mod transformer;
mod unet3d;
mod vgg;
mod vit;

/// ImageNet-1k training images (ILSVRC 2012).
pub const IMAGENET_SAMPLES: u64 = 1_281_167;

use super::formats::net;
use super::model::cluster::{Cluster, ClusterSpec};
use super::model::convergence::Convergence;
use super::model::errors::{InputError, OracleError, Rule};
use super::model::network::Network;
use super::model::practice::Precision;
use super::scenario::Scenario;

/// The samples per GPU ImageNet CNNs are usually trained with.
const IMAGENET_PER_GPU: (f64, &str) = (
    32.0,
    "32 images per GPU, the per-GPU batch of Goyal et al. (2017, Accurate, Large Minibatch SGD: ImageNet in 1 hour)",
);

/// How ImageNet CNNs converge as the global batch grows: ResNet-50's
/// MLPerf reference runs, the only ImageNet CNN with published convergence
/// at many global batches.
const IMAGENET_CONVERGENCE: (&str, &str) = (
    "mlperf-resnet50",
    "ResNet-50's MLPerf reference runs (LARS), borrowed: no other ImageNet CNN has published convergence at many global batches",
);

/// DeiT's recipe: a batch of 1,024 on one node of 8 GPUs.
const DEIT_PER_GPU: (f64, &str) = (
    128.0,
    "128 images per GPU: DeiT's batch of 1,024 on one node of 8 GPUs (Touvron et al. 2021, Training data-efficient image transformers, section 5 and Table 9)",
);

/// How vision transformers train: DeiT's 300 epochs.
const DEIT_CONVERGENCE: (&str, &str) = (
    "deit-adamw",
    "DeiT's recipe (AdamW, 300 epochs at a batch of 1,024): no vision transformer has published convergence at many global batches",
);

/// ResNet-50's own.
const RESNET50_CONVERGENCE: (&str, &str) = ("mlperf-resnet50", "ResNet-50's own MLPerf reference runs (LARS)");

/// CosmoFlow's.
const COSMOFLOW_CONVERGENCE: (&str, &str) = (
    "mlperf-hpc-cosmoflow",
    "CosmoFlow's MLPerf HPC reference runs (on 128³ samples: an epoch is one pass over the samples, whatever their size)",
);

/// How a network preset is made.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// A ParaDL `.net` file: its name and text.
    File(&'static str, &'static str),
    /// A ParaDL `.net` file with a typo corrected: its name, text, and the
    /// line as written and as read.
    Corrected(&'static str, &'static str, (&'static str, &'static str)),
    /// Built in code.
    Built(fn() -> Result<Network, InputError>),
}

/// A built-in network.
#[derive(Debug, Clone, Copy)]
pub struct NetworkPreset {
    /// Name for `--model` and the URL.
    pub key: &'static str,
    /// Name for people.
    pub title: &'static str,
    /// Where its layers and times come from.
    pub origin: &'static str,
    /// Samples per GPU it is usually trained with, and who says so (the
    /// app applies it when the preset is picked).
    pub usual_samples_per_gpu: (f64, &'static str),
    /// The convergence curve its time to train follows (a key of
    /// [`crate::oracle::model::convergence::CURVES`]), and why.
    pub convergence: (&'static str, &'static str),
    source: Source,
}

impl NetworkPreset {
    /// The network.
    ///
    /// # Errors
    /// Never for the shipped presets (their tests prove it); an error names
    /// the broken line or field.
    pub fn build(&self) -> Result<Network, OracleError> {
        match self.source {
            // the reference files' times were profiled on ABCI's V100
            Source::File(..) | Source::Corrected(..) => {
                let text = self.text_as_read().unwrap_or_default();
                Ok(net::parse(&text)?.profiled_on_gpu(clusters::abci_v100()))
            }
            Source::Built(build) => Ok(build()?),
        }
    }

    /// The text of a file-based preset as it is read: the file, with its
    /// typo corrected where it has one.
    pub fn text_as_read(&self) -> Option<std::borrow::Cow<'static, str>> {
        match self.source {
            Source::File(_, text) => Some(text.into()),
            Source::Corrected(_, text, (written, read)) => Some(text.replacen(written, read, 1).into()),
            Source::Built(_) => None,
        }
    }

    /// The original ParaDL file, for file-based presets.
    pub fn file(&self) -> Option<(&'static str, &'static str)> {
        match self.source {
            Source::File(name, text) | Source::Corrected(name, text, _) => Some((name, text)),
            Source::Built(_) => None,
        }
    }
}

macro_rules! reference {
    ($file:literal) => {
        Source::File($file, include_str!(concat!("reference/", $file)))
    };
}

/// Every built-in network.
pub const NETWORKS: [NetworkPreset; 23] = [
    NetworkPreset {
        key: "alexnet",
        title: "AlexNet (ImageNet)",
        origin: "ParaDL's ALEXNET_ImageNet_profall.net_sc: layer shapes and a profiled time of 0.61 ms per sample on a V100",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: reference!("ALEXNET_ImageNet_profall.net_sc"),
    },
    NetworkPreset {
        key: "vgg16",
        title: "VGG-16 (ImageNet)",
        origin: "ParaDL's VGG_ImageNet_profall.net_sc: layer shapes and a profiled time of 8.2 ms per sample on a V100; its layer file holds 169.8 M parameters, not torchvision's 138.4 M: for torchvision's network pick VGG-16 (torchvision)",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: reference!("VGG_ImageNet_profall.net_sc"),
    },
    NetworkPreset {
        key: "resnet18",
        title: "ResNet-18 (ImageNet)",
        origin: "He et al. 2016, 224x224 input, with projection shortcuts; compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(resnet::resnet18),
    },
    NetworkPreset {
        key: "resnet50",
        title: "ResNet-50 (ImageNet)",
        origin: "ParaDL's RESNET50_ImageNet_profall.net_sc: layer shapes and a profiled time of 3.12 ms per sample on a V100; its layer file holds 22.7 M parameters, not torchvision's 25.6 M: for torchvision's network pick ResNet-50 (torchvision)",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: RESNET50_CONVERGENCE,
        source: reference!("RESNET50_ImageNet_profall.net_sc"),
    },
    NetworkPreset {
        key: "resnet152",
        title: "ResNet-152 (ImageNet)",
        origin: "He et al. 2016, 224x224 input, with projection shortcuts; compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(resnet::resnet152),
    },
    NetworkPreset {
        key: "cosmoflow",
        title: "CosmoFlow (512³)",
        origin: "ParaDL's COSMOFLOW.net: 3D layer shapes and a profiled time of 2.11 s per sample on a V100",
        usual_samples_per_gpu: (
            0.25,
            "CosmoFlow was trained with a quarter of a sample per GPU: each sample split over 4 GPUs (ParaDL, HPDC 2021)",
        ),
        convergence: COSMOFLOW_CONVERGENCE,
        source: reference!("COSMOFLOW.net"),
    },
    NetworkPreset {
        key: "cosmoflow-256",
        title: "CosmoFlow (256³)",
        origin: "ParaDL's COSMOFLOW.net_256: 3D layer shapes and a profiled time of 0.26 s per sample on a V100; its second ReLU's input, written 32x2128x128x128 (a typo), is read as 32x128x128x128, the output of the convolution before it",
        usual_samples_per_gpu: (
            1.0,
            "one sample per GPU, as MLPerf HPC's CosmoFlow runs train (128³ samples, one a GPU: mlcommons/hpc_results v1.0-v3.0, NVIDIA's logs)",
        ),
        convergence: COSMOFLOW_CONVERGENCE,
        source: Source::Corrected(
            "COSMOFLOW.net_256",
            include_str!("reference/COSMOFLOW.net_256"),
            ("RELU|32x2128x128x128|", "RELU|32x128x128x128|"),
        ),
    },
    NetworkPreset {
        key: "mobilenet-v2",
        title: "MobileNetV2 (ImageNet)",
        origin: "Sandler et al. 2018 as torchvision's mobilenet_v2 (3,504,872 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(mobilenet::mobilenet_v2),
    },
    NetworkPreset {
        key: "efficientnet-b0",
        title: "EfficientNet-B0 (ImageNet)",
        origin: "Tan and Le 2019 as torchvision's efficientnet_b0 (5,288,548 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(efficientnet::efficientnet_b0),
    },
    NetworkPreset {
        key: "convnext-tiny",
        title: "ConvNeXt-Tiny (ImageNet)",
        origin: "Liu et al. 2022 as torchvision's convnext_tiny (28,589,128 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(convnext::convnext_tiny),
    },
    NetworkPreset {
        key: "resnext50",
        title: "ResNeXt-50 32x4d (ImageNet)",
        origin: "Xie et al. 2017 as torchvision's resnext50_32x4d (25,028,904 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(resnext::resnext50_32x4d),
    },
    NetworkPreset {
        key: "resnext101",
        title: "ResNeXt-101 32x4d (ImageNet)",
        origin: "Xie et al. 2017 as NVIDIA's DeepLearningExamples and timm's resnext101_32x4d (44,177,704 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(resnext::resnext101_32x4d),
    },
    NetworkPreset {
        key: "seresnext101",
        title: "SE-ResNeXt-101 32x4d (ImageNet)",
        origin: "Hu et al. 2018 as NVIDIA's DeepLearningExamples and timm's seresnext101_32x4d (48,955,416 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(resnext::seresnext101_32x4d),
    },
    NetworkPreset {
        key: "resnet50-torchvision",
        title: "ResNet-50 (torchvision)",
        origin: "He et al. 2016 as torchvision's resnet50 (25,557,032 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: RESNET50_CONVERGENCE,
        source: Source::Built(resnext::resnet50),
    },
    NetworkPreset {
        key: "vgg16-torchvision",
        title: "VGG-16 (torchvision)",
        origin: "Simonyan and Zisserman 2015 as torchvision's vgg16 (138,357,544 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(vgg::vgg16),
    },
    NetworkPreset {
        key: "densenet121",
        title: "DenseNet-121 (ImageNet)",
        origin: "Huang et al. 2017 as torchvision's densenet121 (7,978,856 parameters); compute from FLOPs",
        usual_samples_per_gpu: IMAGENET_PER_GPU,
        convergence: IMAGENET_CONVERGENCE,
        source: Source::Built(densenet::densenet121),
    },
    NetworkPreset {
        key: "unet3d",
        title: "3D U-Net (KiTS19, MLPerf)",
        origin: "MLPerf Training's image segmentation 3D U-Net (after Çiçek et al. 2016), 128³ patches; compute from FLOPs",
        usual_samples_per_gpu: (
            7.0,
            "7 patches per GPU, as NVIDIA's MLPerf Training 3D U-Net runs on one DGX A100 (v1.0-v2.0 result logs: tests/validation/mlperf-unet3d.csv)",
        ),
        convergence: ("mlperf-unet3d", "3D U-Net's own MLPerf reference runs (KiTS19)"),
        source: Source::Built(unet3d::unet3d),
    },
    NetworkPreset {
        key: "vit-b16",
        title: "ViT-B/16 (DeiT-B, ImageNet)",
        origin: "Dosovitskiy et al. 2021 as timm's vit_base_patch16_224 (86,567,656 parameters), 197 tokens, 12 heads; attention as two products and a softmax (section 15); compute from FLOPs",
        usual_samples_per_gpu: DEIT_PER_GPU,
        convergence: DEIT_CONVERGENCE,
        source: Source::Built(vit::vit_b16),
    },
    NetworkPreset {
        key: "deit-s",
        title: "DeiT-S (ViT-S/16, ImageNet)",
        origin: "Touvron et al. 2021 as timm's deit_small_patch16_224 (22,050,664 parameters), 197 tokens, 6 heads; compute from FLOPs",
        usual_samples_per_gpu: DEIT_PER_GPU,
        convergence: DEIT_CONVERGENCE,
        source: Source::Built(vit::deit_s),
    },
    NetworkPreset {
        key: "deit-ti",
        title: "DeiT-Ti (ViT-Ti/16, ImageNet)",
        origin: "Touvron et al. 2021 as timm's vit_tiny_patch16_224 and deit_tiny_patch16_224 (5,717,416 parameters), 197 tokens, 3 heads; compute from FLOPs",
        usual_samples_per_gpu: DEIT_PER_GPU,
        convergence: DEIT_CONVERGENCE,
        source: Source::Built(vit::deit_ti),
    },
    NetworkPreset {
        key: "swin-t",
        title: "Swin-T (ImageNet)",
        origin: "Liu et al. 2021 as timm's swin_tiny_patch4_window7_224 (28,288,354 parameters), attention in 7x7 windows with a relative position bias; compute from FLOPs",
        usual_samples_per_gpu: DEIT_PER_GPU,
        convergence: (
            "deit-adamw",
            "DeiT's recipe, which Swin follows (AdamW, 300 epochs at a batch of 1,024: Liu et al. 2021, section 4.1)",
        ),
        source: Source::Built(swin::swin_t),
    },
    NetworkPreset {
        key: "mobilevit-s",
        title: "MobileViT-S (ImageNet, 256x256)",
        origin: "Mehta and Rastegari 2022 as timm builds MobileViT-S (5,578,632 parameters): inverted residual blocks and three MobileViT blocks, attention over the tokens at one place of every 2x2 patch; compute from FLOPs",
        usual_samples_per_gpu: (
            128.0,
            "128 images per GPU: MobileViT's batch of 1,024 on 8 GPUs (Mehta and Rastegari 2022, section 4.1)",
        ),
        convergence: (
            "deit-adamw",
            "DeiT's recipe, which MobileViT's follows (AdamW, 300 epochs at a batch of 1,024: Mehta and Rastegari 2022, section 4.1)",
        ),
        source: Source::Built(mobilevit::mobilevit_s),
    },
    NetworkPreset {
        key: "coatnet-0",
        title: "CoAtNet-0 (ImageNet)",
        origin: "Dai et al. 2021 as timm builds CoAtNet-0 (25,036,820 parameters): two stages of MBConv blocks, then two of transformer blocks attending to the whole map with a relative position bias; compute from FLOPs",
        usual_samples_per_gpu: (
            128.0,
            "128 images per GPU, as DeiT's recipe runs on one node of 8 GPUs (CoAtNet itself trained on TPUs at a batch of 4,096: Dai et al. 2021)",
        ),
        convergence: (
            "deit-adamw",
            "DeiT's recipe, which CoAtNet's ImageNet-1K training follows (AdamW, 300 epochs at a batch of 4,096 there: Dai et al. 2021)",
        ),
        source: Source::Built(coatnet::coatnet_0),
    },
];

/// A built-in cluster.
#[derive(Debug, Clone, Copy)]
pub struct ClusterPreset {
    /// Name for `--cluster` and the URL.
    pub key: &'static str,
    /// Name for people.
    pub title: &'static str,
    /// The precision its runs use where it is not its GPU's usual one, and
    /// who says so.
    pub precision: Option<(Precision, &'static str)>,
    build: fn() -> ClusterSpec,
}

impl ClusterPreset {
    /// The cluster.
    ///
    /// # Errors
    /// Never for the shipped presets (their tests prove it).
    pub fn build(&self) -> Result<Cluster, OracleError> {
        Ok(Cluster::new((self.build)())?)
    }
}

/// Every built-in cluster.
pub const CLUSTERS: [ClusterPreset; 10] = [
    ClusterPreset {
        key: "abci",
        title: "ABCI (V100, EDR)",
        precision: Some((
            Precision::Fp32,
            "FP32, as ParaDL's measured runs on ABCI trained (Chainer, 2019-2020)",
        )),
        build: clusters::abci,
    },
    ClusterPreset {
        key: "dgx-a100",
        title: "DGX A100 SuperPOD (HDR)",
        precision: None,
        build: clusters::dgx_a100,
    },
    ClusterPreset {
        key: "dgx-h100",
        title: "DGX H100 SuperPOD (NDR)",
        precision: None,
        build: clusters::dgx_h100,
    },
    ClusterPreset {
        key: "dgx-h200",
        title: "DGX H200 SuperPOD (NDR)",
        precision: None,
        build: clusters::dgx_h200,
    },
    ClusterPreset {
        key: "dgx-b200",
        title: "DGX B200 SuperPOD (NDR)",
        precision: None,
        build: clusters::dgx_b200,
    },
    ClusterPreset {
        key: "eos",
        title: "NVIDIA Eos (4,608 H100, NDR)",
        precision: None,
        build: clusters::eos,
    },
    ClusterPreset {
        key: "gb200-nvl72",
        title: "DGX GB200 NVL72 SuperPOD",
        precision: None,
        build: clusters::gb200_nvl72,
    },
    ClusterPreset {
        key: "mi300x",
        title: "8x MI300X nodes (400G)",
        precision: None,
        build: clusters::mi300x,
    },
    ClusterPreset {
        key: "dgx1-v100-16gb",
        title: "DGX-1 (8x V100 16 GB)",
        precision: None,
        build: clusters::dgx1_v100_16gb,
    },
    ClusterPreset {
        key: "dgx1-v100-32gb",
        title: "DGX-1 (8x V100 32 GB)",
        precision: None,
        build: clusters::dgx1_v100_32gb,
    },
];

fn unknown(what: &'static str, found: &str, keys: Vec<&str>) -> OracleError {
    InputError::new(
        what,
        Rule::Unknown {
            what: format!("{what} preset"),
            found: found.into(),
            expected: keys.join(", "),
        },
    )
    .into()
}

/// The network preset called `key`.
///
/// # Errors
/// [`Rule::Unknown`] on field `model` listing the known presets.
pub fn network_preset(key: &str) -> Result<&'static NetworkPreset, OracleError> {
    NETWORKS
        .iter()
        .find(|p| p.key.eq_ignore_ascii_case(key.trim()))
        .ok_or_else(|| unknown("model", key, NETWORKS.iter().map(|p| p.key).collect()))
}

/// The cluster preset called `key`.
///
/// # Errors
/// [`Rule::Unknown`] on field `cluster` listing the known presets.
pub fn cluster_preset(key: &str) -> Result<&'static ClusterPreset, OracleError> {
    CLUSTERS
        .iter()
        .find(|p| p.key.eq_ignore_ascii_case(key.trim()))
        .ok_or_else(|| unknown("cluster", key, CLUSTERS.iter().map(|p| p.key).collect()))
}

/// The network preset called `key`, built.
///
/// # Errors
/// As [`network_preset`].
pub fn network(key: &str) -> Result<Network, OracleError> {
    network_preset(key)?.build()
}

/// The cluster preset called `key`, built.
///
/// # Errors
/// As [`cluster_preset`].
pub fn cluster(key: &str) -> Result<Cluster, OracleError> {
    if key.trim().starts_with(node::PREFIX) {
        return Ok(Cluster::new(node::Node::parse(key)?.spec())?);
    }
    cluster_preset(key)?.build()
}

/// The key of the cluster of `key` as the presets spell it (a node's key
/// with its GPU's name as the table writes it).
///
/// # Errors
/// As [`cluster`].
pub fn cluster_key(key: &str) -> Result<String, OracleError> {
    if key.trim().starts_with(node::PREFIX) {
        return Ok(node::Node::parse(key)?.key());
    }
    Ok(cluster_preset(key)?.key.into())
}

/// The precision people train in on the cluster of `key` (a preset or a
/// node key), and why: the preset's own where it says (ABCI: FP32, as
/// ParaDL's runs), else its GPU's ([`node::usual_precision`]).
///
/// # Errors
/// As [`cluster`].
pub fn usual_precision(key: &str) -> Result<(Precision, &'static str), OracleError> {
    if key.trim().starts_with(node::PREFIX) {
        return Ok(node::usual_precision(node::Node::parse(key)?.gpu.architecture));
    }
    let preset = cluster_preset(key)?;
    if let Some(own) = preset.precision {
        return Ok(own);
    }
    let spec = (preset.build)();
    let architecture = spec
        .gpu
        .as_deref()
        .and_then(|name| super::model::devices::device(name, None))
        .map(|d| d.architecture);
    Ok(architecture.map_or(
        (Precision::Fp32, "FP32: the cluster names no GPU"),
        node::usual_precision,
    ))
}

/// The convergence a network preset trains with, and why (`None`: not a
/// preset; its time to train assumes [`DEFAULT_EPOCHS`] unless given).
///
/// [`DEFAULT_EPOCHS`]: crate::oracle::model::convergence::DEFAULT_EPOCHS
pub fn usual_convergence(key: &str) -> Option<(Convergence, &'static str)> {
    NETWORKS
        .iter()
        .find(|n| n.key == key.trim())
        .map(|n| (Convergence::Curve(n.convergence.0.into()), n.convergence.1))
}

/// A scenario of two presets.
///
/// # Errors
/// As [`network`] and [`cluster`].
pub fn scenario(model: &str, cluster_key: &str) -> Result<Scenario, OracleError> {
    Ok(Scenario::new(network(model)?, cluster(cluster_key)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::formats::net;
    use crate::oracle::model::network::Profile;

    #[test]
    fn every_preset_builds() {
        for p in NETWORKS {
            let n = p.build().unwrap_or_else(|e| panic!("{}: {e}", p.key));
            assert!(!n.layers().is_empty());
        }
        for p in CLUSTERS {
            p.build().unwrap_or_else(|e| panic!("{}: {e}", p.key));
        }
    }

    #[test]
    fn file_presets_are_the_reference_files() {
        for p in NETWORKS {
            if let (Some((name, _)), Some(text)) = (p.file(), p.text_as_read()) {
                let from_file = net::parse(&text).unwrap();
                let built = p.build().unwrap();
                assert_eq!(built.profiled_on(), Some(&clusters::abci_v100()), "{name}");
                assert_eq!(built.spec().layers, from_file.spec().layers, "{name}");
                assert!(matches!(from_file.profile(), Profile::WholeModel { .. }), "{name}");
            }
        }
        // COSMOFLOW.net_256's typo: the second ReLU reads the convolution's 32x128³ output
        let cosmo = network("cosmoflow-256").unwrap();
        let relu = cosmo.layers().iter().filter(|l| l.name() == "RELU").nth(1).unwrap();
        assert_eq!(relu.x().dims(), [32, 128, 128, 128]);
        assert!(
            network_preset("cosmoflow-256")
                .unwrap()
                .file()
                .unwrap()
                .1
                .contains("32x2128x128x128")
        );
        let resnet = network("resnet50").unwrap();
        assert_eq!(resnet.layers().len(), 166);
        assert_eq!(
            resnet.profile(),
            Profile::WholeModel {
                per_sample_s: 0.003119502
            }
        );
        assert_eq!(resnet.dataset_samples(), 1_280_000);
    }

    #[test]
    fn unknown_presets_list_the_known_ones() {
        let err = network("lenet").unwrap_err();
        assert!(err.to_string().contains("alexnet, vgg16"));
        assert!(cluster("summit").is_err());
        assert_eq!(network(" ResNet50 ").unwrap().name(), "ResNet50");
    }
}
