//! Shared weights (contract, section 10; issue 46): a tensor read by `k`
//! layers has the parameters, gradient bytes, optimizer bytes and gradient
//! exchange of one tensor, and the FLOPs of `k` uses.
#![cfg(not(target_arch = "wasm32"))]

use crate::toy;

use paradl::oracle::{
    Batch, CommKind, DatasetSpec, Edition, LayerKind, LayerSpec, Network, NetworkSpec, Optimizer, Precision,
    Projection, RunSpec, Scenario, Strategy, presets,
};

/// `k` 3x3 convolutions of [8, 8, 8] to [8, 8, 8], each reading the
/// network's input; `shared`: all with the first one's weights.
fn heads(k: usize, shared: bool) -> Network {
    let layers = (0..k)
        .map(|i| {
            let mut l = LayerSpec::plain(
                format!("HEAD{i}"),
                LayerKind::Conv,
                [8, 8, 8].into(),
                [8, 8, 3, 3].into(),
                [8, 8, 8].into(),
            );
            l.bias = true;
            l.reads = (i > 0).then(|| vec![-1]);
            l.shares = (shared && i > 0).then_some(0);
            l
        })
        .collect();
    Network::new(NetworkSpec {
        name: format!("heads{k}"),
        dataset: DatasetSpec {
            name: "d".into(),
            samples: 1024,
            sample_shape: [8, 8, 8].into(),
        },
        layers,
        profiled_on: None,
        step: None,
    })
    .unwrap()
}

/// One tensor: `8·8·3·3 + 8` parameters.
const ONE: f64 = 8.0 * 8.0 * 9.0 + 8.0;

fn project(network: Network, spec: &RunSpec) -> Projection {
    // the toy cluster of support/toy.rs
    Scenario::new(network, toy::scenario().cluster().clone())
        .project(spec)
        .unwrap()
}

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1e-300),
        "{what}: got {got:e}, want {want:e}"
    );
}

#[test]
fn k_uses_of_one_tensor_hold_and_exchange_one_tensor() {
    for k in [2, 3, 5] {
        let shared = heads(k, true);
        let own = heads(k, false);
        let one = heads(1, false);
        assert_eq!(shared.weight_items(), ONE, "k = {k}");
        assert_eq!(own.weight_items(), k as f64 * ONE);
        close(
            shared.forward_flops(),
            k as f64 * one.forward_flops(),
            "FLOPs of k uses",
        );
        let data = RunSpec {
            precision: Precision::Bf16,
            optimizer: Optimizer::Adam,
            ..RunSpec::new(Strategy::Data, 4, Batch::MiniBatch(16)).in_edition(Edition::Ideal)
        };
        let p = project(shared.clone(), &data);
        let single = project(one.clone(), &data);
        // bf16 Adam: 2 + 2 + 12 bytes a parameter, of one tensor
        assert_eq!(p.memory.weights_bytes, 2.0 * ONE);
        assert_eq!(p.memory.gradients_bytes, 2.0 * ONE);
        assert_eq!(p.memory.optimizer_bytes, 12.0 * ONE);
        // the gradient Allreduce of one tensor; the compute of k uses
        close(
            p.communication.get(CommKind::GradientAllreduce),
            single.communication.get(CommKind::GradientAllreduce),
            "Allreduce",
        );
        close(p.compute_s, k as f64 * single.compute_s, "compute");
        let unshared = project(own.clone(), &data);
        assert!(
            unshared.communication.get(CommKind::GradientAllreduce) > p.communication.get(CommKind::GradientAllreduce)
        );
        // ZeRO 3's shards and weight allgather, and the overlap's buckets: one tensor
        for spec in [
            RunSpec {
                zero: 3,
                ..data.clone()
            },
            RunSpec {
                overlap: true,
                ..data.clone()
            },
        ] {
            let p = project(shared.clone(), &spec);
            let single = project(one.clone(), &spec);
            assert_eq!(p.memory.optimizer_bytes, single.memory.optimizer_bytes);
            for kind in [CommKind::GradientAllreduce, CommKind::WeightAllgather] {
                let (got, want) = (p.communication.get(kind), single.communication.get(kind));
                // overlap hides part of the exchange behind k uses' backward pass: never more
                assert!(got <= want * (1.0 + 1e-9), "{kind:?}: {got:e} > {want:e}");
                if !spec.overlap {
                    close(got, want, "ZeRO 3");
                }
            }
        }
        // a filter split divides the one tensor
        let filter = RunSpec::new(Strategy::Filter, 2, Batch::MiniBatch(16)).in_edition(Edition::Ideal);
        assert_eq!(project(shared.clone(), &filter).memory.weights_bytes, 4.0 * ONE / 2.0);
        // a pipeline holds it in the stage of its first use: the largest stage holds at most one
        let pipeline = RunSpec::new(Strategy::Pipeline, 2, Batch::MiniBatch(16)).in_edition(Edition::Ideal);
        assert!(project(shared.clone(), &pipeline).memory.weights_bytes <= 4.0 * ONE);
    }
}

#[test]
fn the_kernels_compute_per_use_in_the_realistic_edition() {
    // today's GPU (kernel facts): every use reads the whole weight tensor
    let cluster = presets::cluster("abci").unwrap();
    let run = RunSpec {
        precision: Precision::Bf16,
        optimizer: Optimizer::Adam,
        ..RunSpec::new(Strategy::Data, 8, Batch::MiniBatch(64)).in_edition(Edition::Realistic)
    };
    let shared = Scenario::new(heads(4, true), cluster.clone()).project(&run).unwrap();
    let own = Scenario::new(heads(4, false), cluster).project(&run).unwrap();
    close(shared.compute_s, own.compute_s, "compute per use");
    assert!(shared.memory.weights_bytes < own.memory.weights_bytes);
    assert!(shared.communication_s < own.communication_s);
}
