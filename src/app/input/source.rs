//! Where the network and the cluster come from: a preset by key, or a
//! value the user entered, imported or edited. In a link, a preset is its
//! key (`m`, `c`; the default left out) and a value its JSON (`n`, `k`).

use serde::{Deserialize, Serialize};

use crate::oracle::{Cluster, ClusterSpec, Network, NetworkSpec, OracleError, presets};

/// The network of a first visit.
pub const DEFAULT_MODEL: &str = "resnet50";
/// The cluster of a first visit.
pub const DEFAULT_CLUSTER: &str = "abci";

/// Where the network comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "ModelKeys", into = "ModelKeys")]
pub enum ModelSource {
    /// A built-in network, by key.
    Preset(String),
    /// A network entered, imported or edited by the user.
    Custom(Box<NetworkSpec>),
}

/// Where the cluster comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "ClusterKeys", into = "ClusterKeys")]
pub enum ClusterSource {
    /// A built-in cluster, by key.
    Preset(String),
    /// A cluster edited by the user (boxed: a preset key is small).
    Custom(Box<ClusterSpec>),
}

impl Default for ModelSource {
    fn default() -> Self {
        Self::Preset(DEFAULT_MODEL.into())
    }
}

impl Default for ClusterSource {
    fn default() -> Self {
        Self::Preset(DEFAULT_CLUSTER.into())
    }
}

impl ModelSource {
    /// The network.
    ///
    /// # Errors
    /// An unknown preset or an invalid custom network.
    pub fn network(&self) -> Result<Network, OracleError> {
        match self {
            Self::Preset(key) => presets::network(key),
            Self::Custom(spec) => Ok(Network::new(spec.as_ref().clone())?),
        }
    }

    /// The preset key, if it is one.
    pub fn preset(&self) -> Option<&str> {
        match self {
            Self::Preset(key) => Some(key),
            Self::Custom(_) => None,
        }
    }

    /// The same source with a preset's key as the presets spell it.
    ///
    /// # Errors
    /// An unknown preset.
    pub fn canonical(self) -> Result<Self, OracleError> {
        match self {
            Self::Preset(key) => Ok(Self::Preset(presets::network_preset(&key)?.key.into())),
            custom => Ok(custom),
        }
    }
}

impl ClusterSource {
    /// The cluster.
    ///
    /// # Errors
    /// An unknown preset or an invalid custom cluster.
    pub fn cluster(&self) -> Result<Cluster, OracleError> {
        match self {
            Self::Preset(key) => presets::cluster(key),
            Self::Custom(spec) => Ok(Cluster::new(spec.as_ref().clone())?),
        }
    }

    /// The preset key, if it is one.
    pub fn preset(&self) -> Option<&str> {
        match self {
            Self::Preset(key) => Some(key),
            Self::Custom(_) => None,
        }
    }

    /// The same source with a preset's key as the presets spell it.
    ///
    /// # Errors
    /// An unknown preset.
    pub fn canonical(self) -> Result<Self, OracleError> {
        match self {
            Self::Preset(key) => Ok(Self::Preset(presets::cluster_key(&key)?)),
            custom => Ok(custom),
        }
    }
}

/// [`ModelSource`] in a link: `m` (a preset) or `n` (a network).
#[derive(Debug, Default, Serialize, Deserialize)]
struct ModelKeys {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    m: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    n: Option<Box<NetworkSpec>>,
}

/// [`ClusterSource`] in a link: `c` (a preset) or `k` (a cluster).
#[derive(Debug, Default, Serialize, Deserialize)]
struct ClusterKeys {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    k: Option<Box<ClusterSpec>>,
}

/// A preset's key as a link writes it: nothing for the `default` preset.
fn linked_key(key: String, default: &str) -> Option<String> {
    (key != default).then_some(key)
}

impl From<ModelKeys> for ModelSource {
    fn from(keys: ModelKeys) -> Self {
        match (keys.n, keys.m) {
            (Some(spec), _) => Self::Custom(spec),
            (None, Some(key)) => Self::Preset(key),
            (None, None) => Self::default(),
        }
    }
}

impl From<ModelSource> for ModelKeys {
    fn from(source: ModelSource) -> Self {
        match source {
            ModelSource::Preset(key) => Self {
                m: linked_key(key, DEFAULT_MODEL),
                n: None,
            },
            ModelSource::Custom(spec) => Self { m: None, n: Some(spec) },
        }
    }
}

impl From<ClusterKeys> for ClusterSource {
    fn from(keys: ClusterKeys) -> Self {
        match (keys.k, keys.c) {
            (Some(spec), _) => Self::Custom(spec),
            (None, Some(key)) => Self::Preset(key),
            (None, None) => Self::default(),
        }
    }
}

impl From<ClusterSource> for ClusterKeys {
    fn from(source: ClusterSource) -> Self {
        match source {
            ClusterSource::Preset(key) => Self {
                c: linked_key(key, DEFAULT_CLUSTER),
                k: None,
            },
            ClusterSource::Custom(spec) => Self { c: None, k: Some(spec) },
        }
    }
}
