//! Calibration from measured runs (contract, section 8), on the toy
//! network and cluster of `support/toy.rs`.
#![cfg(not(target_arch = "wasm32"))]

use crate::toy;

use paradl::oracle::formats::measured;
use paradl::oracle::{Batch, Calibration, Edition, Rule, RunSpec, Strategy, accuracy};

fn template(edition: Edition) -> RunSpec {
    RunSpec::new(Strategy::Data, 1, Batch::MiniBatch(1)).in_edition(edition)
}

fn calibrate(csv: &str) -> Result<Calibration, paradl::oracle::ParseError> {
    let runs = measured::parse(&format!("{}\n{csv}", measured::HEADER))?;
    toy::scenario().calibrate(&runs, &template(Edition::Realistic))
}

/// The projection of a run per iteration: (compute, communication).
fn projected(strategy: Strategy, gpus: u64, mini_batch: u64) -> (f64, f64) {
    let c = calibrate(&format!("{strategy},{gpus},{mini_batch},,1,,")).unwrap();
    (c.runs[0].before.compute_s, c.runs[0].before.communication_s)
}

#[test]
fn a_run_calibrated_on_itself_is_reproduced_exactly() {
    for csv in ["data,4,16,,0.5,,", "data,4,16,,0.5,0.3,0.2", "filter,2,16,,0.01,,"] {
        let c = calibrate(csv).unwrap();
        let run = &c.runs[0];
        assert!((run.after.total_s - run.measured.iteration_s).abs() < 1e-15, "{csv}");
        assert!(run.accuracy_after > 1.0 - 1e-12);
        if let (Some(comp), Some(comm)) = (run.measured.compute_s, run.measured.communication_s) {
            assert!((run.after.compute_s - comp).abs() < 1e-15);
            assert!((run.after.communication_s - comm).abs() < 1e-15);
        }
        // and through the projection: κ applied to compute and communication per epoch
        let factors = c.factors().unwrap();
        let p = toy::scenario()
            .project(&RunSpec {
                calibration: Some(factors),
                ..RunSpec::new(run.measured.strategy, run.measured.gpus, Batch::MiniBatch(16))
            })
            .unwrap();
        // 63 iterations of communication, 62.5 of compute
        let want = 62.5 * run.after.compute_s + 63.0 * run.after.communication_s;
        assert!((p.total_s - want).abs() < 1e-12 * want, "{csv}: {} {want}", p.total_s);
        assert!(p.calibration.unwrap().measured);
    }
}

#[test]
fn factors_are_geometric_means() {
    // data at 2 and 4 GPUs, measured at 3 and 12 times their projections: κ = √(3·12) = 6
    let (c2, m2) = projected(Strategy::Data, 2, 16);
    let (c4, m4) = projected(Strategy::Data, 4, 16);
    let c = calibrate(&format!(
        "data,2,16,,{},,\ndata,4,16,,{},,",
        3.0 * (c2 + m2),
        12.0 * (c4 + m4)
    ))
    .unwrap();
    let data = &c.strategies[0];
    assert_eq!((data.strategy, data.runs), (Strategy::Data, 2));
    assert!((data.compute - 6.0).abs() < 1e-12 && (data.communication - 6.0).abs() < 1e-12);
    // compute and communication apart: each its own mean
    let c = calibrate(&format!(
        "data,2,16,,1,{},{}\ndata,4,16,,1,{},{}\nfilter,2,16,,{},,",
        2.0 * c2,
        8.0 * m2,
        8.0 * c4,
        2.0 * m4,
        1.0
    ))
    .unwrap();
    assert!((c.strategies[0].compute - 4.0).abs() < 1e-12);
    assert!((c.strategies[0].communication - 4.0).abs() < 1e-12);
    // the global factors: the geometric mean over all runs (filter's ratio r enters once)
    let (cf, mf) = projected(Strategy::Filter, 2, 16);
    let r = 1.0 / (cf + mf);
    assert!((c.global.compute - (2.0 * 8.0 * r).cbrt()).abs() < 1e-9 * c.global.compute);
    // a strategy without runs gets the global factors
    let factors = c.factors().unwrap();
    assert_eq!(factors.of(Strategy::Spatial), c.global);
    assert!(!factors.measured(Strategy::Spatial));
    // accuracy before and after
    assert_eq!(accuracy(2.0, 1.0), 0.5);
    assert_eq!(accuracy(1.0, 4.0), 0.25);
}

