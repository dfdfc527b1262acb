//! `#glossary`: every word the page uses, the strategies and the kinds of
//! communication, one click away (each linked where it first appears).

use yew::prelude::*;

use crate::app::reference::glossary::WORDS;
use crate::oracle::{CommKind, Strategy};

#[function_component(Glossary)]
pub fn glossary() -> Html {
    html! {
        <details id="glossary" class="lessons">
            <summary><h3>{ "Glossary" }</h3></summary>
            <h4>{ "Words" }</h4>
            <dl>
                { for WORDS.iter().map(|w| html! {
                    <>
                        <dt id={format!("term-{}", w.id)} data-term={w.id}>{ w.word }</dt>
                        <dd>{ w.meaning }</dd>
                    </>
                }) }
            </dl>
            <h4>{ "Strategies" }</h4>
            <dl>
                { for Strategy::ALL.iter().map(|s| html! {
                    <>
                        <dt id={format!("term-{}", s.name().replace('+', "-"))} data-term={s.name()}>{ s.label() }</dt>
                        <dd>{ s.description() }</dd>
                    </>
                }) }
            </dl>
            <h4>{ "Communication" }</h4>
            <dl>
                { for CommKind::ALL.iter().map(|k| html! {
                    <>
                        <dt id={format!("term-{}", k.name())} data-term={k.name()}>{ k.label() }</dt>
                        <dd>{ k.description() }</dd>
                    </>
                }) }
            </dl>
        </details>
    }
}
