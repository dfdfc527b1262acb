//! The page's side of the Web Worker (the `paradl-worker` binary, which
//! runs the planner's searches and reads imported files): starting one,
//! hearing what it posts, and terminating it when its handle is dropped.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{Event, MessageEvent, Worker};

/// The worker's script, beside the page (Trunk's loader for the
/// `paradl-worker` binary).
pub const WORKER_SCRIPT: &str = "./paradl-worker_loader.js";

/// A worker at work; dropping it terminates the worker.
pub struct Thread {
    worker: Worker,
    _onmessage: Closure<dyn FnMut(MessageEvent)>,
    _onerror: Closure<dyn FnMut(Event)>,
}

impl Drop for Thread {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl Thread {
    /// Starts a worker: `onmessage` hears each message it posts (its text,
    /// `None` when it is not text) with the worker to answer it, `onerror`
    /// that it failed to load or stopped.
    ///
    /// # Errors
    /// `None` when this browser cannot start a worker.
    pub fn start(
        mut onmessage: impl FnMut(&Worker, Option<String>) + 'static,
        mut onerror: impl FnMut() + 'static,
    ) -> Option<Self> {
        let worker = Worker::new(WORKER_SCRIPT).ok()?;
        let sender = worker.clone();
        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            onmessage(&sender, event.data().as_string());
        });
        let onerror = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            event.prevent_default();
            onerror();
        });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        Some(Self {
            worker,
            _onmessage: onmessage,
            _onerror: onerror,
        })
    }
}
