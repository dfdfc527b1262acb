//! The cluster as the user edits it, in display units (GB, GB/s, µs,
//! TFLOP/s): the cluster underneath and the cells typed over it (see
//! [`crate::app::state::editor`]), each read by its row of
//! [`crate::app::input::cluster_fields`]. Fields the user has not touched
//! keep their exact values, so an untouched preset is the preset bit for
//! bit.

use crate::app::input::cluster_fields::{self, ClusterField, HaloPart, KernelPart, PARAMS, Set};
use crate::app::input::keys::{self, ClusterKey, Errors, Key, LevelColumn};
use crate::app::input::quantity;
use crate::app::input::source::ClusterSource;
use crate::app::state::editor::Editor;
use crate::oracle::{
    AllreduceAlgorithm, Cluster, ClusterSpec, GemmRates, HaloTransport, KernelFacts, OracleError, PrecisionRates,
    SwitchLevelSpec, presets, units,
};

/// The cluster editor.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterEditor {
    /// The preset it was loaded from, if any.
    pub preset: Option<String>,
    /// The cluster underneath and the cells typed over it.
    pub cells: Editor<ClusterSpec, ClusterKey>,
}

impl Default for ClusterEditor {
    /// An editor over the ABCI figures (used only if a preset fails to load).
    fn default() -> Self {
        Self {
            preset: None,
            cells: Editor::new(presets::clusters::abci()),
        }
    }
}

/// A number as a cell shows it.
fn shown(value: f64, scale: f64) -> String {
    units::significant(value / scale, 12)
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
            cells: Editor::new(base),
        })
    }

    /// The cluster underneath.
    pub fn base(&self) -> &ClusterSpec {
        &self.cells.base
    }

    /// The text of a field's cell: typed, its value in its unit, or blank
    /// when an optional fact is left out.
    pub fn field_text(&self, field: &ClusterField) -> String {
        self.cells.text(field.key(), |base| {
            (field.get)(base)
                .filter(|v| v.is_finite())
                .map(|v| shown(v, field.scale))
                .unwrap_or_default()
        })
    }

    /// The text of a switch level cell.
    pub fn level_text(&self, index: usize, column: LevelColumn) -> String {
        self.cells.text(ClusterKey::Level(index, column), |base| {
            let Some(level) = base.switch_levels.get(index) else {
                return String::new();
            };
            match column {
                LevelColumn::Span => level.span_nodes.map(|s| s.to_string()).unwrap_or_default(),
                LevelColumn::Latency => shown(level.latency_s, 1e-9),
            }
        })
    }

    /// GPUs per node as the editor shows them (typed, or the value).
    pub fn gpus_per_node_text(&self) -> String {
        PARAMS
            .iter()
            .find(|p| p.path == ["gpus_per_node"])
            .map(|p| self.field_text(p))
            .unwrap_or_default()
    }

    /// The Allreduce algorithm (`None`: left out, ring).
    pub fn allreduce(&self) -> Option<AllreduceAlgorithm> {
        self.cells.base.realistic.allreduce
    }

    /// Sets the Allreduce algorithm (`None`: left out).
    pub fn set_allreduce(&mut self, algorithm: Option<AllreduceAlgorithm>) {
        self.cells.base.realistic.allreduce = algorithm;
    }

    /// Records what the user typed in a cell.
    pub fn edit(&mut self, key: ClusterKey, text: String) {
        self.cells.edit(key, text);
    }

    /// Builds and checks the cluster: the preset itself when nothing
    /// differs from it.
    ///
    /// # Errors
    /// Every field that does not parse, a half-given group of facts, or
    /// the first rule the cluster breaks.
    pub fn build(&self) -> Result<(ClusterSource, Cluster), Errors> {
        let mut spec = self.spec()?;
        let preset = self.preset.as_deref().and_then(|key| presets::cluster(key).ok());
        let unchanged = preset.as_ref().is_some_and(|c| c.spec() == &spec);
        if let (false, Some(preset)) = (unchanged, &preset) {
            // what is shared and exported says the numbers are no longer the preset's
            mark_edited(&mut spec, preset.spec());
        }
        let cluster = Cluster::new(spec.clone())
            .map_err(|e| Errors::from([(cluster_fields::of_cluster(&e), keys::message(&e))]))?;
        let source = match (unchanged, &self.preset) {
            (true, Some(key)) => ClusterSource::Preset(key.clone()),
            _ => ClusterSource::Custom(Box::new(spec)),
        };
        Ok((source, cluster))
    }

    fn spec(&self) -> Result<ClusterSpec, Errors> {
        let mut groups = Groups::of(&self.cells.base);
        let (mut spec, mut errors) = self
            .cells
            .read(|spec, key, text| read(spec, &mut groups, key, text), Key::Cluster);
        groups.write(&mut spec, &mut errors);
        if errors.is_empty() { Ok(spec) } else { Err(errors) }
    }

    /// Adds a switch level inside the outermost one (the edits kept).
    pub fn add_level(&mut self) {
        self.bake();
        let levels = &mut self.cells.base.switch_levels;
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
        let levels = &mut self.cells.base.switch_levels;
        if levels.len() > 1 && index < levels.len() {
            levels.remove(index);
            if let Some(last) = levels.last_mut() {
                last.span_nodes = None;
            }
        }
    }

    /// Folds the edits that read into the base, before the structure
    /// changes (a group of facts half given stays as it was).
    fn bake(&mut self) {
        if let Ok(spec) = self.spec() {
            self.cells.base = spec;
            self.cells.edits.clear();
        } else {
            let mut groups = Groups::of(&self.cells.base);
            self.cells.bake(|spec, key, text| read(spec, &mut groups, key, text));
        }
    }
}

