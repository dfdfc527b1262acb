//! The cluster as the user edits it, in display units (GB, GB/s, µs,
//! TFLOP/s). Fields the user has not touched keep their exact values, so
//! an untouched preset is the preset bit for bit.

use std::collections::BTreeMap;

pub use super::fields::LevelColumn;
use super::fields::{self, ClusterKey, Errors, Key};
use super::inputs::ClusterSource;
use crate::oracle::{Cluster, ClusterSpec, OracleError, SwitchLevelSpec, presets, units};

/// One editable scalar of a cluster.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// Engine field path, member by member.
    pub path: &'static [&'static str],
    /// A stable id for the input (`cluster-gpu-flops-per-s`).
    pub id: &'static str,
    /// Label.
    pub label: &'static str,
    /// Display unit.
    pub unit: &'static str,
    /// Engine value per display unit.
    pub scale: f64,
    /// A whole number.
    pub whole: bool,
    get: fn(&ClusterSpec) -> f64,
    set: fn(&mut ClusterSpec, f64),
}

/// The cluster's scalar parameters, in display order.
pub const PARAMS: [Param; 9] = [
    Param {
        path: &["gpu_flops_per_s"],
        id: "cluster-gpu-flops-per-s",
        label: "Sustained GPU speed",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.gpu_flops_per_s,
        set: |c, v| c.gpu_flops_per_s = v,
    },
    Param {
        path: &["gpu_memory_bytes"],
        id: "cluster-gpu-memory-bytes",
        label: "GPU memory",
        unit: "GB",
        scale: 1e9,
        whole: false,
        get: |c| c.gpu_memory_bytes,
        set: |c, v| c.gpu_memory_bytes = v,
    },
    Param {
        path: &["gpus_per_node"],
        id: "cluster-gpus-per-node",
        label: "GPUs per node",
        unit: "GPUs",
        scale: 1.0,
        whole: true,
        get: |c| c.gpus_per_node as f64,
        set: |c, v| c.gpus_per_node = v as u64,
    },
    Param {
        path: &["max_gpus"],
        id: "cluster-max-gpus",
        label: "Largest allocation",
        unit: "GPUs",
        scale: 1.0,
        whole: true,
        get: |c| c.max_gpus as f64,
        set: |c, v| c.max_gpus = v as u64,
    },
    Param {
        path: &["intra_node", "bandwidth_bytes_per_s"],
        id: "cluster-intra-node-bandwidth-bytes-per-s",
        label: "Intra-node bandwidth",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.intra_node.bandwidth_bytes_per_s,
        set: |c, v| c.intra_node.bandwidth_bytes_per_s = v,
    },
    Param {
        path: &["intra_node", "latency_s"],
        id: "cluster-intra-node-latency-s",
        label: "Intra-node latency",
        unit: "µs",
        scale: 1e-6,
        whole: false,
        get: |c| c.intra_node.latency_s,
        set: |c, v| c.intra_node.latency_s = v,
    },
    Param {
        path: &["nic", "bandwidth_bytes_per_s"],
        id: "cluster-nic-bandwidth-bytes-per-s",
        label: "NIC bandwidth",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.nic.bandwidth_bytes_per_s,
        set: |c, v| c.nic.bandwidth_bytes_per_s = v,
    },
    Param {
        path: &["nic", "latency_s"],
        id: "cluster-nic-latency-s",
        label: "NIC endpoint latency",
        unit: "µs",
        scale: 1e-6,
        whole: false,
        get: |c| c.nic.latency_s,
        set: |c, v| c.nic.latency_s = v,
    },
    Param {
        path: &["nics_per_node"],
        id: "cluster-nics-per-node",
        label: "NICs per node",
        unit: "NICs",
        scale: 1.0,
        whole: true,
        get: |c| c.nics_per_node as f64,
        set: |c, v| c.nics_per_node = v as u64,
    },
];

/// The cluster editor.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterEditor {
    /// The preset it was loaded from, if any.
    pub preset: Option<String>,
    /// The exact values underneath.
    pub base: ClusterSpec,
    /// What the user typed, by cell.
    pub edits: BTreeMap<ClusterKey, String>,
}

