//! Explanations against the projections they explain: every number's
//! explanation ends at the projection's own value, and its formula,
//! evaluated here by hand from the values the explanation lists,
//! gives that value again (so a wrong symbol, a missing term or a formula
//! that does not match the computation fails).
#![cfg(not(target_arch = "wasm32"))]

use paradl::oracle::{
    AllreduceAlgorithm, Batch, CommKind, Derivation, Edition, Explanation, Optimizer, Part, Precision, Projection,
    Quantity, RunSpec, Scenario, Strategy, Violation, presets,
};

fn close(a: f64, b: f64, what: &str) {
    let scale = a.abs().max(b.abs()).max(1e-300);
    assert!((a - b).abs() <= 1e-9 * scale, "{what}: {a} against {b}");
}

fn symbol(symbols: &[paradl::oracle::Symbol], name: &str) -> f64 {
    symbols
        .iter()
        .find(|s| s.symbol == name)
        .unwrap_or_else(|| panic!("no symbol {name} in {symbols:?}"))
        .value
}

fn every_quantity() -> Vec<Quantity> {
    let mut all = vec![
        Quantity::Total,
        Quantity::Compute,
        Quantity::Communication,
        Quantity::GpuHours,
        Quantity::Memory,
        Quantity::TimeToTrain,
        Quantity::Energy,
        Quantity::Carbon,
        Quantity::Cost,
    ];
    all.extend(CommKind::ALL.map(Quantity::Kind));
    all.extend(Part::ALL.map(Quantity::Part));
    all
}

/// A per-iteration communication term evaluated from its own symbols.
fn evaluate(term: &Derivation, ideal_ring: bool) -> Option<f64> {
    let s = |name: &str| symbol(&term.symbols, name);
    let f = term.formula;
    let ring = |d: f64, m: f64| 2.0 * (d - 1.0).max(0.0) * (s("α") + m * s("β") / d);
    Some(if f.starts_with("AR(d, m)") || f.starts_with("RS(d, m)") {
        if s("d") <= 1.0 { 0.0 } else { ring(s("d"), s("m")) }
    } else if f.starts_with("AG(d, m)") {
        ring(s("d"), s("m")) / 2.0
    } else if f.starts_with("AR_tree") {
        2.0 * s("d").log2().ceil() * s("α") + 2.0 * s("m") * s("β")
    } else if f.starts_with("inside each group") {
        if !ideal_ring {
            return None;
        }
        if s("p2") <= 1.0 { 0.0 } else { ring(s("p2"), s("m")) }
    } else if f.starts_with("Σ_{l∈Sp, global}") {
        // a token split's keys and values, gathered forward and scattered back
        2.0 * (s("p2") - 1.0) * (s("L") * s("α") + s("δ") * s("B_g") * s("β") * s("Σ|o_l|") / s("p2"))
    } else if f.starts_with("2·Σ_{rows}") {
        // a transformer's blocks: two ring Allreduces a row
        if !ideal_ring {
            return None;
        }
        4.0 * (s("p2") - 1.0) * (s("L") * s("α") + s("B_g") * s("δ") * s("β") * s("Σ|y_l|") / s("p2"))
    } else if f.starts_with("Σ_{l∈Sp, K>1} 2(p2−1)") {
        2.0 * (s("p2") - 1.0) * (s("L") * s("α") + s("B_g") * s("δ") * s("β") * s("Σh_x"))
    } else if f.starts_with("Σ_{l∈Sp, K>1}") {
        4.0 * s("L") * s("α") + 2.0 * s("B_g") * s("δ") * s("β") * s("Σ(h_x + h_y)")
    } else if f.starts_with("3(p2−1)") {
        3.0 * (s("p2") - 1.0) * (s("L") * s("α") + s("B_g") * s("δ") * s("β") * s("Σ|y_l|") / s("p2"))
    } else if f.starts_with("2·AG(p2") {
        2.0 * (s("p2") - 1.0) * (s("α") + s("δ") * s("B_g") * s("|y_last|") * s("β") / s("p2"))
    } else if f.starts_with("2(p+S−2)") {
        2.0 * (s("p") + s("S") - 2.0) * (s("α") + s("B/S") * s("δ") * s("|y_i|") * s("β"))
    } else if f.starts_with("exposed") {
        let backward = s("c") * if f.ends_with("3/4·c") { 0.75 } else { 2.0 / 3.0 };
        close(s("T_bw"), backward, "the backward share");
        // the last bucket leaves with the first layers' gradients, at the backward pass's end
        assert!(s("e_K") >= s("T_bw") + s("T_K") * (1.0 - 1e-9), "{f}");
        assert!(s("K") >= 1.0, "{f}");
        s("T_ex").min((s("e_K") - backward).max(0.0))
    } else if f.starts_with("the least of") {
        // the candidates are listed: the least of them
        let candidates = ["AR_ring", "AR_tree", "AR_hier"];
        let listed: Vec<f64> = term
            .symbols
            .iter()
            .filter(|s| candidates.contains(&s.symbol))
            .map(|s| s.value)
            .collect();
        assert!(listed.len() >= 2, "{f}: {:?}", term.symbols);
        if s("d") > 1.0 {
            close(listed[0], ring(s("d"), s("m")), "the ring candidate");
        }
        listed.into_iter().fold(f64::INFINITY, f64::min)
    } else if f.starts_with("NCCL's choice") {
        // NCCL's candidates (and the switches' reduction) are listed: the least of them
        let listed: Vec<f64> = term
            .symbols
            .iter()
            .filter(|s| s.symbol.starts_with("AR_"))
            .map(|s| s.value)
            .collect();
        assert!(listed.len() >= 2, "{f}: {:?}", term.symbols);
        listed.into_iter().fold(f64::INFINITY, f64::min)
    } else {
        // the hierarchical Allreduce over whole nodes: not one ring
        return None;
    })
}

