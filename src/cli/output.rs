//! What the command line prints: JSON, CSV or aligned tables.

use std::fmt::Write;

use super::args::{ListFormat, OneFormat};
use super::{CliError, json};
use crate::oracle::{Capacity, Projection, Violations, formats, presets, units};

/// One projection.
///
/// # Errors
/// When the JSON cannot be written.
pub fn projection(p: &Projection, format: OneFormat) -> Result<String, CliError> {
    match format {
        OneFormat::Json => json(p),
        OneFormat::Table => {
            let mut text = table(std::slice::from_ref(p));
            text.push('\n');
            for (kind, seconds) in p.communication.iter() {
                if seconds > 0.0 {
                    let _ = writeln!(text, "  {:<24} {}", kind.label(), units::seconds(seconds));
                }
            }
            for finding in &p.bottlenecks {
                let _ = writeln!(text, "  [{:?}] {}", finding.severity, finding.message);
            }
            Ok(text)
        }
    }
}

/// A list of projections (sweep or ranking).
///
/// # Errors
/// When the JSON cannot be written.
pub fn projections(points: &[Projection], format: ListFormat) -> Result<String, CliError> {
    match format {
        ListFormat::Json => json(&points),
        ListFormat::Csv => Ok(formats::csv::projections(points)),
        ListFormat::Table => Ok(table(points)),
    }
}

fn table(points: &[Projection]) -> String {
    let mut text = format!(
        "{:<13} {:>6} {:>9} {:>11} {:>11} {:>11} {:>10} {:>10}  {}\n",
        "strategy", "gpus", "batch", "compute", "comm", "total", "GPU-hours", "memory", "limits"
    );
    for p in points {
        let limits = if p.feasible {
            "feasible".to_string()
        } else {
            Violations::joined(&p.violations, ",").to_string()
        };
        let _ = writeln!(
            text,
            "{:<13} {:>6} {:>9} {:>11} {:>11} {:>11} {:>10} {:>10}  {}",
            p.strategy.name(),
            p.gpus,
            p.mini_batch,
            units::seconds(p.compute_s),
            units::seconds(p.communication_s),
            units::seconds(p.total_s),
            units::significant(p.gpu_hours, 4),
            units::bytes(p.memory_bytes),
            limits
        );
    }
    text
}

/// Capacities per strategy.
///
/// # Errors
/// When the JSON cannot be written.
pub fn capacities(rows: &[Capacity], format: OneFormat) -> Result<String, CliError> {
    match format {
        OneFormat::Json => json(&rows),
        OneFormat::Table => {
            let mut text = format!(
                "{:<13} {:>6} {:>14} {:>16}\n",
                "strategy", "gpus", "max batch", "max per GPU"
            );
            for c in rows {
                let batch = c.max_mini_batch.map_or("none fits".into(), |b| b.to_string());
                let per_gpu = c.max_samples_per_gpu.map_or("-".into(), |b| units::significant(b, 4));
                let _ = writeln!(
                    text,
                    "{:<13} {:>6} {:>14} {:>16}",
                    c.strategy.name(),
                    c.gpus,
                    batch,
                    per_gpu
                );
            }
            Ok(text)
        }
    }
}

/// The built-in presets.
pub fn presets() -> String {
    let mut text = String::from("models:\n");
    for p in presets::NETWORKS {
        let _ = writeln!(text, "  {:<14} {:<22} {}", p.key, p.title, p.origin);
    }
    text.push_str("clusters:\n");
    for p in presets::CLUSTERS {
        let _ = writeln!(text, "  {:<14} {}", p.key, p.title);
    }
    text
}
