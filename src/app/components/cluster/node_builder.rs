//! `#node-builder`: a node built from any GPU the engine knows (a
//! workstation, one server): the GPU, how many, and how they are linked.
//! Building it picks the cluster of its key (`node:GPUS:LINK:GPU`), as a
//! preset is picked, so that a link carries three words, not a cluster.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::state::action::{Action, ClusterAction};
use crate::oracle::presets::devices::DEVICES;
use crate::oracle::presets::node::{
    MAX_NODE_GPUS, Node, NodeLink, geforce_without_p2p, nvlink_bytes_per_s, pcie_bus_bytes_per_s,
};
use crate::oracle::units;

/// What the builder holds before it is used: the GPU's name, the GPU
/// count as typed, the link.
#[derive(Clone, PartialEq)]
struct Draft {
    gpu: String,
    gpus: String,
    link: NodeLink,
}

/// The builder, open when the cluster shown is a node.
#[function_component(NodeBuilder)]
pub fn node_builder() -> Html {
    let app = use_app();
    let shown = app
        .as_ref()
        .and_then(|a| a.answer.as_ref())
        .and_then(|a| a.question().cluster.preset().and_then(|k| Node::parse(k).ok()));
    let draft = use_state(|| {
        shown.map_or(
            Draft {
                gpu: "RTX 4090".into(),
                gpus: "4".into(),
                link: NodeLink::Pcie4,
            },
            |n| Draft {
                gpu: n.gpu.name.into(),
                gpus: n.gpus.to_string(),
                link: n.link,
            },
        )
    });
    let Some(app) = app else { return html! {} };
    let gpus = draft.gpus.trim().parse::<u64>().unwrap_or(0);
    let node = Node::new(&draft.gpu, gpus, draft.link);
    let onuse = {
        let key = node.as_ref().ok().map(Node::key);
        let app = app.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(key) = key.clone() {
                app.dispatch(Action::Cluster(ClusterAction::Pick(key)));
            }
        })
    };
    let set = |change: fn(&mut Draft, String)| {
        let draft = draft.clone();
        move |value: String| {
            let mut next = (*draft).clone();
            change(&mut next, value);
            draft.set(next);
        }
    };
    let ongpu = {
        let set = set(|d, v| d.gpu = v);
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let oncount = {
        let set = set(|d, v| d.gpus = v);
        Callback::from(move |e: InputEvent| set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let onlink = {
        let set = set(|d, v| d.link = NodeLink::from_name(&v).unwrap_or(NodeLink::Pcie4));
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let device = DEVICES.iter().find(|d| d.name == draft.gpu);
    let links = NodeLink::ALL
        .into_iter()
        .filter(|l| *l != NodeLink::Nvlink || device.is_some_and(|d| nvlink_bytes_per_s(d).is_some()));
    let error = node.as_ref().err().map(ToString::to_string);
    let facts = device.map(|d| {
        format!(
            "{}: {} of memory, {} FP32 and {} FP16 tensor peak (datasheet; the model sustains half).{}",
            d.name,
            units::bytes(d.memory_bytes),
            units::flops(d.peaks.fp32),
            units::flops(d.peaks.fp16),
            match (geforce_without_p2p(d), pcie_bus_bytes_per_s(draft.link, !geforce_without_p2p(d))) {
                (true, Some(bus)) => format!(
                    " No peer-to-peer access between GeForce cards of this generation: NCCL goes through host memory, {} measured.",
                    units::bandwidth(bus)
                ),
                (false, Some(bus)) => format!(" NCCL reaches {} over this link (measured).", units::bandwidth(bus)),
                (_, None) => String::new(),
            }
        )
    });
    html! {
        <details id="node-builder" class="node-builder" open={shown.is_some()}>
            <summary>{ "Build a node from any GPU (a workstation, one server)" }</summary>
            <div class="field">
                <label for="node-gpu">{ "GPU" }</label>
                <select id="node-gpu" onchange={ongpu}>
                    { for DEVICES.iter().map(|d| html! { <option value={d.name} selected={d.name == draft.gpu}>{ d.name }</option> }) }
                </select>
            </div>
            <div class="field">
                <label for="node-gpus">{ "GPUs in the node" }</label>
                <input id="node-gpus" type="text" inputmode="numeric" size="3" value={draft.gpus.clone()}
                    aria-invalid={error.as_deref().is_some_and(|e| e.starts_with("gpus")).to_string()} oninput={oncount} />
                <small>{ format!("1 to {MAX_NODE_GPUS}") }</small>
            </div>
            <div class="field">
                <label for="node-link">{ "Linked by" }</label>
                <select id="node-link" onchange={onlink}>
                    { for links.map(|l| html! { <option value={l.name()} selected={l == draft.link}>{ l.label() }</option> }) }
                </select>
            </div>
            if let Some(facts) = facts { <p class="source">{ facts }</p> }
            if let Some(error) = error { <p class="error" role="alert">{ error }</p> }
            <button type="button" id="node-use" disabled={node.is_err()} onclick={onuse}>{ "Use this node" }</button>
        </details>
    }
}
