//! The `paradl` command line, driven exactly as the checks do.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::{Command, Output};

use paradl::oracle::formats::{lc, net};
use paradl::oracle::{Batch, RunSpec, Strategy, presets};
use serde_json::Value;

/// Runs `paradl` with a command line (arguments separated by blanks).
fn paradl(line: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_paradl"))
        .args(line.split_whitespace())
        .output()
        .unwrap()
}

/// Runs `paradl` and reads the JSON it prints.
fn json(line: &str) -> Value {
    let out = paradl(line);
    assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("paradl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn project_prints_one_object_with_the_contract_numbers() {
    let p = json(
        "project --model resnet50 --cluster abci --strategy data --gpus 8 --samples-per-gpu 64 --fidelity ideal --format json",
    );
    for key in [
        "strategy",
        "gpus",
        "mini_batch",
        "iterations",
        "compute_s",
        "communication_s",
        "total_s",
        "memory_bytes",
        "feasible",
        "violations",
        "communication",
        "bottlenecks",
    ] {
        assert!(p.get(key).is_some(), "missing {key}");
    }
    assert_eq!(p["strategy"], "data");
    assert_eq!(p["gpus"], 8);
    assert_eq!(p["mini_batch"], 512);
    assert_eq!(p["iterations"], 2500);
    assert!((p["compute_s"].as_f64().unwrap() - 499.12032).abs() < 1e-6);
    assert!((p["communication_s"].as_f64().unwrap() - 33.2384724).abs() < 1e-6);
    assert_eq!(p["memory_bytes"].as_f64().unwrap(), 15_434_845_696.0);
    assert_eq!(p["feasible"], true);
    assert_eq!(p["violations"], Value::Array(vec![]));
    let comm = p["communication"].as_object().unwrap();
    assert!((comm["gradient_allreduce"].as_f64().unwrap() - 33.2384724).abs() < 1e-6);
    assert_eq!(comm["halo"], 0.0);
}

#[test]
fn strategy_short_names_and_batch() {
    let p = json("project --model alexnet --cluster abci --strategy df --gpus 16 --batch 256 --group 8 --format json");
    assert_eq!(p["strategy"], "data+filter");
    assert_eq!(p["mini_batch"], 256);
    assert_eq!(p["group_size"], 8);
    let p = json("project --model alexnet --cluster abci --strategy p --gpus 4 --batch 64 --segments 16 --format json");
    assert_eq!(p["strategy"], "pipeline");
    assert_eq!(p["segments"], 16);
}

#[test]
fn infeasible_projections_name_their_violations() {
    let p =
        json("project --model vgg16 --cluster abci --strategy spatial --gpus 64 --samples-per-gpu 32 --format json");
    assert_eq!(p["feasible"], false);
    let violations: Vec<&str> = p["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(violations, ["memory"]);
    let kinds: Vec<&str> = p["bottlenecks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"memory_overflow"));
}

#[test]
fn sweep_lists_every_strategy_and_gpu_count() {
    let list = json("sweep --model resnet50 --cluster abci --samples-per-gpu 32 --format json");
    let list = list.as_array().unwrap();
    // serial at 1 GPU, seven strategies at 13 counts up to ABCI's 4096
    assert_eq!(list.len(), 1 + 7 * 13);
    let data: Vec<u64> = list
        .iter()
        .filter(|p| p["strategy"] == "data")
        .map(|p| p["gpus"].as_u64().unwrap())
        .collect();
    assert_eq!(data, (0..13).map(|e| 1u64 << e).collect::<Vec<_>>());

    let out =
        paradl("sweep --model alexnet --cluster dgx-a100 --strategies d,ds --max-gpus 64 --batch 1024 --format csv");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("strategy,gpus,mini_batch,"));
    assert_eq!(lines.len(), 1 + 2 * 7);
    assert!(lines[1].starts_with("data,1,1024,"));
    // a file read alone says what it holds: network, cluster, edition, practice, likely epoch, time to train
    assert!(lines[0].ends_with(
        ",network,cluster,edition,precision,optimizer,zero,recompute,overlap,likely_low_s,likely_high_s,epochs_to_converge,convergence,time_to_train_s,likely_train_low_s,likely_train_high_s,epoch_kwh,train_kwh,train_co2_kg,train_usd"
    ));
    // the energy, CO2 and money to train: an epoch's energy times the epochs, the grid's and the price's multiples
    let all: Vec<&str> = lines[1].split(',').collect();
    let (epoch_kwh, train_kwh, co2_kg, usd): (f64, f64, f64, f64) = (
        all[all.len() - 4].parse().unwrap(),
        all[all.len() - 3].parse().unwrap(),
        all[all.len() - 2].parse().unwrap(),
        all[all.len() - 1].parse().unwrap(),
    );
    assert!((train_kwh - 35.0 * epoch_kwh).abs() <= 1e-9 * train_kwh);
    // DGX A100: the world's grid (483.18 g/kWh) and AWS p4de's A100 80 GB at $27.4471 for 8 GPU-hours
    assert!((co2_kg - train_kwh * 0.48318).abs() <= 1e-9 * co2_kg);
    let train_s: f64 = all[all.len() - 7].parse().unwrap();
    assert!((usd - train_s / 3600.0 * 27.4471 / 8.0).abs() <= 1e-9 * usd, "{usd}");
    // AlexNet follows ResNet-50's reference runs: at 1,024 samples, the 35 epochs of the smallest batch measured
    let cells: Vec<&str> = all[..all.len() - 4].to_vec();
    let (total_s, epochs, train_s): (f64, f64, f64) = (
        cells[7].parse().unwrap(),
        cells[cells.len() - 5].parse().unwrap(),
        cells[cells.len() - 3].parse().unwrap(),
    );
    assert_eq!(epochs, 35.0, "{}", lines[1]);
    assert_eq!(cells[cells.len() - 4], "mlperf-resnet50");
    assert!((train_s - 35.0 * total_s).abs() <= 1e-9 * train_s);
    // likely between the epoch's band times the fewest and the most epochs of a reference run (33, 37)
    let (low, high): (f64, f64) = (
        cells[cells.len() - 2].parse().unwrap(),
        cells[cells.len() - 1].parse().unwrap(),
    );
    let (band_low, band_high): (f64, f64) = (
        cells[cells.len() - 7].parse().unwrap(),
        cells[cells.len() - 6].parse().unwrap(),
    );
    assert!((low - band_low * 33.0).abs() <= 1e-9 * low && (high - band_high * 37.0).abs() <= 1e-9 * high);
    assert!(
        lines[1].contains(",AlexNet,DGX A100 SuperPOD,realistic,fp32,none,0,false,false,"),
        "{}",
        lines[1]
    );
}

#[test]
fn time_to_train_follows_the_convergence_named_given_or_the_presets_own() {
    // ResNet-50's own curve: 32,768 samples take the 56 epochs of MLPerf's reference runs
    let p = json(
        "project --model resnet50 --cluster dgx-a100 --strategy data --gpus 512 --samples-per-gpu 64 --precision fp16 --format json",
    );
    let training = &p["training"];
    assert_eq!(training["epochs"]["epochs"], 56.0);
    assert_eq!(training["epochs"]["curve"], "mlperf-resnet50");
    assert_eq!(training["assumed"], false);
    let total = p["total_s"].as_f64().unwrap();
    assert!((training["time_s"].as_f64().unwrap() - 56.0 * total).abs() < 1e-9 * total * 56.0);
    // past the largest batch that converged (67,840): extrapolated, said
    let past = json(
        "project --model resnet50 --cluster dgx-h100 --strategy data --gpus 2048 --samples-per-gpu 128 --precision fp16 --format json",
    );
    assert_eq!(past["training"]["epochs"]["how"]["kind"], "past_largest");
    assert!(past["training"]["epochs"]["epochs"].as_f64().unwrap() > 150.0);
    let text = String::from_utf8(
        paradl("project --model resnet50 --cluster dgx-h100 --strategy data --gpus 2048 --samples-per-gpu 128 --precision fp16").stdout,
    )
    .unwrap();
    assert!(text.contains("past the largest batch that converged"), "{text}");
    // epochs given: those at every batch; a file's network assumes 90 unless given
    let given = json(
        "project --model resnet50 --cluster abci --strategy data --gpus 64 --samples-per-gpu 32 --convergence 42 --format json",
    );
    assert_eq!(given["training"]["epochs"]["epochs"], 42.0);
    // the dataset's size changes the epoch, not the epochs
    let small = json(
        "project --model resnet50 --cluster abci --strategy data --gpus 64 --samples-per-gpu 32 --dataset-samples 204800 --format json",
    );
    assert_eq!(small["iterations"], 100);
    for (flag, field) in [
        ("--convergence 0", "--convergence"),
        ("--convergence mlperf-bert", "--convergence"),
        ("--dataset-samples 0", "--dataset-samples"),
    ] {
        let out = paradl(&format!(
            "project --model resnet50 --cluster abci --strategy data --gpus 8 --samples-per-gpu 32 {flag}"
        ));
        assert!(!out.status.success(), "{flag}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(field), "{flag}");
    }
    // ranked by time to train, each strategy's global batch's epochs count
    let list = json(
        "rank --model resnet50 --cluster dgx-a100 --gpus 64 --samples-per-gpu 32 --precision fp16 --by-time-to-train --format json",
    );
    let times: Vec<f64> = list
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["feasible"] == true)
        .map(|p| p["training"]["time_s"].as_f64().unwrap())
        .collect();
    assert!(times.len() >= 2 && times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
}

#[test]
fn rank_orders_feasible_fastest_first_then_infeasible() {
    let list = json("rank --model resnet50 --cluster abci --gpus 64 --samples-per-gpu 32 --format json");
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 7, "every strategy but serial");
    assert!(list.iter().all(|p| p["strategy"] != "serial"));
    let feasible: Vec<bool> = list.iter().map(|p| p["feasible"].as_bool().unwrap()).collect();
    let split = feasible.iter().position(|f| !f).unwrap_or(list.len());
    assert!(feasible[split..].iter().all(|f| !f));
    for pair in list[..split].windows(2) {
        assert!(pair[0]["total_s"].as_f64() <= pair[1]["total_s"].as_f64());
    }
    for p in &list[split..] {
        assert!(!p["violations"].as_array().unwrap().is_empty());
    }
    // the same numbers as the engine
    let engine = presets::scenario("resnet50", "abci").unwrap().rank(
        &RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0)),
        Default::default(),
    );
    for (json, p) in list.iter().zip(&engine.points) {
        assert_eq!(json["strategy"], p.strategy.name());
        assert_eq!(json["total_s"].as_f64().unwrap(), p.total_s);
        assert_eq!(json["memory_bytes"].as_f64().unwrap(), p.memory_bytes);
    }
    let one = json("rank --model alexnet --cluster abci --gpus 1 --batch 64 --format json");
    assert_eq!(one.as_array().unwrap().len(), 8);
}

