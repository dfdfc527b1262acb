//! The network as the user edits it: the network underneath and the cells
//! typed over it (see [`crate::app::state::editor`]), a layer's cells by row and
//! column. Inserting, removing and moving layers change the network
//! underneath and move the typed cells with their rows.

use std::rc::Rc;

use crate::app::input::keys::{self, Errors, Key, LayerColumn};
use crate::app::input::source::ModelSource;
use crate::app::state::editor::Editor;
use crate::oracle::formats::parse_shape;
use crate::oracle::{LayerKind, LayerSpec, Network, NetworkSpec, OracleError, Shape, edit, presets};

/// One layer's cells as shown.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerRow {
    pub name: String,
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
}

/// The network editor.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelEditor {
    /// The preset it was loaded from, if any (kept while edited).
    pub preset: Option<String>,
    /// That preset's network, read once, to tell an untouched preset from
    /// an edited one without reading its file again.
    preset_spec: Option<Rc<NetworkSpec>>,
    /// The network underneath and the cells typed over it.
    pub cells: Editor<NetworkSpec, Key>,
}

impl Default for ModelEditor {
    fn default() -> Self {
        let spec = presets::network(crate::app::input::source::DEFAULT_MODEL)
            .map(|n| n.spec())
            .unwrap_or_else(|_| NetworkSpec {
                name: String::new(),
                dataset: crate::oracle::DatasetSpec {
                    name: String::new(),
                    samples: 1,
                    sample_shape: Shape::default(),
                },
                layers: Vec::new(),
                profiled_on: None,
                step: None,
            });
        Self::from_spec(&spec, None)
    }
}

/// The text of a cell of `layer`.
fn cell_text(layer: &LayerSpec, column: LayerColumn) -> String {
    match column {
        LayerColumn::Name => layer.name.clone(),
        LayerColumn::Kind => layer.kind.name().into(),
        LayerColumn::X => layer.x.to_string(),
        LayerColumn::W => layer.w.to_string(),
        LayerColumn::Y => layer.y.to_string(),
        LayerColumn::Time => layer.time_s.map(|t| t.to_string()).unwrap_or_default(),
        LayerColumn::Groups => {
            if layer.groups == 1 {
                String::new()
            } else {
                layer.groups.to_string()
            }
        }
    }
}

/// Reads one typed cell into `spec`.
fn read(spec: &mut NetworkSpec, key: Key, text: &str) -> Result<(), String> {
    match key {
        Key::Samples => {
            spec.dataset.samples = text
                .trim()
                .parse::<u64>()
                .map_err(|_| "Must be a whole number of samples".to_string())?;
        }
        Key::SampleShape => spec.dataset.sample_shape = parse_shape(text).map_err(|p| p.to_string())?,
        Key::Layer(row, column) => {
            let layer = spec.layers.get_mut(row).ok_or_else(|| "No such layer".to_string())?;
            match column {
                LayerColumn::Name => layer.name = text.to_string(),
                LayerColumn::Kind => {
                    layer.kind = text
                        .parse::<LayerKind>()
                        .map_err(|_| format!("'{text}' is not a kind of layer"))?;
                }
                LayerColumn::X => layer.x = parse_shape(text).map_err(|p| p.to_string())?,
                LayerColumn::W => layer.w = parse_shape(text).map_err(|p| p.to_string())?,
                LayerColumn::Y => layer.y = parse_shape(text).map_err(|p| p.to_string())?,
                LayerColumn::Time => {
                    layer.time_s = match text.trim() {
                        "" => None,
                        t => Some(
                            t.parse::<f64>()
                                .map_err(|_| format!("'{t}' is not a number of seconds"))?,
                        ),
                    };
                }
                LayerColumn::Groups => {
                    layer.groups = match text.trim() {
                        "" => 1,
                        t => t
                            .parse::<u64>()
                            .map_err(|_| format!("'{t}' is not a whole number of groups"))?,
                    };
                }
            }
        }
        _ => return Err("Not a cell of the network".into()),
    }
    Ok(())
}

