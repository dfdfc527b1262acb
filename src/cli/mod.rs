//! `paradl`, the engine's command line: project one run, sweep GPU counts,
//! rank strategies, find the largest batch that fits, list and export
//! presets.

mod args;
mod input;
mod output;
mod published;

use std::process::ExitCode;

use clap::Parser;
use thiserror::Error;

use crate::oracle::model::errors::listed;
use crate::oracle::{InputError, MAX_GPUS, OracleError, RankBy, Strategy, formats, model::checks};
pub use args::{Cli, Command};

/// An error of the command line: the engine's, or a file that cannot be read.
#[derive(Debug, Error)]
pub enum CliError {
    /// The engine rejected an input.
    #[error("{}: {source}", listed(context))]
    Oracle {
        /// Which input (a preset name or a path).
        context: String,
        /// The engine's error.
        source: Box<OracleError>,
    },
    /// A file could not be read.
    #[error("{}: {source}", listed(path))]
    Io {
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Runs the command line and returns the process exit code: 0 on success,
/// 1 for bad input (reported on stderr), 2 for bad usage.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = if err.use_stderr() { 2 } else { 0 };
            let _ = err.print();
            return ExitCode::from(code);
        }
    };
    match run(&cli.command) {
        Ok(text) => {
            // output into a closed pipe (`paradl export ... | head`): nothing more to say; a full
            // disk or a device that refuses (`> /dev/full`): an error
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                // a reader that stopped reading wants no more: not an error of ours
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    note(&format!("error: writing the output: {e}"));
                    ExitCode::from(1)
                }
            }
        }
        Err(err) => {
            note(&format!("error: {err}"));
            ExitCode::from(1)
        }
    }
}

