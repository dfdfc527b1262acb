//! The shareable link of the current view and a button that copies it.

use yew::prelude::*;

use crate::app::browser;

/// Props of [`ShareBar`].
#[derive(Properties, PartialEq, Clone)]
pub struct ShareBarProps {
    /// The full address of the current view.
    pub href: AttrValue,
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
            if let Some(text) = *status { <span class="status" aria-live="polite">{ text }</span> }
        </div>
    }
}
