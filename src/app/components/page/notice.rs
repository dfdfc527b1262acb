//! A message at the top of the results: about the link or saved state the
//! page opened with (dismissible), or what a pick applied (with undo).

use yew::prelude::*;

use crate::app::page::browser;

/// Props of [`Notice`].
#[derive(Properties, PartialEq, Clone)]
pub struct NoticeProps {
    /// Its element's id.
    #[prop_or(AttrValue::Static("notice"))]
    pub id: AttrValue,
    /// The message, if any.
    pub message: Option<AttrValue>,
    /// Hides it (no button when left out).
    #[prop_or_default]
    pub ondismiss: Option<Callback<()>>,
    /// Offers undo (back to the view before).
    #[prop_or_default]
    pub undo: bool,
}

/// The message as an alert, with a button to hide it or to undo.
#[function_component(Notice)]
pub fn notice(props: &NoticeProps) -> Html {
    let Some(message) = &props.message else { return html! {} };
    let dismiss = props.ondismiss.as_ref().map(|on| {
        let onclick = on.reform(|_: MouseEvent| ());
        html! { <button type="button" {onclick} aria-label="Dismiss">{ "×" }</button> }
    });
    html! {
        <div class="notice" role="alert" id={props.id.clone()}>
            <span title={message.clone()}>{ message }</span>
            if props.undo {
                <button type="button" class="notice-undo" onclick={Callback::from(|_: MouseEvent| browser::go(-1))}>{ "Undo" }</button>
            }
            { for dismiss }
        </div>
    }
}
