//! The network model: α-β parameters of rings and pairs, and the ring
//! collectives built on them; [`Fabric`] adds the realistic edition's
//! terms (Allreduce algorithm, NIC sharing, host-staged halos).

use super::nccl;
use super::terms::Terms;
use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::facts::AllreduceAlgorithm;

/// Latency `α` (s) and inverse bandwidth `β` (s per byte) of a ring or pair.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlphaBeta {
    /// Per-step latency in seconds.
    pub alpha_s: f64,
    /// Seconds per byte.
    pub beta_s_per_byte: f64,
}

/// α and β of a ring over `span_gpus` consecutive GPUs of `cluster` (GPUs
/// fill nodes in order) when `rings_per_node` rings leave each node at once.
///
/// # Formula
/// `p ≤ n`: `α = a_in`, `β = 1/bw_in`. Otherwise, with `N = ceil(p/n)`
/// nodes and `L` the latency of the innermost switch level whose span
/// covers `N` nodes plus twice each inner level's latency:
/// `α = max(a_in, 2·a_nic + L)`, `β = 1/min(bw_in, share)`,
/// `share = min(bw_nic, k_nic·bw_nic/f)`.
pub fn ring(cluster: &Cluster, span_gpus: u64, rings_per_node: u64) -> AlphaBeta {
    shared_ring(cluster, span_gpus, rings_per_node, 1)
}

/// [`ring`] when `nic_sharing` GPUs share each PCIe path to a NIC.
///
/// # Formula
/// As [`ring`], with `share = min(bw_nic, k_nic·bw_nic/f) / nic_sharing`
/// for a ring that leaves a node (contract, section 7).
pub fn shared_ring(cluster: &Cluster, span_gpus: u64, rings_per_node: u64, nic_sharing: u64) -> AlphaBeta {
    let s = cluster.spec();
    let links = Bandwidths {
        intra_node_bytes_per_s: s.intra_node.bandwidth_bytes_per_s,
        nic_bytes_per_s: s.nic.bandwidth_bytes_per_s,
    };
    ring_over(cluster, span_gpus, rings_per_node, nic_sharing, links)
}

/// The bandwidths a ring runs at: the links' (sections 4 and 7), or what
/// NCCL achieves over them (section 11).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bandwidths {
    /// `bw_in`, bytes/s.
    pub intra_node_bytes_per_s: f64,
    /// `bw_nic`, bytes/s.
    pub nic_bytes_per_s: f64,
}

/// [`shared_ring`] at the bandwidths `links`.
fn ring_over(cluster: &Cluster, span_gpus: u64, rings_per_node: u64, nic_sharing: u64, links: Bandwidths) -> AlphaBeta {
    let s = cluster.spec();
    if span_gpus <= s.gpus_per_node {
        return AlphaBeta {
            alpha_s: s.intra_node.latency_s,
            beta_s_per_byte: 1.0 / links.intra_node_bytes_per_s,
        };
    }
    let nodes = span_gpus.div_ceil(s.gpus_per_node);
    let mut inner_s = 0.0;
    let mut path_s = 0.0;
    for level in &s.switch_levels {
        path_s = level.latency_s + 2.0 * inner_s;
        if level.span_nodes.is_none_or(|span| span >= nodes) {
            break;
        }
        inner_s += level.latency_s;
    }
    let nic_bw = links.nic_bytes_per_s;
    let rings = rings_per_node.max(1) as f64;
    let share = nic_bw.min(s.nics_per_node as f64 * nic_bw / rings) / nic_sharing.max(1) as f64;
    AlphaBeta {
        alpha_s: s.intra_node.latency_s.max(2.0 * s.nic.latency_s + path_s),
        beta_s_per_byte: 1.0 / links.intra_node_bytes_per_s.min(share),
    }
}

/// α and β of a point-to-point pair of `cluster`.
///
/// # Formula
/// Inside a node the intra-node values; across nodes those of a ring
/// over `n + 1` GPUs.
pub fn pair(cluster: &Cluster, same_node: bool) -> AlphaBeta {
    let n = cluster.gpus_per_node();
    ring(cluster, if same_node { n } else { n + 1 }, 1)
}

