//! The planner's Web Worker (the `paradl-worker` binary, built by Trunk as
//! a worker): it says it is ready, then answers each request with progress
//! and the plan. A worker is cancelled by terminating it, so it needs no
//! way to stop a search.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use super::protocol::{self, Reply, Request};

fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply) {
    // a page that went away cannot be told anything: nothing to do then
    let _ = scope.post_message(&JsValue::from_str(&protocol::write(reply)));
}

/// Runs in the worker: listens for requests and says it is ready.
pub fn start() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let replies = scope.clone();
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        let reply = match protocol::read::<Request>(&text) {
            Ok(request) => protocol::answer(&request, |progress| post(&replies, &progress)),
            Err(e) => Reply::Failed(format!("the planner could not read the request: {e}")),
        };
        post(&replies, &reply);
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // the handler lives as long as the worker
    onmessage.forget();
    post(&scope, &Reply::Ready);
}
