//! The shareable link of the current view, a button that copies it, and
//! undo and redo (back and forward through the views made).

use yew::prelude::*;

use crate::app::page::browser;

/// Props of [`ShareBar`].
#[derive(Properties, PartialEq, Clone)]
pub struct ShareBarProps {
    /// The full address of the current view.
    pub href: AttrValue,
    /// Whether undo can act (an earlier view of this page).
    #[prop_or_default]
    pub undo: bool,
    /// Whether redo can act (a view undone).
    #[prop_or_default]
    pub redo: bool,
}

/// `#share-link` and "Copy link".
#[function_component(ShareBar)]
pub fn share_bar(props: &ShareBarProps) -> Html {
    let status = use_state(|| None::<&'static str>);
    let oncopy = {
        let href = props.href.to_string();
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            let href = href.clone();
            let status = status.clone();
            yew::platform::spawn_local(async move {
                status.set(Some(match browser::copy(href).await {
                    Ok(()) => "Copied",
                    Err(_) => "Copy failed: select the link and copy it",
                }));
            });
        })
    };
    html! {
        <div class="share">
            <a id="share-link" href={props.href.clone()} title="The link to this exact view">{ "Link to this view" }</a>
            <button type="button" id="copy-link" onclick={oncopy}>{ "Copy link" }</button>
            <button type="button" id="undo" title="Back to the previous view" disabled={!props.undo}
                onclick={Callback::from(|_: MouseEvent| browser::go(-1))}>{ "Undo" }</button>
            <button type="button" id="redo" title="Forward to the view you went back from" disabled={!props.redo}
                onclick={Callback::from(|_: MouseEvent| browser::go(1))}>{ "Redo" }</button>
            if let Some(text) = *status { <span class="status" aria-live="polite">{ text }</span> }
        </div>
    }
}