/// Tree Allreduce of `bytes` among `members` (NCCL's double binary tree).
///
/// # Formula
/// `AR_tree(p, m) = 2·⌈log2 p⌉·α + 2·m·β`; 0 when `p ≤ 1`.
pub fn tree_allreduce(members: u64, bytes: f64, ab: AlphaBeta) -> f64 {
    if members <= 1 {
        return 0.0;
    }
    let depth = f64::from(u64::BITS - (members - 1).leading_zeros());
    2.0 * depth * ab.alpha_s + 2.0 * bytes * ab.beta_s_per_byte
}

/// The network of one cluster as one edition of the model sees it: the
/// ideal edition's rings and pairs, plus the section 7 terms in force.
#[derive(Debug, Clone, Copy)]
pub struct Fabric<'a> {
    cluster: &'a Cluster,
    terms: &'a Terms,
}

impl<'a> Fabric<'a> {
    /// The fabric of `cluster` under `terms`.
    pub fn new(cluster: &'a Cluster, terms: &'a Terms) -> Self {
        Self { cluster, terms }
    }

    /// The Allreduce algorithm in force.
    pub fn allreduce_algorithm(&self) -> AllreduceAlgorithm {
        self.terms.allreduce
    }

    /// A ring over `span_gpus` GPUs with `rings_per_node` rings leaving
    /// each node (see [`shared_ring`]; NIC sharing when in force, and
    /// NCCL's bus bandwidths in place of the links' when given).
    pub fn ring(&self, span_gpus: u64, rings_per_node: u64) -> AlphaBeta {
        ring_over(
            self.cluster,
            span_gpus,
            rings_per_node,
            self.terms.nic_sharing,
            self.bandwidths(),
        )
    }

    /// The bandwidths collectives run at: NCCL's bus bandwidths where given,
    /// else the links'.
    fn bandwidths(&self) -> Bandwidths {
        let s = self.cluster.spec();
        Bandwidths {
            intra_node_bytes_per_s: self
                .terms
                .intra_node_bus_bandwidth_bytes_per_s
                .unwrap_or(s.intra_node.bandwidth_bytes_per_s),
            nic_bytes_per_s: self
                .terms
                .nic_bus_bandwidth_bytes_per_s
                .unwrap_or(s.nic.bandwidth_bytes_per_s),
        }
    }

    /// A point-to-point pair (see [`pair`]; NIC sharing when in force).
    pub fn pair(&self, same_node: bool) -> AlphaBeta {
        let n = self.cluster.gpus_per_node();
        self.ring(if same_node { n } else { n + 1 }, 1)
    }

    /// The pair of a halo exchange among `parts` parts of a split.
    ///
    /// # Formula
    /// Host-staged halos (section 7): `α = latency_s`,
    /// `β = 2·q_node / pcie_bandwidth` with `q_node = min(q, n)`; else
    /// [`Fabric::pair`].
    pub fn halo_pair(&self, same_node: bool, parts: u64) -> AlphaBeta {
        match self.terms.halo_transport {
            Some(host) => {
                let per_host = parts.min(self.cluster.gpus_per_node()).max(1) as f64;
                AlphaBeta {
                    alpha_s: host.latency_s,
                    beta_s_per_byte: 2.0 * per_host / host.pcie_bandwidth_bytes_per_s,
                }
            }
            None => self.pair(same_node),
        }
    }

    /// An Allreduce of `bytes` among `members` over `ab` that are not
    /// consecutive GPUs (one per group of a hybrid), with the algorithm in
    /// force (hierarchical needs whole nodes of consecutive GPUs: a ring).
    ///
    /// # Formula
    /// Ring [`allreduce`], [`tree_allreduce`], or the smaller of the two
    /// (`best`).
    pub fn allreduce(&self, members: u64, bytes: f64, ab: AlphaBeta) -> f64 {
        match self.terms.allreduce {
            AllreduceAlgorithm::Ring | AllreduceAlgorithm::Hierarchical => allreduce(members, bytes, ab),
            AllreduceAlgorithm::Tree => tree_allreduce(members, bytes, ab),
            AllreduceAlgorithm::Best => allreduce(members, bytes, ab).min(tree_allreduce(members, bytes, ab)),
        }
    }

