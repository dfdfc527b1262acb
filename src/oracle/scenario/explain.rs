//! Explains one number of a projection: the formula it comes from, the
//! values in it (as the engine computed them) and the intermediate results.

use super::Scenario;
use crate::oracle::cost::communication::CommKind;
use crate::oracle::cost::derivation::{Derivation, Symbol, Unit};
use crate::oracle::cost::memory::Part;
use crate::oracle::cost::strategies::{IterationCost, ScalingBound, iteration_cost};
use crate::oracle::cost::terms::Term;
use crate::oracle::model::convergence::How;
use crate::oracle::model::edition::Edition;
use crate::oracle::model::errors::InputError;
use crate::oracle::model::factors::Kappa;
use crate::oracle::model::network::ProfiledStep;
use crate::oracle::model::run::{Run, RunSpec};
use crate::oracle::model::strategy::Strategy;
use crate::oracle::model::violation::Violation;
use crate::oracle::report::bottleneck::FindingDetail;
use crate::oracle::report::explanation::{Explanation, Step};
use crate::oracle::report::projection::Projection;
use crate::oracle::report::quantity::Quantity;

/// A step that is itself a quantity of the projection.
fn step(quantity: Quantity, value: f64) -> Step {
    Step {
        label: quantity.label(),
        value,
        unit: quantity.unit(),
        explains: Some(quantity.key()),
    }
}

/// A step that is a plain intermediate value.
fn value(label: &str, value: f64, unit: Unit) -> Step {
    Step {
        label: label.into(),
        value,
        unit,
        explains: None,
    }
}

/// The per-part formula of sections 9 and 11 (`autograd`: the framework's
/// accounting).
fn part_formula(part: Part, autograd: bool) -> &'static str {
    match (part, autograd) {
        (Part::Weights, _) => "weights = h·W/d₃",
        (Part::Gradients, _) => "gradients = h·W/d₂",
        (Part::Optimizer, _) => "optimizer = (m + s·δ)·W/d₁, m = δ under fp16/bf16 with an optimizer, else 0",
        (Part::Activations, false) => "activations = 2·h·B_g·A",
        (Part::Activations, true) => "activations = B_g·a, a = the bytes per sample autograd saves",
        (Part::Reserved, _) => "reserved = the CUDA context and framework, as measured",
        (Part::Transient, _) => "backward buffers = h·B_g·max_l(|x_l| + |y_l|)",
        (Part::Workspace, _) => "workspace = the convolution and matrix libraries' workspace",
        (Part::Allocator, _) => {
            "allocator rounding = Σ saved tensors (⌈bytes/512⌉·512, from 10 MiB ⌈bytes/2 MiB⌉·2 MiB) − bytes"
        }
    }
}

/// The symbols of the memory derivation a part's formula uses.
fn part_symbols(part: Part) -> &'static [&'static str] {
    match part {
        Part::Weights | Part::Gradients => &["h", "W", "d", "z"],
        Part::Optimizer => &["s", "δ", "W", "d", "z"],
        Part::Activations => &["h", "B_g", "A", "a"],
        Part::Transient => &["h", "B_g", "max_l(|x_l| + |y_l|)"],
        Part::Reserved | Part::Workspace | Part::Allocator => &[],
    }
}

/// "data parallelism at 64 GPUs".
fn of_run(strategy: Strategy, gpus: u64) -> String {
    format!("{} at {gpus} GPU{}", strategy.label(), if gpus == 1 { "" } else { "s" })
}

/// What an explanation says before its title and result.
struct Body {
    formula: &'static str,
    symbols: Vec<Symbol>,
    terms: Vec<Derivation>,
    steps: Vec<Step>,
    sections: Vec<u8>,
}

fn body(
    formula: &'static str,
    symbols: Vec<Symbol>,
    terms: Vec<Derivation>,
    steps: Vec<Step>,
    sections: Vec<u8>,
) -> Body {
    Body {
        formula,
        symbols,
        terms,
        steps,
        sections,
    }
}

struct Context<'a> {
    run: &'a Run,
    /// The bounds the run's counts are held to.
    bounds: &'a [ScalingBound],
    projection: &'a Projection,
    cost: &'a IterationCost,
    kappa: Kappa,
    samples: u64,
    /// The step the network's profile measured, if it has one.
    step: Option<&'a ProfiledStep>,
}

