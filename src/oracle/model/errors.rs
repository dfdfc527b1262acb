//! Typed errors of the engine: every invalid input names the field it is in
//! and the rule it breaks; every import error names its line and column.

use thiserror::Error;

use super::field::Field;
use super::text::shortened;
pub use super::text::{QUOTED_CHARS, listed, quoted, shown};

/// The rule that an input value breaks.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum Rule {
    /// NaN or an infinity.
    #[error("must be a finite number, found {}", shown(*found))]
    NotFinite { found: f64 },
    /// Zero or negative where only a positive value makes sense.
    #[error("must be greater than zero, found {}", shown(*found))]
    NotPositive { found: f64 },
    /// Negative where zero is allowed.
    #[error("must not be negative, found {}", shown(*found))]
    Negative { found: f64 },
    /// Below an inclusive lower bound.
    #[error("must be at least {}, found {}", shown(*min), shown(*found))]
    TooSmall { min: f64, found: f64 },
    /// Above an inclusive upper bound.
    #[error("must be at most {}, found {}", shown(*max), shown(*found))]
    TooLarge { max: f64, found: f64 },
    /// A whole count below an inclusive lower bound.
    #[error("must be at least {min}, found {found}")]
    CountTooSmall { min: u64, found: u64 },
    /// A whole count above an inclusive upper bound (the count, or a
    /// product of counts, exact up to `u64::MAX` where it saturates).
    #[error("must be at most {max}, found {found}")]
    CountTooLarge { max: u64, found: u64 },
    /// A name holding a character the formats cannot carry.
    #[error("must not hold a control character (found {found:?})")]
    ControlCharacter { found: char },
    /// An empty name, list or shape.
    #[error("must not be empty")]
    Empty,
    /// A shape with the wrong number of dimensions.
    #[error("must have {expected}; found {found}")]
    Rank { expected: String, found: usize },
    /// Two values that must agree do not.
    #[error("must equal {what} ({expected}), found {found}")]
    Mismatch { what: String, expected: u64, found: u64 },
    /// A value that must be a whole number is not.
    #[error("must give a whole number of samples, found {}", shown(*found))]
    NotWhole { found: f64 },
    /// A hybrid group size that does not divide the GPU count.
    #[error("must divide the GPU count {gpus}, found {group}")]
    NotDivisor { gpus: u64, group: u64 },
    /// A count that must divide another (a convolution's groups and its
    /// channels).
    #[error("must divide {what} ({count}), found {found}")]
    MustDivide { what: String, count: u64, found: u64 },
    /// A weightless kind of layer carries weights.
    #[error("must be empty or hold zero items: a {kind} layer has no weights, found {items} items")]
    UnexpectedWeights { kind: String, items: u64 },
    /// Switch levels must widen outwards and the last must span everything.
    #[error("{0}")]
    SwitchOrder(String),
    /// Profiled times given for some layers only.
    #[error(
        "is missing while other layers carry profiled times: give a time for every layer, or only for the first (a whole-model time)"
    )]
    PartialProfile,
    /// A measured step without a profiled time on every layer.
    #[error("needs a profiled time on every layer (a per-layer profile, section 12)")]
    StepWithoutProfile,
    /// A whole-model profiled time on a network that has no FLOPs to share it by.
    #[error("cannot be shared among layers: the network has no FLOPs")]
    NoFlops,
    /// A search larger than the planner projects (layers × configurations).
    #[error(
        "asks for {configurations} configurations of a {layers}-layer network ({} layer projections, more than the {} a search makes): lower the budget, or search a smaller network",
        shown(*work),
        shown(*limit)
    )]
    SearchTooLarge {
        configurations: usize,
        layers: usize,
        work: f64,
        limit: f64,
    },
    /// A strategy that only exists at one GPU.
    #[error("serial runs on exactly 1 GPU, found {gpus}")]
    SerialNeedsOneGpu { gpus: u64 },
    /// A split set whose length differs from the network's layer count.
    #[error("must list one entry per layer ({expected}), found {found}")]
    SplitLength { expected: usize, found: usize },
    /// A layer reading tensors whose shapes its kind cannot take (what it
    /// reads, its kind and input, and the rule, in words).
    #[error("{0}")]
    ReadsMisfit(String),
    /// A value given where it does not belong, with where it goes.
    #[error("does not belong here: give it as {instead}")]
    Misplaced { instead: String },
    /// A value that a file format cannot express.
    #[error("cannot be written in this format: {0}")]
    NotRepresentable(String),
    /// A list entry that appears twice.
    #[error("must not list '{0}' twice")]
    Repeated(String),
    /// A calibration made for the other edition of the model.
    #[error(
        "was made for the {made_for} edition, but the run uses the {found} edition: calibrate again with --edition {found}"
    )]
    EditionMismatch { made_for: String, found: String },
    /// A measurement against a projection whose ratio is not finite and
    /// positive (contract, section 8).
    #[error(
        "gives a factor measured/projected = {} s / {} s that is not finite and positive",
        shown(*measured),
        shown(*projected)
    )]
    BadRatio { measured: f64, projected: f64 },
    /// A ZeRO stage for a strategy that has no data-parallel dimension.
    #[error(
        "ZeRO shards over the data-parallel dimension, which {strategy} has not (data, data+filter and data+spatial have one)"
    )]
    NoDataDimension { strategy: String },
    /// A setting the planner varies itself, given to it.
    #[error("is varied by the search (every value is tried); leave it out")]
    Searched,
    /// A field that only layers of one kind may have.
    #[error("is only for layers of kind {kind}, found one of kind {found}")]
    KindOnly { kind: String, found: String },
    /// A layer reading a tensor no earlier layer wrote.
    #[error("must name the network's input (-1) or an earlier layer (0 to {last}), found {found}")]
    NotEarlier { last: i64, found: i64 },
    /// A layer sharing the weights of a layer that is not before it.
    #[error("must name an earlier layer (0 to {last}) whose weights this layer reuses, found {found}")]
    SharesNotEarlier { last: i64, found: usize },
    /// A layer sharing the weights of a layer that itself shares another's.
    #[error(
        "names layer {found}, which shares the weights of layer {owner}: name layer {owner}, the tensor's first use"
    )]
    SharesSharer { found: usize, owner: usize },
    /// A layer sharing weights that are not the same tensor as its own.
    #[error(
        "names layer {owner}, whose weights differ from this layer's: {owner_weights} there, {found} here (one tensor has one shape)"
    )]
    SharesOtherWeights {
        owner: usize,
        owner_weights: String,
        found: String,
    },
    /// A GPU named by a cluster that this tool does not know, with no
    /// datasheet or kernel facts of its own (contract, section 11).
    #[error(
        "is not a GPU this tool knows{nearest}: give its datasheet under \"datasheet\" (architecture, sms, fp32_flops_per_s, the tensor peaks, memory_bytes, memory_bandwidth_bytes_per_s) or its kernel facts under \"realistic.kernels\"; `paradl presets --gpus` lists the known GPUs"
    )]
    UnknownGpu { nearest: String },
    /// A name that is not one of the accepted ones.
    #[error("unknown {what} '{}'; expected one of: {expected}", quoted(found))]
    Unknown {
        what: String,
        found: String,
        expected: String,
    },
}

