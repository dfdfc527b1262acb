//! Loading models, clusters and split sets named on the command line.

use std::path::Path;

use super::args::{Common, ExportArgs, ExportFormat, ModelArgs};
use super::{CliError, json};
use crate::oracle::formats::{self, lc, net, plat};
use crate::oracle::model::convergence::Convergence;
use crate::oracle::model::energy::{Costs, Grid, Price};
use crate::oracle::model::errors::listed;
use crate::oracle::{Batch, Cluster, InputError, Network, OracleError, RunSpec, Scenario, Strategy, presets};

/// A scenario and the run settings shared by every projection of a command.
pub struct Loaded {
    /// The model on the cluster.
    pub scenario: Scenario,
    /// Batch, group, split, bytes per item, update time, edition and
    /// calibration (strategy and GPUs are set by the command).
    pub template: RunSpec,
}

/// Loads `--model`, `--cluster` and `--split` and builds the run template
/// of a batch of one sample per GPU, uncalibrated.
///
/// # Errors
/// A [`CliError`] naming the input that failed.
pub fn load_model(args: &ModelArgs) -> Result<Loaded, CliError> {
    let mut network = model(&args.model, args.input_shape.as_deref())?.network;
    if let Some(path) = &args.profile {
        network = profiled(network, path)?;
    }
    if let Some(samples) = args.dataset_samples {
        network = network
            .with_dataset_samples(samples)
            .map_err(|e| oracle("--dataset-samples".into(), e.into()))?;
    }
    let convergence = match &args.convergence {
        Some(text) => Some(Convergence::parse(text).map_err(|e| oracle("--convergence".into(), e.into()))?),
        None => presets::usual_convergence(&args.model).map(|(c, _)| c),
    };
    let costs = costs(args)?;
    let cluster = cluster(&args.cluster)?;
    if args.edition == crate::oracle::Edition::Realistic {
        warn_fallbacks(&args.cluster, &cluster);
    }
    let split = match &args.split {
        Some(path) => {
            let text = read(path)?;
            Some(lc::parse(&text, &network).map_err(|e| oracle(path.display().to_string(), e.into()))?)
        }
        None => None,
    };
    Ok(Loaded {
        scenario: Scenario::new(network, cluster),
        template: RunSpec {
            bytes_per_item: args.bytes_per_item,
            segments: args.segments,
            split,
            update_s: args.update_s,
            precision: args.precision,
            optimizer: args.optimizer,
            zero: args.zero,
            recompute: args.recompute,
            overlap: args.overlap,
            bucket_mib: args.bucket_mib,
            memory_format: args.memory_format,
            attention: args.attention,
            convergence,
            costs,
            ..RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(1.0)).in_edition(args.edition)
        },
    })
}

/// The run's costs from `--grid`, `--price`, `--usd-per-kwh` and `--pue`.
///
/// # Errors
/// A [`CliError`] naming the flag whose value breaks its rule.
fn costs(args: &ModelArgs) -> Result<Costs, CliError> {
    // each error is said on the flag of the field it names
    let on_flag = |e: crate::oracle::InputError| {
        let flag = [
            ("grid", "--grid"),
            ("price", "--price"),
            ("usd_per_kwh", "--usd-per-kwh"),
            ("pue", "--pue"),
        ]
        .into_iter()
        .find(|(field, _)| e.field.is(&["costs", field]))
        .map_or("--grid", |(_, flag)| flag);
        oracle(flag.into(), e.into())
    };
    let costs = Costs {
        grid: args.grid.as_deref().map(Grid::parse).transpose().map_err(on_flag)?,
        price: args.price.as_deref().map(Price::parse).transpose().map_err(on_flag)?,
        usd_per_kwh: args.usd_per_kwh,
        pue: args.pue,
    };
    costs.check().map_err(on_flag)?;
    Ok(costs)
}

/// Loads what [`load_model`] does, the batch, the group and `--calibration`.
///
/// # Errors
/// A [`CliError`] naming the input that failed.
pub fn load(common: &Common) -> Result<Loaded, CliError> {
    let mut loaded = load_unbatched(&common.model, common.calibration.as_deref(), common.group)?;
    loaded.template.batch = match (common.samples_per_gpu, common.batch) {
        (Some(b), _) => Batch::SamplesPerGpu(b),
        (None, Some(b)) => Batch::MiniBatch(b),
        (None, None) => Batch::SamplesPerGpu(1.0),
    };
    Ok(loaded)
}

