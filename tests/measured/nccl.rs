//! The realistic edition's Allreduce on the DGX H100 preset against
//! nccl-tests' measured `all_reduce_perf` on H100 nodes with 8 NDR NICs
//! (`validation/nccl-allreduce-h100.csv`: one DGX H100, NVIDIA's
//! dgxc-benchmarking sample; 2, 4 and 8 nodes of one cluster,
//! NVIDIA/nccl-tests#309; 1 MiB to 1 GiB, NCCL's default algorithm).
#![cfg(not(target_arch = "wasm32"))]

use crate::columns;

use paradl::oracle::cost::collectives::Fabric;
use paradl::oracle::cost::terms::Terms;
use paradl::oracle::{Edition, presets};

const CSV: &str = include_str!("../validation/nccl-allreduce-h100.csv");

/// (GPUs, bytes, measured seconds) of every row.
fn rows() -> Vec<(u64, f64, f64)> {
    let mut lines = CSV.lines();
    assert_eq!(lines.next(), Some("nodes,gpus,size_bytes,time_us,busbw_gbps,source"));
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let number = |i: usize| cells[i].parse::<f64>().expect("a number");
            (number(1) as u64, number(2), number(3) * 1e-6)
        })
        .collect()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[test]
fn allreduces_on_h100_nodes_match_nccl_tests() {
    let cluster = presets::cluster("dgx-h100").expect("a preset");
    let terms = Terms::new(&cluster, Edition::Realistic);
    let fabric = Fabric::new(&cluster, &terms);
    let rows = rows();
    assert_eq!(rows.len(), 44);
    let mut by_nodes: Vec<(u64, Vec<f64>)> = Vec::new();
    for (gpus, bytes, measured_s) in rows {
        let ratio = fabric.allreduce_consecutive(gpus, bytes) / measured_s;
        eprintln!("{gpus:>3} GPUs {bytes:>12} B: model / measured {ratio:.2}");
        // every size within a factor of two (NCCL switches protocols and algorithms by size)
        assert!((0.5..=2.0).contains(&ratio), "{gpus} GPUs, {bytes} B: {ratio}");
        match by_nodes.iter_mut().find(|(g, _)| *g == gpus) {
            Some((_, ratios)) => ratios.push(ratio),
            None => by_nodes.push((gpus, vec![ratio])),
        }
    }
    for (gpus, ratios) in &mut by_nodes {
        let m = median(ratios);
        eprintln!("{gpus} GPUs: median model / measured {m:.2}");
        assert!((m - 1.0).abs() <= 0.25, "{gpus} GPUs: {m}");
    }
}

/// nccl-tests' `all_reduce_perf` published at 16 to 1,440 GPUs
/// (`validation/nccl-allreduce-scale.csv`, made by `nccl_scale_extract.py`,
/// setups in `nccl-scale.md`): H100 with 8 NDR NICs and SHARP, AWS p5 over
/// EFA, A100 and H100 clusters at small sizes, GB200 NVL72 racks over
/// InfiniBand and RoCE. Each row on the preset of its kind of system, the
/// GPU count its own; ratios printed by system and held to a band, the
/// systems' own fabrics not being told to the model.
#[test]
fn allreduces_at_scale_match_published_nccl_tests() {
    let table = columns::rows(
        include_str!("../validation/nccl-allreduce-scale.csv"),
        ["system", "preset", "gpus", "size_bytes", "time_us"],
    );
    let mut ratios: Vec<f64> = Vec::new();
    let mut small: Vec<f64> = Vec::new();
    for [system, preset, gpus, size, time] in table {
        let n: u64 = gpus.parse().unwrap();
        let bytes: f64 = size.parse().unwrap();
        let measured_s = time.parse::<f64>().unwrap() * 1e-6;
        let mut spec = presets::cluster(preset).unwrap().spec().clone();
        spec.max_gpus = spec.max_gpus.max(n);
        let cluster = paradl::oracle::Cluster::new(spec).unwrap();
        let terms = Terms::new(&cluster, Edition::Realistic);
        let fabric = Fabric::new(&cluster, &terms);
        let ratio = fabric.allreduce_consecutive(n, bytes) / measured_s;
        eprintln!("{system:42} {n:5} GPUs {bytes:>12} B: model / measured {ratio:.2}");
        // every row within a factor of three (mid-size messages over EFA and the 20-rack
        // GB200 run are the furthest: the model is faster there)
        assert!((0.33..=3.0).contains(&ratio), "{system}: {n} GPUs, {bytes} B: {ratio}");
        ratios.push(ratio);
        if bytes <= 4096.0 && !system.contains("RoCE") && !system.contains("OCI") {
            small.push(ratio);
        }
    }
    let m = median(&mut ratios);
    eprintln!("{} rows: median model / measured {m:.2}", ratios.len());
    assert!((m - 1.0).abs() <= 0.25, "{m}");
    // the latency of small messages over InfiniBand at 16 and 32 nodes: NCCL's tree with LL
    let s = median(&mut small);
    eprintln!("{} small messages over InfiniBand: median {s:.2}", small.len());
    assert!((0.75..=1.25).contains(&s), "{s}");
}
