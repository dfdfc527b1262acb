//! A word of the page linked to its meaning in the glossary (opened on
//! the click).

use yew::prelude::*;

use crate::app::reference::glossary;

/// Props of [`Term`].
#[derive(Properties, PartialEq, Clone)]
pub struct TermProps {
    /// The word's id in [`glossary::WORDS`].
    pub id: &'static str,
    /// The text shown (the word itself when blank).
    #[prop_or_default]
    pub text: Option<AttrValue>,
}

/// Opens the glossary so that the link lands on its entry.
fn open_glossary(_: MouseEvent) {
    if let Some(glossary) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("glossary"))
    {
        let _ = glossary.set_attribute("open", "");
    }
}

/// The linked word.
#[function_component(Term)]
pub fn term(props: &TermProps) -> Html {
    let Some(word) = glossary::find(props.id) else {
        return html! { { props.text.clone().unwrap_or_default() } };
    };
    let text = props.text.clone().unwrap_or_else(|| AttrValue::from(word.word));
    html! {
        <a class="term" href={format!("#term-{}", word.id)} title={word.meaning} onclick={Callback::from(open_glossary)}>{ text }</a>
    }
}
