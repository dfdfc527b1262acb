//! Networks: a dataset and an ordered list of layers.

use serde::{Deserialize, Serialize};

use super::checks::{self, MAX_COUNT};
use super::errors::{InputError, Rule};
use super::field::Field;
use super::layer::{Layer, LayerSpec};
use super::shape::Shape;

/// The training set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatasetSpec {
    /// Name, e.g. `ImageNet`.
    pub name: String,
    /// `D`: samples per epoch.
    pub samples: u64,
    /// Shape of one sample `[C, X1, X2(, X3)]`.
    pub sample_shape: Shape,
}

/// A network as entered: plain data, not yet checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NetworkSpec {
    /// Model name, e.g. `ResNet50`.
    pub name: String,
    /// Training set.
    pub dataset: DatasetSpec,
    /// Layers in order, `l = 1..G`.
    pub layers: Vec<LayerSpec>,
}

/// Where per-layer compute times come from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Profile {
    /// No profiled time: `t_l = 3·fwd_flops_l / R`.
    Flops,
    /// One profiled per-sample time for the whole model, shared by FLOPs.
    WholeModel {
        /// `T`, seconds per sample.
        per_sample_s: f64,
    },
    /// Every layer carries its own per-sample time.
    PerLayer,
}

/// A checked network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "NetworkSpec", into = "NetworkSpec")]
pub struct Network {
    name: String,
    dataset: DatasetSpec,
    layers: Vec<Layer>,
    profile: Profile,
    totals: Totals,
}

/// Sums over the layers, computed once.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Totals {
    weight_items: f64,
    activation_items: f64,
    forward_flops: f64,
}

impl Network {
    /// Checks a network.
    ///
    /// Rules: a non-blank name; a dataset of 1 to 2^53 samples whose sample
    /// shape has 2 to 4 dimensions of at least 1; at least one layer, each
    /// valid (see [`Layer::new`]); profiled times either absent, only on the
    /// first layer (a whole-model time, which needs FLOPs to share), or on
    /// every layer.
    ///
    /// # Errors
    /// An [`InputError`] naming the field, e.g. `layers[3] CONV2.w[0]`.
    pub fn new(spec: NetworkSpec) -> Result<Self, InputError> {
        checks::name("name", &spec.name)?;
        checks::name("dataset.name", &spec.dataset.name)?;
        checks::count("dataset.samples", spec.dataset.samples, 1, MAX_COUNT)?;
        spec.dataset
            .sample_shape
            .check_activation(&Field::from("dataset.sample_shape"))?;
        if spec.layers.is_empty() {
            return Err(InputError::new("layers", Rule::Empty));
        }
        let NetworkSpec { name, dataset, layers } = spec;
        let mut checked = Vec::with_capacity(layers.len());
        for (i, layer) in layers.into_iter().enumerate() {
            let field = layer_field(i, &layer);
            checked.push(Layer::new(layer).map_err(|e| e.within(&field))?);
        }
        let layers = checked;
        let profile = detect_profile(&layers)?;
        let totals = Totals {
            weight_items: layers.iter().map(Layer::weight_items).sum(),
            activation_items: layers.iter().map(Layer::activation_items).sum(),
            forward_flops: layers.iter().map(Layer::forward_flops).sum(),
        };
        Ok(Self {
            name,
            dataset,
            layers,
            profile,
            totals,
        })
    }

    /// The network's data (a copy: the checked network keeps each layer
    /// once, inside its [`Layer`]).
    pub fn spec(&self) -> NetworkSpec {
        NetworkSpec {
            name: self.name.clone(),
            dataset: self.dataset.clone(),
            layers: self.layers.iter().map(|l| l.spec().clone()).collect(),
        }
    }

    /// Model name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The training set.
    pub fn dataset(&self) -> &DatasetSpec {
        &self.dataset
    }

    /// `D`: samples per epoch.
    pub fn dataset_samples(&self) -> u64 {
        self.dataset.samples
    }

    /// The checked layers.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Where compute times come from.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// `W = Σ|w_l|`: weight items of the whole network.
    pub fn weight_items(&self) -> f64 {
        self.totals.weight_items
    }

    /// `A = Σ act_l`: activation items per sample.
    pub fn activation_items(&self) -> f64 {
        self.totals.activation_items
    }

    /// Forward FLOPs per sample of the whole network.
    pub fn forward_flops(&self) -> f64 {
        self.totals.forward_flops
    }
}

/// The field path of layer `index`: `layers[3] CONV2`.
pub fn layer_field(index: usize, layer: &LayerSpec) -> Field {
    Field::layer(index, &layer.name)
}

impl TryFrom<NetworkSpec> for Network {
    type Error = InputError;

    fn try_from(spec: NetworkSpec) -> Result<Self, Self::Error> {
        Self::new(spec)
    }
}

