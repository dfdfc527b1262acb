//! Explains a projection's energy, carbon and money to train (contract,
//! section 14): the formula, the power facts and seconds in it, the epoch's
//! parts, and where each fact comes from.

use crate::oracle::cost::derivation::{Symbol, Unit};
use crate::oracle::report::energy::{CostBasis, Energy};
use crate::oracle::report::explanation::Step;
use crate::oracle::report::projection::Projection;
use crate::oracle::report::quantity::Quantity;

/// The pieces of an explanation of `quantity` (one of energy, carbon and
/// cost): formula, symbols, steps and a note of the sources; `None` when
/// the projection has no energy (its GPU's board power is unknown).
pub(super) fn explain(p: &Projection, quantity: Quantity) -> Option<(&'static str, Vec<Symbol>, Vec<Step>, String)> {
    let e: &Energy = p.energy.as_ref()?;
    let f = &e.facts;
    let to_train = Step {
        label: Quantity::TimeToTrain.label(),
        value: p.training.time_s,
        unit: Unit::Seconds,
        explains: Some(Quantity::TimeToTrain.key()),
    };
    let energy = Step {
        label: Quantity::Energy.label(),
        value: e.train_kwh,
        unit: Unit::KilowattHours,
        explains: Some(Quantity::Energy.key()),
    };
    let part = |label: &str, kwh: f64| Step {
        label: format!("{label}, an epoch"),
        value: kwh,
        unit: Unit::KilowattHours,
        explains: None,
    };
    let note = f.sources().join("; ");
    Some(match quantity {
        Quantity::Energy => (
            "E_train = E(B)·PUE·(p·P_busy·t_c + p·P_wait·(T − t_c) + N·P_other·T)",
            vec![
                Symbol::new("E(B)", "epochs to converge", p.training.epochs.epochs, Unit::Factor),
                Symbol::new("PUE", "the facility's power usage effectiveness", f.pue, Unit::Factor),
                Symbol::new("p", "GPUs", p.gpus as f64, Unit::Count),
                Symbol::new("P_busy", "one GPU while computing", f.busy_w, Unit::Watts),
                Symbol::new(
                    "t_c",
                    "seconds of an epoch a GPU computes",
                    e.computing_s,
                    Unit::Seconds,
                ),
                Symbol::new("P_wait", "one GPU while waiting (idle power)", f.waiting_w, Unit::Watts),
                Symbol::new("T", "time per epoch", p.total_s, Unit::Seconds),
                Symbol::new("N", "nodes", e.nodes as f64, Unit::Count),
                Symbol::new("P_other", "a node besides its GPUs", f.node_other_w, Unit::Watts),
            ],
            vec![
                part("GPUs computing", e.epoch.gpus_computing_kwh),
                part("GPUs waiting", e.epoch.gpus_waiting_kwh),
                part("nodes besides their GPUs", e.epoch.nodes_other_kwh),
                part("facility overhead", e.epoch.facility_kwh),
                part("all", e.epoch_kwh),
            ],
            note,
        ),
        Quantity::Carbon => (
            "CO2 = E_train·I/1000 (location-based: the grid's annual average)",
            vec![
                Symbol::new("E_train", "energy to train", e.train_kwh, Unit::KilowattHours),
                Symbol::new("I", "the grid's carbon intensity", f.g_co2_per_kwh, Unit::GramsPerKwh),
            ],
            vec![energy],
            note,
        ),
        Quantity::Cost => match f.basis {
            CostBasis::Cloud { usd_per_gpu_hour, .. } => (
                "cost = T_train·p/3600·price (rented: GPU-hours at a list price)",
                vec![
                    Symbol::new("T_train", "time to train", p.training.time_s, Unit::Seconds),
                    Symbol::new("p", "GPUs", p.gpus as f64, Unit::Count),
                    Symbol::new("price", "a GPU-hour", usd_per_gpu_hour, Unit::DollarsPerGpuHour),
                ],
                vec![to_train],
                note,
            ),
            CostBasis::Owned { usd_per_kwh } => (
                "cost = E_train·tariff (owned: the facility's electricity)",
                vec![
                    Symbol::new("E_train", "energy to train", e.train_kwh, Unit::KilowattHours),
                    Symbol::new("tariff", "a kWh", usd_per_kwh, Unit::DollarsPerKwh),
                ],
                vec![energy],
                note,
            ),
        },
        _ => return None,
    })
}
