//! The model's contract (`src/oracle/ORACLE-MODEL.md`, shipped beside the
//! page and fetched when first needed, see [`crate::app::reference::shipped_files`]) cut
//! into its numbered sections, so that an explanation shows the section
//! its number comes from.

/// A numbered section: `## 5. Strategies (per iteration)` and its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Section<'a> {
    /// Its number.
    pub number: u8,
    /// Its heading, without the number.
    pub title: &'a str,
    /// Its text up to the next section.
    pub body: &'a str,
}

/// Every numbered section of `text` (the contract), in order.
pub fn sections(text: &str) -> Vec<Section<'_>> {
    let mut found = Vec::new();
    let mut rest = text;
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

#[cfg(test)]
mod tests {
    use crate::app::reference::contract::*;

    const TEXT: &str = include_str!("../../oracle/ORACLE-MODEL.md");

    fn section(text: &str, number: u8) -> Option<Section<'_>> {
        sections(text).into_iter().find(|s| s.number == number)
    }

    #[test]
    fn the_fifteen_sections_are_found_with_their_text() {
        let all = sections(TEXT);
        let numbers: Vec<u8> = all.iter().map(|s| s.number).collect();
        assert_eq!(numbers, (1..=15).collect::<Vec<u8>>());
        let strategies = section(TEXT, 5).unwrap();
        assert_eq!(strategies.title, "Strategies (per iteration)");
        assert!(strategies.body.contains("| data |"));
        assert!(!strategies.body.contains("## 6."), "a section stops at the next");
        assert!(section(TEXT, 11).unwrap().title.starts_with("Today's machines"));
        assert!(section(TEXT, 12).unwrap().title.starts_with("A profile of your own"));
        assert!(section(TEXT, 13).unwrap().title.starts_with("Time to train"));
        assert!(section(TEXT, 14).unwrap().title.starts_with("Energy, carbon and money"));
        assert!(section(TEXT, 15).unwrap().title.starts_with("Transformers"));
        assert!(section(TEXT, 16).is_none());
    }

    #[test]
    fn a_text_without_numbered_sections_has_none() {
        assert!(sections("").is_empty());
        assert!(sections("# Title\n## Not numbered\ntext").is_empty());
        assert_eq!(section("x\n## 3. Three\nbody", 3).map(|s| s.body), Some("body"));
    }
}
