//! The cluster as the user edits it, in display units (GB, GB/s, µs,
//! TFLOP/s). Fields the user has not touched keep their exact values, so
//! an untouched preset is the preset bit for bit.

use std::collections::BTreeMap;

pub use super::fields::LevelColumn;
use super::fields::{self, ClusterKey, Errors, Key};
use super::inputs::ClusterSource;
use crate::oracle::{
    AllreduceAlgorithm, Cluster, ClusterSpec, FrameworkMemory, GemmRates, HaloTransport, KernelFacts, OracleError,
    SwitchLevelSpec, presets, units,
};

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

/// Which group of optional facts a fact belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FactGroup {
    /// The realistic edition's (section 7, and reserved memory).
    Realistic,
    /// The GPU's sustained FLOP/s per precision (section 9).
    Precision,
    /// Today's machines (section 11): kernels, framework memory, NCCL.
    Today,
}

/// One optional fact (blank: left out; a realistic term off, a precision
/// at the FP32 rate).
#[derive(Debug, Clone, Copy)]
pub struct Fact {
    /// Its group.
    pub group: FactGroup,
    /// Engine field path, member by member.
    pub path: &'static [&'static str],
    /// A stable id for the input.
    pub id: &'static str,
    /// Label.
    pub label: &'static str,
    /// Display unit.
    pub unit: &'static str,
    /// Engine value per display unit.
    pub scale: f64,
    /// A whole number.
    pub whole: bool,
    get: fn(&ClusterSpec) -> Option<f64>,
    set: fn(&mut ClusterSpec, Option<f64>),
}

/// Halo transport as the two cells set it: a latency and a bandwidth,
/// either possibly blank.
fn set_halo(spec: &mut ClusterSpec, latency_s: Option<Option<f64>>, bandwidth: Option<Option<f64>>) {
    let old = spec.realistic.halo_transport;
    let given = |v: f64| (!v.is_nan()).then_some(v);
    let latency = latency_s.unwrap_or(old.and_then(|h| given(h.latency_s)));
    let bw = bandwidth.unwrap_or(old.and_then(|h| given(h.pcie_bandwidth_bytes_per_s)));
    spec.realistic.halo_transport = match (latency, bw) {
        (None, None) => None,
        // one cell blank: NaN until the other is given ([`ClusterEditor::build`] says which)
        (l, b) => Some(HaloTransport {
            latency_s: l.unwrap_or(f64::NAN),
            pcie_bandwidth_bytes_per_s: b.unwrap_or(f64::NAN),
        }),
    };
}

/// Which fact of a GPU's kernels a cell sets.
#[derive(Debug, Clone, Copy)]
enum KernelField {
    Sms,
    Fp32,
    Tf32,
    Fp16,
    Bf16,
    Overhead,
}

/// The kernel facts as their cells set them: the SMs, the FP32 rate and
/// the overhead are needed, the other rates optional.
fn set_kernels(spec: &mut ClusterSpec, field: KernelField, value: Option<f64>) {
    // a needed cell left blank: 0 or NaN until it is given ([`ClusterEditor::build`] says which)
    let mut k = spec.realistic.kernels.unwrap_or(KernelFacts {
        sms: 0,
        gemm_flops_per_s: GemmRates {
            fp32: f64::NAN,
            tf32: None,
            fp16: None,
            bf16: None,
        },
        kernel_overhead_s: f64::NAN,
    });
    match field {
        KernelField::Sms => k.sms = value.map_or(0, |v| v as u64),
        KernelField::Fp32 => k.gemm_flops_per_s.fp32 = value.unwrap_or(f64::NAN),
        KernelField::Tf32 => k.gemm_flops_per_s.tf32 = value,
        KernelField::Fp16 => k.gemm_flops_per_s.fp16 = value,
        KernelField::Bf16 => k.gemm_flops_per_s.bf16 = value,
        KernelField::Overhead => k.kernel_overhead_s = value.unwrap_or(f64::NAN),
    }
    let rates = k.gemm_flops_per_s;
    let empty = k.sms == 0
        && rates.fp32.is_nan()
        && rates.tf32.is_none()
        && rates.fp16.is_none()
        && rates.bf16.is_none()
        && k.kernel_overhead_s.is_nan();
    spec.realistic.kernels = (!empty).then_some(k);
}

