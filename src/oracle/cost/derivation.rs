//! How a cost was computed: the formula a strategy used and the values it
//! put in it, recorded where the cost is computed (so that an explanation
//! shows the engine's own numbers, never a second computation of them).

use serde::Serialize;

use super::collectives::AlphaBeta;
use super::communication::CommKind;
use crate::oracle::units;

/// What a value measures, for showing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// A count (GPUs, layers, iterations).
    Count,
    /// Samples (may be fractional: `B/p`).
    Samples,
    Seconds,
    /// Seconds per sample.
    SecondsPerSample,
    Bytes,
    /// Items (numbers held in memory or sent).
    Items,
    /// Seconds per byte (`β`).
    SecondsPerByte,
    /// A plain factor.
    Factor,
    /// GPU-hours.
    GpuHours,
    /// FLOP/s.
    FlopsPerSecond,
    /// Bytes per second.
    BytesPerSecond,
    /// Watts.
    Watts,
    /// Kilowatt-hours.
    KilowattHours,
    /// Kilograms of CO2-equivalent.
    KgCo2,
    /// US dollars.
    Dollars,
    /// Grams of CO2-equivalent per kWh.
    GramsPerKwh,
    /// US dollars per GPU-hour.
    DollarsPerGpuHour,
    /// US dollars per kWh.
    DollarsPerKwh,
}

impl Unit {
    /// `value` in this unit, for people: `1.23 ms`, `25.6 MB`, `4 GPUs`.
    pub fn format(self, value: f64) -> String {
        match self {
            Self::Count => units::significant(value, 6),
            Self::Samples => units::count_of(value, 6, "sample"),
            Self::Seconds => units::seconds(value),
            Self::SecondsPerSample => format!("{} per sample", units::seconds(value)),
            Self::Bytes => units::bytes(value),
            Self::Items => format!("{} items", units::significant(value, 6)),
            Self::SecondsPerByte => format!("1/({}/s)", units::bytes(1.0 / value)),
            Self::Factor => units::significant(value, 6),
            Self::GpuHours => format!("{} GPU-h", units::significant(value, 4)),
            Self::FlopsPerSecond => units::flops(value),
            Self::BytesPerSecond => format!("{}/s", units::bytes(value)),
            Self::Watts => format!("{} W", units::significant(value, 4)),
            Self::KilowattHours => units::energy_kwh(value),
            Self::KgCo2 => format!("{} CO2e", units::co2_kg(value)),
            Self::Dollars => units::dollars(value),
            Self::GramsPerKwh => format!("{} g/kWh", units::significant(value, 4)),
            Self::DollarsPerGpuHour => format!("${}/GPU-h", units::significant(value, 4)),
            Self::DollarsPerKwh => format!("${}/kWh", units::significant(value, 4)),
        }
    }
}

/// A value in a formula: its symbol, what it is, its value and unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Symbol {
    /// As the contract writes it: `B/p`, `Σt`, `α`.
    pub symbol: &'static str,
    /// What it is, in words.
    pub meaning: &'static str,
    /// Its value in this run.
    pub value: f64,
    /// Its unit.
    pub unit: Unit,
}

impl Symbol {
    /// A symbol with its value.
    pub const fn new(symbol: &'static str, meaning: &'static str, value: f64, unit: Unit) -> Self {
        Self {
            symbol,
            meaning,
            value,
            unit,
        }
    }

    /// `symbol = value unit`.
    pub fn show(&self) -> String {
        format!("{} = {}", self.symbol, self.unit.format(self.value))
    }
}

/// One per-iteration term: the formula a strategy used, the values in it
/// and the seconds (or bytes) it gave.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Derivation {
    /// The formula, in the contract's symbols.
    pub formula: &'static str,
    /// The values in it.
    pub symbols: Vec<Symbol>,
    /// What it gave.
    pub value: f64,
    /// In this unit.
    pub unit: Unit,
    /// For a communication term: who exchanges what.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exchange: Option<Exchange>,
}

