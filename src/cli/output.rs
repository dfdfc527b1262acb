//! What the command line prints: JSON, CSV or aligned tables.

use std::fmt::Write;

use super::args::{ListFormat, OneFormat};
use super::{CliError, json};
use crate::oracle::model::errors::listed;
use crate::oracle::validation::{Method, Report};
use crate::oracle::{
    Calibration, Capacity, Config, Objective, Plan, ProfileCheck, Projection, Scenario, Violations, presets, scenario,
    units,
};

/// One projection.
///
/// # Errors
/// When the JSON cannot be written.
pub fn projection(p: &Projection, profile: Option<&ProfileCheck>, format: OneFormat) -> Result<String, CliError> {
    match format {
        OneFormat::Json => json(p),
        OneFormat::Table => {
            let mut text = table(std::slice::from_ref(p));
            text.push('\n');
            if let Some(check) = profile {
                let _ = writeln!(text, "  {}", check.source());
                let _ = writeln!(text, "  {}", check.step_sentence());
                let _ = writeln!(text, "  {}", check.memory_sentence());
            }
            let _ = writeln!(text, "  edition: {}", p.edition.label());
            if let Some(band) = &p.band {
                let _ = writeln!(
                    text,
                    "  likely {} to {} an epoch ({})",
                    units::seconds(band.low * p.total_s),
                    units::seconds(band.high * p.total_s),
                    band.basis
                );
            }
            let _ = writeln!(text, "  to train: {}", p.training.sentence());
            if let Some(e) = &p.energy {
                let _ = writeln!(text, "  costs: {}", e.sentence());
                for source in &e.facts.sources() {
                    let _ = writeln!(text, "    {source}");
                }
            }
            let _ = writeln!(
                text,
                "  training: {}, optimizer {}, ZeRO {}{}{}",
                p.precision.label(),
                p.optimizer.name(),
                p.zero,
                if p.recompute { ", recompute" } else { "" },
                if p.overlap { ", overlap" } else { "" }
            );
            let parts: Vec<String> = crate::oracle::Part::ALL
                .iter()
                .map(|&part| format!("{} {}", part.label(), units::bytes(p.memory.get(part))))
                .collect();
            let _ = writeln!(text, "  memory per GPU: {}", parts.join(", "));
            if p.hidden_communication_s > 0.0 {
                let _ = writeln!(
                    text,
                    "  overlap hides {} of gradient exchange behind the backward pass",
                    units::seconds(p.hidden_communication_s)
                );
            }
            for term in &p.terms {
                let _ = writeln!(text, "  + {}: {}", term.term.label(), term.detail());
            }
            if let Some(k) = &p.calibration {
                let _ = writeln!(text, "  {}", k.sentence());
            }
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

/// An explanation as text (formula, values, terms, intermediate results)
/// or JSON.
///
/// # Errors
/// A [`CliError`] if the JSON cannot be written.
pub fn explanation(e: &crate::oracle::Explanation, format: OneFormat) -> Result<String, CliError> {
    if format == OneFormat::Json {
        return json(e);
    }
    let mut text = String::new();
    let _ = writeln!(text, "{} = {}", e.title, e.unit.format(e.result));
    if !e.feasible {
        let limits: Vec<&str> = e.violations.iter().map(|v| v.label()).collect();
        let _ = writeln!(
            text,
            "  this run is infeasible (it breaks: {}): the numbers are what it would cost",
            limits.join(", ")
        );
    }
    let symbols = |text: &mut String, symbols: &[crate::oracle::Symbol]| {
        for s in symbols {
            let _ = writeln!(text, "    {}  ({})", s.show(), s.meaning);
        }
    };
    let _ = writeln!(text, "  {}", e.formula);
    symbols(&mut text, &e.symbols);
    for t in &e.terms {
        let _ = writeln!(text, "  term: {} = {}", t.formula, t.unit.format(t.value));
        symbols(&mut text, &t.symbols);
    }
    for step in &e.steps {
        let _ = writeln!(text, "  {} = {}", step.label, step.unit.format(step.value));
    }
    if let Some(note) = &e.note {
        let _ = writeln!(text, "  {note}");
    }
    let sections: Vec<String> = e.sections.iter().map(u8::to_string).collect();
    let _ = writeln!(text, "  model (ORACLE-MODEL.md) sections: {}", sections.join(", "));
    Ok(text)
}

/// A list of projections (sweep or ranking) of the scenario `of`.
///
/// # Errors
/// When the JSON cannot be written.
pub fn projections(points: &[Projection], format: ListFormat, of: &Scenario) -> Result<String, CliError> {
    match format {
        ListFormat::Json => json(&points),
        ListFormat::Csv => Ok(scenario::csv::projections(
            points,
            of.network().name(),
            of.cluster().name(),
        )),
        ListFormat::Table => {
            let mut text = table(points);
            if let Some(first) = points.first() {
                let _ = writeln!(text, "edition: {}", first.edition.label());
                if first.calibration.is_some() {
                    let _ = writeln!(text, "calibrated (see project for each strategy's factors)");
                }
            }
            Ok(text)
        }
    }
}

/// A calibration: its factors, then each run before and after.
///
/// # Errors
/// When the JSON cannot be written.
pub fn calibration(c: &Calibration, format: OneFormat) -> Result<String, CliError> {
    if format == OneFormat::Json {
        return json(c);
    }
    let mut text = format!(
        "calibration of the {} edition on {} runs\n{:<13} {:>5} {:>10} {:>10}\n",
        c.edition,
        c.runs.len(),
        "strategy",
        "runs",
        "κ_comp",
        "κ_comm"
    );
    for s in &c.strategies {
        let _ = writeln!(
            text,
            "{:<13} {:>5} {:>10} {:>10}",
            s.strategy.name(),
            s.runs,
            units::significant(s.compute, 4),
            units::significant(s.communication, 4)
        );
    }
    let _ = writeln!(
        text,
        "{:<13} {:>5} {:>10} {:>10}  (strategies without a run)\n",
        "global",
        c.runs.len(),
        units::significant(c.global.compute, 4),
        units::significant(c.global.communication, 4)
    );
    let _ = writeln!(
        text,
        "{:>5} {:<13} {:>6} {:>9} {:>11} {:>11} {:>9} {:>11} {:>9}",
        "line", "strategy", "gpus", "batch", "measured", "before", "accuracy", "after", "accuracy"
    );
    for r in &c.runs {
        let _ = writeln!(
            text,
            "{:>5} {:<13} {:>6} {:>9} {:>11} {:>11} {:>9} {:>11} {:>9}",
            r.line,
            r.measured.strategy.name(),
            r.measured.gpus,
            r.measured.mini_batch,
            units::seconds(r.measured.iteration_s),
            units::seconds(r.before.total_s),
            units::percent(r.accuracy_before),
            units::seconds(r.after.total_s),
            units::percent(r.accuracy_after)
        );
    }
    let _ = writeln!(
        text,
        "mean accuracy: {} before, {} after (accuracy = min(pred/meas, meas/pred))",
        units::percent(c.mean_accuracy_before),
        units::percent(c.mean_accuracy_after)
    );
    for w in &c.warnings {
        let _ = writeln!(text, "warning: {}", w.message);
    }
    Ok(text)
}

/// The accuracy of the model on the shipped measured runs.
///
/// # Errors
/// When the JSON cannot be written.
pub fn validation(report: &Report, format: ListFormat) -> Result<String, CliError> {
    let cell = |v: Option<f64>| v.map_or_else(|| "-".to_string(), units::percent);
    match format {
        ListFormat::Json => json(report),
        ListFormat::Csv => {
            let mut text = String::from(
                "id,model,strategy,tier,gpus,mini_batch,measured_s,ideal_s,realistic_s,ideal_calibrated_s,realistic_calibrated_s,series\n",
            );
            let opt = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
            for r in &report.runs {
                let _ = writeln!(
                    text,
                    "{},{},{},{},{},{},{},{},{},{},{},{}",
                    r.run.id,
                    r.run.model,
                    r.run.strategy,
                    r.run.tier,
                    r.run.gpus,
                    r.run.mini_batch,
                    r.run.measured_s,
                    r.predicted.ideal_s,
                    r.predicted.realistic_s,
                    opt(r.predicted.ideal_calibrated_s),
                    opt(r.predicted.realistic_calibrated_s),
                    report
                        .series
                        .get(r.run.series)
                        .map_or_else(|| scenario::csv::quoted(""), |s| scenario::csv::quoted(s))
                );
            }
            Ok(text)
        }
        ListFormat::Table => {
            let mut text = format!(
                "{} measured runs on ABCI ({} tiers); mean accuracy = min(pred/meas, meas/pred)\n",
                report.runs.len(),
                report.tier.name()
            );
            let _ = write!(text, "{:<13} {:>5} {:>10}", "strategy", "runs", "predicted");
            for m in Method::ALL {
                let _ = write!(text, " {:>22}", m.label());
            }
            text.push('\n');
            for a in report.by_strategy.iter().chain(std::iter::once(&report.overall)) {
                let name = a.strategy.map_or("all", |s| s.name());
                let _ = write!(text, "{:<13} {:>5} {:>10}", name, a.runs, a.calibrated_runs);
                for m in Method::ALL {
                    let _ = write!(text, " {:>22}", cell(a.get(m)));
                }
                text.push('\n');
            }
            let _ = writeln!(
                text,
                "calibrated: on each series' fewest-GPU run, predicting the other runs of the series ({} runs)",
                report.overall.calibrated_runs
            );
            for s in &report.skipped {
                let _ = writeln!(text, "skipped {}: {}", s.id, s.reason);
            }
            Ok(text)
        }
    }
}

fn table(points: &[Projection]) -> String {
    let mut text = format!(
        "{:<13} {:>6} {:>9} {:>11} {:>11} {:>11} {:>10} {:>10} {:>7} {:>10} {:>10} {:>9} {:>9}  {}\n",
        "strategy",
        "gpus",
        "batch",
        "compute",
        "comm",
        "total",
        "GPU-hours",
        "memory",
        "epochs",
        "to train",
        "energy",
        "CO2e",
        "cost",
        "limits"
    );
    for p in points {
        let limits = if p.feasible {
            "feasible".to_string()
        } else {
            Violations::joined(&p.violations, ",").to_string()
        };
        let _ = writeln!(
            text,
            "{:<13} {:>6} {:>9} {:>11} {:>11} {:>11} {:>10} {:>10} {:>7} {:>10} {:>10} {:>9} {:>9}  {}",
            p.strategy.name(),
            p.gpus,
            p.mini_batch,
            units::seconds(p.compute_s),
            units::seconds(p.communication_s),
            units::seconds(p.total_s),
            units::significant(p.gpu_hours, 4),
            units::bytes(p.memory_bytes),
            units::significant(p.training.epochs.epochs, 3),
            units::seconds(p.training.time_s),
            p.energy.as_ref().map_or("-".into(), |e| units::energy_kwh(e.train_kwh)),
            p.energy.as_ref().map_or("-".into(), |e| units::co2_kg(e.train_co2_kg)),
            p.energy.as_ref().map_or("-".into(), |e| units::dollars(e.train_usd)),
            limits
        );
    }
    text
}

/// A search: the counts, the best by each objective and the front.
///
/// # Errors
/// When the JSON cannot be written.
pub fn plan(plan: &Plan, format: ListFormat) -> Result<String, CliError> {
    match format {
        ListFormat::Json => json(plan),
        ListFormat::Csv => Ok(scenario::csv::configs(&plan.front)),
        ListFormat::Table => {
            let mut text = format!(
                "evaluated {} configurations: {} feasible, {} on the Pareto front; {} invalid runs, {} skipped (more GPUs than the cluster has)\n",
                plan.evaluated,
                plan.feasible,
                plan.front.len(),
                plan.invalid,
                plan.skipped
            );
            for objective in Objective::ALL {
                let best = plan
                    .best_by
                    .get(objective)
                    .map_or_else(|| "nothing feasible".to_string(), describe);
                let mark = if objective == plan.objective {
                    " (objective)"
                } else {
                    ""
                };
                let _ = writeln!(text, "best by {}{mark}: {best}", objective.label());
            }
            let _ = writeln!(
                text,
                "\n{:<13} {:>6} {:>6} {:>8} {:>4} {:>9} {:>9} {:>11} {:>10} {:>10} {:>10} {:>10} {:>9}",
                "strategy",
                "gpus",
                "group",
                "segments",
                "zero",
                "recompute",
                "batch",
                "total",
                "GPU-hours",
                "memory",
                "to train",
                "energy",
                "cost"
            );
            let cell = |v: Option<u64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
            for c in &plan.front {
                let _ = writeln!(
                    text,
                    "{:<13} {:>6} {:>6} {:>8} {:>4} {:>9} {:>9} {:>11} {:>10} {:>10} {:>10} {:>10} {:>9}",
                    c.strategy.name(),
                    c.gpus,
                    cell(c.group_size),
                    cell(c.segments),
                    c.zero,
                    if c.recompute { "yes" } else { "no" },
                    c.mini_batch,
                    units::seconds(c.total_s),
                    units::significant(c.gpu_hours, 4),
                    units::bytes(c.memory_bytes),
                    units::seconds(c.time_to_train_s),
                    known(c.energy_kwh, units::energy_kwh),
                    known(c.usd, units::dollars)
                );
            }
            Ok(text)
        }
    }
}

/// A configuration in words, with the options `project` takes to repeat it.
fn describe(c: &Config) -> String {
    let mut options = format!("--strategy {} --gpus {} --batch {}", c.strategy, c.gpus, c.mini_batch);
    if let Some(group) = c.group_size {
        let _ = write!(options, " --group {group}");
    }
    if let Some(segments) = c.segments {
        let _ = write!(options, " --segments {segments}");
    }
    if c.zero > 0 {
        let _ = write!(options, " --zero {}", c.zero);
    }
    if c.recompute {
        options.push_str(" --recompute");
    }
    format!(
        "{} s, {} GPU-hours, {} per GPU, {} to train, {}, {} CO2e, {} ({options})",
        units::significant(c.total_s, 4),
        units::significant(c.gpu_hours, 4),
        units::bytes(c.memory_bytes),
        units::seconds(c.time_to_train_s),
        known(c.energy_kwh, units::energy_kwh),
        known(c.co2_kg, units::co2_kg),
        known(c.usd, units::dollars)
    )
}

/// A figure in its unit, or `-` when unknown (infinite).
fn known(value: f64, unit: fn(f64) -> String) -> String {
    if value.is_finite() { unit(value) } else { "-".into() }
}

/// What a model holds: totals, what an import merged, then every layer.
///
/// # Errors
/// When the JSON cannot be written.
pub fn inventory(
    inventory: &crate::oracle::Inventory,
    merged: &std::collections::BTreeMap<String, usize>,
    format: OneFormat,
) -> Result<String, CliError> {
    if format == OneFormat::Json {
        return json(inventory);
    }
    let mut text = format!(
        "{}: {} layers, {} parameters, {} activations per sample, {} GFLOPs forward per sample\n",
        listed(&inventory.name),
        inventory.layers.len(),
        inventory.parameters,
        inventory.activations_per_sample,
        units::significant(inventory.forward_flops_per_sample / 1e9, 5)
    );
    if !merged.is_empty() {
        let list: Vec<String> = merged.iter().map(|(op, n)| format!("{} {n}", listed(op))).collect();
        let _ = writeln!(text, "operators that became no layer: {}", list.join(", "));
    }
    let timed = inventory.layers.iter().any(|l| l.time_s.is_some());
    let _ = writeln!(
        text,
        "\n{:<28} {:<8} {:>16} {:>20} {:>16} {:>6} {:>12} {:>12}{}",
        "name",
        "kind",
        "x",
        "w",
        "y",
        "groups",
        "parameters",
        "MFLOPs",
        if timed {
            format!(" {:>14}", "time/sample")
        } else {
            String::new()
        }
    );
    for l in &inventory.layers {
        let _ = writeln!(
            text,
            "{:<28} {:<8} {:>16} {:>20} {:>16} {:>6} {:>12} {:>12}{}",
            listed(&l.name),
            l.kind.name(),
            l.x.to_string(),
            l.w.to_string(),
            l.y.to_string(),
            l.groups,
            l.parameters,
            units::significant(l.forward_flops / 1e6, 5),
            match l.time_s {
                Some(t) if timed => format!(" {:>14}", units::seconds(t)),
                _ => String::new(),
            }
        );
        if !l.sharing.is_empty() {
            // the row's last column: how the layer shares its weights
            text.pop();
            let _ = writeln!(text, "  ({})", l.sharing);
        }
    }
    Ok(text)
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

/// Every GPU of the device table, one a line.
pub fn gpus() -> String {
    use crate::oracle::model::devices::{Basis, DEVICES};
    let mut text = String::from(
        "GPU                                                arch             SMs  FP32  TF32  FP16 (TFLOP/s dense)  memory   bandwidth  kernels\n",
    );
    for d in &DEVICES {
        let g = d.gpu();
        let basis = if [g.stream_bytes_per_s, g.tensor_fraction, g.fp32_fraction]
            .iter()
            .any(|f| f.basis == Basis::Device)
        {
            "measured on it"
        } else if g.measured_on_its_architecture() {
            "its architecture's"
        } else {
            "partly borrowed"
        };
        let _ = writeln!(
            text,
            "{:<50} {:<16} {:>4} {:>5.1} {:>5.1} {:>6.1}                {:>4.0} GB {:>6.0} GB/s  {basis}",
            d.name,
            d.architecture.name(),
            d.sms,
            d.peaks.fp32 / 1e12,
            d.peaks.tf32 / 1e12,
            d.peaks.fp16 / 1e12,
            d.memory_bytes / 1e9,
            d.memory_bandwidth_bytes_per_s / 1e9,
        );
    }
    text
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
    let _ = writeln!(
        text,
        "  {}GPUS:LINK:GPU one node of any GPU of `presets --gpus`, LINK {} (e.g. {}4:pcie4:RTX 4090)",
        presets::node::PREFIX,
        presets::node::NodeLink::ALL
            .map(presets::node::NodeLink::name)
            .join(", "),
        presets::node::PREFIX
    );
    text.push_str("grids (--grid REGION, or grams of CO2 per kWh):\n");
    for g in crate::oracle::model::energy::GRIDS {
        let _ = writeln!(
            text,
            "  {:<14} {} g/kWh, {} {} ({})",
            g.key, g.g_co2_per_kwh, g.region, g.year, g.source
        );
    }
    text.push_str("prices (--price INSTANCE, owned, or dollars per GPU-hour):\n");
    for i in crate::oracle::model::energy::INSTANCES {
        let _ = writeln!(
            text,
            "  {:<24} ${}/GPU-hour: {} {}, {} x {}, {} ({}; {})",
            i.key,
            units::significant(i.usd_per_gpu_hour(), 4),
            i.provider,
            i.instance,
            i.gpus,
            i.gpu,
            i.region,
            i.date,
            i.source
        );
    }
    text.push_str("convergence (--convergence CURVE, or a number of epochs):\n");
    for c in crate::oracle::model::convergence::CURVES {
        let (smallest, largest) = c.batch_range();
        let _ = writeln!(
            text,
            "  {:<22} {} (global batches {smallest} to {largest}; {})",
            c.key, c.name, c.source
        );
    }
    text
}