impl From<Network> for NetworkSpec {
    fn from(network: Network) -> Self {
        NetworkSpec {
            name: network.name,
            dataset: network.dataset,
            layers: network.layers.into_iter().map(LayerSpec::from).collect(),
        }
    }
}

fn detect_profile(layers: &[Layer]) -> Result<Profile, InputError> {
    let timed: Vec<usize> = layers
        .iter()
        .enumerate()
        .filter(|(_, l)| l.time_s().is_some_and(|t| t > 0.0))
        .map(|(i, _)| i)
        .collect();
    match timed.as_slice() {
        [] => Ok(Profile::Flops),
        [0] if layers.len() > 1 => {
            let per_sample_s = layers[0].time_s().unwrap_or(0.0);
            if layers.iter().map(Layer::forward_flops).sum::<f64>() > 0.0 {
                Ok(Profile::WholeModel { per_sample_s })
            } else {
                Err(InputError::new(
                    Field::from("time_s").within(&layer_field(0, layers[0].spec())),
                    Rule::NoFlops,
                ))
            }
        }
        _ => match layers.iter().position(|l| l.time_s().is_none()) {
            None => Ok(Profile::PerLayer),
            Some(i) => Err(InputError::new(
                Field::from("time_s").within(&layer_field(i, layers[i].spec())),
                Rule::PartialProfile,
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::layer::LayerKind;

    fn layer(name: &str, kind: LayerKind, time_s: Option<f64>) -> LayerSpec {
        let (w, y) = match kind {
            LayerKind::Conv => (Shape::from([3, 8, 3, 3]), Shape::from([8, 6, 6])),
            _ => (Shape::default(), Shape::from([3, 8, 8])),
        };
        LayerSpec {
            name: name.into(),
            kind,
            x: [3, 8, 8].into(),
            w,
            y,
            time_s,
        }
    }

    fn spec(layers: Vec<LayerSpec>) -> NetworkSpec {
        NetworkSpec {
            name: "Tiny".into(),
            dataset: DatasetSpec {
                name: "Toy".into(),
                samples: 100,
                sample_shape: [3, 8, 8].into(),
            },
            layers,
        }
    }

    #[test]
    fn layer_fields_are_typed() {
        let field = Field::from("w")
            .index(0)
            .within(&layer_field(3, &layer("CONV2", LayerKind::Conv, None)));
        assert_eq!(field, "layers[3] CONV2.w[0]");
        assert_eq!(
            field.in_layer().map(|(i, rest)| (i, Field::first_key(rest))),
            Some((3, Some("w")))
        );
        assert_eq!(Field::from("dataset.samples").in_layer(), None);
    }

    #[test]
    fn profile_detection() {
        let flops = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.0)),
            layer("RELU", LayerKind::Relu, None),
        ]))
        .unwrap();
        assert_eq!(flops.profile(), Profile::Flops);
        let whole = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.5)),
            layer("RELU", LayerKind::Relu, Some(0.0)),
        ]))
        .unwrap();
        assert_eq!(whole.profile(), Profile::WholeModel { per_sample_s: 0.5 });
        let per_layer = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.5)),
            layer("RELU", LayerKind::Relu, Some(0.1)),
        ]))
        .unwrap();
        assert_eq!(per_layer.profile(), Profile::PerLayer);
    }

    #[test]
    fn partial_profile_is_an_error_naming_the_layer() {
        let err = Network::new(spec(vec![
            layer("CONV1", LayerKind::Conv, Some(0.5)),
            layer("RELU", LayerKind::Relu, Some(0.1)),
            layer("DROP", LayerKind::Dropout, None),
        ]))
        .unwrap_err();
        assert_eq!(err.field, "layers[2] DROP.time_s");
        assert_eq!(err.rule, Rule::PartialProfile);
    }

    #[test]
    fn whole_model_time_without_flops_is_an_error() {
        let err = Network::new(spec(vec![
            layer("DROP", LayerKind::Dropout, Some(0.5)),
            layer("DROP", LayerKind::Dropout, Some(0.0)),
        ]))
        .unwrap_err();
        assert_eq!(err.rule, Rule::NoFlops);
    }

    #[test]
    fn invalid_layers_and_datasets_name_their_field() {
        let mut bad = layer("CONV2", LayerKind::Conv, None);
        bad.w = [4, 8, 3, 3].into();
        let err = Network::new(spec(vec![layer("CONV1", LayerKind::Conv, None), bad])).unwrap_err();
        assert_eq!(err.field, "layers[1] CONV2.w[0]");
        let mut s = spec(vec![layer("CONV1", LayerKind::Conv, None)]);
        s.dataset.samples = 0;
        assert_eq!(Network::new(s).unwrap_err().field, "dataset.samples");
        assert_eq!(Network::new(spec(vec![])).unwrap_err().field, "layers");
    }
}
