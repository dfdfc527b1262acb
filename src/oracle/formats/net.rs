//! The original tool's network files (`.net`, `.net_sc`):
//!
//! ```text
//! Dataset|ImageNet
//! Input|1280000x3x226x226
//! Model|AlexNet
//! CONV1|3x226x226|3x96x11x11|96x54x54|0.000610938
//! RELU|96x54x54|96x96x0x0|96x54x54|0
//! ```
//!
//! `Input` is the dataset size then the sample shape. Each layer line is
//! `NAME|x|w|y[|time]`; the kind comes from the name (`CONV*` conv, `FC*`
//! fc, `MPOOL` maxpool, `APOOL` avgpool, `RELU`, `BNORM` bn, `ADD`,
//! `DROPOUT`, anything else other). Lines starting with `#` are comments.
//!
//! One comment means something to this tool (the original one skips it):
//! `#profiled_on|NAME|FLOP/s|memory bytes/s[|GEMM FLOP/s]` records the GPU
//! the profiled time was measured on (the bandwidth may be empty; the
//! sustained rate of its FP32 matrix multiplications, section 11, may be
//! left out), so that the realistic edition can scale it (contract,
//! section 7). And `#reads|INDEX|READS` records what a branched network's
//! layer `INDEX` (0-based, counting layer lines) reads, which ParaDL's
//! layer lines cannot say: the outputs of the layers of those indices,
//! comma-separated (`-1` the network's input).

use std::fmt::Write;

use super::lines::{Field, Line, end_line, lines, parse_number, parse_shape};
use crate::oracle::model::errors::{InputError, OracleError, ParseError, ParseProblem, Rule};
use crate::oracle::model::field::{Field as Path, Segment};
use crate::oracle::model::layer::{Layer, LayerKind, LayerSpec};
use crate::oracle::model::network::{DatasetSpec, Network, NetworkSpec, ProfiledGpu, layer_field};

/// The comment that records the profile's GPU.
const PROFILED_ON: &str = "#profiled_on|";

/// The profile's GPU, from its comment line, if the file has one.
fn profiled_on(text: &str) -> Result<Option<ProfiledGpu>, ParseError> {
    let mut found = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with(PROFILED_ON));
    let Some((index, raw)) = found.next() else {
        return Ok(None);
    };
    // one GPU measured the profile: a second line would leave one of them unread
    if let Some((again, raw)) = found.next() {
        let column = raw.len() - raw.trim_start().len() + 1;
        return Err(ParseError::at(
            again + 1,
            column,
            ParseProblem::Duplicate("#profiled_on".into()),
        ));
    }
    let line = Line {
        number: index + 1,
        fields: super::lines::split_fields(raw.strip_suffix('\r').unwrap_or(raw)),
    };
    let name = line.field(1, "GPU name")?;
    let flops = line.field(2, "FLOP/s")?;
    let gpu = ProfiledGpu {
        name: name.text.into(),
        flops_per_s: parse_number(&line, flops, "number of FLOP/s")?,
        memory_bandwidth_bytes_per_s: match line.fields.get(3) {
            Some(f) if !f.text.is_empty() => Some(parse_number(&line, *f, "number of bytes/s")?),
            _ => None,
        },
        gemm_flops_per_s: match line.fields.get(4) {
            Some(f) if !f.text.is_empty() => Some(parse_number(&line, *f, "number of FLOP/s")?),
            _ => None,
        },
        kernels: None,
    };
    Ok(Some(gpu))
}

/// The comment that records the tensors a layer reads.
const READS: &str = "#reads|";

