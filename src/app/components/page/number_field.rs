//! A labelled input with its unit and, below it, its error.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`NumberField`].
#[derive(Properties, PartialEq, Clone)]
pub struct NumberFieldProps {
    /// The input's id (a stable hook for tests).
    pub id: AttrValue,
    pub label: AttrValue,
    /// Unit shown after the input.
    #[prop_or_default]
    pub unit: AttrValue,
    /// Text shown (what the user typed, or the value).
    pub value: AttrValue,
    /// Placeholder when blank (e.g. the default).
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// The error of this field, if any.
    #[prop_or_default]
    pub error: Option<AttrValue>,
    /// Called with the new text on every keystroke.
    pub oninput: Callback<String>,
}

/// A labelled input; its error, if any, sits right below it as an alert.
#[function_component(NumberField)]
pub fn number_field(props: &NumberFieldProps) -> Html {
    let oninput = {
        let callback = props.oninput.clone();
        Callback::from(move |e: InputEvent| callback.emit(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let error_id = format!("{}-error", props.id);
    let invalid = props.error.is_some();
    html! {
        <div class={classes!("field", invalid.then_some("invalid"))}>
            <label for={props.id.clone()}>{ &props.label }</label>
            <span class="input-with-unit">
                <input
                    id={props.id.clone()}
                    type="text"
                    inputmode="decimal"
                    value={props.value.clone()}
                    placeholder={props.placeholder.clone()}
                    aria-invalid={invalid.to_string()}
                    aria-describedby={invalid.then(|| error_id.clone())}
                    {oninput}
                />
                if !props.unit.is_empty() { <span class="unit">{ &props.unit }</span> }
            </span>
            if let Some(error) = &props.error {
                <p class="error" role="alert" id={error_id}>{ error }</p>
            }
        </div>
    }
}
