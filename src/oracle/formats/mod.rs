//! File formats: the original ParaDL tool's `.net`, `.plat` and `.lc`
//! files, a JSON form of networks, clusters and runs, and ONNX graphs. Every reader is a
//! pure function from text to checked values whose errors carry a line and
//! column; every writer is its inverse.

pub mod json;
pub mod keras;
pub mod lc;
mod lines;
pub mod measured;
pub mod net;
pub mod network;
pub mod onnx;
pub mod plat;
pub mod profile;
pub mod records;
pub mod shared;
pub mod sizes;

pub use lines::parse_shape;

/// `dims` with trailing ones up to `rank` dimensions: a flat tensor of an
/// imported graph as `[N, 1, 1]`.
fn padded(dims: &[u64], rank: usize) -> Vec<u64> {
    let mut v = dims.to_vec();
    v.resize(rank.max(dims.len()), 1);
    v
}
