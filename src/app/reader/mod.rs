//! The importers off the first view. Reading a file (an ONNX graph, a
//! `.keras` archive, Keras's JSON, a `.net` file or a JSON network) happens
//! in the Web Worker that the planner uses too (the `paradl-worker`
//! binary), so the page's own WebAssembly holds none of the readers
//! (protobuf, zip, Keras) and a visitor who never imports never downloads
//! them. [`protocol`] is the request, the reply and the one function that
//! answers (pure, tested natively); [`client`] runs a read in a worker and
//! hands its reply to the reducer.

pub mod client;
pub mod protocol;