/// A line on stderr (nothing when stderr is closed).
pub(crate) fn note(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Runs one command and returns what it prints on stdout.
///
/// # Errors
/// A [`CliError`] naming the input that is wrong.
pub fn run(command: &Command) -> Result<String, CliError> {
    match command {
        Command::Project(a) => {
            let loaded = input::load(&a.common)?;
            let spec = loaded.template.at(a.strategy, a.gpus);
            let projection = loaded.scenario.project(&spec).map_err(|e| input::run_error(e.into()))?;
            let check = loaded.scenario.profile_check(projection.edition);
            output::projection(&projection, check.as_ref(), a.format)
        }
        Command::Explain(a) => {
            let loaded = input::load(&a.run.common)?;
            let spec = loaded.template.at(a.run.strategy, a.run.gpus);
            let explanation = loaded
                .scenario
                .explain(&spec, a.quantity)
                .map_err(|e| input::run_error(e.into()))?;
            output::explanation(&explanation, a.run.format)
        }
        Command::Sweep(a) => {
            let loaded = input::load(&a.common)?;
            let strategies = match &a.strategies {
                Some(list) => Strategy::parse_list(list).map_err(|e| input::run_error(e.into()))?,
                None => Strategy::ALL.to_vec(),
            };
            let max_gpus = match a.max_gpus {
                Some(gpus) => budget("max_gpus", gpus)?,
                None => loaded.scenario.cluster().max_gpus(),
            };
            let sweep = loaded.scenario.sweep(&loaded.template, &strategies, max_gpus);
            for skipped in &sweep.skipped {
                note(&format!(
                    "note: {} at {} GPUs skipped: {}",
                    skipped.strategy, skipped.gpus, skipped.error
                ));
            }
            output::projections(&sweep.points, a.format, &loaded.scenario)
        }
        Command::Rank(a) => {
            gpu_budget(a.gpus)?;
            let loaded = input::load(&a.common)?;
            let template = loaded.template.at(Strategy::Data, a.gpus);
            let by = [
                (a.by_cost, RankBy::Cost),
                (a.by_time_to_train, RankBy::TimeToTrain),
                (a.by_energy, RankBy::Energy),
                (a.by_co2, RankBy::Carbon),
                (a.by_money, RankBy::Money),
            ]
            .into_iter()
            .find_map(|(on, by)| on.then_some(by))
            .unwrap_or(RankBy::Time);
            let ranking = loaded.scenario.rank(&template, by);
            for skipped in &ranking.skipped {
                note(&format!("note: {} skipped: {}", skipped.strategy, skipped.error));
            }
            if ranking.points.is_empty() {
                return Err(nothing_applies(&ranking.skipped));
            }
            output::projections(&ranking.points, a.format.into(), &loaded.scenario)
        }
        Command::Capacity(a) => {
            gpu_budget(a.gpus)?;
            let loaded = input::load_unbatched(&a.model, a.calibration.as_deref(), a.group)?;
            let mut rows = Vec::new();
            for strategy in Strategy::ALL.into_iter().filter(|s| s.applies_at(a.gpus)) {
                match loaded
                    .scenario
                    .capacity(&loaded.template.for_strategy(strategy, a.gpus))
                {
                    Ok(capacity) => rows.push(capacity),
                    Err(e) => note(&format!("note: {strategy} skipped: {e}")),
                }
            }
            output::capacities(&rows, a.format)
        }
        Command::Search(a) => {
            let loaded = input::load(&a.common)?;
            let model = &a.common.model;
            let searched = [
                ("group", a.common.group.is_some()),
                ("segments", model.segments.is_some()),
                ("zero", model.zero != 0),
                ("recompute", model.recompute),
            ];
            if let Some((field, _)) = searched.iter().find(|(_, given)| *given) {
                return Err(input::run_error(
                    InputError::new(*field, crate::oracle::Rule::Searched).into(),
                ));
            }
            budget("max_gpus", a.max_gpus)?;
            let mut plan = loaded
                .scenario
                .search(&loaded.template, a.max_gpus, a.objective)
                .map_err(|e| input::run_error(e.into()))?;
            for (flag, objective, bound) in [
                ("max_kwh", crate::oracle::Objective::Energy, a.max_kwh),
                ("max_usd", crate::oracle::Objective::Money, a.max_usd),
            ] {
                if let Some(bound) = bound {
                    crate::oracle::model::checks::positive(flag, bound).map_err(|e| input::run_error(e.into()))?;
                    plan = plan.within(objective, bound);
                }
            }
            output::plan(&plan, a.format)
        }
        Command::Calibrate(a) => {
            let loaded = input::load_model(&a.model)?;
            let runs = input::measured(&a.measured)?;
            let calibration = loaded
                .scenario
                .calibrate(&runs, &loaded.template)
                .map_err(|e| input::measured_error(&a.measured, e))?;
            output::calibration(&calibration, a.format)
        }
        Command::Validate(a) if a.published => {
            let report = crate::oracle::validation::published_report().map_err(input::run_error)?;
            published::published(&report, a.format)
        }
        Command::Validate(a) => {
            let report = crate::oracle::validation::report(a.tier).map_err(input::run_error)?;
            output::validation(&report, a.format)
        }
        Command::Presets(a) if a.gpus => Ok(output::gpus()),
        Command::Presets(_) => Ok(output::presets()),
        Command::Export(a) => input::export(a),
        Command::Inspect(a) => {
            let mut model = input::model(&a.model, a.input_shape.as_deref())?;
            if let Some(path) = &a.profile {
                model.network = input::profiled(model.network, path)?;
            }
            output::inventory(&crate::oracle::Inventory::of(&model.network), &model.merged, a.format)
        }
    }
}

/// A GPU budget must be a count the engine accepts: a ranking of nothing
/// is an error, not an empty table.
fn gpu_budget(gpus: u64) -> Result<u64, CliError> {
    budget("gpus", gpus)
}

/// A count of GPUs given on `field`, as the engine accepts it.
fn budget(field: &'static str, gpus: u64) -> Result<u64, CliError> {
    checks::count(field, gpus, 1, MAX_GPUS).map_err(|e| input::run_error(e.into()))
}

/// No strategy could be projected: the first reason, as an error.
fn nothing_applies(skipped: &[crate::oracle::Skipped]) -> CliError {
    let error = skipped.first().map_or_else(
        || InputError::new("strategy", crate::oracle::Rule::Empty),
        |s| s.error.clone(),
    );
    input::run_error(error.into())
}

/// Formats a JSON document of the engine's plain forms.
fn json<T: serde::Serialize>(value: &T) -> Result<String, CliError> {
    formats::json::write(value)
        .map(|mut text| {
            text.push('\n');
            text
        })
        .map_err(|e| CliError::Oracle {
            context: "json".into(),
            source: Box::new(e.into()),
        })
}
