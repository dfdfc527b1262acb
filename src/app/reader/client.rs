//! The page's side of a read: a fresh worker gets the request and the
//! file's bytes once it says it is ready, and its reply (or why it could
//! not answer) goes to `ondone`. Dropping the returned thread terminates
//! the worker, which abandons the read.

use wasm_bindgen::prelude::JsValue;

use crate::app::planner::protocol::{self, Reply};
use crate::app::reader::protocol::{ReadReply, ReadRequest};
use crate::app::worker::thread::Thread;

/// Reads `bytes` as `request` asks in a worker; `ondone` gets the reply.
/// `None` (and a failed reply) when this browser cannot start a worker.
pub fn spawn(request: &ReadRequest, bytes: &[u8], ondone: impl Fn(ReadReply) + 'static) -> Option<Thread> {
    let id = request.id;
    let failed = move |message: &str| ReadReply::Failed {
        id,
        message: message.to_string(),
    };
    let message = js_sys::Array::of2(
        &JsValue::from_str(&protocol::write(request)),
        &js_sys::Uint8Array::from(bytes),
    );
    let ondone = std::rc::Rc::new(ondone);
    let onmessage = {
        let ondone = std::rc::Rc::clone(&ondone);
        move |worker: &web_sys::Worker, text: Option<String>| {
            let text = text.unwrap_or_default();
            if protocol::read::<Reply>(&text) == Ok(Reply::Ready) {
                if worker.post_message(&message).is_err() {
                    ondone(failed("the importers' worker could not be given the file"));
                }
                return;
            }
            let reply = protocol::read::<ReadReply>(&text)
                .unwrap_or_else(|e| failed(&format!("the importers' answer could not be read: {e}")));
            // a worker that could not read the request did not know its id: its
            // failure is this request's, or the page would wait for it forever
            ondone(match reply {
                ReadReply::Failed { message, .. } => failed(&message),
                read => read,
            });
        }
    };
    let onerror = {
        let ondone = std::rc::Rc::clone(&ondone);
        move || ondone(failed("the importers' worker failed to load or stopped"))
    };
    let thread = Thread::start(onmessage, onerror);
    if thread.is_none() {
        ondone(failed("this browser could not start a worker to read the file"));
    }
    thread
}
