//! A dismissible message about the link or saved state the page opened with.

use yew::prelude::*;

/// Props of [`Notice`].
#[derive(Properties, PartialEq, Clone)]
pub struct NoticeProps {
    /// The message, if any.
    pub message: Option<AttrValue>,
    /// Hides it.
    pub ondismiss: Callback<()>,
}

/// The message as an alert, with a button to hide it.
#[function_component(Notice)]
pub fn notice(props: &NoticeProps) -> Html {
    let Some(message) = &props.message else { return html! {} };
    let ondismiss = props.ondismiss.reform(|_: MouseEvent| ());
    html! {
        <div class="notice" role="alert" id="notice">
            <span>{ message }</span>
            <button type="button" onclick={ondismiss} aria-label="Dismiss">{ "×" }</button>
        </div>
    }
}
