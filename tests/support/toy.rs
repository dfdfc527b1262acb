//! A toy network and cluster small enough to project by hand (shared by
//! the engine's integration tests through `#[path]`).

use paradl::oracle::{
    Cluster, ClusterSpec, DatasetSpec, LayerKind, LayerSpec, LinkSpec, Network, NetworkSpec, Scenario, Shape,
    SwitchLevelSpec,
};

fn layer(name: &str, kind: LayerKind, x: &[u64], w: &[u64], y: &[u64], time_s: f64) -> LayerSpec {
    LayerSpec {
        name: name.into(),
        kind,
        x: Shape::new(x.to_vec()),
        w: Shape::new(w.to_vec()),
        y: Shape::new(y.to_vec()),
        time_s: Some(time_s),
        time2_s: None,
        groups: 1,
        bias: false,
        reads: None,
        function: None,
        shares: None,
    }
}

/// D = 1000 samples of 2x8x8; per-layer times 4, 1, 1, 2 ms (Σt = 8 ms);
/// A = 778 activation items per sample, W = 712 weights.
pub fn network() -> Network {
    Network::new(NetworkSpec {
        name: "Toy".into(),
        dataset: DatasetSpec {
            name: "Toy".into(),
            samples: 1000,
            sample_shape: [2, 8, 8].into(),
        },
        layers: vec![
            layer("CONV1", LayerKind::Conv, &[2, 8, 8], &[2, 4, 3, 3], &[4, 8, 8], 4e-3),
            layer("RELU", LayerKind::Relu, &[4, 8, 8], &[], &[4, 8, 8], 1e-3),
            layer("MPOOL", LayerKind::Maxpool, &[4, 8, 8], &[0, 0, 2, 2], &[4, 4, 4], 1e-3),
            layer("FC", LayerKind::Fc, &[4, 4, 4], &[4, 10, 4, 4], &[10, 1, 1], 2e-3),
        ],
        profiled_on: None,
        step: None,
    })
    .unwrap()
}

/// 2 GPUs per node linked at 1 GB/s and 1 µs; one 0.5 GB/s NIC per node
/// with 2 µs endpoint latency; a 2-node leaf of 100 ns under a 300 ns
/// spine; 1 GB per GPU; 64 GPUs.
pub fn cluster() -> Cluster {
    Cluster::new(ClusterSpec {
        name: "Toy".into(),
        source: "hand-made".into(),
        gpu: None,
        datasheet: None,
        gpu_flops_per_s: 1e12,
        gpu_memory_bytes: 1e9,
        gpus_per_node: 2,
        max_gpus: 64,
        intra_node: LinkSpec {
            bandwidth_bytes_per_s: 1e9,
            latency_s: 1e-6,
        },
        nic: LinkSpec {
            bandwidth_bytes_per_s: 0.5e9,
            latency_s: 2e-6,
        },
        nics_per_node: 1,
        switch_levels: vec![
            SwitchLevelSpec {
                name: "leaf".into(),
                span_nodes: Some(2),
                latency_s: 1e-7,
            },
            SwitchLevelSpec {
                name: "spine".into(),
                span_nodes: None,
                latency_s: 3e-7,
            },
        ],
        realistic: Default::default(),
        facility: Default::default(),
        gpu_flops_by_precision: Default::default(),
    })
    .unwrap()
}

pub fn scenario() -> Scenario {
    Scenario::new(network(), cluster())
}
