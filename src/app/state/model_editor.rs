//! The network as the user edits it: every cell as typed.

use std::rc::Rc;

use super::fields::{self, Errors, Key};
use super::inputs::ModelSource;
use crate::oracle::formats::{self, parse_shape};
use crate::oracle::{
    DatasetSpec, LayerKind, LayerSpec, Network, NetworkSpec, OracleError, ProfiledGpu, ProfiledStep, presets,
};

/// One layer's cells.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerRow {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: LayerKind,
    /// Input shape, e.g. `3x224x224`.
    pub x: String,
    /// Weight shape.
    pub w: String,
    /// Output shape.
    pub y: String,
    /// Profiled seconds per sample (blank: none).
    pub time: String,
    /// Groups of a convolution (blank: 1).
    pub groups: String,
    /// The layer has a bias (kept from its source; counted in its parameters).
    pub bias: bool,
}

/// A column of the layer table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LayerColumn {
    /// Name.
    Name,
    /// Input shape.
    X,
    /// Weight shape.
    W,
    /// Output shape.
    Y,
    /// Profiled time.
    Time,
    /// Groups of a convolution.
    Groups,
}

impl LayerColumn {
    /// A short name (for input ids and labels).
    pub fn key(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::X => "x",
            Self::W => "w",
            Self::Y => "y",
            Self::Time => "time_s",
            Self::Groups => "groups",
        }
    }
}

/// The network editor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ModelEditor {
    /// The preset it was loaded from, if any (kept while edited).
    pub preset: Option<String>,
    /// That preset's network, read once, to tell an untouched preset from
    /// an edited one without reading its file again.
    preset_spec: Option<Rc<NetworkSpec>>,
    /// Model name.
    pub name: String,
    /// Dataset name.
    pub dataset: String,
    /// Dataset size as typed.
    pub samples: String,
    /// Sample shape.
    pub sample_shape: String,
    /// Layers.
    pub rows: Vec<LayerRow>,
    /// The GPU the profiled times were measured on (kept while edited).
    pub profiled_on: Option<ProfiledGpu>,
    /// The step a per-layer profile was measured in (kept while edited).
    pub step: Option<ProfiledStep>,
}

impl ModelEditor {
    /// An editor holding `spec`.
    pub fn from_spec(spec: &NetworkSpec, preset: Option<String>) -> Self {
        Self {
            preset_spec: preset.as_ref().map(|_| Rc::new(spec.clone())),
            preset,
            name: spec.name.clone(),
            dataset: spec.dataset.name.clone(),
            samples: spec.dataset.samples.to_string(),
            sample_shape: spec.dataset.sample_shape.to_string(),
            rows: spec.layers.iter().map(row).collect(),
            profiled_on: spec.profiled_on.clone(),
            step: spec.step.clone(),
        }
    }

    /// An editor holding `source`.
    ///
    /// # Errors
    /// An unknown preset.
    pub fn from_source(source: &ModelSource) -> Result<Self, OracleError> {
        Ok(match source {
            ModelSource::Preset(key) => Self::from_spec(&presets::network(key)?.spec(), Some(key.clone())),
            ModelSource::Custom(spec) => Self::from_spec(spec, None),
        })
    }

    /// Reads a pasted text: a `.net` file, JSON network or Keras model.
    ///
    /// # Errors
    /// The importer's error, with line and column.
    pub fn import(text: &str) -> Result<Self, OracleError> {
        Self::import_file(text.as_bytes(), "pasted text", "").map(|(editor, _)| editor)
    }

    /// Reads an uploaded, dropped or fetched file: an ONNX graph
    /// (`input_shape`, such as `3x224x224`, blank unless its input sizes
    /// are symbolic), a `.keras` archive, or a text format (`.net`, JSON,
    /// Keras JSON); and says what was imported.
    ///
    /// # Errors
    /// The importer's error, naming the node or the line and column.
    pub fn import_file(bytes: &[u8], name: &str, input_shape: &str) -> Result<(Self, String), OracleError> {
        let shape = match input_shape.trim() {
            "" => None,
            text => Some(parse_shape(text).map_err(|p| crate::oracle::ParseError::at(1, 1, p))?),
        };
        let hints = formats::network::Hints {
            input_shape: shape,
            ..Default::default()
        };
        let read = formats::network::read_network(bytes, name, &hints)?;
        Ok((Self::from_spec(&read.network.spec(), None), read.summary(name)))
    }

