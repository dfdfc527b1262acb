//! The measured runs: the shipped file's selected runs, each with the
//! series it belongs to, and which code (tier) ran it.

use serde::Serialize;

use super::MEASURED_RUNS_CSV;
use crate::oracle::formats::measured;
use crate::oracle::formats::records::{Record, with_header};
use crate::oracle::model::errors::ParseError;
use crate::oracle::model::measured::MeasuredRun;
use crate::oracle::model::strategy::Strategy;

/// One selected measured run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValidationRun {
    /// The run's id in the file (`R001`).
    pub id: String,
    /// Model preset key (`alexnet`, `resnet50`, `cosmoflow`).
    pub model: String,
    pub strategy: Strategy,
    /// The code variant that ran.
    pub variant: String,
    /// `HEAD` (Jan 2020 code) or `historical` (Sep–Dec 2019 code).
    pub tier: String,
    pub gpus: u64,
    /// Global mini-batch.
    pub mini_batch: u64,
    /// Measured seconds per iteration.
    pub measured_s: f64,
    /// The series it belongs to (an index into the report's series).
    pub series: usize,
}

impl ValidationRun {
    /// The run as a measured-run row (its total time per iteration only),
    /// as calibration reads it.
    pub fn measured(&self) -> MeasuredRun {
        MeasuredRun {
            strategy: self.strategy,
            gpus: self.gpus,
            mini_batch: self.mini_batch,
            group: None,
            iteration_s: self.measured_s,
            compute_s: None,
            communication_s: None,
        }
    }
}

/// Which runs a report counts, by the code that ran them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Every selected run.
    #[default]
    All,
    /// The January 2020 code (`HEAD`).
    Head,
    /// The September to December 2019 code (`historical`).
    Historical,
}

impl Tier {
    /// Every choice.
    pub const ALL: [Self; 3] = [Self::All, Self::Head, Self::Historical];

    /// Its name (`all`, `head`, `historical`).
    pub fn name(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Head => "head",
            Self::Historical => "historical",
        }
    }

    /// Whether a run of `tier` (the file's `HEAD` or `historical`) is counted.
    pub fn admits(self, tier: &str) -> bool {
        match self {
            Self::All => true,
            Self::Head => tier.eq_ignore_ascii_case("head"),
            Self::Historical => tier.eq_ignore_ascii_case("historical"),
        }
    }
}

impl std::str::FromStr for Tier {
    type Err = crate::oracle::model::errors::InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let wanted = text.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|t| t.name() == wanted).ok_or_else(|| {
            crate::oracle::model::errors::InputError::new(
                "tier",
                crate::oracle::model::errors::Rule::Unknown {
                    what: "tier".into(),
                    found: text.into(),
                    expected: "all, head, historical".into(),
                },
            )
        })
    }
}

/// The selected runs of a file and the names of their series, by index.
#[derive(Debug, Clone, PartialEq)]
pub struct Selected {
    pub runs: Vec<ValidationRun>,
    /// The series: `model strategy variant (tier, --batchsize arg)`.
    pub series: Vec<String>,
}

/// The selected runs of the shipped file.
///
/// # Errors
/// A [`ParseError`] if the file is malformed (never for the shipped one:
/// its test proves it).
pub fn runs() -> Result<Selected, ParseError> {
    parse(MEASURED_RUNS_CSV)
}

