//! Time to train against MLPerf Training's measured ResNet-50 and 3D U-Net results
//! (and the epochs alone of SSD, RetinaNet and CosmoFlow's)
//! (`tests/validation/mlperf-ttt/mlperf-{resnet,unet3d}-ttt.csv`: every GPU result
//! of v0.7 to v5.0, its time from `run_start` to `run_stop` as MLPerf
//! scores it, evaluation included, initialisation not).
//!
//! Nothing here is fitted to these times: the epochs come from MLPerf's
//! reference convergence points (`mlperf-resnet50`, `mlperf-unet3d`, never from these
//! results' own epochs), the time per epoch from the realistic edition,
//! uncalibrated. Each result is projected on the cluster it ran on: one
//! node of its GPU (`node:N:LINK:GPU`), or the DGX SuperPOD preset of its
//! GPU across nodes.

use paradl::oracle::model::convergence::{Convergence, curve};
use paradl::oracle::model::devices;
use paradl::oracle::presets::node::nvlink_bytes_per_s;
use paradl::oracle::{Batch, Cluster, Precision, RunSpec, Scenario, Strategy, presets};

use crate::{as_trained, columns, quantile, spread};

/// One MLPerf result.
struct Result {
    version: String,
    system: String,
    gpu: &'static devices::Device,
    gpus: u64,
    nodes: u64,
    per_node: u64,
    global_batch: u64,
    epochs: f64,
    time_s: f64,
}

/// One benchmark: its results, the preset network and the curve it is
/// projected with, and the strategy a result whose global batch is
/// smaller than its GPUs ran (a sample split across GPUs).
struct Benchmark {
    results: &'static str,
    network: &'static str,
    curve: &'static str,
}

const RESNET: Benchmark = Benchmark {
    results: include_str!("../validation/mlperf-ttt/mlperf-resnet-ttt.csv"),
    network: "resnet50-torchvision",
    curve: "mlperf-resnet50",
};

const UNET3D: Benchmark = Benchmark {
    results: include_str!("../validation/mlperf-ttt/mlperf-unet3d-ttt.csv"),
    network: "unet3d",
    curve: "mlperf-unet3d",
};

fn results(benchmark: &Benchmark) -> Vec<Result> {
    let text = benchmark.results;
    let rows = columns::rows(
        text,
        [
            "accelerator_kind",
            "division",
            "logs_used",
            "same_runs_as",
            "accelerator",
            "version",
            "submitter",
            "system",
            "accelerators",
            "nodes",
            "accelerators_per_node",
            "global_batch",
            "epochs_to_converge",
            "time_to_train_s",
        ],
    );
    rows.iter()
        .filter(|[kind, division, logs, same, ..]| {
            *kind == "GPU"
                && *division == "closed"
                && logs.parse::<u32>().unwrap_or(0) > 0
                // a result republished in a later round is counted once
                && same.is_empty()
        })
        .filter_map(
            |[
                ..,
                gpu,
                version,
                submitter,
                system,
                gpus,
                nodes,
                per_node,
                batch,
                epochs,
                time,
            ]| {
                Some(Result {
                    version: version.to_string(),
                    system: format!("{version} {submitter} {system}"),
                    gpu: devices::device(gpu, None)?,
                    gpus: gpus.parse().ok()?,
                    nodes: nodes.parse().ok()?,
                    per_node: per_node.parse().ok()?,
                    global_batch: batch.parse().ok()?,
                    epochs: epochs.parse().ok()?,
                    time_s: time.parse().ok()?,
                })
            },
        )
        .collect()
}

/// The cluster a result ran on: its node, or its GPU's SuperPOD preset
/// (Eos for H100 systems larger than the DGX H100 SuperPOD's 1,016 GPUs),
/// grown to the system's GPUs where the preset holds fewer (more of the
/// same nodes on the same fabric).
fn cluster(r: &Result) -> Option<Cluster> {
    let key = cluster_key(r)?;
    let mut spec = presets::cluster(&key).ok()?.spec().clone();
    spec.max_gpus = spec.max_gpus.max(r.gpus);
    Cluster::new(spec).ok()
}