/// Names a preset's edited copy as such: `NAME (edited)`, its source
/// saying which sources no longer vouch for every number.
fn mark_edited(spec: &mut ClusterSpec, preset: &ClusterSpec) {
    spec.name = format!("{} (edited)", preset.name);
    spec.source = format!(
        "Edited from {}: the values changed are the user's; the preset's sources cover only the ones left as they were ({})",
        preset.name, preset.source
    );
}

/// The facts that go together, as the base gives them and the cells set
/// them, written once every cell is read.
struct Groups {
    halo: [Option<f64>; 2],
    kernels: [Option<f64>; 6],
}

const KERNEL_PARTS: [KernelPart; 6] = [
    KernelPart::Sms,
    KernelPart::Fp32,
    KernelPart::Tf32,
    KernelPart::Fp16,
    KernelPart::Bf16,
    KernelPart::Overhead,
];

impl Groups {
    fn of(spec: &ClusterSpec) -> Self {
        let halo = spec.realistic.halo_transport;
        let k = spec.realistic.kernels;
        Self {
            halo: [halo.map(|h| h.latency_s), halo.map(|h| h.pcie_bandwidth_bytes_per_s)],
            kernels: [
                k.map(|k| k.sms as f64),
                k.map(|k| k.gemm_flops_per_s.fp32),
                k.and_then(|k| k.gemm_flops_per_s.by_precision.tf32),
                k.and_then(|k| k.gemm_flops_per_s.by_precision.fp16),
                k.and_then(|k| k.gemm_flops_per_s.by_precision.bf16),
                k.map(|k| k.kernel_overhead_s),
            ],
        }
    }

    fn set(&mut self, set: Set, value: Option<f64>) {
        match set {
            Set::Halo(HaloPart::Latency) => self.halo[0] = value,
            Set::Halo(HaloPart::Bandwidth) => self.halo[1] = value,
            Set::Kernel(part) => {
                if let Some(i) = KERNEL_PARTS.iter().position(|p| *p == part) {
                    self.kernels[i] = value;
                }
            }
            Set::Direct(_) => {}
        }
    }

    /// The cell of a group's part, to name a blank one.
    fn cell(set: &dyn Fn(Set) -> bool) -> Key {
        let path = cluster_fields::all().find(|f| set(f.set)).map_or(&[][..], |f| f.path);
        Key::Cluster(ClusterKey::Field(path))
    }

