//! NCCL's own cost model of an Allreduce (contract, section 11), as NCCL
//! uses it to choose, for each message, an algorithm (ring, or the tree
//! across nodes) and a protocol (LL, LL128, Simple): the predicted time
//! `latency + bytes / algorithm bandwidth` of each, the least taken.
//!
//! Facts from NVIDIA/nccl at 5067397c (NCCL 2.30.7), `src/graph/tuning.cc`:
//! base latencies (lines 150-154), hardware latencies per link (157-175),
//! protocol and tree bandwidth corrections (326-335), the LL protocol's
//! largest bus bandwidth per GPU generation (177-183), bus to algorithm
//! bandwidth (376-382), the latency formulas (393-417) and the ring's
//! Simple latency at more than one node (647-650). The cluster's own
//! latencies set the scale: its ring step inside a node (`a_in`) stands
//! for NCCL's NVLink ring Simple step, its step between nodes
//! (`2·a_nic + L`) for NCCL's network ring Simple step, and each other
//! algorithm and protocol takes NCCL's ratio to those.

use crate::oracle::model::devices::Architecture;
use crate::oracle::model::names::named_enum;

named_enum! {
    /// An NCCL protocol.
    pub enum Protocol {
        /// Low latency: 8-byte stores with a flag, half the bandwidth.
        Ll => ("LL", "LL"),
        /// 128-byte lines with a flag (120 of 128 bytes data).
        Ll128 => ("LL128", "LL128"),
        /// Plain copies with a fence per chunk: full bandwidth.
        Simple => ("Simple", "Simple"),
    }
}

named_enum! {
    /// An NCCL Allreduce algorithm.
    pub enum Algorithm {
        /// Rings through every GPU (a channel per NIC).
        Ring => ("ring", "ring"),
        /// A chain inside each node and a double binary tree across nodes.
        Tree => ("tree", "tree"),
    }
}

/// NCCL's base latency (µs) of an algorithm with a protocol (LL, LL128,
/// Simple): tuning.cc lines 150-154.
const BASE_LATENCY_US: [[f64; 3]; 2] = [[6.6, 14.0, 8.4], [6.8, 14.0, 8.4]];

/// NCCL's latency (µs) of one step over NVLink, per algorithm (ring, tree)
/// and protocol: tuning.cc lines 159-162.
const NVLINK_LATENCY_US: [[f64; 3]; 2] = [[0.6, 1.9, 3.4], [0.6, 1.25, 4.0]];

/// NCCL's latency (µs) of one step through the network, per algorithm and
/// protocol: tuning.cc lines 171-174.
const NET_LATENCY_US: [[f64; 3]; 2] = [[2.7, 4.0, 14.0], [5.0, 8.5, 14.0]];

/// The LL protocol's largest bus bandwidth (GB/s) on 1, 2 and 4 or more
/// nodes, per GPU generation (Volta, Ampere, Hopper, Blackwell):
/// tuning.cc lines 177-183 (the multi-node columns: Intel hosts).
const LL_MAX_BUS_GB_PER_S: [[f64; 3]; 4] = [
    [39.0, 39.0, 20.4],
    [87.7, 22.5, 19.0],
    [141.0, 45.0, 35.0],
    [282.0, 90.0, 70.0],
];

/// NCCL's correction of the tree's bandwidth for medium messages, per
/// protocol (LL, LL128, Simple) and `⌊log2(bytes/64)⌋` from 0 to 22:
/// tuning.cc lines 620-627, applied at 639-642.
const TREE_CORRECTION: [[f64; 23]; 3] = [
    [
        1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.7, 0.7, 0.7, 0.7, 0.6, 0.5, 0.4, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.0, 1.0,
        1.0,
    ],
    [
        1.0, 1.0, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 1.0,
        1.0,
    ],
    [
        0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.7, 0.7, 0.8, 0.9,
        0.9,
    ],
];

/// The generation row of [`LL_MAX_BUS_GB_PER_S`] for `architecture`
/// (AMD's and unknown GPUs: Hopper's).
fn generation(architecture: Option<Architecture>) -> usize {
    use Architecture::*;
    match architecture {
        Some(Pascal | Volta | Turing) => 0,
        Some(AmpereGa100 | AmpereGa10x | Ada) => 1,
        Some(Blackwell | BlackwellGb20x) => 3,
        _ => 2,
    }
}

