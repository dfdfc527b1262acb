//! Paste, upload or drop a ParaDL `.net` file, a JSON network or an ONNX
//! graph, with or without the `profile.json` measured for it; download
//! the current network.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::app::components::network::file_drop::{Reading, load};
use crate::app::components::use_app;
use crate::app::page::browser;
use crate::app::state::action::{Action, ModelAction};
use crate::oracle::formats;

/// The import box and the download buttons.
#[function_component(ModelImport)]
pub fn model_import() -> Html {
    let text = use_state(String::new);
    let shape = use_state(String::new);
    let reader: Reading = use_mut_ref(Vec::new);
    let export_error = use_state(|| None::<String>);
    let Some(state) = use_app() else {
        return html! {};
    };
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| text.set(e.target_unchecked_into::<HtmlTextAreaElement>().value()))
    };
    let onload = {
        let text = text.clone();
        state.callback(move |_: MouseEvent| Action::Model(ModelAction::Paste((*text).clone())))
    };
    let onfile = {
        let (state, shape, reader) = (state.clone(), shape.clone(), Rc::clone(&reader));
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            if let Some(list) = input.files() {
                load(list, (*shape).clone(), state.clone(), &reader);
            }
            // the picker shows no file once read: what became of it is said below (the network
            // it gave, or the error that kept the previous one), and the same file can be
            // picked again
            input.set_value("");
        })
    };
    let ondrop = {
        let (state, shape) = (state.clone(), shape.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if let Some(list) = e.data_transfer().and_then(|d| d.files()) {
                load(list, (*shape).clone(), state.clone(), &reader);
            }
        })
    };
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    let onshape = {
        let shape = shape.clone();
        Callback::from(move |e: InputEvent| shape.set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let export = |as_net: bool| {
        let (answer, export_error) = (state.answer.clone(), export_error.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(answer) = &answer else { return };
            let network = answer.scenario.network();
            let name = network.name().to_lowercase().replace(char::is_whitespace, "-");
            let written = if as_net {
                formats::net::write(network).map(|t| (format!("{name}.net"), t))
            } else {
                formats::json::write(&network.spec()).map(|t| (format!("{name}.json"), t))
            };
            match written {
                Ok((file, body)) => {
                    let _ = browser::download_text(&file, "text/plain", &body);
                    export_error.set(None)
                }
                Err(e) => export_error.set(Some(e.to_string())),
            }
        })
    };
    html! {
        <details class="import" id="model-import" {ondrop} {ondragover}>
            <summary>{ "Import or export a network" }</summary>
            <p class="quiet">{ "Drop an ONNX graph, a .keras model, a .net file or a JSON network (ours or Keras's) here, upload it, or paste a text format. Drop the model.onnx and profile.json that scripts/profile_torch.py writes together, or a profile.json alone onto the network it measured, to take the compute from your own measurement." }</p>
            <label for="model-text">{ "Paste a ParaDL .net file, a JSON network or a Keras model's JSON" }</label>
            <textarea id="model-text" rows="6" value={(*text).clone()} {oninput}
                placeholder={"Dataset|ImageNet\nInput|1280000x3x224x224\nModel|MyNet\nCONV1|3x224x224|3x64x7x7|64x112x112"} />
            <div class="row">
                <button type="button" id="model-load" onclick={onload}>{ "Load" }</button>
                <label class="file">{ "or upload " }<input type="file" id="model-file" multiple=true accept=".onnx,.keras,.net,.net_sc,.net_256,.json,.txt" onchange={onfile} /></label>
            </div>
            <div class="row">
                <label for="onnx-input-shape">{ "ONNX input shape (if its sizes are symbolic)" }</label>
                <input type="text" id="onnx-input-shape" placeholder="3x224x224" value={(*shape).clone()} oninput={onshape} />
            </div>
            if let Some(e) = &state.import_error { <p class="error" role="alert" id="import-error">{ e }</p> }
            if let Some(s) = &state.import_summary { <p class="source" id="import-summary">{ s }</p> }
            <div class="row">
                <span>{ "Download this network: " }</span>
                <button type="button" onclick={export(true)}>{ ".net" }</button>
                <button type="button" onclick={export(false)}>{ "JSON" }</button>
            </div>
            if let Some(e) = &*export_error { <p class="error" role="alert">{ e }</p> }
        </details>
    }
}
