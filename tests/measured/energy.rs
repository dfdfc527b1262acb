//! Energy against published measurements (`tests/validation/energy/`):
//!
//! - MLPerf Training v4.0's power results of Sustainable Metal Cloud
//!   (`mlperf-power.csv`): whole-server input power of 8 × H100 SXM5
//!   servers (immersion-cooled, no fans, no facility PUE) while training
//!   ResNet-50 and 3D U-Net, integrated from `run_start` to `run_stop`.
//!   The projection is the DGX H100 preset's (an 8 × H100 SXM server, its
//!   other power from the DGX H100's rating), PUE 1 as measured.
//! - The Zeus traces (`measured-energy.csv`, scope `gpu-only`): NVML board
//!   energy of one GPU per epoch of ResNet-50 on ImageNet (FP32), at the
//!   default power limit. Their power is the source of the engine's
//!   training fractions, so this holds the product of power and the
//!   projected time, not the power alone.
//!
//! Nothing is fitted to these energies.

use paradl::oracle::model::convergence::Convergence;
use paradl::oracle::model::energy::Costs;
use paradl::oracle::{Batch, Precision, Projection, RunSpec, Strategy, presets};

use crate::{as_trained, columns, quantile};

/// The projection of `gpus` GPUs training `network` at `global_batch` on
/// `cluster`, PUE 1 (what a server's input power measures).
fn project(
    network: &str,
    cluster: &str,
    gpus: u64,
    global_batch: u64,
    precision: Precision,
    curve: Option<&str>,
) -> Projection {
    let scenario = presets::scenario(network, cluster).unwrap();
    let strategy = if gpus == 1 { Strategy::Serial } else { Strategy::Data };
    let spec = RunSpec {
        convergence: curve.map(|c| Convergence::Curve(c.into())),
        costs: Costs {
            pue: Some(1.0),
            ..Costs::default()
        },
        ..RunSpec::new(strategy, gpus, Batch::MiniBatch(global_batch))
    };
    scenario.project(&as_trained(spec, precision, gpus > 1)).unwrap()
}

/// A projection's average power of one node while it trains, W (its
/// servers' energy, no facility, over its epoch).
fn node_power_w(p: &Projection) -> f64 {
    let e = p.energy.as_ref().unwrap();
    let it_kwh = e.epoch.gpus_computing_kwh + e.epoch.gpus_waiting_kwh + e.epoch.nodes_other_kwh;
    it_kwh * 3.6e6 / p.total_s / e.nodes as f64
}

#[test]
fn node_power_and_energy_to_train_match_mlperf_power_results() {
    let rows = columns::rows(
        include_str!("../validation/energy/mlperf-power.csv"),
        [
            "submitter",
            "benchmark",
            "gpus",
            "nodes",
            "global_batch",
            "time_to_train_s",
            "nodes_in_run_kwh",
        ],
    );
    let mut report = String::new();
    let mut power_ratios = Vec::new();
    // ResNet-50 on 1 and 8 nodes, 3D U-Net on 1 node (its 72-GPU runs log a
    // global batch of 56, which no strategy of this engine splits over 72)
    for (benchmark, network, curve, gpus) in [
        ("resnet", "resnet50-torchvision", "mlperf-resnet50", 8),
        ("resnet", "resnet50-torchvision", "mlperf-resnet50", 64),
        ("unet3d", "unet3d", "mlperf-unet3d", 8),
    ] {
        let runs: Vec<_> = rows
            .iter()
            .filter(|r| r[0] == "Sustainable Metal Cloud" && r[1] == benchmark && r[2] == gpus.to_string())
            .collect();
        assert!(runs.len() >= 5, "{benchmark} {gpus}");
        let batch: u64 = runs[0][4].parse().unwrap();
        let nodes: f64 = runs[0][3].parse().unwrap();
        let p = project(network, "dgx-h100", gpus, batch, Precision::Fp16, Some(curve));
        let projected_w = node_power_w(&p);
        let it_train_kwh = p.energy.as_ref().unwrap().train_kwh;
        let mut power: Vec<f64> = runs
            .iter()
            .map(|r| {
                let (time_s, kwh): (f64, f64) = (r[5].parse().unwrap(), r[6].parse().unwrap());
                kwh * 3.6e6 / time_s / nodes / projected_w
            })
            .collect();
        let mut energy: Vec<f64> = runs
            .iter()
            .map(|r| r[6].parse::<f64>().unwrap() / it_train_kwh)
            .collect();
        let (power_median, energy_median) = (quantile(&mut power, 0.5), quantile(&mut energy, 0.5));
        report += &format!(
            "{benchmark} {gpus} GPUs ({} runs): node power measured/projected {power_median:.2} (projected {:.0} W), energy to train {energy_median:.2}\n",
            runs.len(),
            projected_w
        );
        power_ratios.push(power_median);
        // the energy to train is as close as its time and its power together
        assert!((0.4..=2.0).contains(&energy_median), "{report}");
    }
    println!("{report}");
    // a server's power while it trains, from its datasheets and the
    // measured fractions: one node 7 to 9% above the measured (these
    // servers are immersion-cooled: no fans, which the DGX's rating
    // counts); on 8 nodes 24% above (the GPUs wait on each other more than
    // the projection's exposed communication says)
    for r in &power_ratios {
        assert!((0.7..=1.15).contains(r), "{report}");
    }
}

#[test]
fn a_gpus_energy_per_epoch_matches_the_zeus_traces() {
    let rows = columns::rows(
        include_str!("../validation/energy/measured-energy.csv"),
        [
            "source",
            "network",
            "gpu",
            "global_batch",
            "scope",
            "time_s",
            "energy_kwh",
            "notes",
        ],
    );
    let mut report = String::new();
    for (trace, gpu, limit) in [
        ("summary_power_v100", "Tesla V100 PCIe 16GB", "250 W"),
        ("summary_power_p100", "Tesla P100 PCIe 16GB", "250 W"),
        ("summary_power_a40", "A40", "300 W"),
        ("summary_power_rtx6000", "Quadro RTX 6000", "260 W"),
    ] {
        let cluster = format!("node:1:pcie3:{gpu}");
        let mut ratios: Vec<f64> = rows
            .iter()
            .filter(|r| {
                r[0].contains(trace)
                    && r[1] == "ResNet-50"
                    && r[4] == "gpu-only"
                    && r[7].contains(&format!("limit {limit}"))
            })
            .filter_map(|r| {
                let batch: u64 = r[3].parse().ok()?;
                let p = project("resnet50-torchvision", &cluster, 1, batch, Precision::Fp32, None);
                if !p.feasible {
                    return None;
                }
                let e = p.energy.as_ref()?;
                let gpu_kwh = e.epoch.gpus_computing_kwh + e.epoch.gpus_waiting_kwh;
                Some(r[6].parse::<f64>().ok()? / gpu_kwh)
            })
            .collect();
        let n = ratios.len();
        let median = quantile(&mut ratios, 0.5);
        report += &format!("{gpu}: {n} batch sizes, GPU energy an epoch measured/projected median {median:.2}\n");
        assert!(n >= 4, "{report}");
        // the power is these traces' own: the rest is the projected epoch's error
        assert!((0.67..=1.5).contains(&median), "{report}");
    }
    println!("{report}");
}