/// The compute term of one iteration evaluated from its symbols.
fn evaluate_compute(term: &Derivation) -> f64 {
    let s = |name: &str| symbol(&term.symbols, name);
    match term.formula {
        f if f.starts_with("c = (B/p)") => s("B/p") * s("Σt"),
        f if f.starts_with("c = B_g") => s("B_g") * s("t_split"),
        f if f.starts_with("c = (p+S−1)") => (s("p") + s("S") - 1.0) * s("B/S") * s("max_i T_i"),
        f => panic!("unknown compute formula {f}"),
    }
}

fn check_part(e: &Explanation, part: Part, spec: &RunSpec) {
    let s = |name: &str| symbol(&e.symbols, name);
    let sharded = |stage: u8| if s("z") >= f64::from(stage) { s("d") } else { 1.0 };
    // section 11's accounting lists the bytes autograd saves and the largest layer
    let autograd = e
        .symbols
        .iter()
        .any(|sym| sym.symbol == "a" || sym.symbol == "max_l(|x_l| + |y_l|)");
    let want = match part {
        Part::Weights => s("h") * s("W") / sharded(3),
        Part::Gradients => s("h") * s("W") / sharded(2),
        Part::Optimizer => {
            let master = if spec.precision.is_mixed() && spec.optimizer != Optimizer::None {
                s("δ")
            } else {
                0.0
            };
            (master + s("s") * s("δ")) * s("W") / sharded(1)
        }
        // section 11: the bytes per sample autograd saves
        Part::Activations if autograd => s("B_g") * s("a"),
        Part::Activations => 2.0 * s("h") * s("B_g") * s("A"),
        Part::Transient if autograd => s("h") * s("B_g") * s("max_l(|x_l| + |y_l|)"),
        Part::Transient => 0.0,
        Part::Reserved | Part::Workspace | Part::Allocator => return,
    };
    close(e.result, want, &format!("{part:?} from its symbols"));
}