/// The scenario and template without a batch (one sample per GPU), for
/// what finds the batch itself (`capacity`).
///
/// # Errors
/// As [`load`].
pub fn load_unbatched(model: &ModelArgs, calibration: Option<&Path>, group: Option<u64>) -> Result<Loaded, CliError> {
    let mut loaded = load_model(model)?;
    loaded.template.group_size = group;
    if let Some(path) = calibration {
        let text = read(path)?;
        let factors = formats::json::factors(&text).map_err(|e| oracle(path.display().to_string(), e))?;
        loaded.template.calibration = Some(factors);
    }
    Ok(loaded)
}

/// `network` with the times of the profile at `path` (section 12); what
/// the profile did not cover is noted on stderr.
///
/// # Errors
/// A [`CliError`] when the profile cannot be read or is of another
/// network.
pub fn profiled(network: Network, path: &Path) -> Result<Network, CliError> {
    let text = read(path)?;
    let context = || path.display().to_string();
    let profile = formats::profile::parse(&text).map_err(|e| oracle(context(), e.into()))?;
    let applied =
        formats::profile::apply(&network, &profile, presets::devices::known_gpu).map_err(|e| oracle(context(), e))?;
    for warning in &applied.warnings {
        super::note(&format!("note: {}: {warning}", listed(&context())));
    }
    Ok(applied.network)
}

/// An error in a file of measured runs.
pub fn measured_error(path: &Path, error: crate::oracle::ParseError) -> CliError {
    oracle(path.display().to_string(), error.into())
}

/// Reads a file of measured runs.
///
/// # Errors
/// A [`CliError`] when it cannot be read or parsed (line and column).
pub fn measured(path: &Path) -> Result<Vec<crate::oracle::Located>, CliError> {
    let text = read(path)?;
    formats::measured::parse(&text).map_err(|e| measured_error(path, e))
}

/// An error of the run's own settings.
pub fn run_error(source: OracleError) -> CliError {
    oracle("run".into(), source)
}

fn oracle(context: String, source: OracleError) -> CliError {
    CliError::Oracle {
        context,
        source: Box::new(source),
    }
}

/// Largest text file read (a cluster, a calibration, measured runs): 64 MiB.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// Largest file read from a pipe or another stream without a size: 256 MiB.
pub const MAX_STREAM_BYTES: u64 = 256 << 20;

/// A file's bytes, refused beyond `limit`: never more than `limit + 1`
/// bytes are read, whatever the file says its size is (a device such as
/// `/dev/zero`, a pipe, standard input).
fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    let io = |source| CliError::Io {
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    // a device (`/dev/zero`, a disk) is no file to read a model from; a pipe (`<(...)`) has no
    // size to check first, so it is read to a smaller limit
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_char_device() || kind.is_block_device() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "a device, not a file",
            )));
        }
    }
    let limit = if metadata.is_file() {
        limit
    } else {
        limit.min(MAX_STREAM_BYTES)
    };
    let too_big = |size: String| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "a file of {size}: at most {} are read",
                crate::oracle::units::bytes(limit as f64)
            ),
        ))
    };
    let size = metadata.len();
    if size > limit {
        return Err(too_big(crate::oracle::units::bytes(size as f64)));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(format!(
            "more than {}",
            crate::oracle::units::bytes(limit as f64)
        )));
    }
    Ok(bytes)
}

/// A network file's bytes (at most [`formats::network::MAX_FILE_BYTES`]).
fn read_bytes(path: &Path) -> Result<Vec<u8>, CliError> {
    read_limited(path, formats::network::MAX_FILE_BYTES)
}

