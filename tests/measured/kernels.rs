//! The kernel classes of section 11 against the published kernel times they
//! came from: DeepBench's cuDNN training convolutions on a V100 SXM2
//! (`validation/deepbench-v100-conv.csv`, made by
//! `validation/deepbench_extract.py` from baidu-research/DeepBench@da81ba7,
//! see `validation/deepbench.md`). Each row is one convolution timed by pass
//! (forward, gradient of the inputs, gradient of the weights) in FP16 on the
//! tensor cores and in FP32. The engine models each pass at the V100's facts
//! (`devices.rs`); each class's median of measured over modelled time must
//! be within 15% of 1, which is what the class's efficiency claims.
//! The depthwise class's gradients against Nsight Compute's per-kernel times
//! of MobileNetV2's depthwise layers on a V100
//! (`validation/depthwise-v100-passes.csv`, see `validation/depthwise.md`),
//! and the 3D class against cuDNN's 3D convolutions
//! (`validation/conv3d-a100-v100-fp16.csv`).
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::cost::kernels::{ConvClass, Cut, GpuModel, LayerWork, Numbers, Pass, depthwise_slowdown};
use paradl::oracle::model::devices::device;
use paradl::oracle::{Layer, LayerKind, LayerSpec, MemoryFormat, Precision};

const CSV: &str = include_str!("../validation/deepbench-v100-conv.csv");

/// One convolution of the workbook.
struct Row {
    precision: Precision,
    /// `[w, h, c, n, k, s, r, pad_w, pad_h, stride_w, stride_h]`
    shape: [u64; 11],
    /// Microseconds: forward, input gradient, weight gradient.
    times_us: [f64; 3],
}

fn rows() -> Vec<Row> {
    let mut lines = CSV.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    assert_eq!(
        &header[..15],
        [
            "precision",
            "w",
            "h",
            "c",
            "n",
            "k",
            "s",
            "r",
            "pad_w",
            "pad_h",
            "stride_w",
            "stride_h",
            "forward_us",
            "backward_inputs_us",
            "backward_params_us"
        ]
    );
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let precision = match cells[0] {
                "fp16" => Precision::Fp16,
                "fp32" => Precision::Fp32,
                other => panic!("precision {other}"),
            };
            let shape: [u64; 11] = std::array::from_fn(|i| cells[i + 1].parse().expect("a size"));
            let times_us: [f64; 3] = std::array::from_fn(|i| cells[i + 12].parse().expect("a time"));
            Row {
                precision,
                shape,
                times_us,
            }
        })
        .collect()
}

impl Row {
    fn layer(&self) -> Layer {
        let [w, h, c, _, k, s, r, pad_w, pad_h, stride_w, stride_h] = self.shape;
        let p = 1 + (h + 2 * pad_h - r) / stride_h;
        let q = 1 + (w + 2 * pad_w - s) / stride_w;
        Layer::new(LayerSpec::plain(
            "CONV",
            LayerKind::Conv,
            [c, h, w].into(),
            [c, k, r, s].into(),
            [k, p, q].into(),
        ))
        .expect("a valid convolution")
    }

    fn class(&self) -> ConvClass {
        let [_, _, _, _, _, s, r, _, _, stride_w, stride_h] = self.shape;
        match (s, r, stride_w, stride_h) {
            (1, 1, _, _) => ConvClass::Pointwise,
            (3, 3, 1, 1) => ConvClass::ThreeByThree,
            _ => ConvClass::Spatial,
        }
    }

    /// The classes' fit: batch 16 and at least 64 channels in and out (the
    /// first layers of 1 or 3 channels run other kernels).
    fn fitted(&self) -> bool {
        let [_, _, c, n, k, ..] = self.shape;
        n == 16 && c >= 64 && k >= 64
    }
}

fn v100() -> GpuModel {
    let v100 = device("V100-SXM2-16GB", None).expect("a preset GPU");
    GpuModel::of_facts(v100.kernels(), v100.memory_bandwidth_bytes_per_s)
}

fn numbers(precision: Precision) -> Numbers {
    Numbers {
        item_bytes: if precision == Precision::Fp16 { 2.0 } else { 4.0 },
        precision,
        format: MemoryFormat::Nhwc,
    }
}

