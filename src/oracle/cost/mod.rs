//! What each strategy costs per iteration, from the checked inputs: the
//! per-layer cost table, the α-β network model and its collectives, split
//! sets, the pipeline partition, and the strategies of the contract's
//! table. Imports only [`crate::oracle::model`].

pub mod applied;
pub mod attention;
pub mod collectives;
pub mod communication;
pub mod derivation;
pub mod kernels;
pub mod layer_cost;
pub mod memory;
pub mod nccl;
pub mod partition;
pub mod saved;
pub mod split;
pub mod strategies;
pub mod table;
pub mod tensor;
pub mod terms;
pub mod times;