    /// An Allreduce of `bytes` over `gpus` consecutive GPUs (a ring of
    /// [`Fabric::ring`]), with the algorithm in force, hierarchical
    /// included.
    ///
    /// # Formula
    /// As [`Fabric::allreduce`]; hierarchical (section 9) when `gpus` fills
    /// `N = gpus/n > 1` whole nodes: `RS_in(n, m) + AR_x(N, m/n) + AG_in(n, m)`,
    /// inner ring of `n` GPUs; across the nodes, with the α, β of a ring over
    /// `gpus` with `f = n`, the smaller of a ring `AR(N, m')` and NCCL's
    /// double binary tree [`tree_allreduce`] `AR_tree(N, m')` (logarithmic
    /// latency at the ring's bandwidth), and, where the switches reduce
    /// (`in_network_reduction`), [`in_network_allreduce`] `2α + m'β`;
    /// otherwise a ring. `best` is NCCL's own choice ([`Fabric::nccl`],
    /// section 11), or the switches' reduction where it is less
    /// ([`Fabric::in_network`]).
    pub fn allreduce_consecutive(&self, gpus: u64, bytes: f64) -> f64 {
        let ring = || allreduce(gpus, bytes, self.ring(gpus, 1));
        match self.terms.allreduce {
            AllreduceAlgorithm::Ring => ring(),
            AllreduceAlgorithm::Tree => tree_allreduce(gpus, bytes, self.ring(gpus, 1)),
            AllreduceAlgorithm::Hierarchical => self.hierarchical(gpus, bytes).unwrap_or_else(ring),
            AllreduceAlgorithm::Best => {
                let nccl = self.nccl(gpus, bytes).map_or(0.0, |c| c.seconds);
                self.in_network(gpus, bytes).map_or(nccl, |sharp| nccl.min(sharp))
            }
        }
    }

    /// NCCL's own choice for an Allreduce of `bytes` over `gpus`
    /// consecutive GPUs ([`nccl::allreduce`]): `None` for one GPU.
    pub fn nccl(&self, gpus: u64, bytes: f64) -> Option<nccl::Candidate> {
        nccl::allreduce(self.nccl_shape(gpus), bytes)
    }

    /// The shape NCCL's model sees for `gpus` consecutive GPUs: the
    /// cluster's ring steps, and the bus bandwidth inside a node or, across
    /// nodes, the least of it and the node's NICs together.
    pub fn nccl_shape(&self, gpus: u64) -> nccl::Shape {
        let s = self.cluster.spec();
        let n = s.gpus_per_node.max(1);
        let nodes = gpus.div_ceil(n).max(1);
        let Bandwidths {
            intra_node_bytes_per_s: intra,
            nic_bytes_per_s: nic,
        } = self.bandwidths();
        let nics = s.nics_per_node.max(1) as f64 * nic / self.terms.nic_sharing.max(1) as f64;
        nccl::Shape {
            ranks: gpus,
            nodes,
            intra_step_s: s.intra_node.latency_s,
            inter_step_s: if nodes > 1 {
                self.ring(gpus, 1).alpha_s
            } else {
                s.intra_node.latency_s
            },
            bus_bytes_per_s: if nodes > 1 { intra.min(nics) } else { intra },
            architecture: self.cluster.device().map(|g| g.architecture),
        }
    }

    /// The hierarchical Allreduce reduced by the switches across the
    /// nodes, where they reduce (`in_network_reduction`) and `gpus` fills
    /// more than one whole node: `RS_in(n, m) + AR_sharp(m/n) + AG_in(n, m)`.
    pub fn in_network(&self, gpus: u64, bytes: f64) -> Option<f64> {
        if !self.terms.in_network_reduction {
            return None;
        }
        self.across_nodes(gpus, bytes, |_, share, rails| in_network_allreduce(share, rails))
    }

