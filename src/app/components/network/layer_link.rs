//! A layer named in a sentence (a split limit's), as a link that opens the
//! layer table on its row.

use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::state::action::{Action, PageAction};

/// Props of [`LayerLink`].
#[derive(Properties, PartialEq, Clone)]
pub struct LayerLinkProps {
    /// The layer's name.
    pub name: String,
    /// Its index in the network.
    pub index: usize,
}

/// The name as code, in a link to the layer table's row.
#[function_component(LayerLink)]
pub fn layer_link(props: &LayerLinkProps) -> Html {
    let app = use_app();
    let index = props.index;
    let onclick = Callback::from(move |e: MouseEvent| {
        if let Some(app) = &app {
            e.prevent_default();
            app.dispatch(Action::Page(PageAction::ShowLayer(index)));
        }
    });
    html! {
        <a class="layer-link" href="#layers" data-layer={index.to_string()} {onclick}
            title="Show this layer in the layer table"><code>{ props.name.clone() }</code></a>
    }
}