impl Context<'_> {
    fn iterations(&self) -> Symbol {
        Symbol::new(
            "I",
            "iterations per epoch, ⌈D/B⌉",
            self.projection.iterations as f64,
            Unit::Count,
        )
    }

    /// The sections a time comes from beyond its own: the realistic
    /// edition's terms and the calibration.
    fn time_sections(&self, own: &[u8]) -> Vec<u8> {
        let mut sections = own.to_vec();
        if self.run.edition == Edition::Realistic {
            sections.push(7);
        }
        if self.run.calibration.is_some() {
            sections.push(8);
        }
        let today = [Term::Kernels, Term::BusBandwidth];
        if self.projection.terms.iter().any(|t| today.contains(&t.term)) {
            sections.push(11);
        }
        sections
    }

    /// `T_comp`, with a profile's framework cost `F` when the network has
    /// a measured step.
    fn explain_compute(&self) -> Body {
        let p = self.projection;
        let framework = self.run.framework_s;
        let mut symbols = vec![
            Symbol::new("D", "samples in the dataset", self.samples as f64, Unit::Samples),
            Symbol::new("B", "mini-batch", p.mini_batch as f64, Unit::Samples),
            self.iterations(),
            Symbol::new(
                "c",
                "forward and backward of one iteration",
                self.cost.compute_s,
                Unit::Seconds,
            ),
            Symbol::new(
                "WU",
                "weight update (the optimizer's step) of one iteration",
                self.cost.update_s,
                Unit::Seconds,
            ),
        ];
        let mut values = vec![value(
            "(D/B)·c",
            self.samples as f64 / p.mini_batch as f64 * self.cost.compute_s,
            Unit::Seconds,
        )];
        if let Some(step) = self.step {
            // what the per-layer times and F were measured from
            symbols.push(Symbol::new(
                "B'",
                "samples per step of the profile's measurement",
                step.batch as f64,
                Unit::Samples,
            ));
            symbols.push(Symbol::new(
                "T_step",
                "the training step the profile measured at B' (its layers and F), on its device",
                step.iteration_s,
                Unit::Seconds,
            ));
        }
        let formula = if framework > 0.0 {
            symbols.push(Symbol::new(
                "F",
                "the framework's cost of one iteration, measured beyond the layers by the profile",
                framework,
                Unit::Seconds,
            ));
            values.push(value(
                "I·(WU + F)",
                p.iterations as f64 * self.cost.outside_layers_s(self.run),
                Unit::Seconds,
            ));
            "T_comp = κ_comp·((D/B)·c + I·(WU + F))"
        } else {
            values.push(value("I·WU", p.iterations as f64 * self.cost.update_s, Unit::Seconds));
            "T_comp = κ_comp·((D/B)·c + I·WU)"
        };
        symbols.push(Symbol::new(
            "κ_comp",
            "compute calibration factor",
            self.kappa.compute,
            Unit::Factor,
        ));
        let sections = if self.step.is_some() {
            &[2, 5, 12][..]
        } else {
            &[2, 5][..]
        };
        body(
            formula,
            symbols,
            self.cost.derivations.compute.iter().cloned().collect(),
            values,
            self.time_sections(sections),
        )
    }

    fn explain(&self, quantity: Quantity) -> Explanation {
        let p = self.projection;
        // where a value comes from when no formula says it: the epochs, the power facts
        let mut note = (quantity == Quantity::TimeToTrain).then(|| p.training.sentence());
        let body = match quantity {
            Quantity::Total => body(
                "T = T_comp + T_comm",
                vec![],
                vec![],
                vec![
                    step(Quantity::Compute, p.compute_s),
                    step(Quantity::Communication, p.communication_s),
                ],
                self.time_sections(&[5]),
            ),
            Quantity::Compute => self.explain_compute(),
            Quantity::Communication => body(
                "T_comm = Σ_k T_k over the kinds of communication",
                vec![],
                vec![],
                p.communication
                    .iter()
                    .filter(|(_, s)| *s != 0.0)
                    .map(|(k, s)| step(Quantity::Kind(k), s))
                    .collect(),
                self.time_sections(&[4, 5]),
            ),
            Quantity::Kind(kind) => self.kind(kind),
            Quantity::GpuHours => body(
                "GPU-h = T·p/3600",
                vec![
                    Symbol::new("T", "time per epoch", p.total_s, Unit::Seconds),
                    Symbol::new("p", "GPUs", p.gpus as f64, Unit::Count),
                ],
                vec![],
                vec![step(Quantity::Total, p.total_s)],
                vec![5],
            ),
            Quantity::Memory => body(
                "M_GPU = weights + gradients + optimizer + activations + reserved (feasible when ≤ M)",
                vec![Symbol::new(
                    "M",
                    "memory of a GPU",
                    p.memory_capacity_bytes,
                    Unit::Bytes,
                )],
                self.cost.derivations.memory.iter().cloned().collect(),
                Part::ALL
                    .into_iter()
                    .map(|part| step(Quantity::Part(part), p.memory.get(part)))
                    .collect(),
                vec![3, 9],
            ),
            Quantity::Part(part) => {
                let symbols = self.cost.derivations.memory.as_ref().map_or_else(Vec::new, |d| {
                    d.symbols
                        .iter()
                        .filter(|s| part_symbols(part).contains(&s.symbol))
                        .copied()
                        .collect()
                });
                let autograd = symbols.iter().any(|s| s.symbol == "a");
                let sections = if autograd { vec![9, 11] } else { vec![3, 9] };
                body(part_formula(part, autograd), symbols, vec![], vec![], sections)
            }
            Quantity::Bound(limit) => self.bound(limit),
            Quantity::TimeToTrain => {
                let e = &p.training.epochs;
                let mut symbols = vec![
                    Symbol::new("E(B)", "epochs to converge at the global batch", e.epochs, Unit::Factor),
                    Symbol::new("B", "global batch", e.global_batch as f64, Unit::Samples),
                    Symbol::new("T", "time per epoch", p.total_s, Unit::Seconds),
                ];
                if let How::PastLargest {
                    largest_batch,
                    largest_epochs,
                    critical_batch,
                } = e.how
                {
                    symbols.push(Symbol::new(
                        "B_n",
                        "the largest global batch that converged in the reference runs",
                        largest_batch as f64,
                        Unit::Samples,
                    ));
                    symbols.push(Symbol::new("e_n", "epochs there", largest_epochs, Unit::Factor));
                    if let Some(c) = critical_batch {
                        symbols.push(Symbol::new(
                            "B_crit",
                            "critical batch fitted to the curve (McCandlish et al. 2018)",
                            c,
                            Unit::Samples,
                        ));
                    }
                }
                body(
                    "T_train = E(B)·T (E: epochs to converge at the global batch B)",
                    symbols,
                    vec![],
                    vec![step(Quantity::Total, p.total_s)],
                    vec![13],
                )
            }
            Quantity::Energy | Quantity::Carbon | Quantity::Cost => match super::explain_energy::explain(p, quantity) {
                Some((formula, symbols, steps, sources)) => {
                    note = Some(sources);
                    body(formula, symbols, vec![], steps, vec![14])
                }
                None => body(
                    "not known: the cluster's GPU has no rated board power (give facility.gpu_board_power_w)",
                    vec![],
                    vec![],
                    vec![],
                    vec![14],
                ),
            },
            // explained by Scenario::explain on the run they stand for
            Quantity::FitOption(_) | Quantity::Edition(_) => body("", vec![], vec![], vec![], vec![]),
        };
        Explanation {
            quantity: quantity.key(),
            title: format!(
                "{} of {}",
                crate::oracle::units::capitalised(&quantity.label()),
                of_run(p.strategy, p.gpus)
            ),
            formula: body.formula,
            symbols: body.symbols,
            terms: body.terms,
            steps: body.steps,
            result: match quantity {
                Quantity::Bound(limit) => self.bound_of(limit).map_or(f64::NAN, |b| b.value as f64),
                _ => quantity.of(p),
            },
            unit: quantity.unit(),
            sections: body.sections,
            feasible: p.feasible,
            violations: p.violations.clone(),
            note,
        }
    }

    /// The bound of `limit` the run's count is held to, if it has one.
    fn bound_of(&self, limit: Violation) -> Option<&ScalingBound> {
        self.bounds.iter().find(|b| b.limit == limit)
    }

    /// A count against its bound.
    fn bound(&self, limit: Violation) -> Body {
        let symbols = self
            .bound_of(limit)
            .map(|b| {
                vec![
                    Symbol::new("n", b.counted, b.value as f64, Unit::Count),
                    Symbol::new("n_max", b.bounded_by, b.bound as f64, Unit::Count),
                ]
            })
            .unwrap_or_default();
        body(
            "feasible when n ≤ n_max (the strategy's limit in section 5's table)",
            symbols,
            vec![],
            vec![],
            vec![5],
        )
    }

    fn kind(&self, kind: CommKind) -> Body {
        let per_iteration = self.cost.communication.get(kind);
        let mut terms: Vec<_> = self.cost.derivations.of(kind).cloned().collect();
        let mut steps = Vec::new();
        if terms.len() > 1 {
            steps.push(value(
                "the terms' sum, one iteration",
                terms.iter().map(|t| t.value).sum(),
                Unit::Seconds,
            ));
        }
        let mut sections = vec![4, 5];
        if kind == CommKind::GradientAllreduce
            && let Some(overlap) = &self.cost.derivations.overlap
        {
            terms.push(overlap.clone());
            steps.push(value(
                "hidden behind the backward pass, one iteration",
                self.cost.hidden_s,
                Unit::Seconds,
            ));
        }
        if self.run.zero > 0 || self.run.overlap || kind == CommKind::WeightAllgather {
            sections.push(9);
        }
        Body {
            formula: "T_k = κ_comm·I·t_k",
            symbols: vec![
                self.iterations(),
                Symbol::new("t_k", "exposed seconds of one iteration", per_iteration, Unit::Seconds),
                Symbol::new(
                    "κ_comm",
                    "communication calibration factor",
                    self.kappa.communication,
                    Unit::Factor,
                ),
            ],
            terms,
            steps,
            sections: self.time_sections(&sections),
        }
    }
}

