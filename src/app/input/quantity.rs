//! Numbers typed with the units people think in ("400 Gb/s", "80 GB",
//! "989 TFLOPS", "5 us"), converted to a field's own unit by the engine's
//! unit tables ([`crate::oracle::units`]).

use crate::oracle::units;

/// What a field measures, from its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dimension {
    Bytes,
    BytesPerSecond,
    FlopsPerSecond,
    Seconds,
    /// GPUs, NICs, nodes: no unit accepted.
    Count,
}

fn dimension(field_unit: &str) -> Dimension {
    match field_unit {
        "GB" | "MiB" | "B" => Dimension::Bytes,
        "GB/s" => Dimension::BytesPerSecond,
        "TFLOP/s" => Dimension::FlopsPerSecond,
        "s" | "ms" | "µs" | "ns" => Dimension::Seconds,
        _ => Dimension::Count,
    }
}

/// The value of `text` in the field's unit (`field_unit`, whose size in the
/// base unit is `scale`): a bare number is already in it; a number with a
/// unit of the same kind is converted.
///
/// # Errors
/// Text that is not a number, or a unit of another kind, in words.
pub fn parse(text: &str, field_unit: &str, scale: f64) -> Result<f64, String> {
    let text = text.trim();
    let dimension = dimension(field_unit);
    let expected = match dimension {
        Dimension::Bytes => "GB, GiB, MB, TB or B",
        Dimension::BytesPerSecond => "GB/s, Gb/s, Gbit/s, GiB/s or Gbps",
        Dimension::FlopsPerSecond => "TFLOP/s, TFLOPS, PFLOPS or GFLOPS",
        Dimension::Seconds => "s, ms, µs (us) or ns",
        Dimension::Count => "no unit",
    };
    // a field that takes units says so when what it got is no number at all
    let not_a_number = || match dimension {
        Dimension::Count => "Must be a number".to_string(),
        _ => format!("Must be a number, with a unit ({expected}) or without one (then in {field_unit})"),
    };
    // the longest leading part that is a number; the rest is the unit
    let split = (1..=text.len())
        .rev()
        .filter(|&i| text.is_char_boundary(i))
        .find(|&i| text[..i].trim().parse::<f64>().is_ok());
    let Some(split) = split else {
        return Err(not_a_number());
    };
    let number: f64 = text[..split].trim().parse().map_err(|_| not_a_number())?;
    let unit = text[split..].trim();
    if unit.is_empty() || unit == field_unit {
        return Ok(number);
    }
    let base = match dimension {
        Dimension::Bytes => units::byte_unit(unit),
        Dimension::BytesPerSecond => units::byte_rate_unit(unit),
        Dimension::FlopsPerSecond => units::flop_rate_unit(unit),
        Dimension::Seconds => units::time_unit(unit),
        Dimension::Count => None,
    };
    base.map(|b| number * b / scale)
        .ok_or_else(|| format!("'{unit}' is not a unit of this field ({expected})"))
}

#[cfg(test)]
mod tests {
    use crate::app::input::quantity::*;

    #[test]
    fn units_convert_to_the_fields_own() {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        assert_eq!(parse("12.5", "GB/s", 1e9), Ok(12.5));
        assert!(close(parse("400 Gb/s", "GB/s", 1e9).unwrap(), 50.0));
        assert!(close(parse("400Gbps", "GB/s", 1e9).unwrap(), 50.0));
        assert!(close(parse("100 Gbit/s", "GB/s", 1e9).unwrap(), 12.5));
        assert!(close(parse("2 TB/s", "GB/s", 1e9).unwrap(), 2000.0));
        assert!(close(parse("80 GB", "GB", 1e9).unwrap(), 80.0));
        assert!(close(parse("80 GiB", "GB", 1e9).unwrap(), 85.89934592));
        assert!(close(parse("16e9 B", "GB", 1e9).unwrap(), 16.0));
        assert!(close(parse("989 TFLOPS", "TFLOP/s", 1e12).unwrap(), 989.0));
        assert!(close(parse("1.2 PFLOP/s", "TFLOP/s", 1e12).unwrap(), 1200.0));
        assert!(close(parse("5 us", "µs", 1e-6).unwrap(), 5.0));
        assert!(close(parse("5000 ns", "µs", 1e-6).unwrap(), 5.0));
        assert!(close(parse("0.09 µs", "ns", 1e-9).unwrap(), 90.0));
        assert!(
            parse("80 GB/s", "GB", 1e9)
                .unwrap_err()
                .contains("not a unit of this field")
        );
        assert!(parse("4 GB", "GPUs", 1.0).is_err());
        assert_eq!(parse("4 GPUs", "GPUs", 1.0), Ok(4.0));
        assert_eq!(
            parse("fast", "GB/s", 1e9),
            Err(
                "Must be a number, with a unit (GB/s, Gb/s, Gbit/s, GiB/s or Gbps) or without one (then in GB/s)"
                    .into()
            )
        );
        assert!(parse("", "GB", 1e9).is_err_and(|e| e.starts_with("Must be a number, with a unit (GB, GiB")));
        assert_eq!(parse("many", "", 1.0), Err("Must be a number".into()));
    }
}