/// The `#reads|` comments of `text`, each applied to its layer.
fn layer_comments(text: &str, layers: &mut [LayerSpec]) -> Result<(), ParseError> {
    let count = layers.len();
    for (index, raw) in text.split('\n').enumerate() {
        if !raw.trim_start().starts_with(READS) {
            continue;
        }
        let line = Line {
            number: index + 1,
            fields: super::lines::split_fields(raw.strip_suffix('\r').unwrap_or(raw)),
        };
        let at = line.field(1, "layer index")?;
        let i: usize = parse_number(&line, at, "layer index")?;
        let Some(layer) = layers.get_mut(i) else {
            return Err(line.error(
                at,
                ParseProblem::Unexpected {
                    found: at.text.chars().take(40).collect(),
                    expected: format!("the index of one of the {count} layers"),
                },
            ));
        };
        if layer.reads.is_some() {
            return Err(line.error(at, ParseProblem::Duplicate(format!("#reads|{i}"))));
        }
        let reads = line.field(2, "layers read")?;
        if let Some(extra) = line.fields.get(3) {
            return Err(line.error(
                *extra,
                ParseProblem::Unexpected {
                    found: extra.text.into(),
                    expected: "the end of the line (#reads|INDEX|READS)".into(),
                },
            ));
        }
        let mut sources = Vec::new();
        for part in reads.text.split(',') {
            let field = Field {
                text: part.trim(),
                column: reads.column,
            };
            sources.push(parse_number::<i64>(&line, field, "layer index (-1 for the input)")?);
        }
        layer.reads = Some(sources);
    }
    Ok(())
}

/// The kind a ParaDL layer name stands for.
pub fn kind_from_name(name: &str) -> LayerKind {
    let upper = name.trim().to_ascii_uppercase();
    const PREFIXES: [(&str, LayerKind); 8] = [
        ("CONV", LayerKind::Conv),
        ("FC", LayerKind::Fc),
        ("MPOOL", LayerKind::Maxpool),
        ("APOOL", LayerKind::Avgpool),
        ("RELU", LayerKind::Relu),
        ("BNORM", LayerKind::Bn),
        ("ADD", LayerKind::Add),
        ("DROPOUT", LayerKind::Dropout),
    ];
    PREFIXES
        .iter()
        .find(|(prefix, _)| upper.starts_with(prefix))
        .map_or(LayerKind::Other, |(_, kind)| *kind)
}

/// Reads a `.net` file.
///
/// # Errors
/// A [`ParseError`] with the line and column of the first problem: a
/// missing header, a malformed shape or number, an unknown header key, a
/// layer that breaks a rule of [`Layer::new`] or [`Network::new`].
pub fn parse(text: &str) -> Result<Network, ParseError> {
    let mut dataset_name = None;
    let mut input = None;
    let mut model = None;
    let mut layers = Vec::new();
    let mut positions = Vec::new();
    for line in lines(text) {
        let key = line.field(0, "name")?;
        let header = match key.text.to_ascii_lowercase().as_str() {
            "dataset" => Some(&mut dataset_name),
            "model" => Some(&mut model),
            "input" => Some(&mut input),
            _ => None,
        };
        if let Some(slot) = header {
            if !layers.is_empty() {
                return Err(line.error(
                    key,
                    ParseProblem::Unexpected {
                        found: key.text.into(),
                        expected: "a layer line: headers come first".into(),
                    },
                ));
            }
            if slot.is_some() {
                return Err(line.error(key, ParseProblem::Duplicate(key.text.into())));
            }
            *slot = Some((line.clone(), line.field(1, key.text)?));
            continue;
        }
        layers.push(parse_layer(&line, layers.len())?);
        positions.push(line.number);
    }
    let missing = |name: &str| ParseError::at(end_line(text), 1, ParseProblem::Missing(name.into()));
    let (dataset_line, dataset_field) = dataset_name.ok_or_else(|| missing("Dataset|<name>"))?;
    let (model_line, model_field) = model.ok_or_else(|| missing("Model|<name>"))?;
    let (input_line, input_field) = input.ok_or_else(|| missing("Input|<samples>x<sample shape>"))?;
    let dims = parse_shape(input_field.text).map_err(|p| input_line.error(input_field, p))?;
    let (samples, sample_shape) = match dims.dims().split_first() {
        Some((&samples, rest)) => (samples, rest.to_vec().into()),
        None => return Err(input_line.error(input_field, ParseProblem::BadShape(input_field.text.into()))),
    };
    layer_comments(text, &mut layers)?;
    let spec = NetworkSpec {
        name: model_field.text.into(),
        dataset: DatasetSpec {
            name: dataset_field.text.into(),
            samples,
            sample_shape,
        },
        layers,
        profiled_on: profiled_on(text)?,
        step: None,
    };
    Network::new(spec).map_err(|err| {
        let headers = Headers {
            model: (&model_line, model_field),
            dataset: (&dataset_line, dataset_field),
            input: (&input_line, input_field),
        };
        locate(err, text, &positions, &headers)
    })
}

