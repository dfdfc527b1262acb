//! Small checked-value helpers shared by the constructors.

use super::errors::{InputError, Rule};
use super::field::Field;

/// Largest count or dimension the engine accepts: products and sums stay
/// exact in `f64` (2^53).
pub const MAX_COUNT: u64 = 1 << 53;
/// Largest GPU count the engine accepts (2^40): sweeps and partitions stay small.
pub const MAX_GPUS: u64 = 1 << 40;

/// Bounds of a cluster's rates, bandwidths and memory (FLOP/s, bytes/s,
/// bytes) that keep every projection finite.
pub const MIN_RATE: f64 = 1.0;
/// See [`MIN_RATE`].
pub const MAX_RATE: f64 = 1e30;
/// The longest latency or kernel overhead a cluster may give, seconds.
pub const MAX_LATENCY_S: f64 = 1e3;

/// `value` must be finite and greater than zero.
pub fn positive(field: impl Into<Field>, value: f64) -> Result<f64, InputError> {
    let field = field.into();
    let value = finite(field.clone(), value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(InputError::new(field, Rule::NotPositive { found: value }))
    }
}

/// `value` must be finite.
pub fn finite(field: impl Into<Field>, value: f64) -> Result<f64, InputError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(InputError::new(field, Rule::NotFinite { found: value }))
    }
}

/// `value` must lie in `min..=max`.
pub fn within(field: impl Into<Field>, value: f64, min: f64, max: f64) -> Result<f64, InputError> {
    let field = field.into();
    let value = finite(field.clone(), value)?;
    if value < min {
        Err(InputError::new(field, Rule::TooSmall { min, found: value }))
    } else if value > max {
        Err(InputError::new(field, Rule::TooLarge { max, found: value }))
    } else {
        Ok(value)
    }
}

/// A whole count in `min..=max`.
pub fn count(field: impl Into<Field>, value: u64, min: u64, max: u64) -> Result<u64, InputError> {
    if value < min {
        Err(InputError::new(field, Rule::CountTooSmall { min, found: value }))
    } else if value > max {
        Err(InputError::new(field, Rule::CountTooLarge { max, found: value }))
    } else {
        Ok(value)
    }
}

/// The exact product of `dims`, saturating at `u64::MAX` (0 as soon as
/// one dimension is 0, whatever the others).
pub fn product(dims: &[u64]) -> u64 {
    if dims.contains(&0) {
        return 0;
    }
    dims.iter().fold(1u64, |acc, &d| acc.saturating_mul(d))
}

/// A name must hold something other than blanks, and no control character
/// (a line break or carriage return would split the line of a text format).
pub fn name(field: impl Into<Field>, value: &str) -> Result<(), InputError> {
    if value.trim().is_empty() {
        return Err(InputError::new(field, Rule::Empty));
    }
    match value.chars().find(|c| c.is_control()) {
        Some(found) => Err(InputError::new(field, Rule::ControlCharacter { found })),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positive_rejects_zero_negative_and_nan() {
        assert!(positive("f", 1.0).is_ok());
        assert_eq!(positive("f", 0.0).unwrap_err().rule, Rule::NotPositive { found: 0.0 });
        assert!(matches!(
            positive("f", f64::NAN).unwrap_err().rule,
            Rule::NotFinite { .. }
        ));
        assert!(matches!(
            positive("f", f64::INFINITY).unwrap_err().rule,
            Rule::NotFinite { .. }
        ));
    }

    #[test]
    fn count_names_the_bound_in_whole_numbers() {
        let err = count("gpus", 0, 1, 8).unwrap_err();
        assert_eq!(err.field, "gpus");
        assert_eq!(err.to_string(), "gpus: must be at least 1, found 0");
        let err = count("gpus", MAX_COUNT + 1, 1, MAX_COUNT).unwrap_err();
        assert_eq!(
            err.to_string(),
            "gpus: must be at most 9007199254740992, found 9007199254740993"
        );
    }

    #[test]
    fn products_are_exact_and_zero_wins() {
        assert_eq!(product(&[3, 4, 5]), 60);
        assert_eq!(product(&[u64::MAX, u64::MAX, u64::MAX, 0]), 0);
        assert_eq!(product(&[u64::MAX, u64::MAX, 2]), u64::MAX);
        assert_eq!(product(&[]), 1);
    }

    #[test]
    fn names_reject_blanks_and_control_characters() {
        assert!(name("n", "CONV1").is_ok());
        assert_eq!(name("n", "  ").unwrap_err().rule, Rule::Empty);
        assert_eq!(
            name("n", "a\rb").unwrap_err().rule,
            Rule::ControlCharacter { found: '\r' }
        );
    }

    #[test]
    fn within_prefixes_fields() {
        let err = InputError::new(Field::from("w").index(0), Rule::Empty).within(&Field::from("layers").index(2));
        assert_eq!(err.field, "layers[2].w[0]");
        let err = InputError::new(Field::root().index(1), Rule::Empty).within(&Field::from("split"));
        assert_eq!(err.field, "split[1]");
    }
}
