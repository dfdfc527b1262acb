//! Line and field splitting shared by the `|`-separated ParaDL formats.

use crate::oracle::model::errors::{ParseError, ParseProblem};
use crate::oracle::model::shape::Shape;

/// One `|`-separated field, trimmed, with its 1-based column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field<'a> {
    /// Text without surrounding blanks.
    pub text: &'a str,
    /// Column of the first non-blank character (1-based, in characters).
    pub column: usize,
}

/// One meaningful line (not blank, not a `#` comment).
#[derive(Debug, Clone, PartialEq)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// Its fields.
    pub fields: Vec<Field<'a>>,
}

impl<'a> Line<'a> {
    /// Field `index`, or an error naming what is missing at the line's end.
    pub fn field(&self, index: usize, name: &str) -> Result<Field<'a>, ParseError> {
        self.fields.get(index).copied().ok_or_else(|| {
            let column = self.fields.last().map_or(1, |f| f.column + f.text.chars().count());
            ParseError::at(self.number, column, ParseProblem::MissingField(name.into()))
        })
    }

    /// An error at field `field`.
    pub fn error(&self, field: Field<'_>, problem: ParseProblem) -> ParseError {
        ParseError::at(self.number, field.column, problem)
    }
}

/// The meaningful lines of `text`: CR/LF endings, blank lines and lines
/// starting with `#` skipped.
pub fn lines(text: &str) -> impl Iterator<Item = Line<'_>> {
    text.split('\n').enumerate().filter_map(|(i, raw)| {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = raw.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return None;
        }
        Some(Line {
            number: i + 1,
            fields: split_fields(raw),
        })
    })
}

/// The `|`-separated fields of a line with their columns, in one pass
/// over the line (columns are counted as the scan goes, so that a long
/// line costs linear time).
pub fn split_fields(raw: &str) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    let mut column = 1;
    for part in raw.split('|') {
        let trimmed_start = part.trim_start();
        let lead = &part[..part.len() - trimmed_start.len()];
        fields.push(Field {
            text: part.trim(),
            column: column + lead.chars().count(),
        });
        column += part.chars().count() + 1;
    }
    fields
}

/// Number of lines of `text`, for errors about something missing at its end.
pub fn end_line(text: &str) -> usize {
    text.split('\n').count().max(1)
}

/// Parses a shape such as `3x224x224`; an empty text is the empty shape.
///
/// # Errors
/// [`ParseProblem::BadShape`] for anything but `x`-separated whole numbers.
pub fn parse_shape(text: &str) -> Result<Shape, ParseProblem> {
    if text.trim().is_empty() {
        return Ok(Shape::default());
    }
    text.split(['x', 'X'])
        .map(|d| d.trim().parse::<u64>())
        .collect::<Result<Vec<_>, _>>()
        .map(Shape::new)
        .map_err(|_| ParseProblem::BadShape(text.into()))
}

/// Parses a number field.
pub fn parse_number<T: std::str::FromStr>(line: &Line<'_>, field: Field<'_>, expected: &str) -> Result<T, ParseError> {
    field.text.parse::<T>().map_err(|_| {
        line.error(
            field,
            ParseProblem::BadNumber {
                text: field.text.into(),
                expected: expected.into(),
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_carry_columns_and_comments_are_skipped() {
        let text = "# header\r\nCONV1|3x8x8 | 3x4x3x3|4x6x6\r\n\r\nRELU|4x6x6";
        let lines: Vec<Line<'_>> = lines(text).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].number, 2);
        let cols: Vec<usize> = lines[0].fields.iter().map(|f| f.column).collect();
        assert_eq!(cols, vec![1, 7, 15, 23]);
        assert_eq!(lines[0].fields[1].text, "3x8x8");
        assert_eq!(lines[1].number, 4);
        let err = lines[1].field(2, "weights").unwrap_err();
        assert_eq!((err.line, err.column), (4, 11));
    }

    #[test]
    fn a_long_line_splits_in_linear_time() {
        let line = "|".repeat(1 << 20);
        let started = std::time::Instant::now();
        let fields = split_fields(&line);
        assert_eq!(fields.len(), (1 << 20) + 1);
        assert_eq!(fields[3].column, 4);
        assert_eq!(fields[1 << 20].column, (1 << 20) + 1);
        // quadratic counting took 20 s here; linear takes milliseconds
        assert!(started.elapsed().as_secs() < 5);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let fields = split_fields("é|  ab|c");
        let cols: Vec<usize> = fields.iter().map(|f| f.column).collect();
        assert_eq!(cols, vec![1, 5, 8]);
    }

    #[test]
    fn shapes_parse() {
        assert_eq!(parse_shape("3x224x224").unwrap().dims(), &[3, 224, 224]);
        assert_eq!(parse_shape("").unwrap().rank(), 0);
        assert!(parse_shape("3x-1").is_err());
        assert!(parse_shape("3xx4").is_err());
    }
}
