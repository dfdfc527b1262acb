//! What a projection reports: per-epoch times, memory, the limits broken
//! and the bottlenecks found, in data and plain sentences. Imports
//! [`crate::oracle::cost`] and [`crate::oracle::model`].

pub mod bottleneck;
pub mod energy;
pub mod explanation;
pub mod placement;
pub mod projection;
pub mod quantity;
pub mod sentence;
pub mod terms;
pub mod track_record;
pub mod training;