#[test]
fn bad_input_exits_non_zero_with_the_error_on_stderr_only() {
    let cases = [
        "project --model lenet --cluster abci --strategy d --gpus 8 --batch 64 --format json",
        "project --model alexnet --cluster abci --strategy df --gpus 16 --batch 64 --group 3 --format json",
        "project --model alexnet --cluster abci --strategy data --gpus 3 --samples-per-gpu 0.5 --format json",
        "project --model alexnet --cluster abci --strategy model --gpus 8 --batch 64",
        "sweep --model alexnet --cluster abci --format json",
    ];
    let expected = [
        "model",
        "group_size",
        "samples_per_gpu",
        "strategy",
        "--samples-per-gpu",
    ];
    for (args, needle) in cases.iter().zip(expected) {
        let out = paradl(args);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn model_and_cluster_files() {
    let text = presets::network_preset("vgg16").unwrap().file().unwrap().1;
    let path = temp_file("VGG.net_sc", text);
    let project = "--strategy data --gpus 32 --samples-per-gpu 16 --format json";
    // a file is no preset: it trains as its convergence is named (90 epochs assumed otherwise)
    let from_file = json(&format!(
        "project --model {} --cluster abci {project} --convergence mlperf-resnet50",
        path.display()
    ));
    let from_preset = json(&format!("project --model vgg16 --cluster abci {project}"));
    assert_eq!(from_file, from_preset);
    let assumed = json(&format!("project --model {} --cluster abci {project}", path.display()));
    assert_eq!(assumed["training"]["assumed"], true);
    assert_eq!(assumed["training"]["epochs"]["epochs"], 90.0);

    // a .plat cluster is flat: every ring has the file's latency and bandwidth
    let plat = temp_file("ABCI.plat", include_str!("../src/oracle/presets/reference/ABCI.plat"));
    let p = json(&format!(
        "project --model resnet50 --cluster {} --strategy data --gpus 8 --samples-per-gpu 64 --format json",
        plat.display()
    ));
    let weights = presets::network("resnet50").unwrap().weight_items();
    let per_iteration = 2.0 * 7.0 * (500e-9 + 4.0 * weights / (8.0 * 12.5e9));
    assert!((p["communication_s"].as_f64().unwrap() - 2500.0 * per_iteration).abs() < 1e-9);

    // JSON files work too, and a broken .net names its line and column
    let exported = paradl("export --cluster dgx-h100 --format json");
    let cluster_json = temp_file("h100.json", &String::from_utf8(exported.stdout).unwrap());
    let p = json(&format!(
        "project --model alexnet --cluster {} --strategy data --gpus 8 --batch 256 --format json",
        cluster_json.display()
    ));
    assert_eq!(p["memory_capacity_bytes"].as_f64().unwrap(), 80e9);
    let broken = temp_file("broken.net", &text.replace("3x64x3x3", "3x64x3xx3"));
    let out = paradl(&format!(
        "project --model {} --cluster abci --strategy d --gpus 1 --batch 1",
        broken.display()
    ));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 4, column 19"));
}

#[test]
fn split_files_replace_the_default_split_set() {
    let text = include_str!("../src/oracle/presets/reference/spatial_alexnet.lc");
    let path = temp_file("spatial_alexnet.lc", text);
    let args = |split: bool| {
        let base = "project --model alexnet --cluster abci --strategy spatial --gpus 4 --batch 128 --format json";
        if split {
            json(&format!("{base} --split {}", path.display()))
        } else {
            json(base)
        }
    };
    let with_file = args(true);
    assert_ne!(with_file, args(false));
    let network = presets::network("alexnet").unwrap();
    let flags = lc::parse(text, &network).unwrap();
    let engine = presets::scenario("alexnet", "abci")
        .unwrap()
        .project(&RunSpec {
            split: Some(flags),
            ..RunSpec::new(Strategy::Spatial, 4, Batch::MiniBatch(128))
        })
        .unwrap();
    assert_eq!(with_file["total_s"].as_f64().unwrap(), engine.total_s);
}

#[test]
fn export_writes_formats_that_read_back() {
    let out = paradl("export --model resnet152 --format net");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(net::parse(&text).unwrap(), presets::network("resnet152").unwrap());
    let out = paradl("export --cluster abci --format plat");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hierarchy"));
    let out = paradl("presets");
    let text = String::from_utf8(out.stdout).unwrap();
    for p in presets::NETWORKS {
        assert!(text.contains(p.key));
    }
}

#[test]
fn capacity_reports_the_largest_batch() {
    let data = |line: &str| {
        json(line)
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["strategy"] == "data")
            .unwrap()["max_mini_batch"]
            .clone()
    };
    // the ideal edition: 2·4·(B/8·A + W) ≤ 16e9
    assert_eq!(
        data("capacity --model resnet50 --cluster abci --gpus 8 --fidelity ideal --format json"),
        530
    );
    // the realistic edition holds what autograd saves (section 11), with ABCI's 781 MiB reserved
    // out: the engine's bisection, and more samples than ParaDL's accounting
    let template = paradl::oracle::RunSpec::new(
        paradl::oracle::Strategy::Data,
        8,
        paradl::oracle::Batch::SamplesPerGpu(1.0),
    );
    let engine = presets::scenario("resnet50", "abci")
        .unwrap()
        .capacity(&template)
        .unwrap();
    let realistic = data("capacity --model resnet50 --cluster abci --gpus 8 --format json");
    assert_eq!(realistic, engine.max_mini_batch.unwrap());
    assert!(realistic.as_u64().unwrap() > 530);
}

#[test]
fn fidelity_switches_the_edition() {
    let real =
        json("project --model resnet50 --cluster abci --strategy ds --gpus 64 --samples-per-gpu 16 --format json");
    let ideal = json(
        "project --model resnet50 --cluster abci --strategy ds --gpus 64 --samples-per-gpu 16 --fidelity ideal --format json",
    );
    assert_eq!(real["fidelity"], "realistic");
    assert_eq!(ideal["fidelity"], "ideal");
    let terms: Vec<&str> = real["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["term"].as_str().unwrap())
        .collect();
    assert_eq!(
        terms,
        [
            "roofline",
            "elementwise_split",
            "nic_sharing",
            "halo_transport",
            "kernels",
            "framework_memory"
        ]
    );
    assert_eq!(ideal["terms"], Value::Array(vec![]));
    // host-staged halos make the realistic hybrid slower
    assert!(real["communication"]["halo"].as_f64().unwrap() > 10.0 * ideal["communication"]["halo"].as_f64().unwrap());
    let out = paradl("project --model resnet50 --cluster abci --strategy d --gpus 8 --batch 64 --fidelity exact");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn calibrate_then_project_reproduces_the_measurement() {
    let csv = temp_file(
        "runs.csv",
        "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\nds,64,1024,,0.25,,\nd,8,512,,0.45,,\n",
    );
    let cal = json(&format!(
        "calibrate --model resnet50 --cluster abci --measured {} --format json",
        csv.display()
    ));
    assert_eq!(cal["fidelity"], "realistic");
    assert_eq!(cal["runs"].as_array().unwrap().len(), 2);
    let after = cal["runs"][0]["after"]["total_s"].as_f64().unwrap();
    assert!((after - 0.25).abs() < 1e-12, "{after}");
    let path = temp_file("calibration.json", &cal.to_string());
    let p = json(&format!(
        "project --model resnet50 --cluster abci --strategy ds --gpus 64 --batch 1024 --calibration {} --format json",
        path.display()
    ));
    // per epoch: 1,280,000/1024 = 1250 iterations of 0.25 s
    assert!(
        (p["total_s"].as_f64().unwrap() - 1250.0 * 0.25).abs() < 1e-6,
        "{}",
        p["total_s"]
    );
    assert_eq!(p["calibration"]["measured"], true);
    // the table says so
    let out = paradl(&format!(
        "project --model resnet50 --cluster abci --strategy filter --gpus 4 --batch 64 --calibration {}",
        path.display()
    ));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("calibrated: compute ×"), "{text}");
    assert!(text.contains("global factors"), "{text}");
    // rank, sweep and capacity take it too
    for command in [
        "rank --gpus 64 --batch 1024",
        "sweep --max-gpus 16 --batch 1024",
        "capacity --gpus 8",
    ] {
        let out = paradl(&format!(
            "{command} --model resnet50 --cluster abci --calibration {}",
            path.display()
        ));
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // a calibration of the realistic edition does not apply to the ideal one
    let out = paradl(&format!(
        "project --model resnet50 --cluster abci --strategy ds --gpus 64 --batch 1024 --fidelity ideal --calibration {}",
        path.display()
    ));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("calibration.fidelity"));
}

#[test]
fn calibrate_reports_bad_runs_with_line_and_column() {
    let csv = temp_file(
        "bad.csv",
        "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\nd,8,512,,0.45,,\nd,8,512,,zero,,\n",
    );
    let out = paradl(&format!(
        "calibrate --model resnet50 --cluster abci --measured {}",
        csv.display()
    ));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3, column 10"), "{err}");
    assert!(out.stdout.is_empty());
    let out = paradl(&format!(
        "calibrate --model resnet50 --cluster abci --measured {} --format table",
        temp_file(
            "ok.csv",
            "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\nd,8,512,,0.45,,\n"
        )
        .display()
    ));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("mean accuracy"), "{text}");
}

#[test]
fn validate_prints_the_accuracy_of_both_editions() {
    let report = json("validate --tier head --format json");
    assert_eq!(report["runs"].as_array().unwrap().len(), 58);
    let overall = &report["overall"];
    let ideal = overall["ideal"].as_f64().unwrap();
    let realistic = overall["realistic"].as_f64().unwrap();
    let calibrated = overall["realistic_calibrated"].as_f64().unwrap();
    assert!(ideal > 0.0 && realistic > 0.0 && calibrated <= 1.0);
    let out = paradl("validate --format csv");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 1 + 107);
    assert!(text.starts_with("id,model,strategy,tier,gpus"));
    let out = paradl("validate");
    assert!(String::from_utf8_lossy(&out.stdout).contains("realistic, calibrated"));
}

