//! Measured profiles (section 12): the `profile.json` that
//! `scripts/profile_torch.py` writes, format `paradl-profile/1`: each
//! leaf module's forward and backward seconds at one batch and precision
//! (and at a second batch with `--batch 8,32`) on one device, the
//! measured training step, and what the device and autograd held. Values are checked as they are read, so every error
//! carries its line and column. [`apply`] gives a network its times.

mod apply;
mod scope;

pub use apply::{Applied, KnownGpu, ProfileWarning, apply};
pub use scope::{ScopePath, scope_path};

use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize};

use crate::oracle::model::checks::MAX_COUNT;
use crate::oracle::model::errors::{ParseError, ParseProblem};
use crate::oracle::model::practice::Precision;

/// The format a profile names itself by.
pub const FORMAT: &str = "paradl-profile/1";
/// Most module entries a profile may hold.
pub const MAX_MODULES: usize = 1 << 20;
/// Longest time accepted, seconds.
const MAX_SECONDS: f64 = 1e6;
/// Largest memory figure accepted, bytes.
const MAX_BYTES: f64 = 1e18;
/// Most dimensions of a recorded shape.
const MAX_RANK: usize = 8;

/// A measured profile as the profiler writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorchProfile {
    /// Always [`FORMAT`].
    #[serde(deserialize_with = "format_tag")]
    pub format: String,
    /// How the profiler was told the model (`torchvision:resnet50`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The network's name.
    pub name: String,
    /// Samples per measured step.
    #[serde(deserialize_with = "batch")]
    pub batch: u64,
    /// Arithmetic of the measurement.
    #[serde(default)]
    pub precision: Precision,
    /// One sample's shape, `[C, X1, X2(, X3)]`.
    #[serde(default, deserialize_with = "shape", skip_serializing_if = "Option::is_none")]
    pub input_shape: Option<Vec<u64>>,
    /// The network's parameters as PyTorch counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<u64>,
    /// Where it was measured.
    pub device: Device,
    /// PyTorch's version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torch: Option<String>,
    /// Steps each median was taken over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// Each leaf module's call, timed alone.
    #[serde(deserialize_with = "modules")]
    pub layers: Vec<ModuleTime>,
    /// The sum of the modules' times, seconds (as the profiler added it).
    #[serde(
        default,
        deserialize_with = "optional_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub layers_s: Option<f64>,
    /// The measured training step: forward, loss, backward and the
    /// optimizer's step, seconds.
    #[serde(deserialize_with = "step_seconds")]
    pub iteration_s: f64,
    /// A second batch every module and the step were timed at.
    #[serde(
        default,
        deserialize_with = "optional_batch",
        skip_serializing_if = "Option::is_none"
    )]
    pub batch2: Option<u64>,
    /// The measured training step at the second batch, seconds.
    #[serde(
        default,
        deserialize_with = "optional_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub iteration2_s: Option<f64>,
    /// Peak memory allocated during the step, bytes (GPUs).
    #[serde(
        default,
        deserialize_with = "optional_bytes",
        skip_serializing_if = "Option::is_none"
    )]
    pub peak_memory_bytes: Option<f64>,
    /// Bytes autograd saved for the backward pass.
    #[serde(
        default,
        deserialize_with = "optional_bytes",
        skip_serializing_if = "Option::is_none"
    )]
    pub saved_bytes: Option<f64>,
}

/// The device of a profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Device {
    /// `cuda` (NVIDIA and AMD GPUs), `cpu`, `mps`...
    #[serde(rename = "type")]
    pub kind: String,
    /// Its name (`torch.cuda.get_device_name`, or the processor's).
    pub name: String,
    /// Streaming multiprocessors (GPUs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sms: Option<u64>,
    /// Its memory, bytes (GPUs).
    #[serde(
        default,
        deserialize_with = "optional_bytes",
        skip_serializing_if = "Option::is_none"
    )]
    pub memory_bytes: Option<f64>,
}