/// An input value that breaks a rule, with the path of the field it sits in
/// (for example `layers[3] CONV2.w[0]` or `intra_node.latency_s`).
#[derive(Debug, Clone, PartialEq, Error)]
#[error("{field}: {rule}")]
pub struct InputError {
    /// Path of the offending field.
    pub field: Field,
    /// The rule it breaks.
    pub rule: Rule,
}

impl InputError {
    /// An error on `field`.
    pub fn new(field: impl Into<Field>, rule: Rule) -> Self {
        Self {
            field: field.into(),
            rule,
        }
    }

    /// The same error seen from an enclosing value: `prefix` then `field`.
    #[must_use]
    pub fn within(self, prefix: &Field) -> Self {
        Self {
            field: self.field.within(prefix),
            ..self
        }
    }
}

/// Longest problem text of a graph error, in characters.
const PROBLEM_CHARS: usize = 1000;

/// What went wrong at a position of an imported file.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ParseProblem {
    /// A line lacks a required `|`-separated field.
    #[error("missing field '{}'", quoted(.0))]
    MissingField(String),
    /// A field that should be a number is not.
    #[error("'{}' is not a valid {expected}", quoted(text))]
    BadNumber { text: String, expected: String },
    /// A shape such as `3x224x224` is malformed.
    #[error("'{}' is not a shape such as 3x224x224", quoted(.0))]
    BadShape(String),
    /// A key or line that the format does not know.
    #[error("unexpected '{}'; expected {expected}", quoted(found))]
    Unexpected { found: String, expected: String },
    /// A layer of a model that cannot be read (the problem in the tool's
    /// words, each value in it quoted where it was written).
    #[error("layer '{}': {problem}", quoted(name))]
    Layer { name: String, problem: String },
    /// A required header or key never appeared.
    #[error("missing '{}'", quoted(.0))]
    Missing(String),
    /// A key that appears twice.
    #[error("'{}' appears twice", quoted(.0))]
    Duplicate(String),
    /// A value that parsed but breaks a rule of the model.
    #[error("{0}")]
    Invalid(InputError),
    /// A rule of the format broken, in the tool's words (each value in it
    /// quoted where it was written; never cut).
    #[error("{0}")]
    Broken(String),
    /// A JSON document that does not match the schema (serde_json's
    /// message, without the position the error already gives).
    #[error("{}", shortened(without_position(.0), PROBLEM_CHARS))]
    Json(String),
}