#[test]
fn validate_published_projects_every_published_run() {
    let report = json("validate --published --format json");
    let rows = report.as_array().unwrap();
    assert_eq!(rows.len(), 80);
    // the runs are the measured fixtures' (tests/validation): each MLPerf ResNet-50 row is there
    let fixture = include_str!("validation/mlperf-resnet50.csv");
    for line in fixture.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let (gpus, measured): (u64, f64) = (f[4].parse().unwrap(), f[6].parse().unwrap());
        assert!(
            rows.iter().any(|r| r["run"]["system"] == f[1]
                && r["run"]["gpus"].as_u64() == Some(gpus)
                && r["run"]["measured_samples_per_s"].as_f64() == Some(measured)),
            "{line}"
        );
    }
    let accuracy = |r: &Value| {
        let ratio = r["ratio"].as_f64().unwrap();
        ratio.min(1.0 / ratio)
    };
    assert!(rows.iter().all(|r| accuracy(r) > 0.5));
    let mean = rows.iter().map(accuracy).sum::<f64>() / rows.len() as f64;
    assert!(mean > 0.8, "{mean}");
    let out = paradl("validate --published");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("80 training runs NVIDIA published"), "{text}");
    assert!(text.contains("MLPerf Training, resnet50-torchvision"), "{text}");
    let csv = paradl("validate --published --format csv");
    assert_eq!(String::from_utf8_lossy(&csv.stdout).lines().count(), 81);
    // a tier is ParaDL's runs' choice: not with --published
    assert!(!paradl("validate --published --tier head").status.success());
}