/// The shape of one Allreduce as NCCL sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    /// `p`: ranks.
    pub ranks: u64,
    /// `N`: nodes they span (NVLink domains).
    pub nodes: u64,
    /// The cluster's ring step inside a node (`a_in`), s.
    pub intra_step_s: f64,
    /// The cluster's ring step between nodes (`2·a_nic + L`), s.
    pub inter_step_s: f64,
    /// NCCL's bus bandwidth: inside a node, or, across nodes, the least of
    /// it and the node's NICs together (a channel per NIC), bytes/s.
    pub bus_bytes_per_s: f64,
    /// The GPU's architecture, for the LL protocol's largest bandwidth.
    pub architecture: Option<Architecture>,
}

/// One of NCCL's candidates, with its predicted time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub algorithm: Algorithm,
    pub protocol: Protocol,
    /// Its latency, s.
    pub latency_s: f64,
    /// Its algorithm bandwidth, bytes/s.
    pub algorithm_bytes_per_s: f64,
    /// `latency + bytes / algorithm bandwidth`, s.
    pub seconds: f64,
}

/// NCCL's predicted time of an Allreduce of `bytes` by `algorithm` with
/// `protocol` (`None`: the tree on one node, which NCCL does not run).
///
/// # Formula
/// With `s_in = a_in/3.4 µs` and `s_net = (2·a_nic+L)/14 µs` scaling NCCL's
/// step latencies `h` to the cluster's, `n = p/N`:
/// - ring: `lat = base + (2(p−1) − 2(N−1))·h_nvl·s_in + 2(N−1)·h_net·s_net`
///   (Simple across nodes ×1.4, before Ampere ×1.9); `busBw` ×0.5 (LL, at most the LL maximum)
///   or ×0.92 (LL128); `algBw = busBw·p/(2(p−1))`;
/// - tree (`N > 1`): `lat = base + 2((n−1)·h_nvl·s_in + ⌊log2 N⌋·h_net·s_net)`;
///   `busBw` ×0.92, then /3.8 (LL, at most the LL maximum) or ×120/128
///   (LL128); `algBw = busBw/2`, times NCCL's correction for medium
///   messages (0.4 to 1 by size and protocol);
///
/// time `= lat + bytes/algBw`.
pub fn candidate(shape: Shape, algorithm: Algorithm, protocol: Protocol, bytes: f64) -> Option<Candidate> {
    let p = shape.ranks.max(1) as f64;
    let nodes = shape.nodes.max(1);
    // rows of the tables: ring, tree; columns: LL, LL128, Simple
    let (a, i) = (algorithm as usize, protocol as usize);
    let generation = generation(shape.architecture);
    let s_in = shape.intra_step_s / (NVLINK_LATENCY_US[0][2] * 1e-6);
    let s_net = shape.inter_step_s / (NET_LATENCY_US[0][2] * 1e-6);
    let intra_s = NVLINK_LATENCY_US[a][i] * 1e-6 * s_in;
    let inter_s = NET_LATENCY_US[a][i] * 1e-6 * s_net;
    let base_s = BASE_LATENCY_US[a][i] * 1e-6;
    let column = match nodes {
        1 => 0,
        2 => 1,
        _ => 2,
    };
    let ll_max = LL_MAX_BUS_GB_PER_S[generation][column] * 1e9;
    let n = nodes as f64;
    let (latency_s, bus) = match algorithm {
        Algorithm::Ring => {
            let steps = 2.0 * (p - 1.0);
            let inter_steps = 2.0 * (n - 1.0);
            let mut latency_s = base_s + (steps - inter_steps) * intra_s + inter_steps * inter_s;
            if protocol == Protocol::Simple && nodes > 1 {
                // the ring's plateau: ×1.9 before Ampere, ×1.4 since
                latency_s *= if generation == 0 { 1.9 } else { 1.4 };
            }
            let bus = match protocol {
                Protocol::Ll => (shape.bus_bytes_per_s * 0.5).min(ll_max),
                Protocol::Ll128 => shape.bus_bytes_per_s * 0.92,
                Protocol::Simple => shape.bus_bytes_per_s,
            };
            (latency_s, bus * p / steps.max(1.0))
        }
        Algorithm::Tree => {
            if nodes < 2 {
                return None;
            }
            let per_node = (p / n).max(1.0);
            let depth = f64::from(u64::BITS - 1 - nodes.leading_zeros());
            let latency_s = base_s + 2.0 * ((per_node - 1.0) * intra_s + depth * inter_s);
            let bus = shape.bus_bytes_per_s * 0.92;
            let bus = match protocol {
                Protocol::Ll => (bus / 3.8).min(ll_max),
                Protocol::Ll128 => bus * 120.0 / 128.0,
                Protocol::Simple => bus,
            };
            let log_size = (bytes / 64.0).log2().floor();
            let correction = if (0.0..23.0).contains(&log_size) {
                TREE_CORRECTION[i][log_size as usize]
            } else {
                1.0
            };
            (latency_s, bus * 0.5 * correction)
        }
    };
    Some(Candidate {
        algorithm,
        protocol,
        latency_s,
        algorithm_bytes_per_s: bus,
        seconds: latency_s + bytes / bus,
    })
}

