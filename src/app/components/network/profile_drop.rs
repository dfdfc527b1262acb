//! `#profile-drop`: beside the network, where a measured profile
//! (`profile.json` from `scripts/profile_torch.py`, with or without its
//! `model.onnx`) is dropped or picked, and what it gave.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::app::components::network::file_drop::{Reading, load};
use crate::app::components::use_app;

/// The profile drop zone.
#[function_component(ProfileDrop)]
pub fn profile_drop() -> Html {
    let reader: Reading = use_mut_ref(Vec::new);
    let Some(state) = use_app() else {
        return html! {};
    };
    let onfile = {
        let (state, reader) = (state.clone(), reader.clone());
        Callback::from(move |e: Event| {
            if let Some(list) = e.target_unchecked_into::<HtmlInputElement>().files() {
                load(list, String::new(), state.clone(), &reader);
            }
        })
    };
    let ondrop = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if let Some(list) = e.data_transfer().and_then(|d| d.files()) {
            load(list, String::new(), state.clone(), &reader);
        }
    });
    let ondragover = Callback::from(|e: DragEvent| e.prevent_default());
    html! {
        <div id="profile-drop" class="drop" {ondrop} {ondragover}>
            <label for="profile-file">
                <strong>{ "Your own profile: " }</strong>
                { "drop the profile.json (and model.onnx) that scripts/profile_torch.py wrote here, or pick them " }
            </label>
            <input type="file" id="profile-file" multiple=true accept=".json,.onnx" onchange={onfile} />
        </div>
    }
}