/// One call of a leaf module, timed alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleTime {
    /// The module's path in the network (`layer1.0.conv1`).
    pub module: String,
    /// Which call of the module in a forward pass (0 for the first).
    #[serde(default)]
    pub call: u32,
    /// Its class (`Conv2d`).
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Its input's shape for one sample (the batch left out).
    #[serde(default, deserialize_with = "shape", skip_serializing_if = "Option::is_none")]
    pub input_shape: Option<Vec<u64>>,
    /// Forward seconds at the profile's batch.
    #[serde(deserialize_with = "seconds")]
    pub forward_s: f64,
    /// Backward seconds at the profile's batch.
    #[serde(deserialize_with = "seconds")]
    pub backward_s: f64,
    /// Forward seconds at the profile's second batch.
    #[serde(
        default,
        deserialize_with = "optional_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub forward2_s: Option<f64>,
    /// Backward seconds at the profile's second batch.
    #[serde(
        default,
        deserialize_with = "optional_seconds",
        skip_serializing_if = "Option::is_none"
    )]
    pub backward2_s: Option<f64>,
}

impl ModuleTime {
    /// Forward and backward seconds at the profile's batch.
    pub fn step_s(&self) -> f64 {
        self.forward_s + self.backward_s
    }

    /// Forward and backward seconds at the profile's second batch.
    pub fn step2_s(&self) -> Option<f64> {
        Some(self.forward2_s? + self.backward2_s?)
    }
}

impl TorchProfile {
    /// The sum of the modules' times, seconds.
    pub fn modules_s(&self) -> f64 {
        self.layers.iter().map(ModuleTime::step_s).sum()
    }
}

/// Reads a profile.
///
/// # Errors
/// A [`ParseError`] at its line and column: JSON that is malformed or not
/// a profile, another format, a time that is negative, not finite or
/// above 10^6 s (the step must be above 0), a batch outside 1 to 2^53, a
/// shape of more than 8 sizes or a size of 0, more than 2^20 modules, a
/// blank name; with a second batch, one equal to the first, or a step or
/// a module without its times at it (and second times without a second
/// batch).
pub fn parse(text: &str) -> Result<TorchProfile, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let profile: TorchProfile = serde_json::from_str(text).map_err(|e| super::json::json_error(&e))?;
    for (key, value) in [("name", &profile.name), ("device.name", &profile.device.name)] {
        if value.trim().is_empty() {
            let (line, column) = position_of(text, key);
            return Err(ParseError::at(line, column, ParseProblem::Missing(format!("a {key}"))));
        }
    }
    let second = profile.batch2.is_some();
    let at = |key: &str, problem: String| {
        let (line, column) = position_of(text, key);
        ParseError::at(line, column, ParseProblem::Broken(format!("it needs {problem}")))
    };
    if profile.batch2 == Some(profile.batch) {
        return Err(at("batch2", "a second batch other than the first".into()));
    }
    if second != profile.iteration2_s.is_some() {
        return Err(at(
            if second { "batch2" } else { "iteration2_s" },
            "both batch2 and iteration2_s, or neither".into(),
        ));
    }
    // two batches give the step as a line in the batch: the larger batch's step must be slower,
    // or the line says the step does not grow with the batch (round 4: 13 s an epoch at 4,096
    // per GPU, against 11,180 s from one batch)
    if let (Some(b2), Some(t2)) = (profile.batch2, profile.iteration2_s) {
        let (small, large) = if b2 > profile.batch {
            ((profile.batch, profile.iteration_s), (b2, t2))
        } else {
            ((b2, t2), (profile.batch, profile.iteration_s))
        };
        if large.1 <= small.1 {
            return Err(at(
                "iteration2_s",
                format!(
                    "a step at batch {} slower than at batch {} ({} s against {} s measured): the \
                     step must grow with the batch for the two batches to give its line; measure \
                     again with more steps, or give one batch",
                    large.0,
                    small.0,
                    crate::oracle::units::significant(large.1, 3),
                    crate::oracle::units::significant(small.1, 3)
                ),
            ));
        }
    }
    let quoted = crate::oracle::model::errors::quoted;
    if let Some(m) = profile.layers.iter().find(|m| m.step2_s().is_some() != second) {
        let when = if second {
            "at the second batch"
        } else {
            "only with a batch2"
        };
        return Err(at(
            &m.module,
            format!("forward2_s and backward2_s of module '{}' {when}", quoted(&m.module)),
        ));
    }
    // a module's call listed twice: which time is the module's?
    let mut seen = std::collections::HashSet::new();
    if let Some(m) = profile
        .layers
        .iter()
        .find(|m| !seen.insert((m.module.as_str(), m.call)))
    {
        return Err(at(
            &m.module,
            format!(
                "module '{}' call {} once: it is listed twice",
                quoted(&m.module),
                m.call
            ),
        ));
    }
    if !profile.layers.is_empty() && profile.layers.iter().all(|m| m.step_s() == 0.0) {
        return Err(at("layers", "a time above 0 on some module (every one is 0 s)".into()));
    }
    Ok(profile)
}