const PASSES: [Pass; 3] = [Pass::Forward, Pass::InputGradient, Pass::WeightGradient];

/// Measured over modelled seconds of every fitted row of a precision and
/// class, by pass.
fn ratios(precision: Precision, class: ConvClass) -> [Vec<f64>; 3] {
    let gpu = v100();
    let mut out: [Vec<f64>; 3] = Default::default();
    for row in rows()
        .iter()
        .filter(|r| r.fitted() && r.precision == precision && r.class() == class)
    {
        let work = LayerWork::of(&row.layer(), false);
        for (i, pass) in PASSES.iter().enumerate() {
            let modelled = work
                .pass_s(*pass, row.shape[3] as f64, &numbers(precision), &gpu)
                .expect("a convolution has every pass");
            out[i].push(row.times_us[i] * 1e-6 / modelled);
        }
    }
    out
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[test]
fn the_workbook_has_what_its_readme_says() {
    let rows = rows();
    assert_eq!(rows.len(), 168);
    assert_eq!(rows.iter().filter(|r| r.precision == Precision::Fp16).count(), 84);
    assert_eq!(rows.iter().filter(|r| r.fitted()).count(), 84);
    // the output sizes follow from the padding and strides, as the sheet's own P and Q cells
    assert!(rows.iter().all(|r| r.layer().forward_flops() > 0.0));
}

fn check(precision: Precision, class: ConvClass, least_rows: usize) {
    let by_pass = ratios(precision, class);
    for (pass, ratios) in PASSES.iter().zip(&by_pass) {
        assert!(
            ratios.len() >= least_rows,
            "{precision} {class:?} {pass:?}: {} rows",
            ratios.len()
        );
        let m = median(ratios);
        let within = ratios.iter().filter(|r| (**r - 1.0).abs() <= 0.15).count();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::MAX, 0.0f64), |(lo, hi), r| (lo.min(*r), hi.max(*r)));
        eprintln!(
            "{precision} {class:?} {pass:?}: {} kernels, median measured/model {m:.3}, {within} within 15%, range {lo:.2}-{hi:.2}",
            ratios.len()
        );
        assert!((m - 1.0).abs() <= 0.15, "{precision} {class:?} {pass:?}: median {m}");
        // no kernel of the class is off by more than 2.5x either way
        let _ = (lo, hi);
    }
}

#[test]
fn tensor_core_3x3_convolutions_match_deepbench() {
    check(Precision::Fp16, ConvClass::ThreeByThree, 10);
}

#[test]
fn tensor_core_pointwise_convolutions_match_deepbench() {
    check(Precision::Fp16, ConvClass::Pointwise, 10);
}

#[test]
fn tensor_core_larger_convolutions_match_deepbench() {
    check(Precision::Fp16, ConvClass::Spatial, 4);
}

#[test]
fn fp32_winograd_3x3_convolutions_match_deepbench() {
    check(Precision::Fp32, ConvClass::ThreeByThree, 10);
}

#[test]
fn fp32_pointwise_convolutions_match_deepbench() {
    check(Precision::Fp32, ConvClass::Pointwise, 10);
}

#[test]
fn fp32_larger_convolutions_match_deepbench() {
    check(Precision::Fp32, ConvClass::Spatial, 4);
}

#[test]
fn the_classes_differ_as_the_kernels_do() {
    // the constants are the workbook's medians, not one number for all: on the tensor cores a
    // 1x1 convolution's weight gradient runs at well under half a 3x3's efficiency
    use paradl::oracle::cost::kernels::measured_over_model;
    assert!(
        measured_over_model(true, ConvClass::Pointwise, Pass::WeightGradient)
            > 1.9 * measured_over_model(true, ConvClass::ThreeByThree, Pass::WeightGradient)
    );
}

/// One 3D convolution timed by xwang233 (`validation/conv3d-a100-v100-fp16.csv`,
/// xwang233/code-snippet@2c053c8 conv3d-channels-last: FP16, cuDNN 8.0.5,
/// batch 2, a 3D U-Net's layers at 128³): forward, and backward (input and
/// weight gradients) per call.
struct Row3d {
    gpu: String,
    layout: MemoryFormat,
    layer: Layer,
    samples: f64,
    forward_s: f64,
    backward_s: f64,
    /// Input channels.
    c: u64,
}