impl ModelEditor {
    /// An editor holding `spec`.
    pub fn from_spec(spec: &NetworkSpec, preset: Option<String>) -> Self {
        Self {
            preset_spec: preset.as_ref().map(|_| Rc::new(spec.clone())),
            preset,
            cells: Editor::new(spec.clone()),
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

    /// The network as edited, for a profile to be applied to it in the
    /// worker.
    ///
    /// # Errors
    /// The network as edited does not build: how many cells to fix, said
    /// after `name` (the profile's file).
    pub fn to_profile(&self, name: &str) -> Result<NetworkSpec, String> {
        self.build()
            .map(|(_, network)| network.spec())
            .map_err(|errors| format!("{name}: fix the network's {} highlighted cells first", errors.len()))
    }

    /// The network underneath.
    pub fn base(&self) -> &NetworkSpec {
        &self.cells.base
    }

    /// Layers.
    pub fn len(&self) -> usize {
        self.cells.base.layers.len()
    }

    /// Whether the network has no layer (never, once loaded).
    pub fn is_empty(&self) -> bool {
        self.cells.base.layers.is_empty()
    }

    /// The text of a cell: as typed, else the network's.
    pub fn text(&self, key: Key) -> String {
        self.cells.text(key, |spec| match key {
            Key::Samples => spec.dataset.samples.to_string(),
            Key::SampleShape => spec.dataset.sample_shape.to_string(),
            Key::Layer(row, column) => spec.layers.get(row).map(|l| cell_text(l, column)).unwrap_or_default(),
            _ => String::new(),
        })
    }

    /// Layer `index`'s cells as shown.
    pub fn row(&self, index: usize) -> LayerRow {
        let text = |column| self.text(Key::Layer(index, column));
        LayerRow {
            name: text(LayerColumn::Name),
            kind: text(LayerColumn::Kind).parse().unwrap_or(LayerKind::Other),
            x: text(LayerColumn::X),
            w: text(LayerColumn::W),
            y: text(LayerColumn::Y),
            time: text(LayerColumn::Time),
            groups: text(LayerColumn::Groups),
        }
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
        let (spec, errors) = self.cells.read(read, |key| key);
        if !errors.is_empty() {
            return Err(errors);
        }
        let unchanged = match (&self.preset, &self.preset_spec) {
            (Some(key), Some(preset)) if **preset == spec => Some(key.clone()),
            _ => None,
        };
        let source = match unchanged {
            Some(key) => ModelSource::Preset(key),
            None => ModelSource::Custom(Box::new(spec.clone())),
        };
        let network = Network::new(spec).map_err(|e| Errors::from([(keys::of_network(&e), keys::message(&e))]))?;
        Ok((source, network))
    }

    /// Sets one cell.
    pub fn edit(&mut self, index: usize, column: LayerColumn, text: String) {
        if index < self.len() {
            self.cells.edit(Key::Layer(index, column), text);
        }
    }

    /// Changes a layer's kind.
    pub fn set_kind(&mut self, index: usize, kind: LayerKind) {
        self.edit(index, LayerColumn::Kind, kind.name().into());
    }

    /// Sets the dataset size as typed.
    pub fn set_samples(&mut self, text: String) {
        self.cells.edit(Key::Samples, text);
    }

    /// Inserts a layer after `index`: a ReLU on its output (timed 0 when
    /// the network is profiled, so the profile stays whole).
    pub fn insert_after(&mut self, index: usize) {
        if index >= self.len() {
            return;
        }
        let y = parse_shape(&self.text(Key::Layer(index, LayerColumn::Y)))
            .unwrap_or_else(|_| self.cells.base.layers[index].y.clone());
        let timed = !self.text(Key::Layer(index, LayerColumn::Time)).trim().is_empty();
        let relu = LayerSpec {
            time_s: timed.then_some(0.0),
            ..LayerSpec::plain("RELU", LayerKind::Relu, y.clone(), Shape::default(), y)
        };
        edit::insert(&mut self.cells.base.layers, index + 1, relu);
        self.cells.rekey(|key| match key {
            Key::Layer(row, column) if row > index => Some(Key::Layer(row + 1, column)),
            other => Some(other),
        });
    }

    /// Removes layer `index` (the last layer stays).
    pub fn remove(&mut self, index: usize) {
        if self.len() <= 1 || index >= self.len() {
            return;
        }
        edit::remove(&mut self.cells.base.layers, index);
        self.cells.rekey(|key| match key {
            Key::Layer(row, _) if row == index => None,
            Key::Layer(row, column) if row > index => Some(Key::Layer(row - 1, column)),
            other => Some(other),
        });
    }

    /// Moves layer `index` one place up (`up`) or down.
    pub fn shift(&mut self, index: usize, up: bool) {
        let other = if up { index.checked_sub(1) } else { Some(index + 1) };
        let Some(other) = other.filter(|&o| o < self.len() && index < self.len()) else {
            return;
        };
        edit::swap(&mut self.cells.base.layers, index, other);
        self.cells.rekey(|key| match key {
            Key::Layer(row, column) if row == index => Some(Key::Layer(other, column)),
            Key::Layer(row, column) if row == other => Some(Key::Layer(index, column)),
            same => Some(same),
        });
    }
}

/// Whether a file is a measured profile (`profile.json`, format
/// `paradl-profile/...`) rather than a network.
pub fn is_profile(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    text.trim_start_matches('\u{feff}').trim_start().starts_with('{') && text.contains("\"paradl-profile/")
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

#[cfg(test)]
mod tests {
    use crate::app::state::model_editor::*;

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
        editor.set_samples("50000".into());
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
        let count = editor.len();
        editor.edit(0, LayerColumn::Name, "FIRST".into());
        editor.insert_after(0);
        assert_eq!(editor.len(), count + 1);
        assert_eq!(editor.row(1).x, "96x54x54");
        assert!(editor.build().is_ok());
        editor.shift(1, true);
        assert_eq!(editor.row(0).name, "RELU");
        assert_eq!(editor.row(1).name, "FIRST", "a typed cell moves with its row");
        editor.edit(1, LayerColumn::Name, "CONV1".into());
        editor.shift(0, false);
        editor.remove(1);
        assert_eq!(editor.build().unwrap().0, ModelSource::Preset("alexnet".into()));
        editor.shift(0, true);
        editor.remove(99);
        assert_eq!(editor.len(), count);
    }

    #[test]
    fn imports_net_and_json_with_positions() {
        use crate::app::reader::protocol::{ReadReply, ReadRequest, answer};
        let read = |text: &str| {
            let request = ReadRequest {
                id: 1,
                name: "pasted text".into(),
                input_shape: String::new(),
                onto: None,
            };
            match answer(&request, text.as_bytes()) {
                ReadReply::Read { network, .. } => Ok(ModelEditor::from_spec(&network, None)),
                ReadReply::Failed { message, .. } => Err(message),
            }
        };
        let text = presets::network_preset("alexnet").unwrap().file().unwrap().1;
        assert_eq!(read(text).unwrap().len(), 20);
        let json = crate::oracle::formats::json::write(&presets::network("resnet18").unwrap().spec()).unwrap();
        assert_eq!(read(&json).unwrap().base().name, "ResNet18");
        assert_eq!(
            read(&text.replace("3x96x11x11", "3x96x11")).unwrap_err(),
            "Line 4, column 17: layers[0] CONV1.w: must have 4 dimensions ([C, F] then one kernel size per spatial dimension); found 3"
        );
    }
}
