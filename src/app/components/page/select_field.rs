//! A labelled select of named choices.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// A labelled select of `choices` (value, machine name, label); `onpick`
/// gets the value chosen.
pub fn select<T: Copy + PartialEq + 'static>(
    id: &'static str,
    label: &'static str,
    choices: Vec<(T, String, String)>,
    chosen: T,
    onpick: Callback<T>,
) -> Html {
    let values: Vec<(String, T)> = choices.iter().map(|(v, name, _)| (name.clone(), *v)).collect();
    let onchange = Callback::from(move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        if let Some((_, v)) = values.iter().find(|(name, _)| *name == value) {
            onpick.emit(*v);
        }
    });
    html! {
        <div class="field">
            <label for={id}>{ label }</label>
            <select {id} {onchange}>
                { for choices.into_iter().map(|(v, name, text)| html! { <option value={name} selected={v == chosen}>{ text }</option> }) }
            </select>
        </div>
    }
}
