//! The fastest strategy, as measured: ParaDL's own runs on ABCI
//! (`src/oracle/validation/measured-runs.csv`, recovered from the authors'
//! logs; the January 2020 code, tier `HEAD`, which ran the hybrids of the
//! paper's tables). Where several strategies ran the same network on the
//! same number of GPUs, the realistic edition must name the one that
//! trained fastest, by time per sample (the runs' batches differ). Picking
//! the strategy is what the oracle is for.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use paradl::oracle::Strategy;
use paradl::oracle::validation::{Tier, ValidatedRun, report};

/// The fastest strategy of a group by a time of each run.
fn fastest(group: &[&ValidatedRun], time: impl Fn(&ValidatedRun) -> f64) -> Strategy {
    group
        .iter()
        .min_by(|a, b| time(a).total_cmp(&time(b)))
        .map(|r| r.run.strategy)
        .unwrap()
}

#[test]
fn the_realistic_edition_picks_the_strategy_that_ran_fastest_in_every_group() {
    let report = report(Tier::Head).unwrap();
    let mut groups: BTreeMap<(String, u64), Vec<&ValidatedRun>> = BTreeMap::new();
    for r in &report.runs {
        groups.entry((r.run.model.clone(), r.run.gpus)).or_default().push(r);
    }
    let mut compared = 0;
    let mut wrong = Vec::new();
    for ((model, gpus), group) in &groups {
        let strategies: std::collections::BTreeSet<Strategy> = group.iter().map(|r| r.run.strategy).collect();
        if strategies.len() < 2 {
            continue;
        }
        compared += 1;
        let per_sample = |s: f64, r: &ValidatedRun| s / r.run.mini_batch as f64;
        let measured = fastest(group, |r| per_sample(r.run.measured_s, r));
        let projected = fastest(group, |r| per_sample(r.predicted.realistic_s, r));
        let times: Vec<String> = group
            .iter()
            .map(|r| {
                format!(
                    "{} at {}: {:.3} s measured, {:.3} s projected",
                    r.run.strategy, r.run.mini_batch, r.run.measured_s, r.predicted.realistic_s
                )
            })
            .collect();
        println!("{model} on {gpus} GPUs: fastest measured {measured}, projected {projected}: {times:?}");
        if measured != projected {
            wrong.push(format!(
                "{model} on {gpus} GPUs: measured {measured}, projected {projected}"
            ));
        }
    }
    assert!(compared >= 8, "{compared} groups");
    assert!(wrong.is_empty(), "{wrong:#?}");
}