    /// FLOPs (from the engine), or the errors count if it does not build.
    pub fn summary(&self, source: &str) -> String {
        match self.build() {
            Ok((_, network)) => imported(source, &network),
            Err(errors) => format!("Imported {source}, with {} cells to fix", errors.len()),
        }
    }

    /// Builds and checks the network: the preset itself when nothing
    /// differs from it.
    ///
    /// # Errors
    /// Every cell that does not parse, or the first rule the network breaks.
    pub fn build(&self) -> Result<(ModelSource, Network), Errors> {
        let spec = self.spec()?;
        let unchanged = match (&self.preset, &self.preset_spec) {
            (Some(key), Some(preset)) if **preset == spec => Some(key.clone()),
            _ => None,
        };
        let source = match unchanged {
            Some(key) => ModelSource::Preset(key),
            None => ModelSource::Custom(Box::new(spec.clone())),
        };
        let network = Network::new(spec).map_err(|e| Errors::from([(fields::of_network(&e), fields::message(&e))]))?;
        Ok((source, network))
    }

    fn spec(&self) -> Result<NetworkSpec, Errors> {
        let mut errors = Errors::new();
        let samples = self.samples.trim().parse::<u64>().unwrap_or_else(|_| {
            errors.insert(Key::Samples, "Must be a whole number of samples".into());
            0
        });
        let sample_shape = parse_shape(&self.sample_shape).unwrap_or_else(|p| {
            errors.insert(Key::SampleShape, p.to_string());
            Default::default()
        });
        let mut layers = Vec::with_capacity(self.rows.len());
        for (i, r) in self.rows.iter().enumerate() {
            let mut shape = |text: &str, column: LayerColumn| {
                parse_shape(text).unwrap_or_else(|p| {
                    errors.insert(Key::Layer(i, column), p.to_string());
                    Default::default()
                })
            };
            let (x, w, y) = (
                shape(&r.x, LayerColumn::X),
                shape(&r.w, LayerColumn::W),
                shape(&r.y, LayerColumn::Y),
            );
            let time_s = match r.time.trim() {
                "" => None,
                t => t.parse::<f64>().map(Some).unwrap_or_else(|_| {
                    errors.insert(
                        Key::Layer(i, LayerColumn::Time),
                        format!("'{t}' is not a number of seconds"),
                    );
                    None
                }),
            };
            let groups = match r.groups.trim() {
                "" => 1,
                t => t.parse::<u64>().unwrap_or_else(|_| {
                    errors.insert(
                        Key::Layer(i, LayerColumn::Groups),
                        format!("'{t}' is not a whole number of groups"),
                    );
                    1
                }),
            };
            layers.push(LayerSpec {
                name: r.name.clone(),
                kind: r.kind,
                x,
                w,
                y,
                time_s,
                groups,
                bias: r.bias,
            });
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(NetworkSpec {
            name: self.name.clone(),
            dataset: DatasetSpec {
                name: self.dataset.clone(),
                samples,
                sample_shape,
            },
            layers,
            profiled_on: self.profiled_on.clone(),
            step: self.step.clone(),
        })
    }

    /// Sets one cell.
    pub fn edit(&mut self, index: usize, column: LayerColumn, text: String) {
        if let Some(r) = self.rows.get_mut(index) {
            match column {
                LayerColumn::Name => r.name = text,
                LayerColumn::X => r.x = text,
                LayerColumn::W => r.w = text,
                LayerColumn::Y => r.y = text,
                LayerColumn::Time => r.time = text,
                LayerColumn::Groups => r.groups = text,
            }
        }
    }

    /// Changes a layer's kind.
    pub fn set_kind(&mut self, index: usize, kind: LayerKind) {
        if let Some(r) = self.rows.get_mut(index) {
            r.kind = kind;
        }
    }

    /// Inserts a copy of layer `index` after it (its output as the new
    /// layer's input and output: a ReLU by default).
    pub fn insert_after(&mut self, index: usize) {
        let Some(r) = self.rows.get(index) else { return };
        let new = LayerRow {
            name: "RELU".into(),
            kind: LayerKind::Relu,
            x: r.y.clone(),
            w: String::new(),
            y: r.y.clone(),
            time: if r.time.trim().is_empty() {
                String::new()
            } else {
                "0".into()
            },
            groups: String::new(),
            bias: false,
        };
        self.rows.insert(index + 1, new);
    }

    /// Removes layer `index` (the last layer stays).
    pub fn remove(&mut self, index: usize) {
        if self.rows.len() > 1 && index < self.rows.len() {
            self.rows.remove(index);
        }
    }

    /// Moves layer `index` one place up (`up`) or down.
    pub fn shift(&mut self, index: usize, up: bool) {
        let other = if up { index.checked_sub(1) } else { Some(index + 1) };
        if let Some(other) = other.filter(|&o| o < self.rows.len() && index < self.rows.len()) {
            self.rows.swap(index, other);
        }
    }
}

/// What an imported network holds: layers, parameters, forward FLOPs.
fn imported(source: &str, network: &Network) -> String {
    format!(
        "Imported {source}: {} layers, {} parameters, {} GFLOPs forward per sample",
        network.layers().len(),
        network.weight_items(),
        crate::oracle::units::significant(network.forward_flops() / 1e9, 4)
    )
}

fn row(layer: &LayerSpec) -> LayerRow {
    LayerRow {
        name: layer.name.clone(),
        kind: layer.kind,
        x: layer.x.to_string(),
        w: layer.w.to_string(),
        y: layer.y.to_string(),
        time: layer.time_s.map(|t| t.to_string()).unwrap_or_default(),
        groups: if layer.groups == 1 {
            String::new()
        } else {
            layer.groups.to_string()
        },
        bias: layer.bias,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_untouched_preset_stays_a_preset() {
        let editor = ModelEditor::from_source(&ModelSource::Preset("vgg16".into())).unwrap();
        let (source, network) = editor.build().unwrap();
        assert_eq!(source, ModelSource::Preset("vgg16".into()));
        assert_eq!(network, presets::network("vgg16").unwrap());
    }

    #[test]
    fn edits_make_a_custom_network_and_bad_cells_are_errors() {
        let mut editor = ModelEditor::from_source(&ModelSource::Preset("alexnet".into())).unwrap();
        editor.samples = "50000".into();
        let (source, network) = editor.build().unwrap();
        assert!(matches!(source, ModelSource::Custom(_)));
        assert_eq!(network.dataset_samples(), 50_000);

        editor.edit(3, LayerColumn::W, "96x256x5xx5".into());
        editor.edit(4, LayerColumn::Time, "soon".into());
        let errors = editor.build().unwrap_err();
        assert!(errors.contains_key(&Key::Layer(3, LayerColumn::W)));
        assert!(errors.contains_key(&Key::Layer(4, LayerColumn::Time)));

        editor.edit(3, LayerColumn::W, "95x256x5x5".into());
        editor.edit(4, LayerColumn::Time, "0".into());
        let errors = editor.build().unwrap_err();
        assert_eq!(errors.keys().collect::<Vec<_>>(), [&Key::Layer(3, LayerColumn::W)]);
        assert!(errors[&Key::Layer(3, LayerColumn::W)].contains("input channels"));
    }

    #[test]
    fn structure_edits() {
        let mut editor = ModelEditor::from_source(&ModelSource::Preset("alexnet".into())).unwrap();
        let count = editor.rows.len();
        editor.insert_after(0);
        assert_eq!(editor.rows.len(), count + 1);
        assert_eq!(editor.rows[1].x, "96x54x54");
        assert!(editor.build().is_ok());
        editor.shift(1, true);
        assert_eq!(editor.rows[0].name, "RELU");
        editor.shift(0, false);
        editor.remove(1);
        assert_eq!(editor.build().unwrap().0, ModelSource::Preset("alexnet".into()));
        editor.shift(0, true);
        editor.remove(99);
        assert_eq!(editor.rows.len(), count);
    }

    #[test]
    fn imports_net_and_json_with_positions() {
        let text = presets::network_preset("alexnet").unwrap().file().unwrap().1;
        let editor = ModelEditor::import(text).unwrap();
        assert_eq!(editor.rows.len(), 20);
        let json = formats::json::write(&presets::network("resnet18").unwrap().spec()).unwrap();
        assert_eq!(ModelEditor::import(&json).unwrap().name, "ResNet18");
        let err = ModelEditor::import(&text.replace("3x96x11x11", "3x96x11")).unwrap_err();
        assert_eq!(
            fields::import_message(&err),
            "Line 4, column 17: layers[0] CONV1.w: must have 4 dimensions ([C, F] then one kernel size per spatial dimension); found 3"
        );
    }
}
