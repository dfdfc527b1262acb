//! The model's contract, shipped with the app (`src/oracle/ORACLE-MODEL.md`)
//! and cut into its numbered sections, so that an explanation shows the
//! section its number comes from.

/// The contract, as written.
pub const TEXT: &str = include_str!("../oracle/ORACLE-MODEL.md");

/// A numbered section: `## 5. Strategies (per iteration)` and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section {
    /// Its number.
    pub number: u8,
    /// Its heading, without the number.
    pub title: &'static str,
    /// Its text up to the next section.
    pub body: &'static str,
}

/// Every numbered section, in order (cut once, on first use).
pub fn sections() -> &'static [Section] {
    static SECTIONS: std::sync::OnceLock<Vec<Section>> = std::sync::OnceLock::new();
    SECTIONS.get_or_init(cut)
}

fn cut() -> Vec<Section> {
    let mut found = Vec::new();
    let mut rest = TEXT;
    while let Some(start) = rest.find("\n## ") {
        let after = &rest[start + 4..];
        let end = after.find("\n## ").unwrap_or(after.len());
        let (heading, body) = after[..end].split_once('\n').unwrap_or((&after[..end], ""));
        if let Some((number, title)) = heading.split_once(". ")
            && let Ok(number) = number.trim().parse()
        {
            found.push(Section {
                number,
                title: title.trim(),
                body: body.trim(),
            });
        }
        rest = &after[end..];
    }
    found
}

/// Section `number`, if the contract has it.
pub fn section(number: u8) -> Option<Section> {
    sections().iter().find(|s| s.number == number).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_twelve_sections_are_found_with_their_text() {
        let all = sections();
        let numbers: Vec<u8> = all.iter().map(|s| s.number).collect();
        assert_eq!(numbers, (1..=12).collect::<Vec<u8>>());
        let strategies = section(5).unwrap();
        assert_eq!(strategies.title, "Strategies (per iteration)");
        assert!(strategies.body.contains("| data |"));
        assert!(!strategies.body.contains("## 6."), "a section stops at the next");
        assert!(section(11).unwrap().title.starts_with("Today's machines"));
        assert!(section(12).unwrap().title.starts_with("A profile of your own"));
        assert!(section(13).is_none());
    }
}
