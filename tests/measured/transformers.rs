//! Vision transformers against timm's own training benchmark on one
//! GeForce RTX 3090 (`tests/validation/timm-train-rtx3090-vit.csv`: the
//! rows of ViT-Ti, ViT-S and ViT-B at 16×16 patches, DeiT's and Swin-T's, in the
//! same file as `timm-train-rtx3090.csv`; AMP, NCHW, PyTorch 1.12, which
//! had no fused attention: timm 0.6.6 ran it eager). The presets built as
//! timm builds them, serial, at the benchmark's batch, with the datasheet's
//! workstation of `timm_rtx3090.rs`.
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::formats::json;
use paradl::oracle::{AttentionForm, Batch, Optimizer, Precision, RunSpec, Scenario, Strategy, presets};

use crate::timm_rtx3090::WORKSTATION;

/// timm's name and the preset that builds the same network.
const PRESETS: [(&str, &str); 7] = [
    ("vit_tiny_patch16_224", "deit-ti"),
    ("deit_tiny_patch16_224", "deit-ti"),
    ("vit_small_patch16_224", "deit-s"),
    ("deit_small_patch16_224", "deit-s"),
    ("vit_base_patch16_224", "vit-b16"),
    ("deit_base_patch16_224", "vit-b16"),
    ("swin_tiny_patch4_window7_224", "swin-t"),
];

/// Projected over measured samples per second, and memory over the card's
/// at the batch that ran and at the one timm tried before (which failed; 0
/// when it ran at the first it tried), per row.
fn outcomes(form: AttentionForm) -> Vec<(String, f64, f64, f64)> {
    let cluster = json::cluster(WORKSTATION).unwrap();
    let csv = include_str!("../validation/timm-train-rtx3090-vit.csv");
    csv.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let (measured, batch): (f64, u64) = (f[1].parse().unwrap(), f[3].parse().unwrap());
            let key = PRESETS.iter().find(|(m, _)| *m == f[0]).unwrap().1;
            let s = Scenario::new(presets::network(key).unwrap(), cluster.clone());
            let at = |b: u64| {
                s.project(&RunSpec {
                    precision: Precision::Fp16,
                    optimizer: Optimizer::Momentum,
                    attention: form,
                    ..RunSpec::new(Strategy::Serial, 1, Batch::SamplesPerGpu(b as f64))
                })
                .unwrap()
            };
            let p = at(batch);
            let speed = p.mini_batch as f64 * p.iterations as f64 / p.total_s / measured;
            // the batch timm tried before (out of memory), if any
            let before = [512, 384, 256, 192, 128].iter().rev().find(|&&b| b > batch).copied();
            let failed = before.map_or(0.0, |b| {
                let q = at(b);
                q.memory_bytes / q.memory_capacity_bytes
            });
            (
                f[0].to_string(),
                speed,
                p.memory_bytes / p.memory_capacity_bytes,
                failed,
            )
        })
        .collect()
}

#[test]
fn timms_vision_transformers_on_an_rtx3090_are_projected_from_the_datasheet() {
    let rows = outcomes(AttentionForm::Eager);
    for (model, speed, memory, failed) in &rows {
        println!(
            "{model:28} projected / measured {speed:.2}  memory {memory:.3}, {failed:.3} at the batch that failed"
        );
    }
    let accuracy = |r: f64| r.min(1.0 / r);
    let mean = rows.iter().map(|r| accuracy(r.1)).sum::<f64>() / rows.len() as f64;
    println!("mean accuracy {mean:.3}");
    // as the CNNs of the same benchmark are held (`timm_rtx3090.rs`): no network off by more
    // than 2x; the mean accuracy at this change was 0.76 (1.39, 1.26 and 1.17 projected over
    // measured for ViT-Ti, -S and -B, 1.64 for Swin-T)
    assert!(mean >= 0.75, "{mean}");
    for (model, speed, memory, failed) in &rows {
        assert!((0.5..=2.0).contains(speed), "{model}: {speed}");
        // every run fit; the batch timm tried before did not
        assert!(*memory <= 1.0, "{model}: {memory}");
        assert!(*failed == 0.0 || *failed > 1.0, "{model}: {failed}");
    }
}

/// The fused form (what PyTorch 2 runs) saves less and runs faster than
/// the eager one the benchmark ran: the `h·N²` scores never reach memory.
#[test]
fn fused_attention_saves_less_and_runs_faster_than_eager() {
    let eager = outcomes(AttentionForm::Eager);
    let fused = outcomes(AttentionForm::Fused);
    for (e, f) in eager.iter().zip(&fused) {
        if e.0.starts_with("swin") {
            // a relative position bias on the scores: taken as run eager (contract, section 15)
            assert_eq!((f.1, f.2), (e.1, e.2), "{}", e.0);
            continue;
        }
        assert!(f.2 < e.2, "{}: memory {} against {}", e.0, f.2, e.2);
        assert!(f.1 > e.1, "{}: speed {} against {}", e.0, f.1, e.1);
    }
}