/// The protocols this model weighs: LL (small messages) and Simple
/// (large). LL128, NCCL's protocol of medium messages, is left out: there
/// NCCL's own model is 1.4 to 2.3 times faster than nccl-tests measures
/// (2 to 8 DGX H100 nodes, 2 to 16 MB, `tests/validation/nccl-allreduce-h100.csv`),
/// where LL and Simple time those sizes within 0.65-1.39.
pub const PROTOCOLS: [Protocol; 2] = [Protocol::Ll, Protocol::Simple];

/// Every candidate this model weighs for an Allreduce of `bytes`, ring
/// first, with the [`PROTOCOLS`].
pub fn candidates(shape: Shape, bytes: f64) -> Vec<Candidate> {
    weighed(shape, bytes).collect()
}

fn weighed(shape: Shape, bytes: f64) -> impl Iterator<Item = Candidate> {
    [Algorithm::Ring, Algorithm::Tree]
        .into_iter()
        .flat_map(|a| PROTOCOLS.map(move |p| (a, p)))
        .filter_map(move |(a, p)| candidate(shape, a, p, bytes))
}

/// The candidate NCCL runs: the least predicted time (0 for one rank).
///
/// # Formula
/// `min` over [`candidates`].
pub fn allreduce(shape: Shape, bytes: f64) -> Option<Candidate> {
    if shape.ranks <= 1 {
        return None;
    }
    weighed(shape, bytes).min_by(|a, b| a.seconds.total_cmp(&b.seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(ranks: u64, nodes: u64) -> Shape {
        Shape {
            ranks,
            nodes,
            intra_step_s: 3.4e-6,
            inter_step_s: 14e-6,
            bus_bytes_per_s: 368e9,
            architecture: Some(Architecture::Hopper),
        }
    }

    #[test]
    fn small_messages_take_the_tree_with_ll_at_nccls_own_latency() {
        // 16 nodes of 8: 6.8 + 2·(7·0.6 + 4·5.0) = 55.2 µs (NCCL's model; nccl#1469 measured ≈62)
        let best = allreduce(shape(128, 16), 8.0).unwrap();
        assert_eq!((best.algorithm, best.protocol), (Algorithm::Tree, Protocol::Ll));
        assert!((best.seconds - 55.2e-6).abs() < 0.1e-6, "{}", best.seconds);
    }

    #[test]
    fn large_messages_take_simple_at_the_bus_bandwidth() {
        let bytes = 8.0 * (1u64 << 30) as f64;
        let best = allreduce(shape(16, 2), bytes).unwrap();
        assert_eq!(best.protocol, Protocol::Simple);
        // ring: 2(p−1)/p · m / busBw, plus its latency
        let ring = candidate(shape(16, 2), Algorithm::Ring, Protocol::Simple, bytes).unwrap();
        let expected = 2.0 * 15.0 / 16.0 * bytes / 368e9;
        assert!((ring.seconds - ring.latency_s - expected).abs() < 1e-9);
        assert!(best.seconds <= ring.seconds);
    }

    #[test]
    fn one_node_has_no_tree_and_one_rank_no_exchange() {
        assert!(candidate(shape(8, 1), Algorithm::Tree, Protocol::Simple, 1e6).is_none());
        assert_eq!(candidates(shape(8, 1), 1e6).len(), 2);
        assert!(allreduce(shape(1, 1), 1e6).is_none());
        // a cluster's slower steps scale every latency
        let slow = Shape {
            intra_step_s: 6.8e-6,
            ..shape(8, 1)
        };
        let (a, b) = (
            candidate(shape(8, 1), Algorithm::Ring, Protocol::Ll, 8.0).unwrap(),
            candidate(slow, Algorithm::Ring, Protocol::Ll, 8.0).unwrap(),
        );
        assert!(((b.latency_s - 6.6e-6) / (a.latency_s - 6.6e-6) - 2.0).abs() < 1e-9);
    }
}