    /// The hierarchical Allreduce, when `gpus` fills more than one whole
    /// node (see [`Fabric::allreduce_consecutive`] for its formula).
    pub fn hierarchical(&self, gpus: u64, bytes: f64) -> Option<f64> {
        self.across_nodes(gpus, bytes, |nodes, share, rails| {
            let across = allreduce(nodes, share, rails).min(tree_allreduce(nodes, share, rails));
            if self.terms.in_network_reduction {
                across.min(in_network_allreduce(share, rails))
            } else {
                across
            }
        })
    }

    /// A reduce-scatter and an allgather inside each of the whole nodes
    /// `gpus` fills (more than one), and between them `across(N, m/n, rails)`
    /// on each GPU's rail (the α, β of a ring over `gpus` with `f = n`).
    fn across_nodes(&self, gpus: u64, bytes: f64, across: impl Fn(u64, f64, AlphaBeta) -> f64) -> Option<f64> {
        let n = self.cluster.gpus_per_node();
        if gpus <= n || !gpus.is_multiple_of(n) {
            return None;
        }
        let (inner, rails) = (self.ring(n, 1), self.ring(gpus, n));
        Some(2.0 * allgather(n, bytes, inner) + across(gpus / n, bytes / n as f64, rails))
    }

    /// ZeRO's reduce-scatter and allgather of `bytes` among `members` over
    /// `ab` (ring algorithms, section 9).
    ///
    /// # Formula
    /// `RS(d, m) + AG(d, m) = 2(d−1)(α + m·β/d)`.
    pub fn reduce_scatter_allgather(&self, members: u64, bytes: f64, ab: AlphaBeta) -> f64 {
        2.0 * allgather(members, bytes, ab)
    }
}

/// An Allreduce of `bytes` reduced by the switches (NVIDIA SHARP, NCCL's
/// CollNet): each member sends its bytes up the switch tree once and
/// receives the result once, whatever the number of members.
///
/// # Formula
/// `AR_sharp(m) = 2·α + m·β` (the data crosses each NIC once each way; `α`
/// the one-way latency of a message across the network).
pub fn in_network_allreduce(bytes: f64, ab: AlphaBeta) -> f64 {
    2.0 * ab.alpha_s + bytes * ab.beta_s_per_byte
}

/// Ring Allreduce of `bytes` among `members`.
///
/// # Formula
/// `AR(p, m) = 2(p−1)(α + m·β/p)`; 0 when `p ≤ 1`.
pub fn allreduce(members: u64, bytes: f64, ab: AlphaBeta) -> f64 {
    2.0 * allgather(members, bytes, ab)
}

/// Ring Allgather of a buffer of total size `bytes` among `members`.
///
/// # Formula
/// `AG(p, m) = (p−1)(α + m·β/p)`; 0 when `p ≤ 1`.
pub fn allgather(members: u64, bytes: f64, ab: AlphaBeta) -> f64 {
    if members <= 1 {
        return 0.0;
    }
    let p = members as f64;
    (p - 1.0) * (ab.alpha_s + bytes * ab.beta_s_per_byte / p)
}

