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

/// Bytes per second with a decimal prefix: `14.4 GB/s`.
pub fn bandwidth(value: f64) -> String {
    scaled(value, "B/s")
}

/// Energy given in kWh, with a decimal prefix on watt-hours: `350 Wh`,
/// `12.3 kWh`, `4.1 MWh`.
pub fn energy_kwh(value: f64) -> String {
    scaled(value * 1e3, "Wh")
}

/// A mass of CO2-equivalent given in kg: `820 g`, `12.3 kg`, `4.1 t`.
pub fn co2_kg(value: f64) -> String {
    let abs = value.abs();
    if abs >= 1e3 {
        format!("{} t", significant(value / 1e3, 3))
    } else if abs >= 1.0 || abs == 0.0 {
        format!("{} kg", significant(value, 3))
    } else {
        format!("{} g", significant(value * 1e3, 3))
    }
}

/// US dollars: `$0.42`, `$12.3`, `$4.1k`, `$2.35M`.
pub fn dollars(value: f64) -> String {
    let (v, prefix) = with_prefix(value, &[(1e9, "G"), (1e6, "M"), (1e3, "k")]);
    format!("${}{prefix}", significant(v, 3))
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

/// Bytes in one `unit` of size: decimal prefixes (`B`, `kB`/`KB`, `MB`,
/// `GB`, `TB`, `PB`), binary ones (`KiB`, `MiB`, `GiB`, `TiB`), a lower-case
/// `b` or `bit` for bits (an eighth of a byte), and `Byte`/`Bytes`.
pub fn byte_unit(unit: &str) -> Option<f64> {
    let (prefix, base, binary) = if let Some(p) = unit.strip_suffix("iB") {
        (p, 1.0, true)
    } else if let Some(p) = unit
        .strip_suffix("Bytes")
        .or_else(|| unit.strip_suffix("Byte"))
        .or_else(|| unit.strip_suffix("bytes"))
        .or_else(|| unit.strip_suffix("byte"))
        .or_else(|| unit.strip_suffix('B'))
    {
        (p, 1.0, false)
    } else if let Some(p) = unit
        .strip_suffix("bits")
        .or_else(|| unit.strip_suffix("bit"))
        .or_else(|| unit.strip_suffix('b'))
    {
        (p, 0.125, false)
    } else {
        return None;
    };
    let scale = match (prefix, binary) {
        ("", false) => 1.0,
        ("k" | "K", false) => 1e3,
        ("M", false) => 1e6,
        ("G", false) => 1e9,
        ("T", false) => 1e12,
        ("P", false) => 1e15,
        ("K", true) => 1024.0,
        ("M", true) => 1024.0 * 1024.0,
        ("G", true) => 1024.0 * 1024.0 * 1024.0,
        ("T", true) => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some(scale * base)
}

/// Bytes per second in one `unit` of bandwidth: a [`byte_unit`] then
/// `/s` or `ps` (`GB/s`, `Gb/s`, `Gbit/s`, `GiB/s`, `Gbps`, ParaDL's `Bps`).
pub fn byte_rate_unit(unit: &str) -> Option<f64> {
    unit.strip_suffix("/s")
        .or_else(|| unit.strip_suffix("ps"))
        .and_then(byte_unit)
}

/// FLOP/s in one `unit` of arithmetic rate: `FLOPS` or `FLOP/s` (any case)
/// with an SI prefix (`k`, `M`, `G`, `T`, `P`, `E`).
pub fn flop_rate_unit(unit: &str) -> Option<f64> {
    let upper = unit.to_ascii_uppercase();
    let prefix = upper.strip_suffix("FLOP/S").or_else(|| upper.strip_suffix("FLOPS"))?;
    Some(match prefix {
        "" => 1.0,
        "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        _ => return None,
    })
}

/// Seconds in one `unit` of time: `s` (`sec`, `second`, `seconds`), `ms`,
/// `us`/`µs`/`μs`, `ns`, `min`, `h`.
pub fn time_unit(unit: &str) -> Option<f64> {
    Some(match unit {
        "s" | "sec" | "second" | "seconds" => 1.0,
        "ms" => 1e-3,
        "us" | "µs" | "μs" => 1e-6,
        "ns" => 1e-9,
        "min" => 60.0,
        "h" => 3600.0,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(bytes(15_434_845_696.0), "15.4 GB");
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(flops(7.8e12), "7.8 TFLOP/s");
        assert_eq!(bandwidth(14.45e9), "14.4 GB/s");
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

    #[test]
    fn units_people_write_convert_to_the_base_unit() {
        assert_eq!(byte_unit("GB"), Some(1e9));
        assert_eq!(byte_unit("GiB"), Some(1024.0 * 1024.0 * 1024.0));
        assert_eq!(byte_unit("Bytes"), Some(1.0));
        assert_eq!(byte_unit("Gb"), Some(1e9 / 8.0));
        assert_eq!(byte_unit("GHz"), None);
        assert_eq!(byte_rate_unit("Bps"), Some(1.0));
        assert_eq!(byte_rate_unit("Gbps"), Some(1e9 / 8.0));
        assert_eq!(byte_rate_unit("Gbit/s"), Some(1e9 / 8.0));
        assert_eq!(byte_rate_unit("GB"), None);
        assert_eq!(flop_rate_unit("TFLOPS"), Some(1e12));
        assert_eq!(flop_rate_unit("tflop/s"), Some(1e12));
        assert_eq!(flop_rate_unit("FLOP"), None);
        assert_eq!(time_unit("us"), Some(1e-6));
        assert_eq!(time_unit("second"), Some(1.0));
        assert_eq!(time_unit("GB"), None);
    }
}
