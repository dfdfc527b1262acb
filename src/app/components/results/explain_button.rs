//! A number that explains itself: a button showing the number that opens
//! the explanation panel on it (`[data-explain]`).

use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::input::explain_target::ExplainTarget;
use crate::app::state::action::{Action, ViewAction};

/// Props of [`ExplainButton`].
#[derive(Properties, PartialEq, Clone)]
pub struct ExplainButtonProps {
    /// The number it stands for.
    pub target: ExplainTarget,
    /// The number as shown.
    pub text: AttrValue,
    /// The number's value, unrounded (`data-value`).
    pub value: f64,
}

/// The number as a button.
#[function_component(ExplainButton)]
pub fn explain_button(props: &ExplainButtonProps) -> Html {
    let state = use_app();
    let target = props.target;
    let onclick = state.map(|s| s.send::<MouseEvent>(Action::View(ViewAction::Explain(target))));
    let label = format!(
        "{}: explain the {} of {} at {} GPUs",
        props.text,
        target.quantity.label(),
        target.strategy.label(),
        target.gpus
    );
    html! {
        <button type="button" class="explain-link" data-explain={target.key()}
            data-value={props.value.to_string()} aria-label={label} {onclick}>
            { &props.text }
        </button>
    }
}