/// The selected runs (`is_selected = 1`) of a file in the shipped format.
///
/// # Errors
/// A [`ParseError`] at the line and column of a missing column or a value
/// that is not a number or a strategy.
pub fn parse(text: &str) -> Result<Selected, ParseError> {
    let (header, rows) = with_header(text)?;
    let column = |name: &str| header.named(name);
    let cols = Columns {
        id: column("run_id")?,
        model: column("model")?,
        strategy: column("strategy")?,
        variant: column("variant")?,
        tier: column("tier")?,
        gpus: column("gpus")?,
        batch_arg: column("batchsize_arg")?,
        mini_batch: column("mini_batch")?,
        seconds: column("sec_per_iter")?,
        selected: column("is_selected")?,
    };
    let mut series: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for row in rows.iter().filter(|r| r.text(cols.selected) == "1") {
        let key = format!(
            "{} {} {} ({}, --batchsize {})",
            row.text(cols.model),
            row.text(cols.strategy),
            row.text(cols.variant),
            row.text(cols.tier),
            row.text(cols.batch_arg)
        );
        let index = series.iter().position(|s| *s == key).unwrap_or_else(|| {
            series.push(key);
            series.len() - 1
        });
        out.push(ValidationRun {
            id: row.text(cols.id).into(),
            model: row.text(cols.model).into(),
            strategy: row.parsed(cols.strategy)?,
            variant: row.text(cols.variant).into(),
            tier: row.text(cols.tier).into(),
            gpus: number(row, cols.gpus)?,
            mini_batch: number(row, cols.mini_batch)?,
            measured_s: number(row, cols.seconds)?,
            series: index,
        });
    }
    Ok(Selected { runs: out, series })
}

struct Columns {
    id: usize,
    model: usize,
    strategy: usize,
    variant: usize,
    tier: usize,
    gpus: usize,
    batch_arg: usize,
    mini_batch: usize,
    seconds: usize,
    selected: usize,
}

fn number<T: std::str::FromStr>(row: &Record<'_>, index: usize) -> Result<T, ParseError> {
    row.value(index, "number")
}

/// The shipped runs of `model` in `tier` as measured-run CSV (what a
/// calibration reads), or the empty string when there are none.
pub fn measured_csv(model: &str, tier: Tier) -> String {
    measured_csv_in(MEASURED_RUNS_CSV, model, tier)
}

/// [`measured_csv`] of the runs of `text`, a file in the shipped format
/// (the empty string when it has none of `model` or cannot be read).
pub fn measured_csv_in(text: &str, model: &str, tier: Tier) -> String {
    let Ok(selected) = parse(text) else {
        return String::new();
    };
    let runs: Vec<MeasuredRun> = selected
        .runs
        .iter()
        .filter(|r| r.model == model && tier.admits(&r.tier))
        .map(ValidationRun::measured)
        .collect();
    if runs.is_empty() {
        String::new()
    } else {
        measured::write(&runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_models_named_are_those_of_the_shipped_runs() {
        let Selected { runs, .. } = runs().unwrap();
        let mut models: Vec<&str> = runs.iter().map(|r| r.model.as_str()).collect();
        models.sort_unstable();
        models.dedup();
        assert_eq!(models, super::super::MODELS);
        for model in super::super::MODELS {
            assert!(!measured_csv(model, Tier::Head).is_empty(), "{model}");
            assert_eq!(
                measured_csv_in(MEASURED_RUNS_CSV, model, Tier::All),
                measured_csv(model, Tier::All)
            );
        }
        assert_eq!(measured_csv_in("not,the,format\n", "resnet50", Tier::Head), "");
    }

    #[test]
    fn the_shipped_runs_read() {
        let Selected { runs, series: names } = runs().unwrap();
        assert!(
            names[runs[0].series].starts_with("alexnet data data (HEAD"),
            "{}",
            names[runs[0].series]
        );
        // one selected run per configuration
        assert_eq!(runs.len(), 107);
        assert_eq!(runs[0].id, "R001");
        assert_eq!(runs[0].strategy, Strategy::Data);
        assert_eq!((runs[0].gpus, runs[0].mini_batch), (1, 512));
        assert_eq!(runs[0].measured_s, 0.460764);
        let cosmo = runs.iter().find(|r| r.id == "R049").unwrap();
        assert_eq!(
            (cosmo.strategy, cosmo.gpus, cosmo.mini_batch),
            (Strategy::DataSpatial, 8, 2)
        );
        // weak-scaling series share a batch argument: AlexNet's 512-per-GPU data runs are one series
        let series: Vec<usize> = runs
            .iter()
            .filter(|r| r.id.as_str() < "R030")
            .map(|r| r.series)
            .collect();
        assert_eq!(series.iter().filter(|&&s| s == runs[0].series).count(), 11);
    }
}