fn cluster_key(r: &Result) -> Option<String> {
    if r.nodes == 1 {
        let link = if nvlink_bytes_per_s(r.gpu).is_some() {
            "nvlink"
        } else if r.gpu.name.contains("H100") {
            "pcie5"
        } else {
            "pcie4"
        };
        return Some(format!("node:{}:{link}:{}", r.per_node, r.gpu.name));
    }
    let name = r.gpu.name;
    let preset = if name.starts_with("A100-SXM4") {
        "dgx-a100"
    } else if name.starts_with("H100-SXM5") && r.gpus > 1016 {
        "eos"
    } else if name.starts_with("H100-SXM5") {
        "dgx-h100"
    } else if name.starts_with("H200") {
        "dgx-h200"
    } else if name.starts_with("V100-SXM2-32GB") || name.starts_with("V100-SXM3") {
        "dgx1-v100-32gb"
    } else if name.starts_with("V100-SXM2") {
        "dgx1-v100-16gb"
    } else {
        return None;
    };
    (r.per_node == 8).then(|| preset.to_string())
}

/// `(result, projected time to train, projected epochs)` for every result
/// of `benchmark` projected feasibly on its cluster: data parallelism, or,
/// where the global batch is smaller than the GPUs (3D U-Net at scale
/// splits each sample), data+spatial with a group per sample.
fn projected(benchmark: &Benchmark) -> Vec<(Result, f64, f64)> {
    let network = presets::network(benchmark.network).unwrap();
    results(benchmark)
        .into_iter()
        .filter_map(|r| {
            let cluster = cluster(&r)?;
            let scenario = Scenario::new(network.clone(), cluster);
            let (strategy, group_size) = match (r.gpus, r.global_batch) {
                (1, _) => (Strategy::Serial, None),
                (gpus, batch) if batch >= gpus => (Strategy::Data, None),
                (gpus, batch) if gpus % batch == 0 => (Strategy::DataSpatial, Some(gpus / batch)),
                _ => return None,
            };
            let spec = RunSpec {
                group_size,
                convergence: Some(Convergence::Curve(benchmark.curve.into())),
                ..RunSpec::new(strategy, r.gpus, Batch::MiniBatch(r.global_batch))
            };
            let p = scenario.project(&as_trained(spec, Precision::Fp16, r.gpus > 1)).ok()?;
            p.feasible
                .then_some((p.training.time_s, p.training.epochs.epochs))
                .map(|(t, e)| (r, t, e))
        })
        .collect()
}

/// Each projected result, for `--nocapture`: its epochs against the
/// curve's, its time to train measured against projected.
fn print_each(projected: &[(Result, f64, f64)]) {
    for (r, t, e) in projected {
        println!(
            "{:<60} {:>5} GPUs B={:>6} epochs {:>6} (curve {:>6.1}) measured {:>8.1} s projected {:>8.1} s ratio {:.2}",
            r.system,
            r.gpus,
            r.global_batch,
            r.epochs,
            e,
            r.time_s,
            t,
            r.time_s / t
        );
    }
}

#[test]
fn the_reference_curve_gives_the_epochs_mlperf_results_converged_in() {
    // the epochs part alone: the curve at each result's global batch
    // against the epochs its runs took (their median)
    let resnet = curve("mlperf-resnet50").unwrap();
    let all = results(&RESNET);
    let mut ratios: Vec<f64> = all
        .iter()
        .map(|r| r.epochs / resnet.epochs_at(r.global_batch).epochs)
        .collect();
    let n = ratios.len();
    let (q10, median, q90) = spread(&mut ratios);
    println!("epochs: {n} results, measured/curve q10 {q10:.3} median {median:.3} q90 {q90:.3}");
    assert!(n >= 150, "{n}");
    // MLPerf accepts a result only if its mean epochs are not below the
    // reference points' (rcp_checker): the curve is what results take,
    // within the spread of the reference runs themselves (33 to 87 epochs
    // around means of 35 to 86, a few percent)
    assert!((0.95..=1.05).contains(&median), "{median}");
    assert!(q10 > 0.85 && q90 < 1.15, "{q10} {q90}");
}