/// Checks every number of `spec`'s projection; returns the figures of its
/// findings checked, by kind of quantity (`Quantity::key` without its
/// argument).
fn check(scenario: &Scenario, spec: &RunSpec) -> Vec<String> {
    let p: Projection = scenario.project(spec).unwrap();
    let what = format!("{} at {} GPUs ({:?})", spec.strategy, spec.gpus, spec.edition);
    let ideal_ring = spec.edition == Edition::Ideal;
    for quantity in every_quantity() {
        let e = scenario.explain(spec, quantity).unwrap();
        let want = match quantity {
            Quantity::Total => p.total_s,
            Quantity::Compute => p.compute_s,
            Quantity::Communication => p.communication_s,
            Quantity::Kind(k) => p.communication.get(k),
            Quantity::GpuHours => p.gpu_hours,
            Quantity::Memory => p.memory_bytes,
            Quantity::Part(part) => p.memory.get(part),
            Quantity::TimeToTrain => p.training.time_s,
            Quantity::Energy => p.energy.as_ref().map_or(f64::NAN, |e| e.train_kwh),
            Quantity::Carbon => p.energy.as_ref().map_or(f64::NAN, |e| e.train_co2_kg),
            Quantity::Cost => p.energy.as_ref().map_or(f64::NAN, |e| e.train_usd),
            Quantity::Bound(_) | Quantity::FitOption(_) | Quantity::Edition(_) => unreachable!("{quantity:?}"),
        };
        assert_eq!(e.result.to_bits(), want.to_bits(), "{what}: {quantity:?}");
        assert!(!e.sections.is_empty() && e.title.contains(&spec.gpus.to_string()));
        let what = format!("{what}: {}", quantity.key());
        let steps: f64 = e.steps.iter().map(|s| s.value).sum();
        match quantity {
            Quantity::Total | Quantity::Communication | Quantity::Memory => close(e.result, steps, &what),
            Quantity::GpuHours => close(
                e.result,
                symbol(&e.symbols, "T") * symbol(&e.symbols, "p") / 3600.0,
                &what,
            ),
            Quantity::Compute => {
                let s = |n: &str| symbol(&e.symbols, n);
                close(
                    e.result,
                    s("κ_comp") * (s("D") / s("B") * s("c") + s("I") * s("WU")),
                    &what,
                );
                assert_eq!(e.terms.len(), 1, "{what}");
                close(evaluate_compute(&e.terms[0]), s("c"), &what);
            }
            Quantity::Kind(kind) => {
                let s = |n: &str| symbol(&e.symbols, n);
                close(e.result, s("κ_comm") * s("I") * s("t_k"), &what);
                let (overlap, exchange): (Vec<_>, Vec<_>) =
                    e.terms.iter().partition(|t| t.formula.starts_with("exposed"));
                if s("t_k") != 0.0 || !exchange.is_empty() {
                    let sum: f64 = exchange.iter().map(|t| t.value).sum();
                    match overlap.first() {
                        Some(o) => {
                            close(o.value, s("t_k"), &what);
                            close(symbol(&o.symbols, "T_ex"), sum, &what);
                        }
                        None => close(sum, s("t_k"), &what),
                    }
                }
                for term in &e.terms {
                    if let Some(v) = evaluate(term, ideal_ring) {
                        close(v, term.value, &format!("{what}: {}", term.formula));
                    }
                }
                if s("t_k") == 0.0 {
                    assert!(e.terms.is_empty(), "{what}: a kind that costs nothing has no term");
                }
                let _ = kind;
            }
            Quantity::Part(part) => check_part(&e, part, spec),
            Quantity::TimeToTrain => {
                // epochs to converge at the global batch, times the epoch
                close(e.result, symbol(&e.symbols, "E(B)") * symbol(&e.symbols, "T"), &what);
                assert_eq!(symbol(&e.symbols, "B"), p.mini_batch as f64, "{what}");
                assert_eq!(e.sections, [13], "{what}");
            }
            // a cluster whose GPU has no rated board power: none, said
            Quantity::Energy | Quantity::Carbon | Quantity::Cost if p.energy.is_none() => {
                assert!(e.formula.starts_with("not known"), "{what}");
            }
            Quantity::Energy => {
                // the contract's formula from the explanation's own values
                let s = |n: &str| symbol(&e.symbols, n);
                let epoch_j = s("p") * s("P_busy") * s("t_c")
                    + s("p") * s("P_wait") * (s("T") - s("t_c"))
                    + s("N") * s("P_other") * s("T");
                close(e.result, s("E(B)") * s("PUE") * epoch_j / 3.6e6, &what);
                // the epoch's parts add up to the epoch
                let parts: f64 = e.steps[..4].iter().map(|s| s.value).sum();
                close(parts, e.steps[4].value, &what);
                close(e.result, s("E(B)") * e.steps[4].value, &what);
                assert!(e.note.as_deref().unwrap_or("").contains("board power"), "{what}");
                assert_eq!(e.sections, [14], "{what}");
            }
            Quantity::Carbon => {
                let s = |n: &str| symbol(&e.symbols, n);
                close(e.result, s("E_train") * s("I") / 1000.0, &what);
            }
            Quantity::Cost => {
                let s = |n: &str| symbol(&e.symbols, n);
                let want = if e.formula.starts_with("cost = T_train") {
                    s("T_train") * s("p") / 3600.0 * s("price")
                } else {
                    s("E_train") * s("tariff")
                };
                close(e.result, want, &what);
            }
            Quantity::Bound(_) | Quantity::FitOption(_) | Quantity::Edition(_) => unreachable!("{quantity:?}"),
        }
    }
    check_figures(scenario, spec, &p)
}