    /// Writes both groups into `spec`: a group wholly blank is left out; a
    /// part it needs left blank is an error on that cell.
    fn write(&self, spec: &mut ClusterSpec, errors: &mut Errors) {
        let blank = |errors: &mut Errors, key: Key, message: &str| {
            errors.entry(key).or_insert_with(|| message.to_string());
        };
        // how the parts exchange (a chain or not) is the base's: not a field of the panel
        let chained = spec.realistic.halo_transport.is_some_and(|h| h.chained);
        spec.realistic.halo_transport = match self.halo {
            [None, None] => None,
            [Some(latency_s), Some(pcie_bandwidth_bytes_per_s)] => Some(HaloTransport {
                latency_s,
                pcie_bandwidth_bytes_per_s,
                chained,
            }),
            [l, _] => {
                let (part, other) = if l.is_none() {
                    (HaloPart::Latency, "the PCIe bandwidth")
                } else {
                    (HaloPart::Bandwidth, "the latency")
                };
                let key = Self::cell(&|s| matches!(s, Set::Halo(p) if p == part));
                blank(
                    errors,
                    key,
                    &format!("Give this too, or clear {other} (no host staging)"),
                );
                None
            }
        };
        let [sms, fp32, tf32, fp16, bf16, overhead] = self.kernels;
        // the STREAM bandwidth is the base's (its GPU's): not a field of the panel
        let stream_bytes_per_s = spec.realistic.kernels.and_then(|k| k.stream_bytes_per_s);
        spec.realistic.kernels = match (sms, fp32, overhead) {
            _ if self.kernels.iter().all(Option::is_none) => None,
            (Some(sms), Some(fp32), Some(kernel_overhead_s)) => Some(KernelFacts {
                sms: sms as u64,
                gemm_flops_per_s: GemmRates {
                    fp32,
                    by_precision: PrecisionRates {
                        fp32: None,
                        tf32,
                        fp16,
                        bf16,
                    },
                },
                kernel_overhead_s,
                stream_bytes_per_s,
            }),
            _ => {
                for (part, value) in [
                    (KernelPart::Sms, sms),
                    (KernelPart::Fp32, fp32),
                    (KernelPart::Overhead, overhead),
                ] {
                    if value.is_none() {
                        let key = Self::cell(&|s| matches!(s, Set::Kernel(p) if p == part));
                        blank(errors, key, "Give this too, or clear every kernel fact (no kernels)");
                    }
                }
                None
            }
        };
    }
}