/// Where the header values sit, for errors about them.
struct Headers<'a, 'b> {
    model: (&'b Line<'a>, Field<'a>),
    dataset: (&'b Line<'a>, Field<'a>),
    input: (&'b Line<'a>, Field<'a>),
}

/// Reads a `.net` file, keeping the error's own type.
///
/// # Errors
/// As [`parse`].
pub fn read(text: &str) -> Result<Network, OracleError> {
    parse(text).map_err(OracleError::from)
}

fn parse_layer(line: &Line<'_>, index: usize) -> Result<LayerSpec, ParseError> {
    if line.fields.len() > 5 {
        let extra = line.fields[5];
        return Err(line.error(
            extra,
            ParseProblem::Unexpected {
                found: extra.text.into(),
                expected: "at most 5 fields: NAME|x|w|y|time".into(),
            },
        ));
    }
    let name = line.field(0, "name")?;
    let shape = |index: usize, what: &str| -> Result<_, ParseError> {
        let field = line.field(index, what)?;
        parse_shape(field.text).map_err(|p| line.error(field, p))
    };
    let x = shape(1, "x (input shape)")?;
    let w = shape(2, "w (weight shape)")?;
    let y = shape(3, "y (output shape)")?;
    let time_s = match line.fields.get(4) {
        Some(field) if !field.text.is_empty() => Some(parse_number::<f64>(line, *field, "time in seconds")?),
        _ => None,
    };
    let spec = LayerSpec {
        time_s,
        ..LayerSpec::plain(name.text, kind_from_name(name.text), x, w, y)
    };
    Layer::check(&spec).map_err(|err| {
        let field = field_of(line, err.field.segments());
        line.error(field, ParseProblem::Invalid(err.within(&layer_field(index, &spec))))
    })?;
    Ok(spec)
}

/// The field of a layer line a field path within the layer points at.
fn field_of<'a>(line: &Line<'a>, path: &[Segment]) -> Field<'a> {
    let index = match Path::first_key(path) {
        Some("x") => 1,
        Some("w") => 2,
        Some("y") => 3,
        Some("time_s") => 4,
        _ => 0,
    };
    line.fields
        .get(index)
        .or(line.fields.first())
        .copied()
        .unwrap_or(Field { text: "", column: 1 })
}

/// The position of a network-level error: the layer's line and field (the
/// line found again from its number, so that parsing keeps no per-line
/// data), or the header it is about.
fn locate(err: InputError, text: &str, positions: &[usize], headers: &Headers<'_, '_>) -> ParseError {
    let (input_line, input_field) = headers.input;
    if let Some((index, rest)) = err.field.in_layer() {
        let line = positions
            .get(index)
            .and_then(|&number| lines(text).find(|l| l.number == number));
        return match line {
            Some(line) => line.error(field_of(&line, rest), ParseProblem::Invalid(err)),
            None => input_line.error(input_field, ParseProblem::Invalid(err)),
        };
    }
    let (line, field) = if err.field.is(&["layers"]) {
        return ParseError::at(input_line.number + 1, 1, ParseProblem::Invalid(err));
    } else if err.field.is(&["name"]) {
        headers.model
    } else if err.field.starts_with(&["dataset", "name"]) {
        headers.dataset
    } else {
        headers.input
    };
    line.error(field, ParseProblem::Invalid(err))
}

/// Writes a network as a `.net` file that [`parse`] reads back to the same
/// network.
///
/// # Errors
/// [`Rule::NotRepresentable`] when a layer's name does not stand for its
/// kind, or a name holds `|` or a line break, or starts with `#`, or a
/// layer has groups, a bias, a function or shared weights (`shares`),
/// which ParaDL's layer lines cannot say.
pub fn write(network: &Network) -> Result<String, InputError> {
    let spec = network.spec();
    let mut text = String::new();
    let mut input = vec![spec.dataset.samples];
    input.extend_from_slice(spec.dataset.sample_shape.dims());
    let _ = writeln!(
        text,
        "Dataset|{}",
        clean(Path::from("dataset.name"), &spec.dataset.name, false)?
    );
    let _ = writeln!(text, "Input|{}", crate::oracle::model::shape::Shape::new(input));
    let _ = writeln!(text, "Model|{}", clean(Path::from("name"), &spec.name, false)?);
    if let Some(gpu) = &spec.profiled_on {
        let name = clean(Path::from("profiled_on.name"), &gpu.name, false)?;
        let bandwidth = gpu
            .memory_bandwidth_bytes_per_s
            .map(|b| format!("{b:e}"))
            .unwrap_or_default();
        let gemm = gpu.gemm_flops_per_s.map(|r| format!("|{r:e}")).unwrap_or_default();
        let _ = writeln!(text, "{PROFILED_ON}{name}|{:e}|{bandwidth}{gemm}", gpu.flops_per_s);
    }
    for (i, layer) in spec.layers.iter().enumerate() {
        let field = Path::from("name").within(&layer_field(i, layer));
        let name = clean(field.clone(), &layer.name, true)?;
        let reserved = ["dataset", "model", "input"].contains(&name.to_ascii_lowercase().as_str());
        if kind_from_name(name) != layer.kind || reserved {
            return Err(InputError::new(
                field,
                Rule::NotRepresentable(format!(
                    "a .net layer's kind comes from its name, and '{name}' does not stand for {}",
                    layer.kind
                )),
            ));
        }
        for (key, held) in [
            ("groups", layer.groups != 1),
            ("bias", layer.bias),
            ("function", layer.function.is_some()),
            ("shares", layer.shares.is_some()),
        ] {
            if held {
                return Err(InputError::new(
                    Path::from(key).within(&layer_field(i, layer)),
                    Rule::NotRepresentable(format!("a .net file has no {key}: write the JSON form")),
                ));
            }
        }
        let _ = write!(text, "{name}|{}|{}|{}", layer.x, layer.w, layer.y);
        if let Some(time) = layer.time_s {
            let _ = write!(text, "|{time:e}");
        }
        text.push('\n');
        if let Some(reads) = &layer.reads {
            let reads: Vec<String> = reads.iter().map(i64::to_string).collect();
            let _ = writeln!(text, "{READS}{i}|{}", reads.join(","));
        }
    }
    Ok(text)
}

/// A name as it can be written: no surrounding blanks, `|` or control
/// character, and (for a layer, whose name starts its line) no leading `#`,
/// which would make the line a comment.
fn clean(field: Path, name: &str, starts_line: bool) -> Result<&str, InputError> {
    let trimmed = name.trim();
    if trimmed.contains('|')
        || trimmed.contains(char::is_control)
        || (starts_line && trimmed.starts_with('#'))
        || trimmed != name
    {
        return Err(InputError::new(
            field,
            Rule::NotRepresentable(format!(
                "'{name}' has surrounding blanks, a '|', a control character or (a layer) a leading '#'"
            )),
        ));
    }
    Ok(trimmed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str =
        "Dataset|Toy\nInput|100x3x8x8\nModel|Tiny\nCONV1|3x8x8|3x4x3x3|4x6x6|0.5\nRELU|4x6x6|4x4x0x0|4x6x6|0\n";

    #[test]
    fn the_profiles_gpu_travels_in_a_comment() {
        let text = TINY.replace("Model|Tiny\n", "Model|Tiny\n#profiled_on| V100 |7.8e12|4.5e11\n");
        let net = parse(&text).unwrap();
        let gpu = net.profiled_on().unwrap();
        assert_eq!(
            (gpu.name.as_str(), gpu.flops_per_s, gpu.memory_bandwidth_bytes_per_s),
            ("V100", 7.8e12, Some(4.5e11))
        );
        assert_eq!(parse(&write(&net).unwrap()).unwrap(), net);
        let err = parse(&TINY.replace("Model|Tiny\n", "Model|Tiny\n#profiled_on|V100|fast\n")).unwrap_err();
        assert_eq!((err.line, err.column), (4, 19));
        let err = parse(&TINY.replace("Model|Tiny\n", "Model|Tiny\n#profiled_on|V100|0\n")).unwrap_err();
        assert!(err.to_string().contains("profiled_on.flops_per_s"), "{err}");
    }

    #[test]
    fn reads_a_small_file() {
        let net = parse(TINY).unwrap();
        assert_eq!(net.name(), "Tiny");
        assert_eq!(net.dataset_samples(), 100);
        assert_eq!(net.spec().dataset.sample_shape.dims(), &[3, 8, 8]);
        assert_eq!(net.layers().len(), 2);
        assert_eq!(net.layers()[1].kind(), LayerKind::Relu);
        assert_eq!(net.layers()[0].time_s(), Some(0.5));
    }

    #[test]
    fn kinds_from_names() {
        assert_eq!(kind_from_name("CONV_2a1"), LayerKind::Conv);
        assert_eq!(kind_from_name("FC6"), LayerKind::Fc);
        assert_eq!(kind_from_name("MPOOL"), LayerKind::Maxpool);
        assert_eq!(kind_from_name("APOOL"), LayerKind::Avgpool);
        assert_eq!(kind_from_name("BNORM"), LayerKind::Bn);
        assert_eq!(kind_from_name("ADD"), LayerKind::Add);
        assert_eq!(kind_from_name("DROPOUT"), LayerKind::Dropout);
        assert_eq!(kind_from_name("SOFTMAX"), LayerKind::Other);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let bad_shape = TINY.replace("3x4x3x3", "3x4xx3");
        let err = parse(&bad_shape).unwrap_err();
        assert_eq!((err.line, err.column), (4, 13));
        assert!(matches!(err.problem, ParseProblem::BadShape(_)));

        let mismatch = TINY.replace("3x4x3x3", "5x4x3x3");
        let err = parse(&mismatch).unwrap_err();
        assert_eq!((err.line, err.column), (4, 13));
        match err.problem {
            ParseProblem::Invalid(e) => assert_eq!(e.field, "layers[0] CONV1.w[0]"),
            other => panic!("{other:?}"),
        }

        let bad_time = TINY.replace("|0.5", "|fast");
        let err = parse(&bad_time).unwrap_err();
        assert_eq!((err.line, err.column), (4, 27));

        let missing = TINY.replace("Model|Tiny\n", "");
        let err = parse(&missing).unwrap_err();
        assert_eq!(err.problem, ParseProblem::Missing("Model|<name>".into()));

        let short = TINY.replace("|4x6x6|0\n", "\n");
        let err = parse(&short).unwrap_err();
        assert_eq!(err.line, 5);
        assert!(matches!(err.problem, ParseProblem::MissingField(_)));

        let zero = TINY.replace("Input|100x", "Input|0x");
        let err = parse(&zero).unwrap_err();
        assert_eq!((err.line, err.column), (2, 7));
    }

    #[test]
    fn network_level_errors_point_at_the_layer() {
        // a time on two layers but not the third: partial profile on line 6
        let text = format!("{TINY}DROPOUT|4x6x6||4x6x6\n").replace("|0\n", "|0.1\n");
        let err = parse(&text).unwrap_err();
        assert_eq!(err.line, 6);
        assert_eq!(err.column, 1);
    }

    #[test]
    fn names_it_reads_it_writes_back_or_rejects_where_they_are() {
        // a carriage return inside a name: rejected at its line and column
        let err = parse(&TINY.replace("RELU|4x6x6", "RE\rLU|4x6x6")).unwrap_err();
        assert_eq!((err.line, err.column), (5, 1));
        let err = parse(&TINY.replace("Model|Tiny", "Model|Ti\rny")).unwrap_err();
        assert_eq!((err.line, err.column), (3, 7));
        // a leading '#' in the model or dataset name is read and written back
        let net = parse(
            &TINY
                .replace("Model|Tiny", "Model|#Tiny")
                .replace("Dataset|Toy", "Dataset|#Toy"),
        )
        .unwrap();
        assert_eq!(net.name(), "#Tiny");
        assert_eq!(parse(&write(&net).unwrap()).unwrap(), net);
    }

    #[test]
    fn an_error_in_a_layer_with_dots_in_its_name_points_at_its_field() {
        // a whole-model time on a network with no FLOPs: the error is on layer
        // 0's time, column 23, whatever dots its name holds (it was column 1)
        let text = "Dataset|Toy\nInput|100x4x6x6\nModel|Tiny\ndrop.a.b|4x6x6||4x6x6|0.5\nDROPOUT|4x6x6||4x6x6|0\n";
        let err = parse(text).unwrap_err();
        assert_eq!((err.line, err.column), (4, 23));
        match err.problem {
            ParseProblem::Invalid(e) => {
                assert_eq!(
                    e.field.in_layer().map(|(i, rest)| (i, Path::first_key(rest))),
                    Some((0, Some("time_s")))
                );
                assert_eq!(e.field, "layers[0] drop.a.b.time_s");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn writes_what_it_reads() {
        let net = parse(TINY).unwrap();
        let text = write(&net).unwrap();
        assert_eq!(parse(&text).unwrap(), net);
    }

    #[test]
    fn branches_travel_in_comments() {
        let net = crate::oracle::presets::network("resnet18").unwrap();
        assert!(net.spec().layers.iter().any(|l| l.reads.is_some()));
        let text = write(&net).unwrap();
        assert!(text.contains("\n#reads|"), "{text}");
        assert_eq!(parse(&text).unwrap(), net);
        // an index past the layers, a bad read and a read of a later layer, each at its line and column
        for (comment, line, column, needle) in [
            ("#reads|9|0", 6, 8, "one of the"),
            ("#reads|1|x", 6, 10, "x"),
            ("#reads|0|1", 4, 1, "earlier layer"),
        ] {
            let err = parse(&format!("{TINY}{comment}\n")).unwrap_err();
            assert_eq!((err.line, err.column), (line, column), "{comment}: {err}");
            assert!(err.to_string().contains(needle), "{err}");
        }
    }

    #[test]
    fn a_function_cannot_be_written() {
        // a reflection pad (an other layer that saves its input) would lose what it saves
        let mut spec = parse(TINY).unwrap().spec().clone();
        let last = spec.layers.len() - 1;
        spec.layers[last].name = "PAD".into();
        spec.layers[last].kind = LayerKind::Other;
        spec.layers[last].w = crate::oracle::model::shape::Shape::new(vec![]);
        spec.layers[last].function = Some(crate::oracle::model::layer::Function::Other);
        let net = Network::new(spec).unwrap();
        let err = write(&net).unwrap_err();
        assert_eq!(err.field, "layers[1] PAD.function");
        assert!(err.to_string().contains("JSON"), "{err}");
    }

    #[test]
    fn names_that_do_not_stand_for_their_kind_cannot_be_written() {
        let mut spec = parse(TINY).unwrap().spec().clone();
        spec.layers[0].name = "stem".into();
        let net = Network::new(spec).unwrap();
        let err = write(&net).unwrap_err();
        assert_eq!(err.field, "layers[0] stem.name");
    }

    #[test]
    fn shared_weights_are_not_representable() {
        let text = "Dataset|Toy\nInput|100x4x8x8\nModel|Tied\nCONV1|4x8x8|4x4x3x3|4x6x6\nCONV2|4x6x6|4x4x3x3|4x4x4\n";
        let mut spec = parse(text).unwrap().spec();
        spec.layers[1].shares = Some(0);
        let tied = Network::new(spec).unwrap();
        let err = write(&tied).unwrap_err();
        assert_eq!(err.field.to_string(), "layers[1] CONV2.shares");
        assert!(matches!(err.rule, Rule::NotRepresentable(_)), "{err}");
    }
}
