//! Comma-separated records (RFC 4180: fields may be quoted, a quote inside
//! a quoted field is doubled) with the 1-based line and column of every
//! field, for the CSV inputs: measured runs and the validation runs.

use std::borrow::Cow;

use crate::oracle::model::errors::{InputError, ParseError, ParseProblem};

/// One field of a record.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell<'a> {
    /// Its text: unquoted, blanks around an unquoted field trimmed.
    pub text: Cow<'a, str>,
    /// 1-based column (in characters) where it starts.
    pub column: usize,
}

/// One record (a line, or several when a quoted field holds line breaks).
#[derive(Debug, Clone, PartialEq)]
pub struct Record<'a> {
    /// 1-based line where it starts.
    pub line: usize,
    /// Its fields.
    pub cells: Vec<Cell<'a>>,
}

impl Record<'_> {
    /// The text of field `index` (empty when the record is shorter).
    pub fn text(&self, index: usize) -> &str {
        self.cells.get(index).map_or("", |c| c.text.as_ref())
    }

    /// The column of field `index` (the end of the record when it is shorter).
    pub fn column(&self, index: usize) -> usize {
        match self.cells.get(index) {
            Some(cell) => cell.column,
            None => self.cells.last().map_or(1, |c| c.column + c.text.chars().count() + 1),
        }
    }

    /// An error at field `index`.
    pub fn error(&self, index: usize, problem: ParseProblem) -> ParseError {
        ParseError::at(self.line, self.column(index), problem)
    }

    /// The index of the field named `name` in this header record.
    ///
    /// # Errors
    /// A [`ParseProblem::Missing`] column, at line 1, column 1.
    pub fn named(&self, name: &str) -> Result<usize, ParseError> {
        self.cells
            .iter()
            .position(|c| c.text == name)
            .ok_or_else(|| ParseError::at(1, 1, ParseProblem::Missing(format!("column '{name}'"))))
    }

    /// Field `index` read as a value of the model (a strategy, a
    /// precision): its own rule's error when it is none.
    ///
    /// # Errors
    /// A [`ParseProblem::Invalid`] at the field, with the value's error.
    pub fn parsed<T: std::str::FromStr<Err = InputError>>(&self, index: usize) -> Result<T, ParseError> {
        self.text(index)
            .parse()
            .map_err(|e| self.error(index, ParseProblem::Invalid(e)))
    }

    /// Field `index` read as a `T` (a number, or what `T` parses).
    ///
    /// # Errors
    /// A [`ParseProblem::BadNumber`] at the field, saying what was
    /// `expected`.
    pub fn value<T: std::str::FromStr>(&self, index: usize, expected: &str) -> Result<T, ParseError> {
        self.text(index).parse().map_err(|_| {
            self.error(
                index,
                ParseProblem::BadNumber {
                    text: self.text(index).into(),
                    expected: expected.into(),
                },
            )
        })
    }
}

/// The header record of `text` and the records after it.
///
/// # Errors
/// As [`records`], or a [`ParseProblem::Missing`] header when `text` holds
/// no record.
pub fn with_header(text: &str) -> Result<(Record<'_>, Vec<Record<'_>>), ParseError> {
    let mut all = records(text)?.into_iter();
    let header = all
        .next()
        .ok_or_else(|| ParseError::at(1, 1, ParseProblem::Missing("the header".into())))?;
    Ok((header, all.collect()))
}

/// The records of `text`, blank lines skipped; CR/LF line ends; a leading
/// byte-order mark skipped.
///
/// # Errors
/// A quoted field that never closes, or text right after a closing
/// quote, with its line and column.
pub fn records(text: &str) -> Result<Vec<Record<'_>>, ParseError> {
    let mut out = Vec::new();
    let mut line = 1;
    // a byte-order mark, as spreadsheets write it, is no part of the first cell
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    while !rest.is_empty() {
        let (record, consumed, lines) = record(rest, line)?;
        if !(record.cells.len() == 1 && record.cells[0].text.trim().is_empty()) {
            out.push(record);
        }
        rest = &rest[consumed..];
        line += lines;
    }
    Ok(out)
}