impl Default for ClusterEditor {
    /// A blank editor over the ABCI figures (used only if a preset fails to load).
    fn default() -> Self {
        Self {
            preset: None,
            base: presets::clusters::abci(),
            edits: BTreeMap::new(),
        }
    }
}

impl ClusterEditor {
    /// An editor holding `source`.
    ///
    /// # Errors
    /// An unknown preset.
    pub fn from_source(source: &ClusterSource) -> Result<Self, OracleError> {
        let (preset, base) = match source {
            ClusterSource::Preset(key) => (Some(key.clone()), presets::cluster(key)?.spec().clone()),
            ClusterSource::Custom(spec) => (None, spec.clone()),
        };
        Ok(Self {
            preset,
            base,
            edits: BTreeMap::new(),
        })
    }

    /// The text of a cell: what the user typed, or the value in `unit`s.
    pub fn text(&self, key: ClusterKey, value: f64, scale: f64) -> String {
        self.edits
            .get(&key)
            .cloned()
            .unwrap_or_else(|| units::significant(value / scale, 12))
    }

    /// The text of scalar parameter `index` of [`PARAMS`].
    pub fn param_text(&self, index: usize) -> String {
        PARAMS
            .get(index)
            .map(|param| self.text(ClusterKey::Param(index), (param.get)(&self.base), param.scale))
            .unwrap_or_default()
    }

    /// GPUs per node as the editor shows them (typed, or the value).
    pub fn gpus_per_node_text(&self) -> String {
        PARAMS
            .iter()
            .position(|p| p.path == ["gpus_per_node"])
            .map(|i| self.param_text(i))
            .unwrap_or_default()
    }

    /// The text of a switch level cell.
    pub fn level_text(&self, index: usize, column: LevelColumn) -> String {
        let Some(level) = self.base.switch_levels.get(index) else {
            return String::new();
        };
        match column {
            LevelColumn::Span => self
                .edits
                .get(&ClusterKey::Level(index, column))
                .cloned()
                .unwrap_or_else(|| level.span_nodes.map(|s| s.to_string()).unwrap_or_default()),
            LevelColumn::Latency => self.text(ClusterKey::Level(index, column), level.latency_s, 1e-9),
        }
    }

    /// Records what the user typed in a cell.
    pub fn edit(&mut self, key: ClusterKey, text: String) {
        self.edits.insert(key, text);
    }

    /// Builds and checks the cluster: the preset itself when nothing
    /// differs from it.
    ///
    /// # Errors
    /// Every field that does not parse, or the first rule the cluster breaks.
    pub fn build(&self) -> Result<(ClusterSource, Cluster), Errors> {
        let spec = self.spec()?;
        let cluster =
            Cluster::new(spec.clone()).map_err(|e| Errors::from([(fields::of_cluster(&e), fields::message(&e))]))?;
        let unchanged = self
            .preset
            .as_deref()
            .filter(|key| presets::cluster(key).is_ok_and(|c| c.spec() == &spec));
        let source = match unchanged {
            Some(key) => ClusterSource::Preset(key.into()),
            None => ClusterSource::Custom(spec),
        };
        Ok((source, cluster))
    }

    fn spec(&self) -> Result<ClusterSpec, Errors> {
        let mut spec = self.base.clone();
        let mut errors = Errors::new();
        for (&key, text) in &self.edits {
            if let Err(message) = apply(&mut spec, key, text) {
                errors.insert(Key::Cluster(key), message);
            }
        }
        if errors.is_empty() { Ok(spec) } else { Err(errors) }
    }

    /// Adds a switch level inside the outermost one (the edits kept).
    pub fn add_level(&mut self) {
        self.bake();
        let levels = &mut self.base.switch_levels;
        let span = levels
            .iter()
            .rev()
            .find_map(|l| l.span_nodes)
            .unwrap_or(1)
            .saturating_mul(2);
        let at = levels.len().saturating_sub(1);
        levels.insert(
            at,
            SwitchLevelSpec {
                name: format!("level {}", at + 1),
                span_nodes: Some(span),
                latency_s: 100e-9,
            },
        );
    }

    /// Removes a switch level (one always stays; the last spans everything).
    pub fn remove_level(&mut self, index: usize) {
        self.bake();
        let levels = &mut self.base.switch_levels;
        if levels.len() > 1 && index < levels.len() {
            levels.remove(index);
            if let Some(last) = levels.last_mut() {
                last.span_nodes = None;
            }
        }
    }

