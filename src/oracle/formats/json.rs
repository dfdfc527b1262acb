//! The JSON form of networks, clusters and runs: their `*Spec` types as
//! serde writes them. Syntax and schema errors carry line and column;
//! values that parse but break a rule come back as the checked
//! constructor's [`InputError`].

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::oracle::model::cluster::{Cluster, ClusterSpec};
use crate::oracle::model::errors::{InputError, OracleError, ParseError, ParseProblem};
use crate::oracle::model::factors::{Factors, FactorsSpec};
use crate::oracle::model::network::{Network, NetworkSpec};
use crate::oracle::model::run::RunSpec;

/// Parses the plain (unchecked) form of a value.
///
/// # Errors
/// A [`ParseError`] at serde_json's line and column.
pub fn parse_spec<T: DeserializeOwned>(text: &str) -> Result<T, ParseError> {
    serde_json::from_str(text).map_err(|e| json_error(&e))
}

/// serde_json's error at its line and column; an unknown key or name
/// (every document refuses them) says the known one nearest it.
pub fn json_error(e: &serde_json::Error) -> ParseError {
    ParseError::at(
        e.line().max(1),
        e.column().max(1),
        ParseProblem::Json(with_suggestion(&e.to_string())),
    )
}

/// `message` with "(did you mean `time_s`?)" after an unknown field or
/// variant whose known names (serde's "expected one of `a`, `b`") hold one
/// within a third of its length in edits (at least 2), or that starts with
/// it (preferred).
fn with_suggestion(message: &str) -> String {
    let Some((_, rest)) = message
        .split_once("unknown field `")
        .or_else(|| message.split_once("unknown variant `"))
    else {
        return message.to_string();
    };
    let Some((unknown, tail)) = rest.split_once('`') else {
        return message.to_string();
    };
    let Some((_, expected)) = tail.split_once("expected") else {
        return message.to_string();
    };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    let reach = (unknown.chars().count() / 3).max(2);
    let nearest = known
        .iter()
        .map(|k| (strsim::levenshtein(&unknown.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(d, k)| *d <= reach || (unknown.len() >= 3 && k.starts_with(unknown)))
        // a name that extends the unknown one first (`time` → `time_s`, not `name`)
        .min_by_key(|(d, k)| (!k.starts_with(unknown), *d));
    match nearest {
        Some((_, k)) => {
            // right after the unknown name's closing backtick (`rest` starts just after its opening one)
            let cut = message.len() - rest.len() + unknown.len() + 1;
            format!("{} (did you mean `{k}`?){}", &message[..cut], &message[cut..])
        }
        None => message.to_string(),
    }
}

/// Reads a network.
///
/// # Errors
/// [`OracleError::Parse`] for malformed JSON, [`OracleError::Input`] for an
/// invalid network.
pub fn network(text: &str) -> Result<Network, OracleError> {
    Ok(Network::new(parse_spec::<NetworkSpec>(text)?)?)
}

/// Reads a cluster.
///
/// # Errors
/// As [`network`].
pub fn cluster(text: &str) -> Result<Cluster, OracleError> {
    Ok(Cluster::new(parse_spec::<ClusterSpec>(text)?)?)
}

/// Reads calibration factors: the JSON that `paradl calibrate` prints (its
/// runs and accuracies are ignored).
///
/// # Errors
/// As [`network`]; a factor that is not finite and within bounds names
/// its field.
pub fn factors(text: &str) -> Result<Factors, OracleError> {
    Ok(Factors::new(parse_spec::<FactorsSpec>(text)?)?)
}

/// Reads a run (checked only against a network and cluster, by
/// [`crate::oracle::Run::new`]).
///
/// # Errors
/// [`ParseError`] for malformed JSON.
pub fn run(text: &str) -> Result<RunSpec, ParseError> {
    parse_spec(text)
}

/// Writes any of the forms, indented.
///
/// # Errors
/// Never for the engine's types (kept for serde's signature).
pub fn write<T: Serialize>(value: &T) -> Result<String, InputError> {
    serde_json::to_string_pretty(value).map_err(|e| {
        InputError::new(
            "json",
            crate::oracle::model::errors::Rule::NotRepresentable(e.to_string()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::run::Batch;
    use crate::oracle::model::strategy::Strategy;
    use crate::oracle::presets;

    #[test]
    fn presets_round_trip_exactly() {
        for preset in presets::NETWORKS {
            let net = presets::network(preset.key).unwrap();
            let text = write(&net).unwrap();
            assert_eq!(network(&text).unwrap(), net, "{}", preset.key);
        }
        for preset in presets::CLUSTERS {
            let c = presets::cluster(preset.key).unwrap();
            assert_eq!(cluster(&write(&c).unwrap()).unwrap(), c, "{}", preset.key);
        }
        let spec = RunSpec::new(Strategy::DataSpatial, 64, Batch::SamplesPerGpu(0.25));
        assert_eq!(run(&write(&spec).unwrap()).unwrap(), spec);
    }

    #[test]
    fn syntax_errors_have_positions_and_rule_errors_have_fields() {
        let err = network("{\n  \"name\": 3\n}").unwrap_err();
        match err {
            OracleError::Parse(e) => assert_eq!(e.line, 2),
            other => panic!("{other:?}"),
        }
        let mut spec = presets::network("alexnet").unwrap().spec().clone();
        spec.layers[3].w = [95, 256, 5, 5].into();
        let text = serde_json::to_string(&spec).unwrap();
        match network(&text).unwrap_err() {
            OracleError::Input(e) => assert_eq!(e.field, "layers[3] CONV2.w[0]"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn checked_types_reject_invalid_json_too() {
        let mut spec = presets::cluster("abci").unwrap().spec().clone();
        spec.gpus_per_node = 0;
        let text = serde_json::to_string(&spec).unwrap();
        assert!(serde_json::from_str::<Cluster>(&text).is_err());
    }
}
