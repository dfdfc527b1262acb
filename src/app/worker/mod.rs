//! The Web Worker (the `paradl-worker` binary, built by Trunk as a worker):
//! it says it is ready, then answers each request. Text is a planner's
//! search, answered with progress and the plan; an array `[request, bytes]`
//! is a file to read, answered with the network or why not. A worker is
//! cancelled by terminating it, so it needs no way to stop a search.

pub mod thread;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::app::planner::protocol::{self, Reply, Request};
use crate::app::reader::protocol::{self as reading, ReadReply, ReadRequest};

fn post(scope: &DedicatedWorkerGlobalScope, text: &str) {
    // a page that went away cannot be told anything: nothing to do then
    let _ = scope.post_message(&JsValue::from_str(text));
}

/// Answers a read: `[request as JSON text, Uint8Array of the file]`.
fn read(message: &js_sys::Array) -> String {
    let request = message
        .get(0)
        .as_string()
        .ok_or_else(|| "the request is not text".to_string())
        .and_then(|text| protocol::read::<ReadRequest>(&text));
    let reply = match request {
        Ok(request) => {
            let bytes = js_sys::Uint8Array::new(&message.get(1)).to_vec();
            reading::answer(&request, &bytes)
        }
        Err(e) => ReadReply::Failed {
            id: 0,
            message: format!("the reader could not read the request: {e}"),
        },
    };
    protocol::write(&reply)
}

/// Runs in the worker: listens for requests and says it is ready.
pub fn start() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let replies = scope.clone();
    let onmessage = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let data = event.data();
        if let Some(message) = data.dyn_ref::<js_sys::Array>() {
            post(&replies, &read(message));
            return;
        }
        let text = data.as_string().unwrap_or_default();
        let reply = match protocol::read::<Request>(&text) {
            Ok(request) => protocol::answer(&request, |progress| post(&replies, &protocol::write(&progress))),
            Err(e) => Reply::Failed(format!("the planner could not read the request: {e}")),
        };
        post(&replies, &protocol::write(&reply));
    });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // the handler lives as long as the worker
    onmessage.forget();
    post(&scope, &protocol::write(&Reply::Ready));
}
