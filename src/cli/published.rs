//! `paradl validate --published`: NVIDIA's published runs against the
//! realistic edition, run by run and by source and model.

use std::fmt::Write;

use super::args::ListFormat;
use super::{CliError, json};
use crate::oracle::accuracy;
use crate::oracle::scenario::{self, geometric_mean};
use crate::oracle::validation::{PUBLISHED_COLUMNS, PublishedProjection};

/// The report in `format`: each run (projected and measured samples a
/// second, their ratio), then the mean accuracy of each source family and
/// model, and of all.
pub fn published(report: &[PublishedProjection], format: ListFormat) -> Result<String, CliError> {
    match format {
        ListFormat::Json => json(&report),
        ListFormat::Csv => {
            let mut text = format!("{},reference\n", columns().join(","));
            for p in report {
                let mut fields = cells(p, true).to_vec();
                fields.push(p.run.reference.clone());
                let quoted: Vec<String> = fields.iter().map(|c| scenario::csv::quoted(c)).collect();
                let _ = writeln!(text, "{}", quoted.join(","));
            }
            Ok(text)
        }
        ListFormat::Table => {
            let mut text = format!(
                "{} training runs NVIDIA published, projected by the realistic edition (uncalibrated); \
                 accuracy = min(projected/measured, measured/projected)\n",
                report.len()
            );
            let line = |cells: &[String]| {
                WIDTHS
                    .iter()
                    .zip(cells)
                    .map(|((width, left), c)| {
                        if *left {
                            format!("{c:<width$}")
                        } else {
                            format!("{c:>width$}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let header: Vec<String> = columns().iter().map(|c| (*c).to_string()).collect();
            let _ = writeln!(text, "{}", line(&header));
            for p in report {
                let _ = writeln!(text, "{}", line(&cells(p, false)));
            }
            summary(report, &mut text);
            Ok(text)
        }
    }
}

/// The columns of a run, in both the table and the CSV (which adds the
/// reference): the file's first seven, then the measured and projected
/// samples a second and their ratio.
fn columns() -> Vec<&'static str> {
    let mut names = PUBLISHED_COLUMNS[..7].to_vec();
    names.extend(["measured", "projected", "ratio"]);
    names
}

/// Each column's width in the table, and whether it is aligned left.
const WIDTHS: [(usize, bool); 10] = [
    (30, true),
    (38, true),
    (20, true),
    (14, true),
    (5, false),
    (15, false),
    (9, true),
    (9, false),
    (9, false),
    (5, false),
];

/// One run's cells: `exact` numbers as they are (the CSV), else samples a
/// second to the unit and the ratio to two places (the table).
fn cells(p: &PublishedProjection, exact: bool) -> [String; 10] {
    let rounded = |v: f64, places: usize| if exact { v.to_string() } else { format!("{v:.places$}") };
    let r = &p.run;
    [
        r.source.clone(),
        r.system.clone(),
        r.model.clone(),
        r.cluster.clone(),
        r.gpus.to_string(),
        r.samples_per_gpu.to_string(),
        r.precision.to_string(),
        rounded(r.measured_samples_per_s, 0),
        rounded(p.projected_samples_per_s, 0),
        rounded(p.ratio, 2),
    ]
}

/// The mean accuracy of each source family (the source without its round)
/// and model, in the order they come, and of all.
fn summary(report: &[PublishedProjection], text: &mut String) {
    let family = |p: &PublishedProjection| {
        let source = &p.run.source;
        let name = if source.starts_with("MLPerf") {
            "MLPerf Training"
        } else {
            source.as_str()
        };
        format!("{name}, {}", p.run.model)
    };
    let mut groups: Vec<(String, Vec<f64>)> = Vec::new();
    for p in report {
        let key = family(p);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ratios)) => ratios.push(p.ratio),
            None => groups.push((key, vec![p.ratio])),
        }
    }
    groups.push(("all".into(), report.iter().map(|p| p.ratio).collect()));
    text.push_str("mean accuracy (geometric mean of projected/measured):\n");
    for (key, ratios) in &groups {
        let mean = ratios.iter().map(|r| accuracy(*r, 1.0)).sum::<f64>() / ratios.len() as f64;
        let geometric = geometric_mean(ratios.iter().copied());
        let _ = writeln!(text, "  {key:<56} {:>3} runs {mean:.3} ({geometric:.2})", ratios.len());
    }
}
