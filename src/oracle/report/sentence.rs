//! A sentence for people whose numbers say where they come from: pieces of
//! text and figures, each figure a number as written and the quantity of
//! the projection whose explanation shows it (so that a page can make
//! every number of a finding or a term open its explanation).

use std::fmt;

use super::quantity::Quantity;

/// A number written in a sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// As written ("51%", "12.3 GB", "ZeRO stage 2").
    pub text: String,
    /// The value it stands for, unrounded.
    pub value: f64,
    /// The quantity whose explanation shows it or the values it comes from.
    pub quantity: Quantity,
}

/// A part of a sentence.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    /// Words.
    Text(String),
    /// A number.
    Figure(Figure),
    /// A layer of the user's network, by its name (shown as code: its
    /// digits are part of the name, not figures) and its index.
    Name(String, usize),
}

/// Words and figures, in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sentence {
    pieces: Vec<Piece>,
}

impl Sentence {
    /// An empty sentence.
    pub fn new() -> Self {
        Self::default()
    }

    /// Followed by `text`.
    #[must_use]
    pub fn text(mut self, text: &str) -> Self {
        if text.is_empty() {
            return self;
        }
        match self.pieces.last_mut() {
            Some(Piece::Text(last)) => last.push_str(text),
            _ => self.pieces.push(Piece::Text(text.to_string())),
        }
        self
    }

    /// Followed by a figure: `text` standing for `value`, explained by
    /// `quantity`.
    #[must_use]
    pub fn figure(mut self, text: impl Into<String>, value: f64, quantity: Quantity) -> Self {
        self.pieces.push(Piece::Figure(Figure {
            text: text.into(),
            value,
            quantity,
        }));
        self
    }

    /// Followed by `text` whose numbers (runs of digits, with the points and
    /// commas between them: `1082`, `135.2`) are figures explained by
    /// `quantity`, each standing for its own value.
    #[must_use]
    pub fn numbers(self, text: &str, quantity: Quantity) -> Self {
        let mut s = self;
        let mut rest = text;
        while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
            let (words, from) = rest.split_at(start);
            let end = from
                .char_indices()
                .find(|&(i, c)| {
                    !(c.is_ascii_digit()
                        || ((c == '.' || c == ',') && from[i + 1..].starts_with(|d: char| d.is_ascii_digit())))
                })
                .map_or(from.len(), |(i, _)| i);
            let (number, after) = from.split_at(end);
            let value = number.replace(',', "").parse().unwrap_or(f64::NAN);
            s = s.text(words).figure(number, value, quantity);
            rest = after;
        }
        s.text(rest)
    }

    /// Followed by the name of the network's layer `index`.
    #[must_use]
    pub fn layer(mut self, name: &str, index: usize) -> Self {
        self.pieces.push(Piece::Name(name.to_string(), index));
        self
    }

    /// Followed by another sentence.
    #[must_use]
    pub fn then(self, other: Sentence) -> Self {
        other.pieces.into_iter().fold(self, |s, piece| match piece {
            Piece::Text(text) => s.text(&text),
            Piece::Figure(f) => s.figure(f.text, f.value, f.quantity),
            Piece::Name(name, index) => s.layer(&name, index),
        })
    }

    /// Its pieces, in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Its figures, in order.
    pub fn figures(&self) -> impl Iterator<Item = &Figure> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Figure(f) => Some(f),
            Piece::Text(_) | Piece::Name(..) => None,
        })
    }
}

impl fmt::Display for Sentence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in &self.pieces {
            f.write_str(match piece {
                Piece::Text(text) | Piece::Name(text, _) => text,
                Piece::Figure(figure) => &figure.text,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_its_pieces_and_merges_adjacent_words() {
        let s = Sentence::new()
            .text("Uses ")
            .figure("12 GB", 12e9, Quantity::Memory)
            .text(" of ")
            .text("")
            .text("16 GB")
            .then(
                Sentence::new()
                    .text(" (")
                    .figure("75%", 0.75, Quantity::Memory)
                    .text(")."),
            );
        assert_eq!(s.to_string(), "Uses 12 GB of 16 GB (75%).");
        assert_eq!(s.pieces().len(), 5, "{s:?}");
        let figures: Vec<&str> = s.figures().map(|f| f.text.as_str()).collect();
        assert_eq!(figures, ["12 GB", "75%"]);
    }

    #[test]
    fn numbers_in_words_are_figures_of_their_own_value() {
        let s = Sentence::new().numbers(
            "a mini-batch of at most 1,082, 135.2 per GPU, stage 2",
            Quantity::Memory,
        );
        assert_eq!(s.to_string(), "a mini-batch of at most 1,082, 135.2 per GPU, stage 2");
        let figures: Vec<(&str, f64)> = s.figures().map(|f| (f.text.as_str(), f.value)).collect();
        assert_eq!(figures, [("1,082", 1082.0), ("135.2", 135.2), ("2", 2.0)]);
        assert_eq!(
            Sentence::new().numbers("no digits", Quantity::Memory).figures().count(),
            0
        );
    }
}
