//! Small checked-value helpers shared by the constructors.

use super::error::{InputError, Rule};

/// Largest count or dimension the engine accepts: products and sums stay
/// exact in `f64` (2^53).
pub const MAX_COUNT: u64 = 1 << 53;
/// Largest GPU count the engine accepts (2^40): sweeps and partitions stay small.
pub const MAX_GPUS: u64 = 1 << 40;

/// `value` must be finite and greater than zero.
pub fn positive(field: &str, value: f64) -> Result<f64, InputError> {
    let value = finite(field, value)?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(InputError::new(field, Rule::NotPositive { found: value }))
    }
}

/// `value` must be finite.
pub fn finite(field: &str, value: f64) -> Result<f64, InputError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(InputError::new(field, Rule::NotFinite { found: value }))
    }
}

/// `value` must lie in `min..=max`.
pub fn within(field: &str, value: f64, min: f64, max: f64) -> Result<f64, InputError> {
    let value = finite(field, value)?;
    if value < min {
        Err(InputError::new(field, Rule::TooSmall { min, found: value }))
    } else if value > max {
        Err(InputError::new(field, Rule::TooLarge { max, found: value }))
    } else {
        Ok(value)
    }
}

/// A whole count in `min..=max`.
pub fn count(field: &str, value: u64, min: u64, max: u64) -> Result<u64, InputError> {
    if value < min {
        Err(InputError::new(
            field,
            Rule::TooSmall {
                min: min as f64,
                found: value as f64,
            },
        ))
    } else if value > max {
        Err(InputError::new(
            field,
            Rule::TooLarge {
                max: max as f64,
                found: value as f64,
            },
        ))
    } else {
        Ok(value)
    }
}

/// A name must hold something other than blanks.
pub fn name(field: &str, value: &str) -> Result<(), InputError> {
    if value.trim().is_empty() {
        Err(InputError::new(field, Rule::Empty))
    } else {
        Ok(())
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
    fn count_names_the_bound() {
        let err = count("gpus", 0, 1, 8).unwrap_err();
        assert_eq!(err.field, "gpus");
        assert_eq!(err.to_string(), "gpus: must be at least 1, found 0");
        assert!(count("gpus", 9, 1, 8).is_err());
    }

    #[test]
    fn within_prefixes_fields() {
        let err = InputError::new("w[0]", Rule::Empty).within("layers[2]");
        assert_eq!(err.field, "layers[2].w[0]");
        let err = InputError::new("[1]", Rule::Empty).within("split");
        assert_eq!(err.field, "split[1]");
    }
}
