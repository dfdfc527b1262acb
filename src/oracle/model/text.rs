//! How text and numbers a user gave appear in messages: quoted (control
//! characters and bidirectional overrides escaped, long text cut with its
//! length said) and numbers as people read them. Every error, table and
//! warning shows user-supplied text through [`quoted`].

/// Characters of a name or path a listing shows at most: a real ONNX
/// node's path or a file's path runs past [`QUOTED_CHARS`] and is shown
/// whole; only a hostile one is cut.
pub const NAME_CHARS: usize = 1000;

/// A name or path as a table, a summary or a message's subject shows it:
/// escaped as [`quoted`] escapes, cut only past [`NAME_CHARS`].
pub fn listed(text: &str) -> String {
    shortened(text, NAME_CHARS)
}

/// Characters of the input an error quotes at most.
pub const QUOTED_CHARS: usize = 80;

/// The input an error quotes: at most [`QUOTED_CHARS`] characters, the rest
/// said in a count (a 10 MB cell is not echoed whole).
pub fn quoted(text: &str) -> String {
    shortened(text, QUOTED_CHARS)
}

/// A number as a person reads it in a message: up to 6 significant
/// digits between 0.001 and 10^6 (`0.25`, `4096.5`), else 3 significant
/// digits and an exponent (`1e308`, `4.94e-324`), never hundreds of digits.
pub fn shown(value: f64) -> String {
    if !value.is_finite() {
        return format!("{value}");
    }
    if value == 0.0 {
        return "0".into();
    }
    let trim = |text: &str| -> String {
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            text.to_string()
        }
    };
    let magnitude = value.abs();
    if (1e-3..1e6).contains(&magnitude) {
        let digits = magnitude.log10().floor() as i32 + 1;
        let decimals = (6 - digits).clamp(0, 9) as usize;
        trim(&format!("{value:.decimals$}"))
    } else {
        let text = format!("{value:.2e}");
        match text.split_once('e') {
            Some((mantissa, exponent)) => format!("{}e{exponent}", trim(mantissa)),
            None => text,
        }
    }
}

/// `text` cut to `limit` characters (the rest said in a count), its
/// control characters and bidirectional overrides escaped (`\n`,
/// `\u{1b}`, `\u{202e}`): nothing a file holds moves a terminal's cursor,
/// clears its screen or reorders the text around it.
pub fn shortened(text: &str, limit: usize) -> String {
    let mut chars = text.chars();
    let mut head = String::new();
    for c in chars.by_ref().take(limit) {
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if c.is_control() || bidi {
            head.extend(c.escape_default());
        } else {
            head.push(c);
        }
    }
    let rest = chars.count();
    if rest == 0 {
        head
    } else {
        format!("{head}… ({rest} more characters)")
    }
}