/// Reads one typed cell into `spec` (a fact of a group into `groups`).
fn read(spec: &mut ClusterSpec, groups: &mut Groups, key: ClusterKey, text: &str) -> Result<(), String> {
    match key {
        ClusterKey::Field(_) => {
            let field = cluster_fields::field(key).ok_or_else(|| "Unknown field".to_string())?;
            let value = if text.trim().is_empty() && field.optional() {
                None
            } else {
                // the field's unit, so that "400 Gb/s" or "90 ns" convert to it
                let value = quantity::parse(text, field.unit, field.scale).map_err(|e| {
                    if field.optional() {
                        format!("{e} (or blank: left out)")
                    } else {
                        e
                    }
                })?;
                if field.whole && (value.fract() != 0.0 || value < 0.0) {
                    return Err("Must be a whole number".into());
                }
                Some(value * field.scale)
            };
            match field.set {
                Set::Direct(set) => set(spec, value),
                group => groups.set(group, value),
            }
            Ok(())
        }
        ClusterKey::Level(index, column) => {
            let (unit, scale) = match column {
                LevelColumn::Latency => ("ns", 1e-9),
                LevelColumn::Span => ("", 1.0),
            };
            let value = quantity::parse(text, unit, scale)?;
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
    use crate::app::state::cluster_editor::*;

    fn abci() -> ClusterEditor {
        ClusterEditor::from_source(&ClusterSource::Preset("abci".into())).unwrap()
    }

    /// The key of the field whose input has this id.
    fn cell(id: &str) -> ClusterKey {
        cluster_fields::by_id(id).map(ClusterField::key).unwrap()
    }

    fn text(editor: &ClusterEditor, id: &str) -> String {
        cluster_fields::by_id(id).map(|f| editor.field_text(f)).unwrap()
    }

    fn error_at(errors: &Errors, id: &str) -> Option<String> {
        errors.get(&Key::Cluster(cell(id))).cloned()
    }

    #[test]
    fn untouched_presets_are_exact() {
        let editor = abci();
        assert_eq!(editor.build().unwrap().0, ClusterSource::Preset("abci".into()));
        assert_eq!(text(&editor, "cluster-intra-node-latency-s"), "9");
        assert_eq!(text(&editor, "cluster-nic-latency-s"), "20.11");
        assert_eq!(editor.gpus_per_node_text(), "4");
        assert_eq!(editor.level_text(0, LevelColumn::Latency), "90");
        assert_eq!(editor.level_text(2, LevelColumn::Span), "");
    }

    #[test]
    fn an_edited_preset_is_named_and_sourced_as_edited_wherever_it_goes() {
        let mut editor = ClusterEditor::from_source(&ClusterSource::Preset("dgx-h100".into())).unwrap();
        editor.edit(cell("cluster-gpu-memory-bytes"), "40".into());
        let (source, cluster) = editor.build().unwrap();
        let ClusterSource::Custom(spec) = source else {
            panic!("an edited preset is custom")
        };
        assert_eq!(spec.name, "DGX H100 SuperPOD (edited)");
        assert!(
            spec.source.starts_with("Edited from DGX H100 SuperPOD"),
            "{}",
            spec.source
        );
        assert_eq!(cluster.name(), "DGX H100 SuperPOD (edited)");
        // read back from a link, edited once more: still named once as edited
        let mut again = ClusterEditor::from_source(&ClusterSource::Custom(spec)).unwrap();
        again.edit(cell("cluster-gpu-memory-bytes"), "48".into());
        let (_, cluster) = again.build().unwrap();
        assert_eq!(cluster.name(), "DGX H100 SuperPOD (edited)");
        // an edit undone is the preset again
        editor.edit(cell("cluster-gpu-memory-bytes"), "80".into());
        assert_eq!(editor.build().unwrap().0, ClusterSource::Preset("dgx-h100".into()));
    }

    #[test]
    fn edits_apply_in_display_units() {
        let mut editor = abci();
        editor.edit(cell("cluster-gpu-memory-bytes"), "32".into());
        editor.edit(ClusterKey::Level(1, LevelColumn::Span), "40".into());
        let (source, cluster) = editor.build().unwrap();
        assert!(matches!(source, ClusterSource::Custom(_)));
        assert_eq!(cluster.gpu_memory_bytes(), 32e9);
        assert_eq!(cluster.spec().switch_levels[1].span_nodes, Some(40));
        assert_eq!(text(&editor, "cluster-gpu-memory-bytes"), "32");
    }

    #[test]
    fn values_typed_with_units_convert() {
        let mut editor = abci();
        editor.edit(cell("cluster-nic-bandwidth-bytes-per-s"), "400 Gb/s".into());
        editor.edit(cell("cluster-gpu-memory-bytes"), "80 GB".into());
        editor.edit(cell("cluster-gpu-flops-per-s"), "989 TFLOPS".into());
        editor.edit(cell("cluster-nic-latency-s"), "1500 ns".into());
        editor.edit(ClusterKey::Level(0, LevelColumn::Latency), "0.1 µs".into());
        let (_, cluster) = editor.build().unwrap();
        let spec = cluster.spec();
        assert!((spec.nic.bandwidth_bytes_per_s - 50e9).abs() < 1.0);
        assert!((spec.gpu_memory_bytes - 80e9).abs() < 1.0);
        assert!((spec.gpu_flops_per_s - 989e12).abs() < 1e3);
        assert!((spec.nic.latency_s - 1.5e-6).abs() < 1e-15);
        assert!((spec.switch_levels[0].latency_s - 1e-7).abs() < 1e-18);
        // a unit of another kind is an error on that field, the text kept
        editor.edit(cell("cluster-gpu-memory-bytes"), "80 GB/s".into());
        let errors = editor.build().unwrap_err();
        let message = error_at(&errors, "cluster-gpu-memory-bytes").unwrap();
        assert!(message.contains("not a unit of this field"), "{message}");
    }

    #[test]
    fn bad_values_are_errors_next_to_their_field() {
        let mut editor = abci();
        editor.edit(cell("cluster-gpus-per-node"), "2.5".into());
        editor.edit(cell("cluster-nic-latency-s"), "fast".into());
        let errors = editor.build().unwrap_err();
        assert_eq!(errors.len(), 2);
        assert!(error_at(&errors, "cluster-gpus-per-node").is_some());
        editor.cells.edits.clear();
        editor.edit(cell("cluster-intra-node-bandwidth-bytes-per-s"), "0".into());
        let errors = editor.build().unwrap_err();
        assert!(
            error_at(&errors, "cluster-intra-node-bandwidth-bytes-per-s")
                .unwrap()
                .starts_with("Must be at least")
        );
        editor.cells.edits.clear();
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
        let mut editor = abci();
        assert_eq!(text(&editor, "cluster-sms"), "80");
        assert_eq!(text(&editor, "cluster-workspace"), "33.554432");
        // a cluster with no kernel facts: the SMs alone are not enough
        for id in [
            "cluster-sms",
            "cluster-gemm-fp32",
            "cluster-gemm-tf32",
            "cluster-gemm-fp16",
            "cluster-gemm-bf16",
            "cluster-kernel-overhead",
        ] {
            editor.edit(cell(id), "".into());
        }
        // a cluster with none of its own: its GPU's (the V100's, by its name)
        let (_, cluster) = editor.build().unwrap();
        assert_eq!(cluster.spec().realistic.kernels, None);
        assert_eq!(cluster.realistic().kernels.map(|k| k.sms), Some(80));
        editor.edit(cell("cluster-sms"), "100".into());
        let errors = editor.build().unwrap_err();
        for id in ["cluster-gemm-fp32", "cluster-kernel-overhead"] {
            assert!(error_at(&errors, id).is_some(), "{errors:?}");
        }
        editor.edit(cell("cluster-gemm-fp32"), "50".into());
        editor.edit(cell("cluster-kernel-overhead"), "5".into());
        let (_, cluster) = editor.build().unwrap();
        let kernels = cluster.realistic().kernels.unwrap();
        assert_eq!((kernels.sms, kernels.gemm_flops_per_s.fp32), (100, 50e12));
        assert!((kernels.kernel_overhead_s - 5e-6).abs() < 1e-18);
    }

    #[test]
    fn realistic_facts_are_optional_cells() {
        let mut editor = abci();
        assert_eq!(text(&editor, "cluster-memory-bandwidth"), "450");
        assert_eq!(text(&editor, "cluster-nic-sharing"), "2");
        assert_eq!(text(&editor, "cluster-halo-latency"), "3.00011");
        assert_eq!(text(&editor, "cluster-halo-pcie-bandwidth"), "16");
        // ABCI's measured runs used flat NCCL rings
        assert_eq!(editor.allreduce(), Some(AllreduceAlgorithm::Ring));
        // blank: the fact is left out
        editor.edit(cell("cluster-memory-bandwidth"), " ".into());
        editor.edit(cell("cluster-halo-latency"), "".into());
        editor.edit(cell("cluster-halo-pcie-bandwidth"), "".into());
        let (_, cluster) = editor.build().unwrap();
        assert_eq!(cluster.spec().realistic.memory_bandwidth_bytes_per_s, None);
        // the named GPU's: the V100's 900 GB/s at section 7's derating
        assert_eq!(cluster.realistic().memory_bandwidth_bytes_per_s, Some(450e9));
        assert_eq!(cluster.realistic().halo_transport, None);
        // half a halo transport is an error on the blank cell, and no placeholder anywhere
        editor.edit(cell("cluster-halo-latency"), "1.5".into());
        let errors = editor.build().unwrap_err();
        assert!(
            error_at(&errors, "cluster-halo-pcie-bandwidth")
                .unwrap()
                .contains("latency")
        );
        editor.edit(cell("cluster-halo-pcie-bandwidth"), "8".into());
        let (_, cluster) = editor.build().unwrap();
        let halo = cluster.realistic().halo_transport.unwrap();
        assert_eq!((halo.latency_s, halo.pcie_bandwidth_bytes_per_s), (1.5e-3, 8e9));
        editor.edit(cell("cluster-nic-sharing"), "0".into());
        let errors = editor.build().unwrap_err();
        assert!(error_at(&errors, "cluster-nic-sharing").is_some(), "{errors:?}");
        editor.set_allreduce(None);
        assert_eq!(editor.allreduce(), None);
    }

    #[test]
    fn levels_can_be_added_and_removed() {
        let mut editor = abci();
        editor.edit(cell("cluster-gpu-memory-bytes"), "32".into());
        editor.add_level();
        assert_eq!(editor.base().switch_levels.len(), 4);
        assert_eq!(editor.base().gpu_memory_bytes, 32e9);
        assert!(editor.build().is_ok());
        editor.remove_level(3);
        editor.remove_level(2);
        assert_eq!(editor.base().switch_levels.len(), 2);
        assert_eq!(editor.base().switch_levels[1].span_nodes, None);
        assert!(editor.build().is_ok());
    }
}
