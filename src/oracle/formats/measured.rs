//! Measured runs as comma-separated values, the input of calibration
//! (contract, section 8). The header names the columns
//! `strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s`
//! (in any order); times are seconds per iteration; `group`, `compute_s`
//! and `communication_s` may be empty; strategies by long or short name.

use std::fmt::Write;

use super::records::{Record, records};
use crate::oracle::model::errors::{ParseError, ParseProblem};
use crate::oracle::model::measured::{Located, MeasuredColumn, MeasuredRun};
use crate::oracle::model::strategy::Strategy;

/// The header [`write`] writes.
pub const HEADER: &str = "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s";

/// Reads measured runs; blank lines are skipped, the first record is the
/// header.
///
/// # Errors
/// A [`ParseError`] at the line and column of the first problem: a
/// missing, unknown or repeated column; a record with too few or too many
/// fields; a strategy that is not one; a count or time that is not a
/// number (times must be finite); no header at all.
pub fn parse(text: &str) -> Result<Vec<Located>, ParseError> {
    let records = records(text)?;
    let Some((header, rows)) = records.split_first() else {
        return Err(ParseError::at(
            1,
            1,
            ParseProblem::Missing(format!("the header {HEADER}")),
        ));
    };
    let order = header_order(header)?;
    rows.iter().map(|row| run(row, &order)).collect()
}

/// Writes runs with the header, numbers in their shortest exact form.
pub fn write(runs: &[MeasuredRun]) -> String {
    let mut text = String::from(HEADER);
    text.push('\n');
    let optional = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    for r in runs {
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{}",
            r.strategy,
            r.gpus,
            r.mini_batch,
            r.group.map(|g| g.to_string()).unwrap_or_default(),
            r.iteration_s,
            optional(r.compute_s),
            optional(r.communication_s)
        );
    }
    text
}

/// For each column of [`MeasuredColumn::ALL`], its index in the records.
fn header_order(header: &Record<'_>) -> Result<[usize; 7], ParseError> {
    let mut order = [usize::MAX; 7];
    for (index, cell) in header.cells.iter().enumerate() {
        let name = cell.text.trim().to_ascii_lowercase();
        let Some(column) = MeasuredColumn::ALL.into_iter().find(|c| c.name() == name) else {
            return Err(header.error(
                index,
                ParseProblem::Unexpected {
                    found: cell.text.to_string(),
                    expected: format!("a column of {HEADER}"),
                },
            ));
        };
        if order[column as usize] != usize::MAX {
            return Err(header.error(index, ParseProblem::Duplicate(name)));
        }
        order[column as usize] = index;
    }
    if let Some(missing) = MeasuredColumn::ALL
        .into_iter()
        .find(|c| order[*c as usize] == usize::MAX)
    {
        return Err(header.error(
            header.cells.len(),
            ParseProblem::Missing(format!("column '{}' (the header is {HEADER})", missing.name())),
        ));
    }
    Ok(order)
}