/// A text file (at most [`MAX_TEXT_BYTES`]), without a byte-order mark.
fn read(path: &Path) -> Result<String, CliError> {
    let bytes = read_limited(path, MAX_TEXT_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|e| CliError::Io {
        path: path.display().to_string(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    Ok(text.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(text))
}

fn is_json(path: &Path, text: &str) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) || text.trim_start().starts_with('{')
}

/// A preset by name, or else a file read by `parse(path, text, is_json)`.
fn preset_or_file<T>(
    option: &str,
    name: &str,
    preset: fn(&str) -> Result<T, OracleError>,
    parse: fn(&Path, &str, bool) -> Result<T, OracleError>,
) -> Result<T, CliError> {
    let path = Path::new(name);
    if !path.exists() {
        let looks_like_a_path = !name.starts_with(presets::node::PREFIX) && name.contains(['/', '\\', '.']);
        return match preset(name) {
            Ok(value) => Ok(value),
            // `resnet50` is a preset; `nets/my.net` or `x.json` is a file that is not there
            Err(_) if looks_like_a_path => Err(CliError::Io {
                path: name.into(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            }),
            Err(e) => Err(oracle(format!("{option} {name}"), e)),
        };
    }
    let text = read(path)?;
    parse(path, &text, is_json(path, &text)).map_err(|e| oracle(name.into(), e))
}

/// A model read from a preset or file, and what an ONNX import merged.
pub struct Model {
    pub network: Network,
    /// ONNX operators that became no layer, with their counts (empty for
    /// the other sources).
    pub merged: std::collections::BTreeMap<String, usize>,
}

/// A model preset or a `.net`/`.json`/`.onnx` file; `input_shape` (such as
/// `3x224x224`) for an ONNX graph whose input sizes are symbolic.
///
/// # Errors
/// A [`CliError`] naming the input that failed.
pub fn model(name: &str, input_shape: Option<&str>) -> Result<Model, CliError> {
    let path = Path::new(name);
    if !path.exists() {
        let network = preset_or_file("--model", name, presets::network, |_, _, _| {
            Err(crate::oracle::ParseError::at(1, 1, crate::oracle::ParseProblem::Missing("a file".into())).into())
        })?;
        return Ok(Model {
            network,
            merged: Default::default(),
        });
    }
    let input_shape = input_shape.map(formats::parse_shape).transpose().map_err(|problem| {
        oracle(
            "--input-shape".into(),
            crate::oracle::ParseError::at(1, 1, problem).into(),
        )
    })?;
    let bytes = read_bytes(path)?;
    let hints = formats::network::Hints {
        input_shape,
        ..Default::default()
    };
    let read = formats::network::read_network(&bytes, name, &hints).map_err(|e| oracle(name.into(), e))?;
    Ok(Model {
        network: read.network,
        merged: read.merged,
    })
}

/// Says on standard error which terms of the realistic edition fall back
/// to an older section on `cluster` for want of a fact, and how to give it.
fn warn_fallbacks(name: &str, cluster: &Cluster) {
    let fallbacks = cluster.fallbacks();
    for fallback in &fallbacks {
        super::note(&format!("warning: --cluster {}: {fallback}", listed(name)));
    }
    if !fallbacks.is_empty() {
        super::note(&format!("  to fix: {}", crate::oracle::Fallback::remedy()));
    }
}

/// A cluster preset or a `.plat`/`.json` file (named after the file).
fn cluster(name: &str) -> Result<Cluster, CliError> {
    preset_or_file("--cluster", name, presets::cluster, |path, text, json| {
        if json {
            return formats::json::cluster(text);
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("platform");
        plat::parse(text, stem).map_err(OracleError::from)
    })
}

/// `paradl export`.
///
/// # Errors
/// A [`CliError`] when the input cannot be loaded or the format cannot
/// express it.
pub fn export(args: &ExportArgs) -> Result<String, CliError> {
    let not_for = |what: &str| -> CliError {
        oracle(
            "--format".into(),
            InputError::new(
                "format",
                crate::oracle::Rule::NotRepresentable(format!("this format is not for {what}")),
            )
            .into(),
        )
    };
    match (&args.model, &args.cluster) {
        (Some(name), _) => {
            let mut network = model(name, args.input_shape.as_deref())?.network;
            if let Some(path) = &args.profile {
                network = profiled(network, path)?;
            }
            match args.format {
                ExportFormat::Json => json(&network.spec()),
                ExportFormat::Net => net::write(&network).map_err(|e| oracle(name.clone(), e.into())),
                ExportFormat::Plat => Err(not_for("models: use json or net")),
            }
        }
        (None, Some(name)) => {
            let cluster = cluster(name)?;
            match args.format {
                ExportFormat::Json => json(cluster.spec()),
                ExportFormat::Plat => plat::write(&cluster).map_err(|e| oracle(name.clone(), e.into())),
                ExportFormat::Net => Err(not_for("clusters: use json or plat")),
            }
        }
        (None, None) => Err(not_for("nothing: give --model or --cluster")),
    }
}
