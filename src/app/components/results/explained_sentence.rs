//! A sentence whose numbers explain themselves: its words, and each number
//! a button (an [`ExplainButton`]) that opens the explanation of the
//! quantity behind it.

use yew::prelude::*;

use crate::app::components::network::layer_link::LayerLink;
use crate::app::components::results::explain_button::ExplainButton;
use crate::app::input::explain_target::ExplainTarget;
use crate::oracle::{Piece, Projection, Quantity, Sentence, Strategy};

/// A piece of a sentence on the page.
#[derive(Debug, Clone, PartialEq)]
pub enum Span {
    /// Words.
    Text(String),
    /// A layer of the network: its name (shown as code) and index (it
    /// opens the layer table on its row).
    Name(String, usize),
    /// A number and what explains it.
    Number {
        /// As written.
        text: String,
        /// Unrounded.
        value: f64,
        /// The explanation it opens.
        target: ExplainTarget,
    },
}

impl Span {
    /// Words.
    pub fn text(text: &str) -> Self {
        Self::Text(text.to_string())
    }

    /// A number of `strategy` at `gpus`, opening the explanation of
    /// `quantity`.
    pub fn number(text: String, value: f64, strategy: Strategy, gpus: u64, quantity: Quantity) -> Self {
        Self::Number {
            text,
            value,
            target: ExplainTarget::new(strategy, gpus, quantity),
        }
    }
}

/// The spans of an engine's sentence about `strategy` at `gpus`.
pub fn spans(sentence: &Sentence, strategy: Strategy, gpus: u64) -> Vec<Span> {
    sentence
        .pieces()
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => Span::Text(text.clone()),
            Piece::Figure(f) => Span::number(f.text.clone(), f.value, strategy, gpus, f.quantity),
            Piece::Name(name, index) => Span::Name(name.clone(), *index),
        })
        .collect()
}

/// The limits `p` breaks, in words, joined by `; `, each number opening
/// its explanation.
pub fn limits(p: &Projection) -> Vec<Span> {
    p.limit_sentences()
        .iter()
        .enumerate()
        .flat_map(|(i, sentence)| {
            let sep = (i > 0).then(|| Span::text("; "));
            sep.into_iter().chain(spans(sentence, p.strategy, p.gpus))
        })
        .collect()
}

/// The spans as plain text.
pub fn plain(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(text) | Span::Name(text, _) | Span::Number { text, .. } => text.as_str(),
        })
        .collect()
}

/// Props of [`Said`].
#[derive(Properties, PartialEq, Clone)]
pub struct SaidProps {
    /// What is said.
    pub spans: Vec<Span>,
}

/// The words, and the numbers as buttons.
#[function_component(Said)]
pub fn said(props: &SaidProps) -> Html {
    // running text: its numbers are links in a sentence, not controls of their own size
    html! {
        <span class="said">{ for props.spans.iter().map(|span| match span {
            Span::Text(text) => html! { { text.clone() } },
            Span::Name(name, index) => html! { <LayerLink name={name.clone()} index={*index} /> },
            Span::Number { text, value, target } => html! {
                <ExplainButton target={*target} text={AttrValue::from(text.clone())} value={*value} />
            },
        }) }</span>
    }
}

#[cfg(test)]
mod tests {
    use crate::app::components::results::explained_sentence::*;

    #[test]
    fn an_engine_sentence_keeps_its_words_and_targets_its_numbers() {
        let sentence = Sentence::new()
            .text("Uses ")
            .figure("12 GB", 12e9, Quantity::Memory)
            .text(".");
        let got = spans(&sentence, Strategy::Filter, 8);
        assert_eq!(plain(&got), "Uses 12 GB.");
        assert_eq!(
            got[1],
            Span::Number {
                text: "12 GB".into(),
                value: 12e9,
                target: ExplainTarget::new(Strategy::Filter, 8, Quantity::Memory)
            }
        );
    }
}