    /// Folds the edits that parse into the base, before the structure changes.
    fn bake(&mut self) {
        let mut spec = self.base.clone();
        for (&key, text) in &self.edits {
            let _ = apply(&mut spec, key, text);
        }
        self.base = spec;
        self.edits.clear();
    }
}

fn apply(spec: &mut ClusterSpec, key: ClusterKey, text: &str) -> Result<(), String> {
    let value: f64 = text.trim().parse().map_err(|_| "Must be a number".to_string())?;
    match key {
        ClusterKey::Param(index) => {
            let param = PARAMS.get(index).ok_or_else(|| "Unknown field".to_string())?;
            if param.whole && (value.fract() != 0.0 || value < 0.0) {
                return Err("Must be a whole number".into());
            }
            (param.set)(spec, value * param.scale);
            Ok(())
        }
        ClusterKey::Level(index, column) => {
            let level = spec
                .switch_levels
                .get_mut(index)
                .ok_or_else(|| "Unknown level".to_string())?;
            match column {
                LevelColumn::Latency => level.latency_s = value * 1e-9,
                LevelColumn::Span => {
                    if value.fract() != 0.0 || value < 1.0 {
                        return Err("Must be a whole number of nodes".into());
                    }
                    level.span_nodes = Some(value as u64);
                }
            }
            Ok(())
        }
        ClusterKey::Whole => Err("Unknown field".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abci() -> ClusterEditor {
        ClusterEditor::from_source(&ClusterSource::Preset("abci".into())).unwrap()
    }

    #[test]
    fn untouched_presets_are_exact() {
        let editor = abci();
        assert_eq!(editor.build().unwrap().0, ClusterSource::Preset("abci".into()));
        assert_eq!(editor.param_text(5), "9");
        assert_eq!(editor.param_text(7), "20.11");
        assert_eq!(editor.gpus_per_node_text(), "4");
        assert_eq!(editor.level_text(0, LevelColumn::Latency), "90");
        assert_eq!(editor.level_text(2, LevelColumn::Span), "");
    }

    #[test]
    fn edits_apply_in_display_units() {
        let mut editor = abci();
        editor.edit(ClusterKey::Param(1), "32".into());
        editor.edit(ClusterKey::Level(1, LevelColumn::Span), "40".into());
        let (source, cluster) = editor.build().unwrap();
        assert!(matches!(source, ClusterSource::Custom(_)));
        assert_eq!(cluster.gpu_memory_bytes(), 32e9);
        assert_eq!(cluster.spec().switch_levels[1].span_nodes, Some(40));
        assert_eq!(editor.param_text(1), "32");
    }

    #[test]
    fn bad_values_are_errors_next_to_their_field() {
        let mut editor = abci();
        editor.edit(ClusterKey::Param(2), "2.5".into());
        editor.edit(ClusterKey::Param(7), "fast".into());
        let errors = editor.build().unwrap_err();
        assert_eq!(errors.len(), 2);
        assert!(errors.contains_key(&Key::Cluster(ClusterKey::Param(2))));
        editor.edits.clear();
        editor.edit(ClusterKey::Param(4), "0".into());
        let errors = editor.build().unwrap_err();
        assert!(errors[&Key::Cluster(ClusterKey::Param(4))].starts_with("Must be at least"));
        editor.edits.clear();
        editor.edit(ClusterKey::Level(1, LevelColumn::Span), "5".into());
        assert!(
            editor
                .build()
                .unwrap_err()
                .contains_key(&Key::Cluster(ClusterKey::Level(1, LevelColumn::Span)))
        );
    }

    #[test]
    fn levels_can_be_added_and_removed() {
        let mut editor = abci();
        editor.edit(ClusterKey::Param(1), "32".into());
        editor.add_level();
        assert_eq!(editor.base.switch_levels.len(), 4);
        assert_eq!(editor.base.gpu_memory_bytes, 32e9);
        assert!(editor.build().is_ok());
        editor.remove_level(3);
        editor.remove_level(2);
        assert_eq!(editor.base.switch_levels.len(), 2);
        assert_eq!(editor.base.switch_levels[1].span_nodes, None);
        assert!(editor.build().is_ok());
    }
}
