//! The convergence curves against the data they were copied from: every
//! MLPerf reference point against `tests/validation/mlperf-rcp/rcps-cnn.csv`
//! (mlcommons/logging's `rcp_checker` JSON, with the checker's own mean),
//! the large-batch papers' points against `tests/validation/large-batch/`.

use paradl::oracle::model::convergence::CURVES;

use crate::columns;

/// `(global batch, epochs, fewest, most, runs)` of each point.
type Points = Vec<(u64, f64, f64, f64, u32)>;

fn close(a: &Points, b: &Points) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.0 == y.0 && (x.1 - y.1).abs() < 1e-3 && (x.2 - y.2).abs() < 1e-3 && (x.3 - y.3).abs() < 1e-3 && x.4 == y.4
        })
}

fn curve_points(key: &str) -> Points {
    let c = CURVES.iter().find(|c| c.key == key).unwrap();
    c.points
        .iter()
        .map(|p| (p.global_batch, p.epochs, p.min_epochs, p.max_epochs, p.runs))
        .collect()
}

#[test]
fn every_mlperf_point_is_the_checkers_mean_of_its_reference_runs() {
    let rows = columns::rows(
        include_str!("../validation/mlperf-rcp/rcps-cnn.csv"),
        [
            "source_path",
            "global_batch",
            "checker_olympic_mean_epochs",
            "min_epochs",
            "max_epochs",
            "runs",
        ],
    );
    let mlperf: Vec<_> = CURVES.iter().filter(|c| c.key.starts_with("mlperf-")).collect();
    assert_eq!(mlperf.len(), 7);
    for c in mlperf {
        let mut fixture: Points = rows
            .iter()
            .filter(|[path, ..]| c.source.ends_with(path))
            .map(|[_, batch, mean, min, max, runs]| {
                (
                    batch.parse().unwrap(),
                    mean.parse().unwrap(),
                    min.parse().unwrap(),
                    max.parse().unwrap(),
                    runs.parse().unwrap(),
                )
            })
            .collect();
        fixture.sort_by_key(|p| p.0);
        let ours = curve_points(c.key);
        assert!(close(&ours, &fixture), "{}: {ours:?}\nfixture {fixture:?}", c.key);
    }
}

#[test]
fn the_large_batch_papers_points_are_their_tables() {
    let rows = columns::rows(
        include_str!("../validation/large-batch/large-batch.csv"),
        ["paper", "global_batch", "epochs"],
    );
    let points = |paper: &str, largest: u64| -> Points {
        rows.iter()
            .filter(|[p, ..]| p.contains(paper))
            .filter_map(|[_, batch, epochs]| Some((batch.parse().ok()?, epochs.parse().ok()?)))
            .filter(|(b, _)| *b <= largest)
            .map(|(b, e): (u64, f64)| (b, e, e, e, 1))
            .collect()
    };
    // Goyal et al.: 90 epochs without loss of accuracy up to 8,192 (the
    // larger batches lost accuracy in 90 epochs: not points)
    assert!(close(
        &curve_points("goyal-sgd-resnet50"),
        &points("Goyal et al. 2017", 8192)
    ));
    assert!(close(
        &curve_points("kfac-resnet50d"),
        &points("chainerkfac README", u64::MAX)
    ));
}
