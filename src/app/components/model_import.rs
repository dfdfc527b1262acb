//! Paste or upload a ParaDL `.net` file or a JSON network; download the
//! current one.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::AppContext;
use crate::app::browser;
use crate::app::state::Action;
use crate::oracle::formats;

/// The import box and the download buttons.
#[function_component(ModelImport)]
pub fn model_import() -> Html {
    let text = use_state(String::new);
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    let export_error = use_state(|| None::<String>);
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| text.set(e.target_unchecked_into::<HtmlTextAreaElement>().value()))
    };
    let onload = {
        let (text, state) = (text.clone(), state.clone());
        Callback::from(move |_: MouseEvent| state.dispatch(Action::ImportModel((*text).clone())))
    };
    let onfile = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let Some(file) = input.files().and_then(|list| list.get(0)) else {
                return;
            };
            let state = state.clone();
            let task = gloo::file::callbacks::read_as_text(&gloo::file::File::from(file), move |read| {
                if let Ok(text) = read {
                    state.dispatch(Action::ImportModel(text));
                }
            });
            *reader.borrow_mut() = Some(task);
        })
    };
    let export = |as_net: bool| {
        let (view, export_error) = (state.view.clone(), export_error.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(view) = &view else { return };
            let network = view.scenario.network();
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
        <details class="import">
            <summary>{ "Import or export a network" }</summary>
            <label for="model-text">{ "Paste a ParaDL .net file or a JSON network" }</label>
            <textarea id="model-text" rows="6" value={(*text).clone()} {oninput}
                placeholder={"Dataset|ImageNet\nInput|1280000x3x224x224\nModel|MyNet\nCONV1|3x224x224|3x64x7x7|64x112x112"} />
            <div class="row">
                <button type="button" id="model-load" onclick={onload}>{ "Load" }</button>
                <label class="file">{ "or upload " }<input type="file" id="model-file" accept=".net,.net_sc,.net_256,.json,.txt" onchange={onfile} /></label>
            </div>
            if let Some(e) = &state.import_error { <p class="error" role="alert" id="import-error">{ e }</p> }
            <div class="row">
                <span>{ "Download this network: " }</span>
                <button type="button" onclick={export(true)}>{ ".net" }</button>
                <button type="button" onclick={export(false)}>{ "JSON" }</button>
            </div>
            if let Some(e) = &*export_error { <p class="error" role="alert">{ e }</p> }
        </details>
    }
}