/// Point-to-point transfer of `bytes`.
///
/// # Formula
/// `P2P(m) = α + m·β`.
pub fn p2p(bytes: f64, ab: AlphaBeta) -> f64 {
    ab.alpha_s + bytes * ab.beta_s_per_byte
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-30)
    }

    #[test]
    fn abci_rings_by_hand() {
        let abci = presets::cluster("abci").unwrap();
        let abci = &abci;
        // inside a node: NVLink
        let r = ring(abci, 4, 1);
        assert_eq!(r.alpha_s, 9e-6);
        assert!(close(r.beta_s_per_byte, 1.0 / 50e9));
        // 2 nodes under one leaf: 2·20.11 µs + 90 ns
        let r = ring(abci, 8, 1);
        assert!(close(r.alpha_s, 40.31e-6));
        assert!(close(r.beta_s_per_byte, 1.0 / 12.5e9));
        // 30 nodes: rack level, 90 ns + 2·90 ns
        let r = ring(abci, 120, 1);
        assert!(close(r.alpha_s, 40.22e-6 + 270e-9));
        // 256 nodes: spine, 400 ns + 2·(90 + 90) ns
        let r = ring(abci, 1024, 1);
        assert!(close(r.alpha_s, 40.22e-6 + 760e-9));
        // four rings leave each node through two NICs: half a NIC each
        let r = ring(abci, 1024, 4);
        assert!(close(r.beta_s_per_byte, 1.0 / 6.25e9));
        assert_eq!(pair(abci, true), ring(abci, 4, 1));
        assert_eq!(pair(abci, false), ring(abci, 5, 1));
    }

    #[test]
    fn collectives_by_hand() {
        let ab = AlphaBeta {
            alpha_s: 1e-6,
            beta_s_per_byte: 1e-9,
        };
        // AR(4, 1e6) = 2·3·(1e-6 + 1e6·1e-9/4) = 6·(2.51e-4)
        assert!(close(allreduce(4, 1e6, ab), 6.0 * 2.51e-4));
        assert!(close(allgather(4, 1e6, ab), 3.0 * 2.51e-4));
        assert!(close(p2p(1e6, ab), 1e-6 + 1e-3));
        assert_eq!(allreduce(1, 1e6, ab), 0.0);
        assert_eq!(allgather(0, 1e6, ab), 0.0);
        // tree: 2·⌈log2 5⌉·α + 2·m·β = 2·3·1e-6 + 2·1e-3
        assert!(close(tree_allreduce(5, 1e6, ab), 6e-6 + 2e-3));
        assert!(close(tree_allreduce(4, 1e6, ab), 4e-6 + 2e-3));
        assert!(close(tree_allreduce(2, 1e6, ab), 2e-6 + 2e-3));
        assert_eq!(tree_allreduce(1, 1e6, ab), 0.0);
    }

    #[test]
    fn section_7_terms_by_hand() {
        use crate::oracle::model::facts::HaloTransport;
        let abci = presets::cluster("abci").unwrap();
        let mut terms = Terms::ideal();
        terms.nic_sharing = 2;
        let fabric = Fabric::new(&abci, &terms);
        // a ring across nodes: a NIC's 12.5 GB/s shared by 2 GPUs
        assert!(close(fabric.ring(8, 1).beta_s_per_byte, 1.0 / 6.25e9));
        // inside a node nothing is shared
        assert!(close(fabric.ring(4, 1).beta_s_per_byte, 1.0 / 50e9));
        assert!(close(fabric.pair(false).beta_s_per_byte, 1.0 / 6.25e9));
        // host-staged halo among 8 parts, 4 per node: β = 2·4/16e9
        terms.halo_transport = Some(HaloTransport {
            latency_s: 3e-3,
            pcie_bandwidth_bytes_per_s: 16e9,
            chained: false,
        });
        let fabric = Fabric::new(&abci, &terms);
        let halo = fabric.halo_pair(false, 8);
        assert_eq!(halo.alpha_s, 3e-3);
        assert!(close(halo.beta_s_per_byte, 8.0 / 16e9));
        assert!(close(fabric.halo_pair(true, 2).beta_s_per_byte, 4.0 / 16e9));
        // best: tree wins for small messages over many GPUs, ring for large ones
        terms.allreduce = AllreduceAlgorithm::Best;
        let fabric = Fabric::new(&abci, &terms);
        let ab = AlphaBeta {
            alpha_s: 10e-6,
            beta_s_per_byte: 1e-10,
        };
        assert!(close(fabric.allreduce(1024, 1e3, ab), tree_allreduce(1024, 1e3, ab)));
        assert!(close(fabric.allreduce(4, 1e9, ab), allreduce(4, 1e9, ab)));
    }

    #[test]
    fn hierarchical_allreduce_by_hand() {
        // ABCI, 8 GPUs = 2 nodes of 4, m = 1e9 bytes. Inside: α = 9 µs, β = 1/50e9;
        // RS_in = AG_in = 3·(9 µs + 1e9/4/50e9) = 3·5.009 ms. Across the 2 nodes on
        // each rail, 4 rings leave a node through 2 NICs: β = 1/(2·12.5e9/4) = 1/6.25e9,
        // α = 2·20.11 µs + 90 ns = 40.31 µs; AR(2, 1e9/4) = 2·1·(40.31 µs + 2.5e8/2/6.25e9).
        let abci = presets::cluster("abci").unwrap();
        let mut terms = Terms::ideal();
        terms.allreduce = AllreduceAlgorithm::Hierarchical;
        let fabric = Fabric::new(&abci, &terms);
        let want = 2.0 * 3.0 * (9e-6 + 1e9 / 4.0 / 50e9) + 2.0 * (40.31e-6 + 2.5e8 / 2.0 / 6.25e9);
        assert!(close(fabric.allreduce_consecutive(8, 1e9), want));
        // not whole nodes, or one node: a ring
        let six = allreduce(6, 1e9, ring(&abci, 6, 1));
        assert!(close(fabric.allreduce_consecutive(6, 1e9), six));
        assert!(close(
            fabric.allreduce_consecutive(4, 1e9),
            allreduce(4, 1e9, ring(&abci, 4, 1))
        ));
        // best is NCCL's choice (section 11): its ring with Simple over 2 nodes, each
        // ring step's latency scaled from the cluster's, at the bus bandwidth of the node's
        // 2 NICs together (25e9, less than NVLink's 50e9)
        terms.allreduce = AllreduceAlgorithm::Best;
        let fabric = Fabric::new(&abci, &terms);
        let best = fabric.allreduce_consecutive(8, 1e9);
        let chosen = fabric.nccl(8, 1e9).unwrap();
        assert_eq!(
            (chosen.algorithm, chosen.protocol),
            (nccl::Algorithm::Ring, nccl::Protocol::Simple)
        );
        let (s_in, s_net) = (9e-6 / 3.4e-6, 40.31e-6 / 14e-6);
        let latency = 1.9 * (8.4e-6 + 12.0 * 3.4e-6 * s_in + 2.0 * 14e-6 * s_net);
        assert!(close(best, latency + 2.0 * 7.0 / 8.0 * 1e9 / 25e9), "{best}");
    }

    #[test]
    fn hierarchical_allreduce_crosses_many_nodes_by_a_tree() {
        // ABCI, 128 GPUs = 32 nodes of 4, m = 4e3 bytes. Inside: RS_in = AG_in =
        // 3·(9 µs + 4e3/4/50e9) = 27.06 µs. Across 32 nodes (a rack level, 270 ns of switches)
        // on each rail: α = 40.49 µs, β = 1/6.25e9, m' = 1e3 bytes; a ring takes
        // 2·31·(40.49 µs + 1e3/32/6.25e9) = 2.51069 ms, the double binary tree
        // 2·5·40.49 µs + 2·1e3/6.25e9 = 405.22 µs: the tree.
        let abci = presets::cluster("abci").unwrap();
        let mut terms = Terms::ideal();
        terms.allreduce = AllreduceAlgorithm::Hierarchical;
        let fabric = Fabric::new(&abci, &terms);
        let got = fabric.allreduce_consecutive(128, 4e3);
        assert!(close(got, 2.0 * 27.06e-6 + 405.22e-6), "{got}");
        // a large message crosses by the ring: m = 4e9, m' = 1e9
        let big = fabric.allreduce_consecutive(128, 4e9);
        let inside = 2.0 * 3.0 * (9e-6 + 4e9 / 4.0 / 50e9);
        let ring_across = 2.0 * 31.0 * (40.49e-6 + 1e9 / 32.0 / 6.25e9);
        assert!(close(big, inside + ring_across), "{big}");
    }
}
