//! The options of the network and cluster selects (the panels' and the
//! summary bar's): every preset, the current one chosen, and a node built
//! from a GPU as a choice of its own while it is shown.

use yew::prelude::*;

use crate::oracle::presets::{self, node::Node};

/// Every network preset, `current` (a key) chosen.
pub fn network_options(current: Option<&str>) -> Html {
    presets::NETWORKS
        .iter()
        .map(|p| html! { <option value={p.key} selected={current == Some(p.key)}>{ p.title }</option> })
        .collect()
}

/// Every cluster preset, `current` (a key) chosen; a node's key is an
/// option of its own.
pub fn cluster_options(current: Option<&str>) -> Html {
    let node = current
        .and_then(|k| Node::parse(k).ok())
        .map(|n| html! { <option value={n.key()} selected=true>{ n.title() }</option> });
    html! {
        <>
            { for presets::CLUSTERS.iter().map(|p| html! {
                <option value={p.key} selected={current == Some(p.key)}>{ p.title }</option>
            }) }
            { for node }
        </>
    }
}
