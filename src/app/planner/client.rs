//! The page's side of the planner: a hook that runs a request in a fresh
//! Web Worker and reports its status; a new request (or none) terminates
//! the worker of the last one, which cancels its search.

use std::rc::Rc;

use wasm_bindgen::prelude::JsValue;
use yew::prelude::*;

use crate::app::planner::protocol::{self, Reply, Request};
use crate::app::worker::thread::Thread;
use crate::oracle::Plan;

/// Where a search stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// No search asked for (the planner is closed).
    Off,
    /// The worker is loading.
    Starting,
    /// Configurations projected so far, of all.
    Running {
        done: usize,
        /// All.
        total: usize,
    },
    /// The search is over.
    Done(Rc<Plan>),
    /// It could not run, and why.
    Failed(String),
}

fn spawn(request: &Request, status: &UseStateHandle<Status>) -> Option<Thread> {
    let text = JsValue::from_str(&protocol::write(request));
    let onmessage = {
        let status = status.clone();
        move |worker: &web_sys::Worker, message: Option<String>| match message.map(|t| protocol::read::<Reply>(&t)) {
            Some(Ok(Reply::Ready)) => {
                if worker.post_message(&text).is_err() {
                    status.set(Status::Failed("The planner's worker could not be asked.".into()));
                }
            }
            Some(Ok(Reply::Progress { done, total })) => status.set(Status::Running { done, total }),
            Some(Ok(Reply::Done(plan))) => status.set(Status::Done(Rc::new(*plan))),
            Some(Ok(Reply::Failed(message))) => status.set(Status::Failed(message)),
            Some(Err(e)) => status.set(Status::Failed(format!("The planner's answer could not be read: {e}"))),
            None => status.set(Status::Failed("The planner's answer was not text.".into())),
        }
    };
    let onerror = {
        let status = status.clone();
        move || status.set(Status::Failed("The planner's worker failed to load or stopped.".into()))
    };
    let thread = Thread::start(onmessage, onerror);
    status.set(match thread {
        Some(_) => Status::Starting,
        None => Status::Failed("The planner could not start a worker in this browser.".into()),
    });
    thread
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