/// One record at the start of `text` (line `line`): the record, the bytes
/// it consumed with its line end, and the lines it spans.
fn record(text: &str, line: usize) -> Result<(Record<'_>, usize, usize), ParseError> {
    let mut cells = Vec::new();
    let mut at = 0; // byte offset in text
    let mut column = 1;
    let mut lines = 1;
    loop {
        let start_column = column;
        let tail = &text[at..];
        let lead = tail.len() - tail.trim_start_matches([' ', '\t']).len();
        if tail[lead..].starts_with('"') {
            // a quoted field
            at += lead + 1;
            column += lead + 1;
            let mut value = String::new();
            loop {
                let Some(c) = text[at..].chars().next() else {
                    return Err(ParseError::at(
                        line,
                        start_column,
                        ParseProblem::Unexpected {
                            found: "the end of the text".into(),
                            expected: "a closing quote".into(),
                        },
                    ));
                };
                at += c.len_utf8();
                column += 1;
                if c == '"' {
                    if text[at..].starts_with('"') {
                        value.push('"');
                        at += 1;
                        column += 1;
                        continue;
                    }
                    break;
                }
                if c == '\n' {
                    lines += 1;
                    column = 1;
                }
                value.push(c);
            }
            let after = &text[at..];
            let blanks = after.len() - after.trim_start_matches([' ', '\t', '\r']).len();
            at += blanks;
            column += blanks;
            cells.push(Cell {
                text: Cow::Owned(value),
                column: start_column + lead,
            });
            match text[at..].chars().next() {
                None => return Ok((Record { line, cells }, at, lines)),
                Some('\n') => return Ok((Record { line, cells }, at + 1, lines)),
                Some(',') => {
                    at += 1;
                    column += 1;
                }
                Some(other) => {
                    return Err(ParseError::at(
                        line + lines - 1,
                        column,
                        ParseProblem::Unexpected {
                            found: other.to_string(),
                            expected: "a comma or the end of the line after a closing quote".into(),
                        },
                    ));
                }
            }
        } else {
            // a plain field: up to the next comma or line end
            let end = tail.find([',', '\n']).unwrap_or(tail.len());
            let raw = &tail[..end];
            let raw_trimmed = raw.strip_suffix('\r').unwrap_or(raw);
            let text_of = raw_trimmed.trim();
            let lead_chars = raw_trimmed[..raw_trimmed.len() - raw_trimmed.trim_start().len()]
                .chars()
                .count();
            cells.push(Cell {
                text: Cow::Borrowed(text_of),
                column: start_column + lead_chars,
            });
            at += end;
            column += raw.chars().count();
            match tail[end..].chars().next() {
                Some(',') => {
                    at += 1;
                    column += 1;
                }
                Some(_) => return Ok((Record { line, cells }, at + 1, lines)),
                None => return Ok((Record { line, cells }, at, lines)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(r: &'a Record<'_>) -> Vec<&'a str> {
        r.cells.iter().map(|c| c.text.as_ref()).collect()
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let rs = records("\u{feff}strategy,gpus\ndata,8\n").unwrap();
        assert_eq!(texts(&rs[0]), ["strategy", "gpus"]);
        assert_eq!(rs[0].cells[0].column, 1);
    }

    #[test]
    fn plain_and_quoted_fields_with_columns() {
        let text = "a, b ,c\r\n\n\"x,y\",\"say \"\"hi\"\"\", 3\n";
        let rs = records(text).unwrap();
        assert_eq!(rs.len(), 2);
        assert_eq!(texts(&rs[0]), ["a", "b", "c"]);
        assert_eq!(rs[0].cells.iter().map(|c| c.column).collect::<Vec<_>>(), [1, 4, 7]);
        assert_eq!(rs[1].line, 3);
        assert_eq!(texts(&rs[1]), ["x,y", "say \"hi\"", "3"]);
        assert_eq!(rs[1].cells.iter().map(|c| c.column).collect::<Vec<_>>(), [1, 7, 21]);
        assert_eq!(rs[1].column(5), 23);
    }

    #[test]
    fn quoted_line_breaks_and_errors() {
        let rs = records("\"two\nlines\",b\nc").unwrap();
        assert_eq!(texts(&rs[0]), ["two\nlines", "b"]);
        assert_eq!(rs[1].line, 3);
        let err = records("a,\"open").unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
        let err = records("\"x\"y,z").unwrap_err();
        assert_eq!((err.line, err.column), (1, 4));
        assert_eq!(records("").unwrap(), vec![]);
        assert_eq!(texts(&records("a,").unwrap()[0]), ["a", ""]);
    }

    #[test]
    fn unicode_counts_characters() {
        let rs = records("é,b").unwrap();
        assert_eq!(rs[0].cells[1].column, 3);
    }
}