fn run(row: &Record<'_>, order: &[usize; 7]) -> Result<Located, ParseError> {
    if row.cells.len() < order.len() {
        let missing = MeasuredColumn::ALL
            .into_iter()
            .find(|c| order[*c as usize] >= row.cells.len())
            .map_or("a field", MeasuredColumn::name);
        return Err(row.error(row.cells.len(), ParseProblem::MissingField(missing.into())));
    }
    if row.cells.len() > order.len() {
        return Err(row.error(
            order.len(),
            ParseProblem::Unexpected {
                found: row.text(order.len()).into(),
                expected: "the end of the line (7 fields)".into(),
            },
        ));
    }
    let at = |c: MeasuredColumn| order[c as usize];
    let strategy: Strategy = row.parsed(at(MeasuredColumn::Strategy))?;
    let count = |c: MeasuredColumn| -> Result<Option<u64>, ParseError> {
        let text = row.text(at(c));
        if text.is_empty() {
            return Ok(None);
        }
        text.parse::<u64>()
            .map(Some)
            .map_err(|_| bad_number(row, at(c), "whole number"))
    };
    let seconds = |c: MeasuredColumn| -> Result<Option<f64>, ParseError> {
        let text = row.text(at(c));
        if text.is_empty() {
            return Ok(None);
        }
        match text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Some(v)),
            _ => Err(bad_number(row, at(c), "finite number of seconds")),
        }
    };
    let required = |value: Option<u64>, c: MeasuredColumn| {
        value.ok_or_else(|| row.error(at(c), ParseProblem::MissingField(c.name().into())))
    };
    let gpus = required(count(MeasuredColumn::Gpus)?, MeasuredColumn::Gpus)?;
    let mini_batch = required(count(MeasuredColumn::MiniBatch)?, MeasuredColumn::MiniBatch)?;
    let group = count(MeasuredColumn::Group)?;
    let iteration_s = seconds(MeasuredColumn::IterationS)?.ok_or_else(|| {
        row.error(
            at(MeasuredColumn::IterationS),
            ParseProblem::MissingField("iteration_s".into()),
        )
    })?;
    let compute_s = seconds(MeasuredColumn::ComputeS)?;
    let communication_s = seconds(MeasuredColumn::CommunicationS)?;
    if compute_s.is_some() != communication_s.is_some() {
        let (given, empty) = if compute_s.is_some() {
            (MeasuredColumn::ComputeS, MeasuredColumn::CommunicationS)
        } else {
            (MeasuredColumn::CommunicationS, MeasuredColumn::ComputeS)
        };
        return Err(row.error(
            at(empty),
            ParseProblem::Missing(format!(
                "{}: {} is given, so give both or neither",
                empty.name(),
                given.name()
            )),
        ));
    }
    let mut columns = [0; 7];
    for c in MeasuredColumn::ALL {
        columns[c as usize] = row.column(at(c));
    }
    Ok(Located {
        run: MeasuredRun {
            strategy,
            gpus,
            mini_batch,
            group,
            iteration_s,
            compute_s,
            communication_s,
        },
        line: row.line,
        columns,
    })
}

fn bad_number(row: &Record<'_>, index: usize, expected: &str) -> ParseError {
    row.error(
        index,
        ParseProblem::BadNumber {
            text: row.text(index).into(),
            expected: expected.into(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s
data,8,256,,0.31,,
ds,64,1024,4,0.25,0.2,0.05
";

    #[test]
    fn runs_read_and_write_back() {
        let runs = parse(TEXT).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[1].run.strategy, Strategy::DataSpatial);
        assert_eq!(runs[1].run.group, Some(4));
        assert_eq!(runs[1].run.compute_s, Some(0.2));
        assert_eq!(runs[1].line, 3);
        assert_eq!(runs[1].column(MeasuredColumn::IterationS), 14);
        let plain: Vec<MeasuredRun> = runs.iter().map(|r| r.run.clone()).collect();
        let again: Vec<MeasuredRun> = parse(&write(&plain)).unwrap().into_iter().map(|r| r.run).collect();
        assert_eq!(again, plain);
    }

    #[test]
    fn columns_in_any_order() {
        let text = "iteration_s,strategy,gpus,mini_batch,group,compute_s,communication_s\n1.5,filter,4,64,,,\n";
        let runs = parse(text).unwrap();
        assert_eq!(runs[0].run.strategy, Strategy::Filter);
        assert_eq!(runs[0].run.iteration_s, 1.5);
    }

    #[test]
    fn errors_have_line_and_column() {
        let at = |text: &str| {
            let e = parse(text).unwrap_err();
            (e.line, e.column)
        };
        assert_eq!(at(""), (1, 1));
        assert_eq!(at("strategy,gpus\n"), (1, 15));
        assert_eq!(at(&format!("{HEADER},extra\n")), (1, 70));
        assert_eq!(at(&format!("{HEADER}\ndata,8,256,,nan,,\n")), (2, 13));
        assert_eq!(at(&format!("{HEADER}\nmodel,8,256,,1,,\n")), (2, 1));
        assert_eq!(at(&format!("{HEADER}\ndata,eight,256,,1,,\n")), (2, 6));
        assert_eq!(at(&format!("{HEADER}\ndata,8,256,,1\n")), (2, 15));
        assert_eq!(at(&format!("{HEADER}\ndata,8,256,,1,0.5,\n")), (2, 19));
        assert_eq!(at(&format!("{HEADER}\ndata,8,256,,1,,,9\n")), (2, 17));
        assert_eq!(at(&format!("{HEADER}\n\ndata,8,,,1,,\n")), (3, 8));
        let e = parse(&format!("{HEADER}\nmodel,8,256,,1,,\n")).unwrap_err();
        assert!(e.to_string().contains("unknown strategy 'model'"), "{e}");
    }
}
