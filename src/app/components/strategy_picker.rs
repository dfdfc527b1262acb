//! Which strategies the plots compare.

use yew::prelude::*;

use crate::oracle::Strategy;

/// Props of [`StrategyPicker`].
#[derive(Properties, PartialEq, Clone)]
pub struct StrategyPickerProps {
    /// The chosen strategies.
    pub chosen: Vec<Strategy>,
    /// Shows or hides one.
    pub ontoggle: Callback<Strategy>,
    /// Error (none chosen).
    #[prop_or_default]
    pub error: Option<AttrValue>,
}

/// One checkbox per strategy, in its plot colour.
#[function_component(StrategyPicker)]
pub fn strategy_picker(props: &StrategyPickerProps) -> Html {
    let boxes = Strategy::ALL.into_iter().map(|s| {
        let color = crate::app::charts::strategy_color(s);
        let style = format!("border-color: rgb({}, {}, {})", color.0, color.1, color.2);
        let onchange = props.ontoggle.reform(move |_: Event| s);
        html! {
            <label class="strategy" {style}>
                <input type="checkbox" name="strategy" value={s.name()} checked={props.chosen.contains(&s)} {onchange} />
                { s.name() }
            </label>
        }
    });
    html! {
        <fieldset class="strategies" id="strategies">
            <legend>{ "Strategies to plot" }</legend>
            { for boxes }
            if let Some(e) = &props.error { <p class="error" role="alert">{ e }</p> }
        </fieldset>
    }
}
