//! The page's side of the planner: a hook that runs a request in a fresh
//! Web Worker and reports its status; a new request (or none) terminates
//! the worker of the last one, which cancels its search.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{Event, MessageEvent, Worker};
use yew::prelude::*;

use super::protocol::{self, Reply, Request};
use crate::oracle::Plan;

/// The worker's script, beside the page (Trunk's loader for the
/// `paradl-worker` binary).
pub const WORKER_SCRIPT: &str = "./paradl-worker_loader.js";

/// Where a search stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// No search asked for (the planner is closed).
    Off,
    /// The worker is loading.
    Starting,
    /// Configurations projected so far, of all.
    Running {
        /// Done.
        done: usize,
        /// All.
        total: usize,
    },
    /// The search is over.
    Done(Rc<Plan>),
    /// It could not run, and why.
    Failed(String),
}

/// A worker at work; dropping it terminates the worker.
struct Running {
    worker: Worker,
    _onmessage: Closure<dyn FnMut(MessageEvent)>,
    _onerror: Closure<dyn FnMut(Event)>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

fn spawn(request: &Request, status: &UseStateHandle<Status>) -> Option<Running> {
    let worker = match Worker::new(WORKER_SCRIPT) {
        Ok(worker) => worker,
        Err(_) => {
            status.set(Status::Failed(
                "The planner could not start a worker in this browser.".into(),
            ));
            return None;
        }
    };
    status.set(Status::Starting);
    let text = JsValue::from_str(&protocol::write(request));
    let sender = worker.clone();
    let onmessage = {
        let status = status.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let reply = event.data().as_string().map(|t| protocol::read::<Reply>(&t));
            match reply {
                Some(Ok(Reply::Ready)) => {
                    if sender.post_message(&text).is_err() {
                        status.set(Status::Failed("The planner's worker could not be asked.".into()));
                    }
                }
                Some(Ok(Reply::Progress { done, total })) => status.set(Status::Running { done, total }),
                Some(Ok(Reply::Done(plan))) => status.set(Status::Done(Rc::new(*plan))),
                Some(Ok(Reply::Failed(message))) => status.set(Status::Failed(message)),
                Some(Err(e)) => status.set(Status::Failed(format!("The planner's answer could not be read: {e}"))),
                None => status.set(Status::Failed("The planner's answer was not text.".into())),
            }
        })
    };
    let onerror = {
        let status = status.clone();
        Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            event.prevent_default();
            status.set(Status::Failed("The planner's worker failed to load or stopped.".into()));
        })
    };
    worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
    Some(Running {
        worker,
        _onmessage: onmessage,
        _onerror: onerror,
    })
}

/// Runs `request` in a worker (none: no search) and returns where it
/// stands; a changed request cancels the running search and starts anew.
#[hook]
pub fn use_planner(request: Option<Rc<Request>>) -> Status {
    let status = use_state(|| Status::Off);
    {
        let status = status.clone();
        use_effect_with(request, move |request| {
            let running = match request {
                Some(request) => spawn(request, &status),
                None => {
                    status.set(Status::Off);
                    None
                }
            };
            move || drop(running)
        });
    }
    (*status).clone()
}
