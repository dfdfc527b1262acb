//! `#glossary`: the strategies and the kinds of communication, one click
//! away, in the engine's words.

use yew::prelude::*;

use crate::oracle::{CommKind, Strategy};

/// The glossary.
#[function_component(Glossary)]
pub fn glossary() -> Html {
    html! {
        <details id="glossary" class="lessons">
            <summary><h3>{ "Glossary" }</h3></summary>
            <h4>{ "Strategies" }</h4>
            <dl>
                { for Strategy::ALL.iter().map(|s| html! {
                    <>
                        <dt data-term={s.name()}>{ s.label() }</dt>
                        <dd>{ s.description() }</dd>
                    </>
                }) }
            </dl>
            <h4>{ "Communication" }</h4>
            <dl>
                { for CommKind::ALL.iter().map(|k| html! {
                    <>
                        <dt data-term={k.name()}>{ k.label() }</dt>
                        <dd>{ k.description() }</dd>
                    </>
                }) }
            </dl>
        </details>
    }
}