/// Every number a finding writes (a layer's name aside) opens an
/// explanation that shows it: a
/// bound's explanation its count and bound, an option's the memory of the
/// run with the change, the memory's its total, capacity and share, the
/// epoch's the communication's share of it; and the other edition's epoch
/// is that edition's projection.
fn check_figures(scenario: &Scenario, spec: &RunSpec, p: &Projection) -> Vec<String> {
    let mut checked = Vec::new();
    for finding in &p.bottlenecks {
        assert_eq!(finding.sentence.to_string(), finding.message);
        // a layer's name is a name: its digits are no figure
        let in_names: usize = finding
            .sentence
            .pieces()
            .iter()
            .map(|piece| match piece {
                paradl::oracle::Piece::Name(name, _) => name.chars().filter(char::is_ascii_digit).count(),
                _ => 0,
            })
            .sum();
        let digits = finding.message.chars().filter(char::is_ascii_digit).count() - in_names;
        let in_figures: usize = finding
            .sentence
            .figures()
            .map(|f| f.text.chars().filter(char::is_ascii_digit).count())
            .sum();
        assert_eq!(digits, in_figures, "every digit is in a figure: {}", finding.message);
        for figure in finding.sentence.figures() {
            checked.push(figure.quantity.key().split('-').next().unwrap_or_default().to_string());
            let e = scenario.explain(spec, figure.quantity).unwrap();
            let what = format!("{} in {:?}", figure.text, finding.message);
            let s = |n: &str| symbol(&e.symbols, n);
            match figure.quantity {
                Quantity::Bound(_) => {
                    assert!(figure.value == s("n") || figure.value == s("n_max"), "{what}");
                    close(e.result, s("n"), &what);
                }
                Quantity::FitOption(_) => {
                    close(e.result, figure.quantity.of(p), &what);
                    assert!(e.title.contains(" with "), "{what}: {}", e.title);
                }
                Quantity::Memory => {
                    assert!(
                        [e.result, s("M"), e.result / s("M")]
                            .iter()
                            .any(|v| (v - figure.value).abs() <= 1e-9 * v.abs()),
                        "{what}"
                    );
                }
                Quantity::Total => {
                    let comm: f64 = e
                        .steps
                        .iter()
                        .filter(|s| s.explains.as_deref() == Some("communication"))
                        .map(|s| s.value)
                        .sum();
                    close(comm / e.result, figure.value, &what);
                }
                Quantity::Part(part) => close(e.result, p.memory.get(part), &what),
                Quantity::Communication | Quantity::Compute => assert!(figure.value.is_finite(), "{what}"),
                Quantity::TimeToTrain => assert!(
                    [e.result, s("E(B)"), s("B"), s("B_n"), s("e_n")]
                        .iter()
                        .any(|v| (v - figure.value).abs() <= 1e-9 * v.abs()),
                    "{what}"
                ),
                other => panic!("{what}: {other:?}"),
            }
        }
    }
    for edition in [Edition::Ideal, Edition::Realistic] {
        let e = scenario.explain(spec, Quantity::Edition(edition)).unwrap();
        let there = scenario.project(&spec.clone().in_edition(edition)).unwrap();
        assert_eq!(e.result.to_bits(), there.total_s.to_bits(), "{edition}");
        assert!(e.title.contains(edition.name()), "{}", e.title);
    }
    checked
}