/// Who takes part in a communication term and what it sends.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Exchange {
    /// GPUs in one instance of the collective (2 for a pair).
    pub members: u64,
    /// Consecutive GPUs one instance spans (it crosses nodes when they do).
    pub span_gpus: u64,
    /// Instances that run at once (one per group, per position in a
    /// group, or per pair).
    pub instances: u64,
    /// Bytes of its messages in one iteration (one GPU's share of the
    /// collective's buffer, summed over the layers it runs for).
    pub bytes: f64,
}

impl Derivation {
    /// A formula, its values and the seconds it gave.
    pub fn new(formula: &'static str, symbols: Vec<Symbol>, seconds: f64) -> Self {
        Self {
            formula,
            symbols,
            value: seconds,
            unit: Unit::Seconds,
            exchange: None,
        }
    }

    /// The same, as a communication among `members` GPUs spanning
    /// `span_gpus` consecutive GPUs, with `bytes` of messages.
    #[must_use]
    pub fn exchanging(self, members: u64, span_gpus: u64, bytes: f64) -> Self {
        Self {
            exchange: Some(Exchange {
                members,
                span_gpus,
                instances: 1,
                bytes,
            }),
            ..self
        }
    }

    /// The same, with the α and β of the link it went `over` among its
    /// values.
    #[must_use]
    pub fn over(mut self, ab: AlphaBeta, path: Path) -> Self {
        let (latency, per_byte) = path.meanings();
        self.symbols.push(Symbol::new("α", latency, ab.alpha_s, Unit::Seconds));
        self.symbols
            .push(Symbol::new("β", per_byte, ab.beta_s_per_byte, Unit::SecondsPerByte));
        self
    }

    /// The same, with `instances` of the exchange at once.
    #[must_use]
    pub fn times(mut self, instances: u64) -> Self {
        if let Some(e) = self.exchange.as_mut() {
            e.instances = instances;
        }
        self
    }

    /// The same, giving a value in `unit`.
    #[must_use]
    pub fn in_unit(self, unit: Unit) -> Self {
        Self { unit, ..self }
    }

    /// The value of `symbol`, if the formula has it.
    pub fn get(&self, symbol: &str) -> Option<f64> {
        self.symbols.iter().find(|s| s.symbol == symbol).map(|s| s.value)
    }
}

/// The link a communication term went over (for the words of its α, β).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    /// A ring among the members.
    Ring,
    /// The ring of a group of a split.
    GroupRing,
    /// A pair of neighbouring slices.
    Neighbours,
    /// The pipeline's slowest stage boundary.
    Boundary,
}

impl Path {
    /// What its α and β are, in words.
    fn meanings(self) -> (&'static str, &'static str) {
        match self {
            Self::Ring => ("latency of the ring", "seconds per byte of the ring"),
            Self::GroupRing => ("latency of the group's ring", "seconds per byte of the group's ring"),
            Self::Neighbours => ("latency of a neighbour pair", "seconds per byte of a neighbour pair"),
            Self::Boundary => ("latency of that pair", "seconds per byte of that pair"),
        }
    }
}

/// How one iteration's costs were computed.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Derivations {
    /// Forward and backward seconds of one iteration.
    pub compute: Option<Derivation>,
    /// The communication terms, each of one kind; a kind's seconds are the
    /// sum of its terms (before the overlap).
    pub communication: Vec<(CommKind, Derivation)>,
    /// What the memory parts were computed from (`W`, `A`, samples).
    pub memory: Option<Derivation>,
    /// The overlap of the gradient exchange with the backward pass, when
    /// on: the exposed seconds of one iteration.
    pub overlap: Option<Derivation>,
}

impl Derivations {
    /// The terms of `kind`.
    pub fn of(&self, kind: CommKind) -> impl Iterator<Item = &Derivation> {
        self.communication
            .iter()
            .filter(move |(k, _)| *k == kind)
            .map(|(_, d)| d)
    }

    /// Adds a communication term when it costs anything.
    pub fn communicate(&mut self, kind: CommKind, derivation: Derivation) {
        if derivation.value != 0.0 {
            self.communication.push((kind, derivation));
        }
    }
}