/// Writes a profile as the profiler does (indented JSON): [`parse`] reads
/// it back to the same value.
pub fn write(profile: &TorchProfile) -> String {
    serde_json::to_string_pretty(profile).unwrap_or_default()
}

/// The line and column of the first `"key"` (its last part) in `text`, or
/// the start.
fn position_of(text: &str, key: &str) -> (usize, usize) {
    let last = key.rsplit('.').next().unwrap_or(key);
    let needle = format!("\"{last}\"");
    let Some(offset) = text.find(&needle) else {
        return (1, 1);
    };
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

fn format_tag<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let tag = String::deserialize(d)?;
    if tag == FORMAT {
        Ok(tag)
    } else {
        Err(D::Error::custom(format!(
            "the format is '{}', this tool reads '{FORMAT}'",
            crate::oracle::model::errors::quoted(&tag)
        )))
    }
}

fn checked_seconds<E: serde::de::Error>(value: f64, min_exclusive: bool) -> Result<f64, E> {
    let low_ok = if min_exclusive { value > 0.0 } else { value >= 0.0 };
    if value.is_finite() && low_ok && value <= MAX_SECONDS {
        Ok(value)
    } else {
        let low = if min_exclusive { "above 0" } else { "from 0" };
        Err(E::custom(format!(
            "a time must be {low} to {MAX_SECONDS} s, found {value}"
        )))
    }
}

fn seconds<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    checked_seconds(f64::deserialize(d)?, false)
}

fn step_seconds<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    checked_seconds(f64::deserialize(d)?, true)
}

fn optional_seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<f64>::deserialize(d)?
        .map(|s| checked_seconds(s, false))
        .transpose()
}

fn optional_bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match Option::<f64>::deserialize(d)? {
        Some(b) if !(b.is_finite() && (0.0..=MAX_BYTES).contains(&b)) => Err(D::Error::custom(format!(
            "a number of bytes must be from 0 to {MAX_BYTES}, found {b}"
        ))),
        other => Ok(other),
    }
}

fn batch<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    // read as a number of any kind, so that -8 and 2.5 are told as batches
    let b = f64::deserialize(d)?;
    if b.fract() == 0.0 && (1.0..=MAX_COUNT as f64).contains(&b) {
        Ok(b as u64)
    } else {
        Err(D::Error::custom(format!(
            "the batch must be a whole number from 1 to {MAX_COUNT}, found {b}"
        )))
    }
}

fn optional_batch<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    struct Batch(#[serde(deserialize_with = "batch")] u64);
    Ok(Option::<Batch>::deserialize(d)?.map(|b| b.0))
}

fn shape<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u64>>, D::Error> {
    let dims = Option::<Vec<u64>>::deserialize(d)?;
    if let Some(dims) = &dims {
        if dims.len() > MAX_RANK {
            return Err(D::Error::custom(format!(
                "a shape has at most {MAX_RANK} sizes, found {}",
                dims.len()
            )));
        }
        if dims.contains(&0) {
            return Err(D::Error::custom("a shape's sizes must be at least 1, found 0"));
        }
    }
    Ok(dims)
}