fn specs(template: &RunSpec, gpus: u64) -> Vec<RunSpec> {
    let mut all = Vec::new();
    for strategy in Strategy::ALL.into_iter().filter(|s| s.applies_at(gpus)) {
        let mut spec = template.for_strategy(strategy, gpus);
        if strategy.is_hybrid() {
            spec.group_size = Some(gpus.min(4));
        }
        if strategy == Strategy::Pipeline {
            spec.segments = Some(gpus * 4);
        }
        all.push(spec.clone());
        for edition in [Edition::Ideal, Edition::Realistic] {
            all.push(spec.clone().in_edition(edition));
        }
        if strategy.has_data_dimension() {
            for zero in 1..=3 {
                all.push(RunSpec {
                    zero,
                    precision: Precision::Bf16,
                    optimizer: Optimizer::Adam,
                    overlap: true,
                    ..spec.clone()
                });
            }
        }
        all.push(RunSpec {
            recompute: true,
            overlap: true,
            ..spec
        });
    }
    all
}

#[test]
fn every_number_of_resnet50_on_abci_is_explained_by_its_formula() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let template = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
    let mut checked = Vec::new();
    for gpus in [1, 8, 64] {
        for spec in specs(&template, gpus) {
            checked.extend(check(&s, &spec));
        }
    }
    for kind in ["bound", "fit", "memory", "total", "communication", "compute"] {
        assert!(
            checked.iter().any(|k| k == kind),
            "a finding's figure explained by {kind}"
        );
    }
}

#[test]
fn every_number_of_a_vision_transformer_is_explained_by_its_formula() {
    // a token split's gathered keys and values, a block split's Allreduces (section 15)
    let s = presets::scenario("vit-b16", "abci").unwrap();
    let template = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
    let mut checked = Vec::new();
    for gpus in [1, 8, 64] {
        for spec in specs(&template, gpus) {
            checked.extend(check(&s, &spec));
        }
    }
    assert!(checked.iter().any(|k| k == "communication"), "{checked:?}");
    let spatial = s.project(&template.at(Strategy::Spatial, 8)).unwrap();
    assert!(spatial.communication.get(paradl::oracle::CommKind::KeyValue) > 0.0);
}

#[test]
fn a_batch_past_the_largest_that_converged_is_a_finding_explained_by_the_time_to_train() {
    let s = presets::scenario("resnet50", "dgx-h100").unwrap();
    let mut template = RunSpec::new(Strategy::Data, 1024, Batch::SamplesPerGpu(128.0));
    template.convergence = Some(paradl::oracle::model::convergence::Convergence::Curve(
        "mlperf-resnet50".into(),
    ));
    let checked = check(&s, &template);
    assert!(checked.iter().any(|k| k == "to"), "{checked:?}");
    let p = s.project(&template).unwrap();
    let finding = p
        .bottlenecks
        .iter()
        .find(|f| matches!(f.detail, paradl::oracle::FindingDetail::PastConvergedBatch { .. }))
        .expect("the finding");
    assert!(
        finding
            .message
            .starts_with("A global batch of 131072 is past the largest that converged"),
        "{}",
        finding.message
    );
    // within the reference points: no such finding
    template.batch = Batch::SamplesPerGpu(32.0);
    let inside = s.project(&template).unwrap();
    assert!(
        !inside
            .bottlenecks
            .iter()
            .any(|f| matches!(f.detail, paradl::oracle::FindingDetail::PastConvergedBatch { .. }))
    );
}

#[test]
fn spatial_halos_and_gathers_of_cosmoflow_are_explained() {
    let s = presets::scenario("cosmoflow", "abci").unwrap();
    let template = RunSpec::new(Strategy::Spatial, 16, Batch::MiniBatch(16));
    for spec in specs(&template, 16) {
        check(&s, &spec);
    }
    // the halo and the gather are there to explain
    let halo = s.explain(&template, Quantity::Kind(CommKind::Halo)).unwrap();
    assert!(halo.result > 0.0 && halo.terms.len() == 1);
}