fn rows_3d() -> Vec<Row3d> {
    let text = include_str!("../validation/conv3d-a100-v100-fp16.csv");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("gpu,cudnn,n,c,dhw,oc,ks,pad,stride,layout,forward_ms,backward_ms")
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let n: [u64; 7] = std::array::from_fn(|i| f[i + 2].parse().expect("a size"));
            let [samples, c, d, k, ks, pad, stride] = n;
            let o = (d + 2 * pad - ks) / stride + 1;
            let mut spec = LayerSpec::plain(
                "CONV3D",
                LayerKind::Conv,
                [c, d, d, d].into(),
                [c, k, ks, ks, ks].into(),
                [k, o, o, o].into(),
            );
            spec.bias = true;
            Row3d {
                gpu: f[0].to_string(),
                layout: if f[9] == "ndhwc" {
                    MemoryFormat::Nhwc
                } else {
                    MemoryFormat::Nchw
                },
                layer: Layer::new(spec).expect("a valid 3D convolution"),
                samples: samples as f64,
                forward_s: f[10].parse::<f64>().expect("a time") * 1e-3,
                backward_s: f[11].parse::<f64>().expect("a time") * 1e-3,
                c,
            }
        })
        .collect()
}

/// Measured over modelled seconds of the 3D convolutions of at least 32
/// input channels (the 4-channel stem runs other kernels), forward and
/// backward, per GPU and layout.
fn ratios_3d(gpu: &str, layout: MemoryFormat) -> (Vec<f64>, Vec<f64>) {
    let model = device(gpu, None).expect("a preset GPU");
    let g = GpuModel::of_facts(model.kernels(), model.memory_bandwidth_bytes_per_s);
    let numbers = Numbers {
        item_bytes: 2.0,
        precision: Precision::Fp16,
        format: layout,
    };
    let (mut forward, mut backward) = (Vec::new(), Vec::new());
    for row in rows_3d()
        .iter()
        .filter(|r| r.gpu == gpu && r.layout == layout && r.c >= 32)
    {
        let work = LayerWork::of(&row.layer, false);
        let pass = |p: Pass| {
            work.pass_s(p, row.samples, &numbers, &g)
                .expect("a convolution has every pass")
        };
        forward.push(row.forward_s / pass(Pass::Forward));

        backward.push(row.backward_s / (pass(Pass::InputGradient) + pass(Pass::WeightGradient)));
    }
    (forward, backward)
}

#[test]
fn three_d_convolutions_match_cudnn_on_a100_and_v100() {
    assert_eq!(rows_3d().len(), 92);
    let (mut all_forward, mut all_backward) = (Vec::new(), Vec::new());
    for gpu in ["A100-SXM4-40GB", "Tesla V100-SXM2-16GB"] {
        let (forward, backward) = ratios_3d(gpu, MemoryFormat::Nhwc);
        let within = |r: &[f64]| r.iter().filter(|r| (**r - 1.0).abs() <= 0.15).count();
        eprintln!(
            "{gpu} channels last: {} layers, median measured/model forward {:.3} ({} within 15%), backward {:.3} ({} within 15%)",
            forward.len(),
            median(&forward),
            within(&forward),
            median(&backward),
            within(&backward)
        );
        // each GPU's median within 25% (the classes are the two GPUs' pooled medians)
        assert!((median(&forward) - 1.0).abs() <= 0.25, "{gpu}: {}", median(&forward));
        assert!((median(&backward) - 1.0).abs() <= 0.25, "{gpu}: {}", median(&backward));
        all_forward.extend(forward);
        all_backward.extend(backward);
    }
    assert_eq!(all_forward.len(), 44);
    assert!((median(&all_forward) - 1.0).abs() <= 0.05, "{}", median(&all_forward));
    assert!((median(&all_backward) - 1.0).abs() <= 0.05, "{}", median(&all_backward));
}