/// serde_json's message without its trailing ` at line L column C` (the
/// error's own line and column say it once).
fn without_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at)
            if message[at + 9..].split_once(" column ").is_some_and(|(l, c)| {
                !l.is_empty()
                    && l.bytes().all(|b| b.is_ascii_digit())
                    && !c.is_empty()
                    && c.bytes().all(|b| b.is_ascii_digit())
            }) =>
        {
            &message[..at]
        }
        _ => message,
    }
}

/// An error in an imported file, with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong there.
    pub problem: ParseProblem,
}

impl ParseError {
    /// An error at `line`, `column`.
    pub fn at(line: usize, column: usize, problem: ParseProblem) -> Self {
        Self { line, column, problem }
    }
}

/// Any error of the engine.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum OracleError {
    /// An invalid input value.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An import that failed at a position.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A graph (ONNX) that could not be turned into layers.
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// A profile that does not fit the network it is applied to.
    #[error(transparent)]
    Profile(#[from] ProfileError),
}

/// Why a measured profile cannot give a network its times (section 12).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ProfileError {
    /// The profile was measured on another network: what differs.
    #[error("the profile is of another network: {0}")]
    OtherNetwork(String),
}

/// A node of an imported graph: its index in the file, name and operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeRef {
    /// 0-based index among the graph's nodes.
    pub index: usize,
    /// Its name (may be empty).
    pub name: String,
    /// Its operator (`Conv`, ...).
    pub op: String,
}

/// Why a graph could not be read, and at which node.
#[derive(Debug, Clone, PartialEq, Error)]
pub struct GraphError {
    /// The node, if the problem is one node's.
    pub node: Option<NodeRef>,
    /// What is wrong.
    pub problem: String,
}

impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let problem = shortened(&self.problem, PROBLEM_CHARS);
        match &self.node {
            Some(n) if n.name.is_empty() => write!(f, "node {} ({}): {}", n.index, quoted(&n.op), problem),
            Some(n) => write!(
                f,
                "node {} '{}' ({}): {}",
                n.index,
                quoted(&n.name),
                quoted(&n.op),
                problem
            ),
            None => f.write_str(&problem),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_error_says_its_position_once() {
        let e = ParseError::at(1, 20, ParseProblem::Json("expected value at line 1 column 20".into()));
        assert_eq!(e.to_string(), "line 1, column 20: expected value");
        // a message that only mentions a line keeps it
        let e = ParseProblem::Json("a field at line two".into());
        assert_eq!(e.to_string(), "a field at line two");
    }

    #[test]
    fn an_error_quotes_a_long_cell_cut() {
        let e = ParseProblem::BadNumber {
            text: "9".repeat(10_000_000),
            expected: "number".into(),
        };
        let text = e.to_string();
        assert!(text.len() < 200, "{}", text.len());
        assert!(text.contains("(9999920 more characters)"), "{text}");
        assert_eq!(quoted("short"), "short");
    }

    #[test]
    fn a_graph_error_escapes_and_cuts_what_the_file_named() {
        let e = GraphError {
            node: Some(NodeRef {
                index: 3,
                name: "evil\u{1b}[2J\nname".into(),
                op: "X".repeat(5_000_000),
            }),
            problem: format!("perm {:?} is wrong", vec![1u64; 3_000_000]),
        };
        let text = e.to_string();
        assert!(text.len() < 1400, "{}", text.len());
        assert!(!text.chars().any(char::is_control), "{text}");
        assert!(text.contains("evil\\u{1b}[2J\\nname"), "{text}");
    }

    #[test]
    fn numbers_read_as_people_read_them() {
        for (value, text) in [
            (0.0, "0"),
            (0.25, "0.25"),
            (4096.5, "4096.5"),
            (16.0, "16"),
            (1e308, "1e308"),
            (5e-324, "4.94e-324"),
            (-1.5e-7, "-1.5e-7"),
            (123_456_789.0, "1.23e8"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(shown(value), text);
        }
        let e = Rule::TooLarge { max: 1e6, found: 1e308 }.to_string();
        assert_eq!(e, "must be at most 1e6, found 1e308");
    }
}