impl Scenario {
    /// Explains `quantity` of the projection of `spec`: its formula, the
    /// values the engine put in it, the strategy's per-iteration terms
    /// and the intermediate results. The result is the projection's own
    /// number.
    ///
    /// # Formula
    /// As [`Scenario::project`]: `T = T_comp + T_comm`,
    /// `T_comp = κ_comp·((D/B)·c + I·WU)`, `T_k = κ_comm·I·t_k`,
    /// `GPU-h = T·p/3600`, memory the sum of section 9's parts; `c` and
    /// `t_k` as the strategy's formula of section 5 computed them; a
    /// scaling bound `n ≤ n_max`; the time per epoch of another edition
    /// (`Quantity::Edition`) and the memory with a change that would make
    /// a run fit (`Quantity::FitOption`, the memory of its own run; an
    /// option the run is not offered explains the memory itself; a bound
    /// that holds no count of the run explains what it limits: the memory,
    /// else the epoch).
    ///
    /// # Errors
    /// An [`InputError`] from [`Run::new`] when the run is invalid.
    pub fn explain(&self, spec: &RunSpec, quantity: Quantity) -> Result<Explanation, InputError> {
        match quantity {
            Quantity::Edition(edition) => {
                let spec = RunSpec {
                    edition,
                    ..spec.clone()
                };
                let mut e = self.explain(&spec, Quantity::Total)?;
                e.quantity = quantity.key();
                // its steps are that edition's, not the page's to open
                for step in &mut e.steps {
                    step.explains = None;
                }
                e.title = format!(
                    "Time per epoch in the {edition} edition of {}",
                    of_run(spec.strategy, spec.gpus)
                );
                return Ok(e);
            }
            Quantity::FitOption(i) => {
                let options = self
                    .project(spec)?
                    .bottlenecks
                    .into_iter()
                    .find_map(|f| match f.detail {
                        FindingDetail::MemoryFit { options, .. } => Some(options),
                        _ => None,
                    });
                // an option no longer offered (a stale link) explains the memory itself
                let Some(option) = options.and_then(|o| o.into_iter().nth(usize::from(i))) else {
                    return self.explain(spec, Quantity::Memory);
                };
                let mut e = self.explain(&option.spec, Quantity::Memory)?;
                e.quantity = quantity.key();
                // its parts are the changed run's, not the page's to open
                for step in &mut e.steps {
                    step.explains = None;
                }
                e.title = format!(
                    "Memory per GPU of {} with {}",
                    of_run(spec.strategy, spec.gpus),
                    option.option
                );
                return Ok(e);
            }
            _ => {}
        }
        let run = Run::new(spec, self.network(), self.cluster())?;
        let table = self.table_of(&run);
        let cost = iteration_cost(&table, self.cluster(), &run);
        let bounds = self.bounds(&run, cost.bounds.clone());
        if let Quantity::Bound(limit) = quantity
            && !bounds.iter().any(|b| b.limit == limit)
        {
            // a limit that is no count of this run (memory, or a split of an unsplit strategy)
            let instead = if limit == Violation::Memory {
                Quantity::Memory
            } else {
                Quantity::Total
            };
            return self.explain(spec, instead);
        }
        let projection = self.project_cost(&run, &table, cost.clone());
        let context = Context {
            run: &run,
            bounds: &bounds,
            projection: &projection,
            cost: &cost,
            kappa: run.kappa(),
            samples: self.network().dataset_samples(),
            step: self.network().step(),
        };
        Ok(context.explain(quantity))
    }
}
