//! Human-readable quantities, shared by the CLI, the findings and the app.

/// `text` with its first letter in capitals: `Data parallelism`.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Bytes with a decimal prefix: `15.4 GB`.
pub fn bytes(value: f64) -> String {
    scaled(value, "B")
}

/// FLOP/s with a decimal prefix: `7.8 TFLOP/s`.
pub fn flops(value: f64) -> String {
    scaled(value, "FLOP/s")
}

/// Seconds to three significant figures (the model is rarely closer than
/// that): `691 ms`, `4.5 s`, `2.1 h`.
pub fn seconds(value: f64) -> String {
    let abs = value.abs();
    if !value.is_finite() {
        format!("{value}")
    } else if abs == 0.0 {
        "0 s".into()
    } else if abs < 1e-9 {
        format!("{} s", significant(value, 3))
    } else if abs < 1e-3 {
        format!("{} µs", significant(value * 1e6, 3))
    } else if abs < 1.0 {
        format!("{} ms", significant(value * 1e3, 3))
    } else if abs < 3600.0 {
        format!("{} s", significant(value, 3))
    } else {
        format!("{} h", significant(value / 3600.0, 3))
    }
}

/// A count of things to `digits` significant digits, the noun singular for
/// exactly one: `1 sample`, `2.5 samples`, `0 samples`.
pub fn count_of(value: f64, digits: i32, noun: &str) -> String {
    let number = significant(value, digits);
    if number == "1" {
        format!("{number} {noun}")
    } else {
        format!("{number} {noun}s")
    }
}

/// A share as a percentage: `62%`.
pub fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// `value` rounded to `digits` significant digits, without trailing zeros.
pub fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    if magnitude < -9 {
        // far below what a table shows in fixed point: 1.2e-300, not 300 digits
        let precision = (digits - 1).max(0) as usize;
        return format!("{value:.precision$e}");
    }
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// Decimal prefixes, largest first.
pub const DECIMAL: [(f64, &str); 6] = [
    (1e18, "E"),
    (1e15, "P"),
    (1e12, "T"),
    (1e9, "G"),
    (1e6, "M"),
    (1e3, "k"),
];

/// `value` divided by the largest of `prefixes` it reaches, and that
/// prefix (`value` itself and `""` below them all).
pub fn with_prefix(value: f64, prefixes: &[(f64, &'static str)]) -> (f64, &'static str) {
    prefixes
        .iter()
        .find(|(factor, _)| value.abs() >= *factor)
        .map_or((value, ""), |&(factor, prefix)| (value / factor, prefix))
}

fn scaled(value: f64, unit: &str) -> String {
    let (value, prefix) = with_prefix(value, &DECIMAL);
    format!("{} {prefix}{unit}", significant(value, 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(bytes(15_434_845_696.0), "15.4 GB");
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(flops(7.8e12), "7.8 TFLOP/s");
        assert_eq!(seconds(0.0025), "2.5 ms");
        assert_eq!(seconds(0.690937), "691 ms");
        assert_eq!(seconds(3992.96256), "1.11 h");
        assert_eq!(seconds(18.3672128), "18.4 s");
        assert_eq!(seconds(9e-6), "9 µs");
        assert_eq!(percent(0.623), "62%");
        assert_eq!(significant(1996.48128, 4), "1996");
        assert_eq!(significant(0.000123456, 3), "0.000123");
        assert_eq!(count_of(1.0, 3, "sample"), "1 sample");
        assert_eq!(count_of(2.0, 3, "sample"), "2 samples");
        assert_eq!(count_of(0.5, 3, "sample"), "0.5 samples");
        // a tiny number is short, never hundreds of digits
        assert_eq!(seconds(1e-300), "1.00e-300 s");
        assert_eq!(significant(-2.5e-40, 2), "-2.5e-40");
        assert!(bytes(1e-300).len() < 16, "{}", bytes(1e-300));
    }
}
