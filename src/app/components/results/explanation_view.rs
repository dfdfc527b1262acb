//! An explanation as the engine gave it: the result, the formula, the
//! values in it, the strategy's per-iteration terms, the intermediate
//! results (each a link to its own explanation) and the model's sections
//! (the contract is fetched with the first explanation that cites it).

use yew::prelude::*;

use crate::app::components::page::shipped_text::{FetchLine, use_shipped};
use crate::app::reference::contract;
use crate::app::reference::shipped_files::Shipped;
use crate::oracle::{Explanation, Quantity, Symbol};

/// Props of [`ExplanationView`].
#[derive(Properties, PartialEq, Clone)]
pub struct ExplanationViewProps {
    /// What the engine said.
    pub explanation: Explanation,
    /// Called with the quantity an intermediate result explains.
    pub onexplain: Callback<Quantity>,
}

fn symbols(symbols: &[Symbol]) -> Html {
    if symbols.is_empty() {
        return html! {};
    }
    html! {
        <table class="symbols">
            <tbody>
                { for symbols.iter().map(|s| html! {
                    <tr data-symbol={s.symbol}>
                        <th scope="row"><code>{ s.symbol }</code></th>
                        <td>{ s.meaning }</td>
                        <td class="num" data-value={s.value.to_string()}>{ s.unit.format(s.value) }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// The explanation.
#[function_component(ExplanationView)]
pub fn explanation_view(props: &ExplanationViewProps) -> Html {
    let e = &props.explanation;
    let contract = use_shipped(Shipped::ModelDoc, !e.sections.is_empty());
    let cited = contract.text().map(contract::sections).unwrap_or_default();
    let steps = e.steps.iter().map(|step| {
        let text = format!("{} = {}", step.label, step.unit.format(step.value));
        match step.explains.as_deref().and_then(Quantity::parse) {
            Some(quantity) => {
                let onexplain = props.onexplain.clone();
                let onclick = Callback::from(move |_: MouseEvent| onexplain.emit(quantity));
                html! {
                    <li><button type="button" class="explain-link" data-step={quantity.key()}
                        data-value={step.value.to_string()} {onclick}>{ text }</button></li>
                }
            }
            None => html! { <li data-value={step.value.to_string()}>{ text }</li> },
        }
    });
    html! {
        <>
            <p class="explain-result">
                { "= " }<output data-value={e.result.to_string()}>{ e.unit.format(e.result) }</output>
            </p>
            <p class="formula"><code>{ e.formula }</code></p>
            { symbols(&e.symbols) }
            if let Some(note) = &e.note { <p class="explain-note">{ note }</p> }
            { for e.terms.iter().map(|t| html! {
                <div class="term">
                    <p>{ if t.unit == crate::oracle::Unit::Bytes { "Per GPU: " } else { "One iteration: " } }<code>{ t.formula }</code>{ " = " }
                        <span data-value={t.value.to_string()}>{ t.unit.format(t.value) }</span></p>
                    { symbols(&t.symbols) }
                </div>
            }) }
            if !e.steps.is_empty() {
                <h4>{ "Intermediate results" }</h4>
                <ul class="steps">{ for steps }</ul>
            }
            if !e.sections.is_empty() {
                <FetchLine file={Shipped::ModelDoc} fetched={contract.clone()} />
            }
            { for cited.iter().filter(|s| e.sections.contains(&s.number)).map(|s| html! {
                <details class="model-section" data-section={s.number.to_string()}>
                    <summary>{ format!("Section {} of the model: {}", s.number, s.title) }</summary>
                    <pre>{ s.body.to_string() }</pre>
                </details>
            }) }
        </>
    }
}
