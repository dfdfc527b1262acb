//! The inputs of the model, checked: tensor shapes, layers, networks,
//! clusters, runs and strategies, with the typed errors and field paths of
//! everything invalid and the limits a configuration can break. This layer
//! imports nothing else of the engine.

pub mod checks;
pub mod cluster;
pub mod convergence;
pub mod devices;
pub mod edit;
pub mod edition;
pub mod energy;
pub mod errors;
pub mod factors;
pub mod facts;
pub mod field;
pub mod inventory;
pub mod layer;
pub mod measured;
pub(crate) mod names;
pub mod network;
pub mod practice;
pub mod run;
pub mod shape;
pub mod strategy;
pub mod text;
pub mod violation;
