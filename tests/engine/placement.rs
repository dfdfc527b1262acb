//! Placements: what each GPU holds and which collectives run among which
//! GPUs, checked against the cluster's layout and the projection's
//! seconds.
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::{Batch, CommKind, Placement, RunSpec, Scenario, Share, Strategy, presets};

fn place(s: &Scenario, strategy: Strategy, gpus: u64, group: Option<u64>) -> (Placement, RunSpec) {
    let mut spec = RunSpec::new(strategy, gpus, Batch::SamplesPerGpu(32.0));
    spec.group_size = group;
    (s.placement(&spec).unwrap(), spec)
}

/// The collectives' seconds add up, kind by kind, to the projection's
/// communication of one iteration.
fn adds_up(s: &Scenario, placement: &Placement, spec: &RunSpec) {
    let p = s.project(spec).unwrap();
    for kind in CommKind::ALL {
        let sum: f64 = placement
            .collectives
            .iter()
            .filter(|c| c.kind == kind)
            .map(|c| c.seconds)
            .sum();
        let want = p.communication.get(kind) / p.iterations as f64;
        assert!(
            (sum - want).abs() <= 1e-12 * want.max(1e-30),
            "{kind:?}: {sum} against {want}"
        );
    }
}

#[test]
fn data_parallelism_replicates_and_allreduces_across_nodes() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let (placement, spec) = place(&s, Strategy::Data, 64, None);
    assert_eq!((placement.nodes, placement.gpus_per_node), (16, 4));
    assert_eq!((placement.groups, placement.group_size), (64, 1));
    assert_eq!(placement.share, Share::Samples { samples: 32.0 });
    assert_eq!(placement.collectives.len(), 1);
    let ar = &placement.collectives[0];
    assert_eq!(ar.kind, CommKind::GradientAllreduce);
    assert_eq!(
        (ar.members, ar.span_gpus, ar.instances, ar.crosses_nodes),
        (64, 64, 1, true)
    );
    // every weight's gradient, 4 bytes each
    assert_eq!(ar.bytes, 4.0 * s.network().weight_items());
    assert_eq!(placement.node_of(5), 1);
    adds_up(&s, &placement, &spec);
    // inside one node nothing crosses
    let (inside, _) = place(&s, Strategy::Data, 4, None);
    assert!(!inside.collectives[0].crosses_nodes);
}

#[test]
fn a_hybrid_splits_inside_groups_and_exchanges_between_them() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let (placement, spec) = place(&s, Strategy::DataFilter, 64, Some(4));
    assert_eq!((placement.groups, placement.group_size), (16, 4));
    assert_eq!(placement.group_of(7), 1);
    let Share::Slices {
        axis,
        parts,
        split_layers,
        layers,
        samples,
    } = placement.share.clone()
    else {
        panic!("{:?}", placement.share);
    };
    assert_eq!((axis, parts, samples), ("filters", 4, 128.0));
    let convs = s.network().layers().iter().filter(|l| l.kind().is_conv()).count();
    assert_eq!((split_layers, layers), (convs, s.network().layers().len()));
    let layer = placement
        .collectives
        .iter()
        .find(|c| c.kind == CommKind::LayerCollectives)
        .unwrap();
    assert_eq!(
        (layer.members, layer.span_gpus, layer.instances, layer.crosses_nodes),
        (4, 4, 16, false)
    );
    let gradient = placement
        .collectives
        .iter()
        .find(|c| c.kind == CommKind::GradientAllreduce)
        .unwrap();
    assert_eq!(
        (
            gradient.members,
            gradient.span_gpus,
            gradient.instances,
            gradient.crosses_nodes
        ),
        (16, 64, 4, true)
    );
    adds_up(&s, &placement, &spec);
}

#[test]
fn a_pipeline_places_consecutive_stages_and_passes_between_neighbours() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let (placement, spec) = place(&s, Strategy::Pipeline, 8, None);
    let Share::Stages {
        stages,
        micro_batch,
        segments,
    } = placement.share.clone()
    else {
        panic!("{:?}", placement.share);
    };
    assert_eq!((stages.len(), segments, micro_batch), (8, 8, 32.0));
    assert_eq!(stages[0].first, 1);
    assert_eq!(stages[7].last, s.network().layers().len());
    assert!(stages.windows(2).all(|w| w[1].first == w[0].last + 1), "consecutive");
    assert_eq!(stages[0].first_name, s.network().layers()[0].name());
    let p2p = &placement.collectives[0];
    assert_eq!((p2p.kind, p2p.members, p2p.instances), (CommKind::PipelineP2p, 2, 7));
    adds_up(&s, &placement, &spec);
}

#[test]
fn spatial_slices_swap_halos_with_neighbours() {
    let s = presets::scenario("cosmoflow", "abci").unwrap();
    let spec = RunSpec::new(Strategy::Spatial, 16, Batch::MiniBatch(16));
    let placement = s.placement(&spec).unwrap();
    assert!(matches!(
        placement.share,
        Share::Slices {
            axis: "width",
            parts: 16,
            ..
        }
    ));
    let halo = placement.collectives.iter().find(|c| c.kind == CommKind::Halo).unwrap();
    assert_eq!((halo.members, halo.instances, halo.crosses_nodes), (2, 15, true));
    assert!(halo.bytes > 0.0);
    adds_up(&s, &placement, &spec);
}

#[test]
fn an_invalid_run_is_a_typed_error() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let mut spec = RunSpec::new(Strategy::DataSpatial, 64, Batch::SamplesPerGpu(32.0));
    spec.group_size = Some(5);
    assert!(s.placement(&spec).is_err());
}