#[test]
fn the_other_allreduce_algorithms_are_named() {
    let mut cluster = presets::cluster("abci").unwrap().spec().clone();
    for algorithm in [
        AllreduceAlgorithm::Tree,
        AllreduceAlgorithm::Hierarchical,
        AllreduceAlgorithm::Best,
    ] {
        cluster.realistic.allreduce = Some(algorithm);
        let s = Scenario::new(
            presets::network("resnet50").unwrap(),
            paradl::oracle::Cluster::new(cluster.clone()).unwrap(),
        );
        let spec = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0)).in_edition(Edition::Realistic);
        check(&s, &spec);
        let e = s.explain(&spec, Quantity::Kind(CommKind::GradientAllreduce)).unwrap();
        let formula = e.terms[0].formula;
        match algorithm {
            AllreduceAlgorithm::Tree => assert!(formula.starts_with("AR_tree")),
            AllreduceAlgorithm::Hierarchical => assert!(formula.contains("RS_in")),
            _ => {
                // NCCL's choice, each of its candidates shown with its time
                assert!(formula.starts_with("NCCL's choice"), "{formula}");
                let symbols: Vec<&str> = e.terms[0].symbols.iter().map(|s| s.symbol).collect();
                for candidate in ["AR_ring_LL", "AR_ring_Simple", "AR_tree_LL", "AR_tree_Simple"] {
                    assert!(symbols.contains(&candidate), "{symbols:?}");
                }
                let least = e.terms[0]
                    .symbols
                    .iter()
                    .filter(|s| s.symbol.starts_with("AR_"))
                    .map(|s| s.value)
                    .fold(f64::INFINITY, f64::min);
                assert!(least > 0.0);
            }
        }
    }
}

#[test]
fn quantities_have_keys_that_read_back() {
    let mut more = vec![Quantity::FitOption(0), Quantity::FitOption(5)];
    more.extend(Violation::ALL.map(Quantity::Bound));
    more.extend([Edition::Ideal, Edition::Realistic].map(Quantity::Edition));
    for quantity in every_quantity().into_iter().chain(more) {
        assert_eq!(Quantity::parse(&quantity.key()), Some(quantity));
    }
    assert_eq!(Quantity::Bound(Violation::Split).key(), "bound-split");
    assert_eq!(Quantity::Edition(Edition::Ideal).key(), "total-ideal");
    for bad in [
        "",
        "Total",
        "comm-",
        "comm-bogus",
        "memory-",
        "memory-weight",
        "total ",
        "fit-",
        "fit-256",
        "fit--1",
        "bound-",
        "bound-bogus",
        "total-bogus",
    ] {
        assert_eq!(Quantity::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn an_invalid_run_is_a_typed_error() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let mut spec = RunSpec::new(Strategy::DataFilter, 64, Batch::SamplesPerGpu(32.0));
    spec.group_size = Some(3);
    assert!(s.explain(&spec, Quantity::Total).is_err());
}

#[test]
fn every_bound_of_a_run_is_explained_and_a_limit_that_is_no_count_explains_what_it_limits() {
    let s = presets::scenario("resnet50", "abci").unwrap();
    let spec = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
    // far from every bound, so no finding names them: still explained
    let gpus = s.explain(&spec, Quantity::Bound(Violation::Gpus)).unwrap();
    assert_eq!(gpus.result, 64.0);
    assert_eq!(symbol(&gpus.symbols, "n"), 64.0);
    assert_eq!(symbol(&gpus.symbols, "n_max"), s.cluster().max_gpus() as f64);
    let batch = s.explain(&spec, Quantity::Bound(Violation::Batch)).unwrap();
    assert_eq!((batch.result, symbol(&batch.symbols, "n_max")), (64.0, 2048.0));
    let dataset = s.explain(&spec, Quantity::Bound(Violation::Dataset)).unwrap();
    assert_eq!(dataset.result, 2048.0);
    // memory is no count; data parallelism splits no layer
    assert_eq!(
        s.explain(&spec, Quantity::Bound(Violation::Memory)).unwrap().quantity,
        "memory"
    );
    assert_eq!(
        s.explain(&spec, Quantity::Bound(Violation::Split)).unwrap().quantity,
        "total"
    );
    // an option to fit that a fitting run is not offered explains its memory
    assert_eq!(s.explain(&spec, Quantity::FitOption(3)).unwrap().quantity, "memory");
}
