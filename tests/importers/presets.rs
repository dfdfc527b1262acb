//! The presets built from published architectures: their parameter counts
//! equal torchvision's (the counts its model documentation lists, and that
//! `sum(p.numel() for p in model.parameters())` gives), and each projects.
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::{Batch, LayerKind, RankBy, RunSpec, Strategy, presets};

/// torchvision 0.2x `models.<name>(weights=None)` parameter counts.
const TORCHVISION: [(&str, f64); 7] = [
    ("resnet50-torchvision", 25_557_032.0),
    ("vgg16-torchvision", 138_357_544.0),
    ("mobilenet-v2", 3_504_872.0),
    ("efficientnet-b0", 5_288_548.0),
    ("convnext-tiny", 28_589_128.0),
    ("resnext50", 25_028_904.0),
    ("densenet121", 7_978_856.0),
];

/// ResNeXt-101 (32×4d) and SE-ResNeXt-101 (32×4d), which torchvision
/// lacks: the counts of timm's and osmr/imgclsmob's `resnext101_32x4d` and
/// `seresnext101_32x4d` (its tests assert 44,177,704 and 48,955,416).
const NOT_TORCHVISION: [(&str, f64); 2] = [("resnext101", 44_177_704.0), ("seresnext101", 48_955_416.0)];

#[test]
fn parameter_counts_equal_torchvision() {
    for (key, count) in TORCHVISION {
        let network = presets::network(key).unwrap();
        assert_eq!(network.weight_items(), count, "{key}");
    }
    for (key, count) in NOT_TORCHVISION {
        assert_eq!(presets::network(key).unwrap().weight_items(), count, "{key}");
    }
}

#[test]
fn the_3d_unet_counts_by_hand() {
    // conv 3×3×3 without bias (instance norm follows), instance norm scale
    // and bias, up-convolutions 2×2×2 with a bias, output 1×1×1 with a bias
    let conv = |i: u64, o: u64| 27 * i * o + 2 * o;
    let mut expected = conv(1, 32) + conv(32, 32);
    let mut previous = 32;
    for o in [64, 128, 256, 320, 320] {
        expected += conv(previous, o) + conv(o, o);
        previous = o;
    }
    for (i, o) in [(320, 320), (320, 256), (256, 128), (128, 64), (64, 32)] {
        expected += 8 * i * o + o + conv(2 * o, o) + conv(o, o);
    }
    expected += 32 * 3 + 3;
    let network = presets::network("unet3d").unwrap();
    assert_eq!(network.weight_items(), expected as f64);
    assert_eq!(network.layers()[0].x().dims(), &[1, 128, 128, 128]);
    let out = network.layers().last().unwrap();
    assert_eq!(
        out.y().dims(),
        &[3, 128, 128, 128],
        "the segmentation keeps the patch size"
    );
    assert_eq!(
        network
            .layers()
            .iter()
            .filter(|l| l.kind() == LayerKind::Deconv)
            .count(),
        5
    );
}

#[test]
fn the_modern_kinds_are_where_the_papers_put_them() {
    let count = |key: &str, kind: LayerKind| {
        presets::network(key)
            .unwrap()
            .layers()
            .iter()
            .filter(|l| l.kind() == kind)
            .count()
    };
    // 16 blocks of squeeze-and-excitation in EfficientNet-B0
    assert_eq!(count("efficientnet-b0", LayerKind::Mul), 16);
    // 18 layer scales in ConvNeXt-Tiny, and 18 + 3 + 2 layer norms
    assert_eq!(count("convnext-tiny", LayerKind::Mul), 18);
    assert_eq!(count("convnext-tiny", LayerKind::Ln), 23);
    // one concatenation per dense layer: 6 + 12 + 24 + 16
    assert_eq!(count("densenet121", LayerKind::Concat), 58);
    let resnext = presets::network("resnext50").unwrap();
    let grouped = resnext.layers().iter().filter(|l| l.groups() == 32).count();
    assert_eq!(grouped, 16, "every bottleneck's 3×3 convolution");
    let mobilenet = presets::network("mobilenet-v2").unwrap();
    assert!(
        mobilenet
            .layers()
            .iter()
            .filter(|l| l.groups() > 1)
            .all(|l| l.groups() == l.x().channels()),
        "depthwise convolutions"
    );
}

#[test]
fn every_new_preset_projects_and_ranks() {
    for key in [
        "mobilenet-v2",
        "efficientnet-b0",
        "convnext-tiny",
        "resnext50",
        "densenet121",
        "unet3d",
    ] {
        let s = presets::scenario(key, "dgx-a100").unwrap();
        let samples = if key == "unet3d" { 1.0 } else { 32.0 };
        let ranking = s.rank(
            &RunSpec::new(Strategy::Data, 8, Batch::SamplesPerGpu(samples)),
            RankBy::Time,
        );
        let best = ranking
            .best()
            .unwrap_or_else(|| panic!("{key}: something fits on 8 A100s"));
        assert!(best.total_s.is_finite() && best.total_s > 0.0, "{key}");
    }
}

/// Every number a preset shows has a source: each preset cluster names
/// where its numbers come from, and each GPU of the table its datasheet.
#[test]
fn every_preset_cluster_and_gpu_names_its_source() {
    for preset in presets::CLUSTERS {
        let cluster = preset.build().unwrap();
        let source = &cluster.spec().source;
        assert!(
            source.len() > 20 && source.chars().any(|c| c.is_ascii_digit()),
            "{}: {source:?}",
            preset.key
        );
    }
    // every GPU's datasheet names its source, and its rated board power its own
    let table = include_str!("../../src/oracle/model/devices/gpus.csv");
    let rows = crate::columns::rows(table, ["name", "source", "board_power_w", "power_source"]);
    for [name, source, power, power_source] in &rows {
        assert!(source.len() > 10, "{name} without its source");
        let watts: f64 = power.parse().unwrap_or(0.0);
        assert!((10.0..=2000.0).contains(&watts), "{name}: {power} W");
        assert!(power_source.len() > 10, "{name}'s board power without its source");
    }
    assert!(rows.len() > 100, "{} GPUs", rows.len());
}
