//! The contract's section 6 table and worked examples, exactly, in the
//! ideal edition (sections 1 to 6).
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::{Batch, Edition, RunSpec, Strategy, presets};

/// A run of the ideal edition (sections 1 to 6: this file's checks).
fn ideal(strategy: Strategy, gpus: u64, batch: Batch) -> RunSpec {
    RunSpec::new(strategy, gpus, batch).in_edition(Edition::Ideal)
}

/// Checks `got` against a decimal `want`, to half a unit of its last digit.
fn matches_table(got: f64, want: &str) {
    let value: f64 = want.parse().unwrap();
    let decimals = want.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    let tolerance = 0.5 * 10f64.powi(-decimals);
    assert!((got - value).abs() <= tolerance, "got {got}, table says {want}");
}

#[test]
fn section_6_resnet50_data_parallel_on_abci() {
    let scenario = presets::scenario("resnet50", "abci").unwrap();
    let rows = [
        (1, "3992.96256", "0", 15_434_845_696.0),
        (2, "1996.48128", "18.3672128", 15_434_845_696.0),
        (8, "499.12032", "33.2384724", 15_434_845_696.0),
        (1024, "3.899377500", "1.9676128296", 15_434_845_696.0),
    ];
    for (gpus, compute, communication, memory) in rows {
        let strategy = if gpus == 1 { Strategy::Serial } else { Strategy::Data };
        let p = scenario
            .project(&ideal(strategy, gpus, Batch::SamplesPerGpu(64.0)))
            .unwrap();
        matches_table(p.compute_s, compute);
        matches_table(p.communication_s, communication);
        assert_eq!(p.memory_bytes, memory, "p = {gpus}");
        assert!(p.feasible);
    }
}

#[test]
fn serial_equals_data_on_one_gpu() {
    let scenario = presets::scenario("resnet50", "abci").unwrap();
    let serial = scenario
        .project(&ideal(Strategy::Serial, 1, Batch::SamplesPerGpu(64.0)))
        .unwrap();
    let data = scenario
        .project(&ideal(Strategy::Data, 1, Batch::SamplesPerGpu(64.0)))
        .unwrap();
    assert_eq!(serial.total_s, data.total_s);
    assert_eq!(serial.memory_bytes, data.memory_bytes);
}

#[test]
fn partial_last_batch_alexnet_1024_gpus() {
    // "With AlexNet on 1024 GPUs at 512 samples per GPU this is the
    // difference between 0.76 s and 0.94 s."
    let scenario = presets::scenario("alexnet", "abci").unwrap();
    let p = scenario
        .project(&ideal(Strategy::Data, 1024, Batch::SamplesPerGpu(512.0)))
        .unwrap();
    assert_eq!(p.iterations, 3);
    // D/B = 1.220703125 iterations of compute, not I = 3:
    // 1,280,000 · 0.000610938 s / 1024 = 0.76367250 s, against 3 · 512 · 0.000610938 = 0.93840077 s
    assert!((p.compute_s - 0.763_672_5).abs() < 1e-9, "{}", p.compute_s);
    assert!((p.compute_s - 0.76).abs() < 0.005);
    // ... but whole gradients every iteration, the partial last one too. By hand:
    // W = 62,367,776 weights (the file's shapes: 34,848 + 614,400 + 884,736 + 1,327,104
    // + 884,736 + 37,748,736 + 16,777,216 + 4,096,000); 1024 GPUs span 256 nodes, past the
    // 34-node racks: α = 2·20.11 µs + 400 ns + 2·(90 + 90) ns = 40.98 µs, β = 1/12.5e9;
    // AR = 2·1023·(40.98 µs + 4·W/1024/12.5e9) = 0.12372147678 s per iteration.
    assert_eq!(scenario.network().weight_items(), 62_367_776.0);
    assert!(
        (p.communication_s - 3.0 * 0.123_721_476_78).abs() < 1e-10,
        "{}",
        p.communication_s
    );
}

#[test]
fn abci_preset_is_section_6() {
    let abci = presets::cluster("abci").unwrap();
    let s = abci.spec();
    assert_eq!(s.gpu_flops_per_s, 7.8e12);
    assert_eq!(s.gpu_memory_bytes, 16e9);
    assert_eq!(s.gpus_per_node, 4);
    assert_eq!(s.max_gpus, 4096);
    assert_eq!(
        (s.intra_node.bandwidth_bytes_per_s, s.intra_node.latency_s),
        (50e9, 9e-6)
    );
    assert_eq!(
        (s.nic.bandwidth_bytes_per_s, s.nic.latency_s, s.nics_per_node),
        (12.5e9, 20.11e-6, 2)
    );
    let levels: Vec<(Option<u64>, f64)> = s.switch_levels.iter().map(|l| (l.span_nodes, l.latency_s)).collect();
    assert_eq!(levels, vec![(Some(17), 90e-9), (Some(34), 90e-9), (None, 400e-9)]);
}

#[test]
fn cosmoflow_trains_at_a_quarter_sample_per_gpu() {
    let scenario = presets::scenario("cosmoflow", "abci").unwrap();
    let ds = scenario
        .project(&ideal(Strategy::DataSpatial, 512, Batch::SamplesPerGpu(0.25)))
        .unwrap();
    assert_eq!(ds.mini_batch, 128);
    assert_eq!(ds.group_size, Some(4));
    assert!(ds.feasible, "{:?}", ds.violations);
    let data = scenario
        .project(&ideal(Strategy::Data, 512, Batch::SamplesPerGpu(0.25)))
        .unwrap();
    assert!(data.violations.contains(&paradl::oracle::Violation::Batch));
}