#[test]
fn the_detection_and_hpc_curves_give_the_epochs_their_results_converged_in() {
    // the epochs alone for the benchmarks without a preset network of
    // their own: SSD-ResNet34 (v0.7 to v1.1), RetinaNet (v2.0 to v5.0) and
    // CosmoFlow (MLPerf HPC v2.0 and v3.0: v0.7 and v1.0 trained another
    // dataset to another target), each result's median epochs against the
    // curve at its global batch
    let benchmarks = [
        (
            "mlperf-ssd-resnet34",
            include_str!("../validation/mlperf-ttt/mlperf-ssd-ttt.csv"),
            "0.7",
            50,
        ),
        (
            "mlperf-retinanet",
            include_str!("../validation/mlperf-ttt/mlperf-retinanet-ttt.csv"),
            "2.0",
            150,
        ),
        (
            "mlperf-hpc-cosmoflow",
            include_str!("../validation/mlperf-ttt/mlperf-cosmoflow-ttt.csv"),
            "2.0",
            5,
        ),
    ];
    for (key, text, since, at_least) in benchmarks {
        let c = curve(key).unwrap();
        let (_, largest) = c.batch_range();
        let benchmark = Benchmark {
            results: text,
            network: "",
            curve: key,
        };
        let mut ratios: Vec<f64> = results(&benchmark)
            .iter()
            .filter(|r| r.version.as_str() >= since && r.global_batch <= largest)
            .map(|r| r.epochs / c.epochs_at(r.global_batch).epochs)
            .collect();
        let n = ratios.len();
        let (q10, median, q90) = spread(&mut ratios);
        println!("{key}: {n} results, measured/curve epochs q10 {q10:.3} median {median:.3} q90 {q90:.3}");
        assert!(n >= at_least, "{key}: {n}");
        assert!((0.95..=1.05).contains(&median), "{key}: {median}");
        assert!(q10 > 0.85 && q90 < 1.3, "{key}: {q10} {q90}");
    }
}

#[test]
fn time_to_train_matches_mlperf_results_at_every_scale() {
    let all = projected(&RESNET);
    let mut by_scale: Vec<(&str, Vec<f64>)> = ["1-8 GPUs", "9-64", "65-512", "513-4320"]
        .into_iter()
        .map(|s| (s, Vec::new()))
        .collect();
    for (r, time_s, _) in &all {
        let bucket = match r.gpus {
            0..=8 => 0,
            9..=64 => 1,
            65..=512 => 2,
            _ => 3,
        };
        by_scale[bucket].1.push(r.time_s / time_s);
    }
    let mut report = String::new();
    for (scale, ratios) in &mut by_scale {
        if ratios.is_empty() {
            continue;
        }
        let n = ratios.len();
        report += &format!(
            "{scale}: {n} results, measured/projected q10 {:.2} median {:.2} q90 {:.2}\n",
            quantile(ratios, 0.1),
            quantile(ratios, 0.5),
            quantile(ratios, 0.9)
        );
    }
    println!("{report}");
    print_each(&all);
    assert!(all.len() >= 100, "{}", all.len());
    // every scale is covered, up to thousands of GPUs
    assert!(by_scale.iter().all(|(_, r)| r.len() >= 4), "{report}");
    // the time to train is as close as the time per epoch: within the
    // hull of the per-epoch bands of the runs' classes (0.56 to 1.47,
    // `track_record`), at the median of each scale
    for (scale, ratios) in &mut by_scale {
        let median = quantile(ratios, 0.5);
        assert!((0.56..=1.47).contains(&median), "{scale}: {median}\n{report}");
    }
}

#[test]
fn the_time_to_train_of_3d_unet_matches_mlperf_results() {
    // its own curve's epochs (168-case passes) at each result's batch, and the time to train
    let unet = curve("mlperf-unet3d").unwrap();
    let all = results(&UNET3D);
    let mut epochs: Vec<f64> = all
        .iter()
        .map(|r| r.epochs / unet.epochs_at(r.global_batch).epochs)
        .collect();
    let (n, median) = (epochs.len(), quantile(&mut epochs, 0.5));
    let projected = projected(&UNET3D);
    let mut ratios: Vec<f64> = projected.iter().map(|(r, t, _)| r.time_s / t).collect();
    let one_node: Vec<f64> = projected
        .iter()
        .filter(|(r, _, _)| r.nodes == 1)
        .map(|(r, t, _)| r.time_s / t)
        .collect();
    let report = format!(
        "3D U-Net: epochs of {n} results, measured/curve median {median:.3}; time to train of {} results ({} on one node), measured/projected q10 {:.2} median {:.2} q90 {:.2}, most GPUs {}",
        ratios.len(),
        one_node.len(),
        quantile(&mut ratios, 0.1),
        quantile(&mut ratios, 0.5),
        quantile(&mut ratios, 0.9),
        projected.iter().map(|(r, _, _)| r.gpus).max().unwrap_or(0)
    );
    println!("{report}");
    print_each(&projected);
    assert!(n >= 60 && ratios.len() >= 40, "{report}");
    // MLPerf accepts a result only near the reference epochs: within the reference runs' spread
    assert!((0.9..=1.15).contains(&median), "{report}");
    // the time to train within the per-epoch bands' hull, at the median
    let median = quantile(&mut ratios, 0.5);
    assert!((0.56..=1.47).contains(&median), "{report}");
}
