//! Tensor shapes: item counts per dimension, channels first.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::checks::{MAX_COUNT, product};
use super::errors::{InputError, Rule};
use super::field::Field;

/// A tensor shape `[C, spatial...]` (or `[C, F, K...]` for weights), in items.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Shape(Vec<u64>);

impl Shape {
    /// A shape from its dimensions (not checked; see [`Shape::check_activation`]).
    pub fn new(dims: Vec<u64>) -> Self {
        Self(dims)
    }

    /// The dimensions.
    pub fn dims(&self) -> &[u64] {
        &self.0
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.0.len()
    }

    /// `|s|`: the product of the dimensions, 0 for an empty shape.
    /// Computed exactly in integers (so a 0 beside huge dimensions gives
    /// 0, never NaN), then converted; checked shapes stay below 2^53.
    pub fn items(&self) -> f64 {
        if self.0.is_empty() {
            0.0
        } else {
            product(&self.0) as f64
        }
    }

    /// The first dimension (channels), 0 for an empty shape.
    pub fn channels(&self) -> u64 {
        self.0.first().copied().unwrap_or(0)
    }

    /// The spatial dimensions (all but the first).
    pub fn spatial(&self) -> &[u64] {
        self.0.get(1..).unwrap_or(&[])
    }

    /// The width: the first spatial dimension, 0 if there is none.
    pub fn width(&self) -> u64 {
        self.0.get(1).copied().unwrap_or(0)
    }

    /// Product of the spatial dimensions after the first (1 if none).
    pub fn cross_section(&self) -> f64 {
        self.0.get(2..).unwrap_or(&[]).iter().map(|&d| d as f64).product()
    }

    /// Checks an activation shape: channels then 1 to 3 spatial dimensions,
    /// every dimension at least 1, the product at most 2^53.
    ///
    /// # Errors
    /// [`Rule::Rank`] for a wrong number of dimensions, [`Rule::TooSmall`]
    /// for a zero dimension, [`Rule::TooLarge`] for too many items.
    pub fn check_activation(&self, field: &Field) -> Result<(), InputError> {
        if !(2..=4).contains(&self.rank()) {
            return Err(InputError::new(
                field.clone(),
                Rule::Rank {
                    expected: "2 to 4 dimensions (channels, then 1 to 3 spatial)".into(),
                    found: self.rank(),
                },
            ));
        }
        self.check_dims(field, 1)
    }

    /// Checks that every dimension is at least `min` and that the product
    /// stays at most 2^53.
    ///
    /// # Errors
    /// [`Rule::TooSmall`] naming the dimension, or [`Rule::TooLarge`].
    pub fn check_dims(&self, field: &Field, min: u64) -> Result<(), InputError> {
        for (i, &d) in self.0.iter().enumerate() {
            if d < min {
                return Err(InputError::new(
                    field.clone().index(i),
                    Rule::CountTooSmall { min, found: d },
                ));
            }
            if d > MAX_COUNT {
                return Err(InputError::new(
                    field.clone().index(i),
                    Rule::CountTooLarge {
                        max: MAX_COUNT,
                        found: d,
                    },
                ));
            }
        }
        let items = product(&self.0);
        if items > MAX_COUNT {
            return Err(InputError::new(
                field.clone(),
                Rule::CountTooLarge {
                    max: MAX_COUNT,
                    found: items,
                },
            ));
        }
        Ok(())
    }
}

impl From<Vec<u64>> for Shape {
    fn from(dims: Vec<u64>) -> Self {
        Self(dims)
    }
}

impl<const N: usize> From<[u64; N]> for Shape {
    fn from(dims: [u64; N]) -> Self {
        Self(dims.to_vec())
    }
}

impl fmt::Display for Shape {
    /// The ParaDL notation `3x224x224`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&text.join("x"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_channels_width() {
        let s = Shape::from([96, 54, 27]);
        assert_eq!(s.items(), 96.0 * 54.0 * 27.0);
        assert_eq!(s.channels(), 96);
        assert_eq!(s.width(), 54);
        assert_eq!(s.cross_section(), 27.0);
        assert_eq!(s.to_string(), "96x54x27");
        assert_eq!(Shape::default().items(), 0.0);
        assert_eq!(Shape::from([3, 3, 0, 0]).items(), 0.0);
    }

    #[test]
    fn activation_rank_and_zero_dims_are_errors() {
        let x = Field::from("x");
        assert!(Shape::from([3, 8, 8]).check_activation(&x).is_ok());
        let err = Shape::from([3]).check_activation(&x).unwrap_err();
        assert!(matches!(err.rule, Rule::Rank { found: 1, .. }));
        let err = Shape::from([3, 0, 8]).check_activation(&x).unwrap_err();
        assert_eq!(err.field, "x[1]");
        let big = Shape::from([1 << 30, 1 << 30, 1 << 30]);
        assert!(matches!(
            big.check_activation(&x).unwrap_err().rule,
            Rule::CountTooLarge { .. }
        ));
    }

    #[test]
    fn a_zero_beside_an_overflowing_product_is_zero_items_not_nan() {
        let w = Shape::from([u64::MAX, u64::MAX, 0, u64::MAX]);
        assert_eq!(w.items(), 0.0);
        let err = w.check_dims(&Field::from("w"), 0).unwrap_err();
        assert_eq!(err.field, "w[0]", "each dimension is bounded too");
    }
}