/// The realistic edition's numeric facts, in display order.
pub const FACTS: [Fact; 17] = [
    Fact {
        group: FactGroup::Realistic,
        path: &["realistic", "memory_bandwidth_bytes_per_s"],
        id: "cluster-memory-bandwidth",
        label: "GPU memory bandwidth (sustained)",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.memory_bandwidth_bytes_per_s,
        set: |c, v| c.realistic.memory_bandwidth_bytes_per_s = v,
    },
    Fact {
        group: FactGroup::Realistic,
        path: &["realistic", "nic_sharing"],
        id: "cluster-nic-sharing",
        label: "GPUs sharing a path to a NIC",
        unit: "GPUs",
        scale: 1.0,
        whole: true,
        get: |c| c.realistic.nic_sharing.map(|n| n as f64),
        set: |c, v| c.realistic.nic_sharing = v.map(|n| n as u64),
    },
    Fact {
        group: FactGroup::Realistic,
        path: &["realistic", "halo_transport", "latency_s"],
        id: "cluster-halo-latency",
        label: "Host-staged halo latency",
        unit: "ms",
        scale: 1e-3,
        whole: false,
        get: |c| c.realistic.halo_transport.map(|h| h.latency_s),
        set: |c, v| set_halo(c, Some(v), None),
    },
    Fact {
        group: FactGroup::Realistic,
        path: &["realistic", "halo_transport", "pcie_bandwidth_bytes_per_s"],
        id: "cluster-halo-pcie-bandwidth",
        label: "Host PCIe bandwidth (halos)",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.halo_transport.map(|h| h.pcie_bandwidth_bytes_per_s),
        set: |c, v| set_halo(c, None, Some(v)),
    },
    Fact {
        group: FactGroup::Realistic,
        path: &["realistic", "reserved_bytes"],
        id: "cluster-reserved",
        label: "Reserved per GPU (CUDA context, framework)",
        unit: "GB",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.reserved_bytes,
        set: |c, v| c.realistic.reserved_bytes = v,
    },
    Fact {
        group: FactGroup::Precision,
        path: &["gpu_flops_by_precision", "tf32"],
        id: "cluster-flops-tf32",
        label: "Sustained TF32 speed",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.gpu_flops_by_precision.tf32,
        set: |c, v| c.gpu_flops_by_precision.tf32 = v,
    },
    Fact {
        group: FactGroup::Precision,
        path: &["gpu_flops_by_precision", "fp16"],
        id: "cluster-flops-fp16",
        label: "Sustained FP16 speed",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.gpu_flops_by_precision.fp16,
        set: |c, v| c.gpu_flops_by_precision.fp16 = v,
    },
    Fact {
        group: FactGroup::Precision,
        path: &["gpu_flops_by_precision", "bf16"],
        id: "cluster-flops-bf16",
        label: "Sustained BF16 speed",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.gpu_flops_by_precision.bf16,
        set: |c, v| c.gpu_flops_by_precision.bf16 = v,
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "intra_node_bus_bandwidth_bytes_per_s"],
        id: "cluster-intra-bus",
        label: "NCCL bus bandwidth inside a node",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.intra_node_bus_bandwidth_bytes_per_s,
        set: |c, v| c.realistic.intra_node_bus_bandwidth_bytes_per_s = v,
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "nic_bus_bandwidth_bytes_per_s"],
        id: "cluster-nic-bus",
        label: "NCCL bandwidth through one NIC",
        unit: "GB/s",
        scale: 1e9,
        whole: false,
        get: |c| c.realistic.nic_bus_bandwidth_bytes_per_s,
        set: |c, v| c.realistic.nic_bus_bandwidth_bytes_per_s = v,
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "kernels", "sms"],
        id: "cluster-sms",
        label: "Streaming multiprocessors (SMs)",
        unit: "SMs",
        scale: 1.0,
        whole: true,
        get: |c| c.realistic.kernels.map(|k| k.sms as f64).filter(|&n| n > 0.0),
        set: |c, v| set_kernels(c, KernelField::Sms, v),
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "kernels", "gemm_flops_per_s", "fp32"],
        id: "cluster-gemm-fp32",
        label: "Large matrix multiplications, FP32",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.map(|k| k.gemm_flops_per_s.fp32),
        set: |c, v| set_kernels(c, KernelField::Fp32, v),
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "kernels", "gemm_flops_per_s", "tf32"],
        id: "cluster-gemm-tf32",
        label: "Large matrix multiplications, TF32",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.and_then(|k| k.gemm_flops_per_s.tf32),
        set: |c, v| set_kernels(c, KernelField::Tf32, v),
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "kernels", "gemm_flops_per_s", "fp16"],
        id: "cluster-gemm-fp16",
        label: "Large matrix multiplications, FP16",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.and_then(|k| k.gemm_flops_per_s.fp16),
        set: |c, v| set_kernels(c, KernelField::Fp16, v),
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "kernels", "gemm_flops_per_s", "bf16"],
        id: "cluster-gemm-bf16",
        label: "Large matrix multiplications, BF16",
        unit: "TFLOP/s",
        scale: 1e12,
        whole: false,
        get: |c| c.realistic.kernels.and_then(|k| k.gemm_flops_per_s.bf16),
        set: |c, v| set_kernels(c, KernelField::Bf16, v),
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "kernels", "kernel_overhead_s"],
        id: "cluster-kernel-overhead",
        label: "Launch and framework cost of a kernel",
        unit: "µs",
        scale: 1e-6,
        whole: false,
        get: |c| c.realistic.kernels.map(|k| k.kernel_overhead_s),
        set: |c, v| set_kernels(c, KernelField::Overhead, v),
    },
    Fact {
        group: FactGroup::Today,
        path: &["realistic", "framework_memory", "workspace_bytes"],
        id: "cluster-workspace",
        label: "Library workspace per GPU (blank: ParaDL's memory accounting)",
        unit: "MB",
        scale: 1e6,
        whole: false,
        get: |c| c.realistic.framework_memory.map(|m| m.workspace_bytes),
        set: |c, v| c.realistic.framework_memory = v.map(|workspace_bytes| FrameworkMemory { workspace_bytes }),
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
            ClusterSource::Custom(spec) => (None, spec.as_ref().clone()),
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

    /// The text of fact `index` of [`FACTS`]: typed, the value, or blank
    /// when the fact is left out.
    pub fn fact_text(&self, index: usize) -> String {
        let key = ClusterKey::Fact(index);
        if let Some(typed) = self.edits.get(&key) {
            return typed.clone();
        }
        FACTS
            .get(index)
            .and_then(|fact| (fact.get)(&self.base).map(|v| (v, fact.scale)))
            .filter(|(v, _)| v.is_finite())
            .map(|(v, scale)| units::significant(v / scale, 12))
            .unwrap_or_default()
    }

    /// The Allreduce algorithm (`None`: left out, ring).
    pub fn allreduce(&self) -> Option<AllreduceAlgorithm> {
        self.base.realistic.allreduce
    }

    /// Sets the Allreduce algorithm (`None`: left out).
    pub fn set_allreduce(&mut self, algorithm: Option<AllreduceAlgorithm>) {
        self.base.realistic.allreduce = algorithm;
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
            None => ClusterSource::Custom(Box::new(spec)),
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
        // a host-staged halo needs both of its cells
        if let Some(halo) = spec.realistic.halo_transport {
            for (index, value, other) in [
                (2, halo.latency_s, "the PCIe bandwidth"),
                (3, halo.pcie_bandwidth_bytes_per_s, "the latency"),
            ] {
                if value.is_nan() && !errors.contains_key(&Key::Cluster(ClusterKey::Fact(index))) {
                    errors.insert(
                        Key::Cluster(ClusterKey::Fact(index)),
                        format!("Give this too, or clear {other} (no host staging)"),
                    );
                }
            }
        }
        // kernel facts need their SMs, FP32 rate and overhead
        if let Some(k) = spec.realistic.kernels {
            for (id, blank) in [
                ("cluster-sms", k.sms == 0),
                ("cluster-gemm-fp32", k.gemm_flops_per_s.fp32.is_nan()),
                ("cluster-kernel-overhead", k.kernel_overhead_s.is_nan()),
            ] {
                let Some(index) = FACTS.iter().position(|f| f.id == id) else {
                    continue;
                };
                let key = Key::Cluster(ClusterKey::Fact(index));
                if blank && !errors.contains_key(&key) {
                    errors.insert(key, "Give this too, or clear every kernel fact (no kernels)".into());
                }
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
    if let ClusterKey::Fact(index) = key {
        let fact = FACTS.get(index).ok_or_else(|| "Unknown field".to_string())?;
        if text.trim().is_empty() {
            (fact.set)(spec, None);
            return Ok(());
        }
        let value =
            super::quantity::parse(text, fact.unit, fact.scale).map_err(|e| format!("{e} (or blank: left out)"))?;
        if fact.whole && (value.fract() != 0.0 || value < 0.0) {
            return Err("Must be a whole number".into());
        }
        (fact.set)(spec, Some(value * fact.scale));
        return Ok(());
    }
    // the field's unit, so that "400 Gb/s" or "90 ns" convert to it
    let (unit, scale) = match key {
        ClusterKey::Param(index) => PARAMS.get(index).map_or(("", 1.0), |p| (p.unit, p.scale)),
        ClusterKey::Level(_, LevelColumn::Latency) => ("ns", 1e-9),
        _ => ("", 1.0),
    };
    let value = super::quantity::parse(text, unit, scale)?;
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
        ClusterKey::Whole | ClusterKey::Fact(_) => Err("Unknown field".into()),
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
    fn values_typed_with_units_convert() {
        let index = |path: &[&str]| PARAMS.iter().position(|p| p.path == path).unwrap();
        let mut editor = ClusterEditor::from_source(&ClusterSource::Preset("abci".into())).unwrap();
        editor.edit(
            ClusterKey::Param(index(&["nic", "bandwidth_bytes_per_s"])),
            "400 Gb/s".into(),
        );
        editor.edit(ClusterKey::Param(index(&["gpu_memory_bytes"])), "80 GB".into());
        editor.edit(ClusterKey::Param(index(&["gpu_flops_per_s"])), "989 TFLOPS".into());
        editor.edit(ClusterKey::Param(index(&["nic", "latency_s"])), "1500 ns".into());
        editor.edit(ClusterKey::Level(0, LevelColumn::Latency), "0.1 µs".into());
        let (_, cluster) = editor.build().unwrap();
        let spec = cluster.spec();
        assert!((spec.nic.bandwidth_bytes_per_s - 50e9).abs() < 1.0);
        assert!((spec.gpu_memory_bytes - 80e9).abs() < 1.0);
        assert!((spec.gpu_flops_per_s - 989e12).abs() < 1e3);
        assert!((spec.nic.latency_s - 1.5e-6).abs() < 1e-15);
        assert!((spec.switch_levels[0].latency_s - 1e-7).abs() < 1e-18);
        // a unit of another kind is an error on that field, the text kept
        editor.edit(ClusterKey::Param(index(&["gpu_memory_bytes"])), "80 GB/s".into());
        let errors = editor.build().unwrap_err();
        let key = Key::Cluster(ClusterKey::Param(index(&["gpu_memory_bytes"])));
        assert!(errors[&key].contains("not a unit of this field"), "{}", errors[&key]);
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
    fn section_11_facts_are_cells_and_a_half_given_kernel_names_its_blank_cell() {
        let index = |id: &str| FACTS.iter().position(|f| f.id == id).unwrap();
        let mut editor = abci();
        assert_eq!(editor.fact_text(index("cluster-sms")), "80");
        assert_eq!(editor.fact_text(index("cluster-workspace")), "33.554432");
        // a cluster with no kernel facts: the SMs alone are not enough
        for id in [
            "cluster-sms",
            "cluster-gemm-fp32",
            "cluster-gemm-fp16",
            "cluster-kernel-overhead",
        ] {
            editor.edit(ClusterKey::Fact(index(id)), "".into());
        }
        let (_, cluster) = editor.build().unwrap();
        assert_eq!(cluster.realistic().kernels, None);
        editor.edit(ClusterKey::Fact(index("cluster-sms")), "100".into());
        let errors = editor.build().unwrap_err();
        for id in ["cluster-gemm-fp32", "cluster-kernel-overhead"] {
            assert!(
                errors.contains_key(&Key::Cluster(ClusterKey::Fact(index(id)))),
                "{errors:?}"
            );
        }
        editor.edit(ClusterKey::Fact(index("cluster-gemm-fp32")), "50".into());
        editor.edit(ClusterKey::Fact(index("cluster-kernel-overhead")), "5".into());
        let (_, cluster) = editor.build().unwrap();
        let kernels = cluster.realistic().kernels.unwrap();
        assert_eq!((kernels.sms, kernels.gemm_flops_per_s.fp32), (100, 50e12));
        assert!((kernels.kernel_overhead_s - 5e-6).abs() < 1e-18);
    }

    #[test]
    fn realistic_facts_are_optional_cells() {
        let mut editor = abci();
        assert_eq!(editor.fact_text(0), "450");
        assert_eq!(editor.fact_text(1), "2");
        assert_eq!(editor.fact_text(2), "3.00011");
        assert_eq!(editor.fact_text(3), "16");
        // ABCI's measured runs used flat NCCL rings
        assert_eq!(editor.allreduce(), Some(AllreduceAlgorithm::Ring));
        // blank: the fact is left out
        editor.edit(ClusterKey::Fact(0), " ".into());
        editor.edit(ClusterKey::Fact(2), "".into());
        editor.edit(ClusterKey::Fact(3), "".into());
        let (_, cluster) = editor.build().unwrap();
        assert_eq!(cluster.realistic().memory_bandwidth_bytes_per_s, None);
        assert_eq!(cluster.realistic().halo_transport, None);
        // half a halo transport is an error on the blank cell
        editor.edit(ClusterKey::Fact(2), "1.5".into());
        let errors = editor.build().unwrap_err();
        assert!(errors[&Key::Cluster(ClusterKey::Fact(3))].contains("latency"));
        editor.edit(ClusterKey::Fact(3), "8".into());
        let (_, cluster) = editor.build().unwrap();
        let halo = cluster.realistic().halo_transport.unwrap();
        assert_eq!((halo.latency_s, halo.pcie_bandwidth_bytes_per_s), (1.5e-3, 8e9));
        editor.edit(ClusterKey::Fact(1), "0".into());
        let errors = editor.build().unwrap_err();
        assert!(errors.contains_key(&Key::Cluster(ClusterKey::Fact(1))), "{errors:?}");
        editor.set_allreduce(None);
        assert_eq!(editor.allreduce(), None);
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