#[test]
fn bad_runs_name_their_line_and_column() {
    let at = |csv: &str| {
        let e = calibrate(csv).unwrap_err();
        (e.line, e.column, e.to_string())
    };
    // a zero measurement: its ratio is not positive (line 3, the iteration_s column)
    let (line, column, text) = at("data,4,16,,0.5,,\ndata,4,16,,0,,");
    assert_eq!((line, column), (3, 12));
    assert!(text.contains("not finite and positive"), "{text}");
    // a run the engine rejects: a group that does not divide the GPUs, at its column, with the engine's field
    let (line, column, text) = at("data+filter,4,16,3,0.5,,");
    assert_eq!((line, column), (2, 18));
    assert!(
        text.contains("group_size: must divide the GPU count 4, found 3"),
        "{text}"
    );
    // communication measured where the projection has none (one GPU): not finite
    let (line, column, _) = at("data,1,16,,0.5,0.4,0.1");
    assert_eq!((line, column), (2, 20));
    let e = calibrate("data,4,16,,-1,,").unwrap_err();
    assert!(
        matches!(e.problem, paradl::oracle::ParseProblem::Invalid(ref i) if matches!(i.rule, Rule::BadRatio { .. }))
    );
    // nothing measured
    let runs = measured::parse(measured::HEADER).unwrap();
    assert!(toy::scenario().calibrate(&runs, &template(Edition::Ideal)).is_err());
}

#[test]
fn calibration_json_reads_back_as_factors() {
    let c = calibrate("data,4,16,,0.5,,\nspatial,2,16,,0.2,0.1,0.1").unwrap();
    let json = serde_json::to_string(&c).unwrap();
    let factors = paradl::oracle::formats::json::factors(&json).unwrap();
    assert_eq!(factors, c.factors().unwrap());
    assert_eq!(factors.edition(), Edition::Realistic);
}

#[test]
fn one_configuration_measured_far_apart_is_one_warning_naming_its_fastest_and_slowest_runs() {
    // lines 2 to 5: one data run measured four times, 0.5 s to 2 s (line 1 is the header)
    let c =
        calibrate("data,4,16,,1.0,,\ndata,4,16,,0.5,,\ndata,4,16,,2.0,,\ndata,4,16,,1.2,,\ndata,8,16,,0.4,,").unwrap();
    let twins: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.message.contains("the same run measured"))
        .collect();
    assert_eq!(twins.len(), 1, "{:?}", c.warnings);
    assert_eq!(twins[0].lines, vec![3, 4], "{:?}", twins[0]);
    assert!(
        twins[0].message.contains("500 ms") && twins[0].message.contains("2 s"),
        "{}",
        twins[0].message
    );
    // within 2x: no warning
    let c = calibrate("data,4,16,,1.0,,\ndata,4,16,,0.6,,").unwrap();
    assert!(
        c.warnings.iter().all(|w| !w.message.contains("the same run")),
        "{:?}",
        c.warnings
    );
}

/// Round 4: a measured run that `project` rules out (fewer samples than
/// data-parallel replicas, or than pipeline stages) is refused at its line
/// and column, not fitted.
#[test]
fn a_run_the_model_rules_out_is_refused_not_fitted() {
    assert!(calibrate("data,4,8,,1,,").is_ok());
    for (row, column) in [("data,8,4,,1,,", 8), ("pipeline,4,2,,1,,", 12)] {
        let e = calibrate(row).unwrap_err();
        assert_eq!((e.line, e.column), (2, column), "{row}: {e}");
        assert!(e.to_string().contains("batch too small"), "{row}: {e}");
    }
}
