//! The planner off the main thread: the page sends a [`protocol::Request`]
//! to a Web Worker running the engine ([`crate::app::worker`]), which
//! answers with progress and the plan; [`client`] spawns it, and cancels it
//! (by terminating it) when an input changes, so typing never waits on a
//! search.

pub mod client;
pub mod protocol;