fn modules<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ModuleTime>, D::Error> {
    struct Bounded;
    impl<'de> serde::de::Visitor<'de> for Bounded {
        type Value = Vec<ModuleTime>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "a list of at most {MAX_MODULES} modules")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(m) = seq.next_element::<ModuleTime>()? {
                if out.len() == MAX_MODULES {
                    return Err(A::Error::custom(format!("more than {MAX_MODULES} modules")));
                }
                out.push(m);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Bounded)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) const TINY: &str = r#"{
 "format": "paradl-profile/1",
 "name": "tiny",
 "batch": 4,
 "precision": "bf16",
 "input_shape": [3, 8, 8],
 "parameters": 224,
 "device": {"type": "cuda", "name": "NVIDIA H100 80GB HBM3", "sms": 132, "memory_bytes": 85e9},
 "layers": [
  {"module": "conv", "call": 0, "type": "Conv2d", "input_shape": [3, 8, 8], "forward_s": 0.001, "backward_s": 0.002},
  {"module": "relu", "type": "ReLU", "forward_s": 0.0005, "backward_s": 0.0005}
 ],
 "iteration_s": 0.01,
 "peak_memory_bytes": 1000000,
 "saved_bytes": 4096
}"#;

    #[test]
    fn a_profile_is_read_and_written_back() {
        let p = parse(TINY).unwrap();
        assert_eq!(p.batch, 4);
        assert_eq!(p.precision, Precision::Bf16);
        assert_eq!(p.device.sms, Some(132));
        assert_eq!(p.layers[1].call, 0);
        assert!((p.modules_s() - 0.004).abs() < 1e-15);
        assert_eq!(parse(&write(&p)).unwrap(), p);
    }

    fn error_of(text: &str) -> ParseError {
        parse(text).unwrap_err()
    }

    #[test]
    fn bad_values_are_errors_at_their_line() {
        let e = error_of(&TINY.replace("\"forward_s\": 0.001", "\"forward_s\": -0.001"));
        assert_eq!(e.line, 10, "{e}");
        assert!(e.to_string().contains("a time must be from 0"), "{e}");
        let e = error_of(&TINY.replace("\"batch\": 4", "\"batch\": 0"));
        assert_eq!(e.line, 4);
        assert!(e.to_string().contains("batch must be a whole number from 1"), "{e}");
        let e = error_of(&TINY.replace("\"iteration_s\": 0.01", "\"iteration_s\": 0"));
        assert_eq!(e.line, 13);
        let e = error_of(&TINY.replace("paradl-profile/1", "paradl-profile/9"));
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("'paradl-profile/9'"), "{e}");
        let e = error_of(&TINY.replace("[3, 8, 8],\n \"parameters\"", "[3, 0, 8],\n \"parameters\""));
        assert_eq!(e.line, 6, "{e}");
        let e = error_of(&TINY.replace("\"name\": \"tiny\"", "\"name\": \"  \""));
        assert_eq!((e.line, e.column), (3, 2), "{e}");
        let e = error_of(&TINY.replace("\"peak_memory_bytes\": 1000000", "\"peak_memory_bytes\": -1"));
        assert_eq!(e.line, 14, "{e}");
        let e = error_of("{\"format\": \"paradl-profile/1\", \"batch\": 1");
        assert!(matches!(e.problem, ParseProblem::Json(_)), "{e}");
        let e = error_of(&TINY.replace("\"iteration_s\": 0.01,", ""));
        assert!(e.to_string().contains("iteration_s"), "{e}");
    }

    #[test]
    fn a_module_listed_twice_or_no_time_at_all_is_refused() {
        let twice = TINY.replace(
            r#"{"module": "relu", "type""#,
            r#"{"module": "conv", "call": 0, "type": "Conv2d", "forward_s": 0.5, "backward_s": 0.5},
  {"module": "relu", "type""#,
        );
        let e = error_of(&twice).to_string();
        assert!(e.contains("listed twice") && e.contains("'conv'"), "{e}");
        // the same module at another call is not a duplicate
        assert!(
            parse(&twice.replace(
                r#""call": 0, "type": "Conv2d", "forward_s": 0.5"#,
                r#""call": 1, "type": "Conv2d", "forward_s": 0.5"#
            ))
            .is_ok()
        );
        let zero = TINY
            .replace(
                r#""forward_s": 0.001, "backward_s": 0.002"#,
                r#""forward_s": 0, "backward_s": 0"#,
            )
            .replace(
                r#""forward_s": 0.0005, "backward_s": 0.0005"#,
                r#""forward_s": 0, "backward_s": 0"#,
            );
        let e = error_of(&zero);
        assert!(e.to_string().contains("every one is 0 s"), "{e}");
        assert_eq!(e.line, 9, "{e}");
    }

    #[test]
    fn a_byte_order_mark_is_read() {
        assert!(parse(&format!("\u{feff}{TINY}")).is_ok());
    }
}