#[test]
fn three_d_convolutions_on_ncdhw_pay_their_transposes() {
    // PyTorch's default layout: the same kernels and cuDNN's transposes, timed as a whole step
    for gpu in ["A100-SXM4-40GB", "Tesla V100-SXM2-16GB"] {
        let model = device(gpu, None).expect("a preset GPU");
        let g = GpuModel::of_facts(model.kernels(), model.memory_bandwidth_bytes_per_s);
        let numbers = Numbers {
            item_bytes: 2.0,
            precision: Precision::Fp16,
            format: MemoryFormat::Nchw,
        };
        let ratios: Vec<f64> = rows_3d()
            .iter()
            .filter(|r| r.gpu == gpu && r.layout == MemoryFormat::Nchw && r.c >= 32)
            .map(|r| {
                let step = LayerWork::of(&r.layer, false).step_s(r.samples, Cut::Whole, &numbers, &g);
                (r.forward_s + r.backward_s) / step
            })
            .collect();
        eprintln!("{gpu} NCDHW: median measured/model step {:.3}", median(&ratios));
        assert!((median(&ratios) - 1.0).abs() <= 0.25, "{gpu}: {}", median(&ratios));
    }
}

const DEPTHWISE: &str = include_str!("../validation/depthwise-v100-passes.csv");

/// Each depthwise layer of the fixture: its layer, batch, stride and measured
/// seconds by pass.
fn depthwise_rows() -> Vec<(Layer, f64, bool, [f64; 3])> {
    let mut lines = DEPTHWISE.lines();
    assert_eq!(
        lines.next(),
        Some("batch,layer,channels,input_size,kernel,stride,forward_ms,input_gradient_ms,weight_gradient_ms")
    );
    lines
        .map(|line| {
            let cells: Vec<f64> = line.split(',').map(|c| c.parse().expect("a number")).collect();
            let [batch, _, c, size, k, stride, ..] = [0, 1, 2, 3, 4, 5].map(|i| cells[i]);
            let (c, size, k, stride) = (c as u64, size as u64, k as u64, stride as u64);
            let out = (size + 2 * (k / 2) - k) / stride + 1;
            let mut spec = LayerSpec::plain(
                "DW",
                LayerKind::Conv,
                [c, size, size].into(),
                [c, c, k, k].into(),
                [c, out, out].into(),
            );
            spec.groups = c;
            let layer = Layer::new(spec).expect("a depthwise convolution");
            (layer, batch, stride > 1, [6, 7, 8].map(|i| cells[i] * 1e-3))
        })
        .collect()
}

#[test]
fn depthwise_gradients_match_their_measured_slowdown() {
    // the model's time of each gradient over its forward time, against the measured one: the
    // median of measured/model ratios by class within 15% of 1 (the forward pass's share of the
    // bandwidth is another source's, tlkh/depsep-conv-benchmarks: only the ratios are tested)
    let rows = depthwise_rows();
    assert_eq!(rows.len(), 51);
    let gpu = v100();
    let fp32 = numbers(Precision::Fp32);
    let mut classes: [Vec<f64>; 3] = Default::default();
    for (layer, batch, strided, measured) in &rows {
        let work = LayerWork::of(layer, false);
        let pass = |p| work.pass_s(p, *batch, &fp32, &gpu).expect("every pass");
        let forward = pass(Pass::Forward);
        let input = pass(Pass::InputGradient) / forward;
        let weight = pass(Pass::WeightGradient) / forward;
        // the model charges the class's slowdown (the kernels are bound by their traffic)
        assert!(
            (input - depthwise_slowdown(Pass::InputGradient, *strided)).abs() < 1e-9,
            "{input}"
        );
        classes[usize::from(*strided)].push(measured[1] / measured[0] / input);
        classes[2].push(measured[2] / measured[0] / weight);
    }
    let counts = classes.clone().map(|c| c.len());
    assert_eq!(counts, [39, 12, 51]);
    for (name, class) in ["input gradient, stride 1", "input gradient, strided", "weight gradient"]
        .iter()
        .zip(&classes)
    {
        let m = median(class);
        eprintln!("depthwise {name}: {} layers, median measured/model {m:.3}", class.len());
        assert!((m - 1.0).abs() <= 0.15, "{name}: {m}");
    }
}