#[test]
fn search_prints_the_front_and_project_repeats_its_best() {
    let plan = json(
        "search --model resnet50 --cluster abci --max-gpus 64 --samples-per-gpu 32 --optimizer momentum --objective cost --format json",
    );
    let evaluated = plan["evaluated"].as_u64().unwrap();
    assert!(evaluated > 100, "{evaluated}");
    let front = plan["front"].as_array().unwrap();
    assert!(!front.is_empty());
    for c in front {
        for key in [
            "strategy",
            "gpus",
            "group_size",
            "segments",
            "zero",
            "recompute",
            "mini_batch",
            "samples_per_gpu",
            "total_s",
            "gpu_hours",
            "memory_bytes",
            "feasible",
        ] {
            assert!(c.get(key).is_some(), "{key} missing in {c}");
        }
        assert_eq!(c["feasible"], true);
    }
    let best = &plan["best"];
    assert_eq!(plan["objective"], "cost");
    let least = front
        .iter()
        .map(|c| c["gpu_hours"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(best["gpu_hours"].as_f64().unwrap(), least);
    // project with the best's fields gives its numbers exactly
    let mut line = format!(
        "project --model resnet50 --cluster abci --optimizer momentum --strategy {} --gpus {} --batch {} --zero {} --format json",
        best["strategy"].as_str().unwrap(),
        best["gpus"],
        best["mini_batch"],
        best["zero"]
    );
    if let Some(group) = best["group_size"].as_u64() {
        line.push_str(&format!(" --group {group}"));
    }
    if let Some(segments) = best["segments"].as_u64() {
        line.push_str(&format!(" --segments {segments}"));
    }
    if best["recompute"] == true {
        line.push_str(" --recompute");
    }
    let again = json(&line);
    for key in ["total_s", "gpu_hours", "memory_bytes"] {
        assert_eq!(again[key], best[key], "{key}");
    }
}

#[test]
fn search_table_and_csv_list_the_same_front() {
    let base = "search --model alexnet --cluster abci --max-gpus 16 --batch 256";
    let csv = paradl(&format!("{base} --format csv"));
    assert!(csv.status.success());
    let csv = String::from_utf8(csv.stdout).unwrap();
    let table = String::from_utf8(paradl(base).stdout).unwrap();
    let rows = csv.lines().count() - 1;
    assert!(rows > 0);
    assert!(table.contains(&format!("{rows} on the Pareto front")), "{table}");
    assert!(table.contains("best by epoch time (objective):"), "{table}");
}

#[test]
fn search_rejects_what_it_varies_and_an_empty_budget() {
    for extra in ["--zero 2", "--recompute", "--group 4", "--segments 8"] {
        let out = paradl(&format!(
            "search --model alexnet --cluster abci --max-gpus 8 --batch 64 {extra}"
        ));
        assert_eq!(out.status.code(), Some(1), "{extra}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("varied by the search"), "{extra}: {err}");
    }
    let out = paradl("search --model alexnet --cluster abci --max-gpus 0 --batch 64");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("max_gpus"));
    let out = paradl("search --model alexnet --cluster abci --max-gpus 8 --batch 64 --objective speed");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn inspect_prints_the_totals_and_every_layer_of_an_onnx_graph() {
    let path = format!("{}/tests/onnx/light_resnet50.onnx", env!("CARGO_MANIFEST_DIR"));
    let inventory = json(&format!("inspect --model {path} --format json"));
    // torchvision's resnet50 count, biases and batch-norm scales included
    assert_eq!(inventory["parameters"], 25_557_032.0);
    assert_eq!(inventory["forward_flops_per_sample"], 8_239_860_200.0);
    assert!(inventory["activations_per_sample"].as_f64().unwrap() > 0.0);
    let layers = inventory["layers"].as_array().unwrap();
    assert_eq!(layers.len(), 175);
    for key in ["name", "kind", "x", "w", "y", "groups", "parameters", "forward_flops"] {
        assert!(layers[0].get(key).is_some(), "{key}");
    }
    let sum: f64 = layers.iter().map(|l| l["parameters"].as_f64().unwrap()).sum();
    assert_eq!(sum, 25_557_032.0);
    // the imported graph projects like any model
    let rank = json(&format!(
        "rank --model {path} --cluster abci --gpus 8 --samples-per-gpu 32 --format json"
    ));
    assert_eq!(rank.as_array().unwrap().len(), 7);
    // and exports to the JSON form, which reads back to the same totals
    let out = paradl(&format!("export --model {path} --format json"));
    assert!(out.status.success());
    let exported = temp_file("resnet50.json", &String::from_utf8_lossy(&out.stdout));
    let again = json(&format!("inspect --model {} --format json", exported.display()));
    assert_eq!(again["parameters"], inventory["parameters"]);
    // a preset inspects too
    let table = String::from_utf8(paradl("inspect --model alexnet").stdout).unwrap();
    assert!(table.starts_with("AlexNet"), "{table}");
}

#[test]
fn a_broken_onnx_file_is_an_error_naming_the_file() {
    let bytes = std::fs::read(format!("{}/tests/onnx/light_vgg19.onnx", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let dir = std::env::temp_dir().join(format!("paradl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cut.onnx");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let out = paradl(&format!("inspect --model {}", path.display()));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cut.onnx") && err.contains("ONNX"), "{err}");
    let out = paradl(&format!(
        "inspect --model {}/tests/onnx/light_vgg19.onnx --input-shape 3xx4",
        env!("CARGO_MANIFEST_DIR")
    ));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--input-shape"));
}

#[test]
fn explain_ends_at_the_number_project_prints() {
    let run = "--model cosmoflow --cluster abci --strategy spatial --gpus 16 --batch 16 --format json";
    let p = json(&format!("project {run}"));
    let halo = json(&format!("explain {run} --quantity comm-halo"));
    assert_eq!(halo["result"], p["communication"]["halo"]);
    assert_eq!(halo["quantity"], "comm-halo");
    assert!(halo["terms"][0]["formula"].as_str().unwrap().contains("P2P"));
    let total = json(&format!("explain {run}"));
    assert_eq!(total["result"], p["total_s"]);
    assert_eq!(total["steps"][0]["explains"], "compute");
    let memory = json(&format!("explain {run} --quantity memory-activations"));
    assert_eq!(memory["result"], p["memory"]["activations_bytes"]);
    // the text form names the sections of the model
    let out = paradl(&format!(
        "explain {} --quantity gpu-hours",
        run.replace("--format json", "")
    ));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("GPU-h = T·p/3600") && text.contains("sections: 5"),
        "{text}"
    );
    // an unknown quantity is refused by name
    let out = paradl(&format!("explain {run} --quantity comm-bogus"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown quantity"));
}

/// `paradl` with stdout read by a reader that stops at once (`| head -c 1`).
fn into_closed_pipe(line: &str) -> Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_paradl"))
        .args(line.split_whitespace())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut one = [0u8; 1];
    let mut stdout = child.stdout.take().unwrap();
    let _ = stdout.read(&mut one);
    drop(stdout);
    child.wait_with_output().unwrap()
}

#[test]
fn hostile_uses_of_the_command_line_get_clear_answers() {
    // output into a closed pipe: no panic, a quiet exit
    let out = into_closed_pipe("export --model resnet152 --format json");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
    // a negative count is the engine's error on the field, not clap's "unexpected argument"
    for (line, needle) in [
        (
            "project --model resnet50 --cluster abci --strategy data --gpus 8 --samples-per-gpu -1",
            "samples_per_gpu: must be greater than zero, found -1",
        ),
        (
            "sweep --model resnet50 --cluster abci --samples-per-gpu 8 --max-gpus 0",
            "max_gpus: must be at least 1, found 0",
        ),
        (
            "project --model resnet50 --cluster abci --strategy data --gpus 8 --samples-per-gpu 1e30",
            "samples_per_gpu: must be at most 1.13e15, found 1e30",
        ),
    ] {
        let out = paradl(line);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(needle), "{line}: {stderr}");
        assert!(!stderr.contains("18446744073709551615"), "{stderr}");
    }
    // capacity needs no batch (it finds it)
    let rows = json("capacity --model resnet50 --cluster abci --gpus 8 --format json");
    assert!(rows.as_array().is_some_and(|r| !r.is_empty()));
    // an infeasible run's explanation says so
    let out = paradl(
        "explain --model vgg16 --cluster abci --strategy data --gpus 8 --samples-per-gpu 1024 --quantity memory",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("infeasible") && text.contains("memory"),
        "{text}"
    );
    let e = json(
        "explain --model vgg16 --cluster abci --strategy data --gpus 8 --samples-per-gpu 1024 --quantity memory --format json",
    );
    assert_eq!(e["feasible"], false);
    assert_eq!(e["violations"][0], "memory");
    // a node larger than the whole cluster
    let mut spec = presets::cluster("abci").unwrap().spec().clone();
    spec.max_gpus = 2;
    let cluster = temp_file("small.json", &serde_json::to_string(&spec).unwrap());
    let out = paradl(&format!(
        "project --model resnet50 --cluster {} --strategy serial --gpus 1 --batch 8",
        cluster.display()
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("gpus_per_node: must be at most 2, found 4"), "{stderr}");
}

#[test]
fn measured_runs_written_by_a_spreadsheet_and_their_warnings() {
    // a byte-order mark; a run whose parts add up to far more than its iteration; the same run
    // measured 1000 times apart
    let csv = temp_file(
        "bom.csv",
        "\u{feff}strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\n\
         d,8,512,,0.45,150,120\n\
         d,16,1024,,0.3,,\n\
         d,16,1024,,300,,\n",
    );
    let cal = json(&format!(
        "calibrate --model resnet50 --cluster abci --measured {} --format json",
        csv.display()
    ));
    let warnings: Vec<&str> = cal["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["message"].as_str().unwrap())
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("line 2: compute and communication add up to 600 times")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("lines 3 and 4: the same run measured")),
        "{warnings:?}"
    );
    // a long cell is quoted cut
    let long = temp_file(
        "long.csv",
        &format!(
            "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\nd,8,512,,{},,\n",
            "9".repeat(1_000_000)
        ),
    );
    let out = paradl(&format!(
        "calibrate --model resnet50 --cluster abci --measured {}",
        long.display()
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.len() < 400, "{}", stderr.len());
}

/// The committed CPU profile of ResNet-18 and its graph.
fn profile_fixture() -> (String, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/profile/resnet18-cpu-b8");
    (format!("{dir}/model.onnx"), format!("{dir}/profile.json"))
}

#[test]
fn a_profile_gives_the_model_its_compute_on_every_projecting_command() {
    let (model, profile) = profile_fixture();
    let measured: Value = serde_json::from_str(&std::fs::read_to_string(&profile).unwrap()).unwrap();
    let step_s = measured["iteration_s"].as_f64().unwrap();
    let out = paradl(&format!(
        "project --model {model} --profile {profile} --cluster dgx-h100 --strategy serial --gpus 1 --batch 8"
    ));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("compute from your profile of resnet18 on x86_64 (cpu) at batch 8 (FP32)"),
        "{text}"
    );
    assert!(text.contains("step at batch 8: measured"), "{text}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("8 layer(s) have no time in the profile"), "{stderr}");
    assert!(stderr.contains("a device no preset describes"), "{stderr}");
    // the projection is built on the measured step: an epoch of 1,281,167 samples at batch 8
    let p = json(&format!(
        "project --model {model} --profile {profile} --cluster dgx-h100 --strategy serial --gpus 1 --batch 8 --format json"
    ));
    let iterations = p["iterations"].as_f64().unwrap();
    assert!((p["compute_s"].as_f64().unwrap() / iterations - step_s).abs() < 1e-6 * step_s);
    for line in [
        format!(
            "sweep --model {model} --profile {profile} --cluster dgx-h100 --samples-per-gpu 8 --max-gpus 4 --format json"
        ),
        format!(
            "rank --model {model} --profile {profile} --cluster dgx-h100 --gpus 8 --samples-per-gpu 8 --format json"
        ),
        format!(
            "explain --model {model} --profile {profile} --cluster dgx-h100 --strategy data --gpus 8 --samples-per-gpu 8 --quantity compute --format json"
        ),
        format!("capacity --model {model} --profile {profile} --cluster dgx-h100 --gpus 8 --format json"),
        format!(
            "search --model {model} --profile {profile} --cluster dgx-h100 --samples-per-gpu 8 --max-gpus 8 --format json"
        ),
    ] {
        let out = paradl(&line);
        assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let e = json(&format!(
        "explain --model {model} --profile {profile} --cluster dgx-h100 --strategy data --gpus 8 --samples-per-gpu 8 --quantity compute --format json"
    ));
    assert!(e["formula"].as_str().unwrap().contains("(WU + F)"), "{e}");
}

#[test]
fn a_bad_or_foreign_profile_is_an_error_naming_its_position_or_the_mismatch() {
    let (model, profile) = profile_fixture();
    let text = std::fs::read_to_string(&profile).unwrap();
    let bad = temp_file("bad-profile.json", &text.replacen("\"batch\": 8", "\"batch\": 0", 1));
    let out = paradl(&format!(
        "project --model {model} --profile {} --cluster dgx-h100 --strategy serial --gpus 1 --batch 8",
        bad.display()
    ));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 5, column"), "{stderr}");
    assert!(stderr.contains("the batch must be a whole number from 1"), "{stderr}");
    let out = paradl(&format!(
        "project --model resnet18 --profile {profile} --cluster dgx-h100 --strategy serial --gpus 1 --batch 8"
    ));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the profile is of another network"), "{stderr}");
}

#[test]
fn a_hand_written_cluster_gets_its_gpus_facts_or_says_what_is_missing() {
    // a cluster file as one writes it by hand: the preset's links, no realistic facts
    let out = paradl("export --cluster dgx1-v100-16gb --format json");
    assert!(out.status.success());
    let mut cluster: Value = serde_json::from_slice(&out.stdout).unwrap();
    let object = cluster.as_object_mut().unwrap();
    object.remove("realistic");
    object.remove("gpu");
    let bare = temp_file("bare.json", &cluster.to_string());
    cluster["gpu"] = Value::from("Tesla V100-SXM2-16GB");
    let named = temp_file("named.json", &cluster.to_string());
    // ResNet-50 at 112 samples per 16 GB V100 ran (NVIDIA's DeepLearningExamples)
    let run = "--strategy data --gpus 8 --samples-per-gpu 112 --format json";
    let out = paradl(&format!("project --model resnet50 --cluster {} {run}", bare.display()));
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    for needle in ["warning", "kernel facts", "memory bandwidth", "\"gpu\""] {
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
    // what autograd keeps is the framework's, not the cluster's: it fits without any fact
    let p: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(p["feasible"], true, "{p}");
    assert!(p["memory_bytes"].as_f64().unwrap() < 16e9);
    // named, the GPU brings its facts: no warning, and the preset's projection
    let out = paradl(&format!("project --model resnet50 --cluster {} {run}", named.display()));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let from_file: Value = serde_json::from_slice(&out.stdout).unwrap();
    let preset = json(&format!("project --model resnet50 --cluster dgx1-v100-16gb {run}"));
    assert_eq!(from_file["compute_s"], preset["compute_s"]);
    assert_eq!(from_file["memory_bytes"], preset["memory_bytes"]);
    // a GPU this tool does not know is refused, not silently timed by section 7's roofline: the
    // error names the field and what to add
    cluster["gpu"] = Value::from("Voodoo 5");
    let unknown = temp_file("unknown.json", &cluster.to_string());
    let out = paradl(&format!(
        "project --model resnet50 --cluster {} {run}",
        unknown.display()
    ));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("gpu: is not a GPU this tool knows") && stderr.contains("\"datasheet\""),
        "{stderr}"
    );
    // with its datasheet it projects, on its architecture's measured fractions: the V100's
    // datasheet as Volta gives the V100's own facts, and the preset's compute
    cluster["datasheet"] = serde_json::json!({
        "architecture": "volta", "sms": 80, "fp32_flops_per_s": 15.7e12, "fp16_flops_per_s": 125e12,
        "memory_bytes": 16e9, "memory_bandwidth_bytes_per_s": 900e9
    });
    let sheet = temp_file("datasheet.json", &cluster.to_string());
    let out = paradl(&format!("project --model resnet50 --cluster {} {run}", sheet.display()));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let from_sheet: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ratio = from_sheet["compute_s"].as_f64().unwrap() / preset["compute_s"].as_f64().unwrap();
    assert!((ratio - 1.0).abs() < 0.01, "{ratio}");
    // the ideal edition needs none of these facts: no warning
    let out = paradl(&format!(
        "project --model resnet50 --cluster {} {run} --fidelity ideal",
        bare.display()
    ));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn devices_and_pipes_are_read_up_to_the_limit_only() {
    // /dev/zero reports a size of 0 and never ends: a device is refused at once, not read to
    // a limit (round 4: buffered to 2 GiB first)
    if std::path::Path::new("/dev/zero").exists() {
        let started = std::time::Instant::now();
        for line in [
            "project --model resnet50 --cluster /dev/zero --strategy data --gpus 8 --samples-per-gpu 32",
            "inspect --model /dev/zero",
        ] {
            let out = paradl(line);
            assert_eq!(out.status.code(), Some(1));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("/dev/zero") && err.contains("a device, not a file"),
                "{err}"
            );
        }
        assert!(started.elapsed().as_secs() < 10);
    }
}

#[test]
fn an_output_that_cannot_be_written_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_paradl"))
        .args("rank --model resnet50 --cluster abci --gpus 8 --samples-per-gpu 32".split_whitespace())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("writing the output"));
}

#[test]
fn a_keras_json_after_a_byte_order_mark_is_read_as_keras() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/keras/lenet.json")).unwrap();
    let plain = temp_file("lenet.json", &text);
    let marked = temp_file("lenet-bom.json", &format!("\u{feff}{text}"));
    let line = |p: &PathBuf| format!("inspect --model {} --format json", p.display());
    assert_eq!(json(&line(&plain)), json(&line(&marked)));
}

#[test]
fn calibration_warnings_are_in_the_table_people_read() {
    let csv = temp_file(
        "far-apart.csv",
        "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,4,64,,10,30,2\ndata,4,64,,1,,\n",
    );
    let out = paradl(&format!(
        "calibrate --model resnet50 --cluster abci --measured {}",
        csv.display()
    ));
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "warning: line 2: compute and communication add up to 3.2 times the iteration",
        "warning: lines 2 and 3: the same run measured at 10 s and 1 s per iteration",
        "outside 0.5 to 2",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
}

/// Round 4: a device is refused at once (not buffered to 2 GiB), and a
/// file's name is quoted in the error, its control characters escaped.
#[cfg(unix)]
#[test]
fn a_device_is_refused_at_once_and_a_path_is_quoted() {
    let started = std::time::Instant::now();
    let out = paradl("inspect --model /dev/zero");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("a device, not a file"),
        "{stderr}"
    );
    assert!(started.elapsed().as_secs() < 10);
    let dir = std::env::temp_dir().join(format!("paradl-quoted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let odd = dir.join("bad\u{1b}[2Jname.net");
    std::fs::write(&odd, "not a network").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_paradl"))
        .args(["inspect", "--model"])
        .arg(&odd)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains('\u{1b}') && stderr.contains("\\u{1b}"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_node_of_any_gpu_is_a_cluster_key_and_a_bad_one_says_its_shape() {
    let ranked = json("rank --model resnet50 --cluster node:2:pcie4:L40S --gpus 2 --samples-per-gpu 32 --format json");
    let ranked = ranked.as_array().unwrap();
    assert!(!ranked.is_empty());
    // the L40S's 48 GB, from its datasheet row
    assert!(ranked.iter().all(|p| p["memory_capacity_bytes"] == 48e9), "{ranked:?}");
    let nvlink = json("rank --model resnet50 --cluster node:8:nvlink:B200 --gpus 8 --samples-per-gpu 32 --format json");
    assert!(nvlink.as_array().unwrap().iter().any(|p| p["feasible"] == true));
    for (key, says) in [
        ("node:2:pcie9:L40S", "node:GPUS:LINK:GPU"),
        ("node:2:nvlink:L40S", "link: does not belong here"),
        ("node:99:pcie4:L40S", "gpus: must be at most 16"),
        ("node:2:pcie4:Z9000", "is not a GPU this tool knows"),
    ] {
        let out = paradl(&format!(
            "rank --model resnet50 --cluster {key} --gpus 2 --samples-per-gpu 32"
        ));
        assert_eq!(out.status.code(), Some(1), "{key}");
        let error = String::from_utf8_lossy(&out.stderr);
        assert!(error.contains(says), "{key}: {error}");
    }
}

#[test]
fn a_bad_cost_is_said_on_its_flag_with_its_field_and_rule() {
    for (flag, field, rule) in [
        ("--pue 0.5", "--pue: costs.pue", "at least 1"),
        ("--grid mars", "--grid: costs.grid", "unknown grid"),
        ("--price aws-p9", "--price: costs.price", "unknown instance"),
        ("--usd-per-kwh 1e9", "--usd-per-kwh: costs.usd_per_kwh", "at most"),
    ] {
        let out = paradl(&format!(
            "rank --model resnet50 --cluster abci --gpus 8 --samples-per-gpu 32 {flag}"
        ));
        assert!(!out.status.success(), "{flag}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(said.contains(field) && said.contains(rule), "{flag}: {said}");
    }
}
