//! GPU clusters: devices, nodes, links and the switch hierarchy.

use serde::{Deserialize, Serialize};

use super::checks::{self, MAX_GPUS, MAX_LATENCY_S, MAX_RATE, MIN_RATE};
use super::devices::{self, Datasheet, Gpu, SUSTAINED};
use super::energy::Facility;
use super::errors::{InputError, Rule};
use super::facts::{FRAMEWORK_MEMORY, PrecisionRates, RESERVED_BYTES, RealisticFacts};
use super::field::Field;
use super::practice::Precision;

/// A link: bandwidth one way and latency.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Bandwidth in bytes per second.
    pub bandwidth_bytes_per_s: f64,
    /// Latency in seconds.
    pub latency_s: f64,
}

/// One level of the switch hierarchy, innermost first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchLevelSpec {
    /// Name, e.g. `leaf`.
    pub name: String,
    /// Nodes under one switch of this level; `None` for the last level,
    /// which spans everything.
    pub span_nodes: Option<u64>,
    /// Latency of one switch of this level, in seconds.
    pub latency_s: f64,
}

/// A cluster as entered: plain data, not yet checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterSpec {
    pub name: String,
    /// Where the numbers come from.
    #[serde(default)]
    pub source: String,
    /// The GPU, by a name the tool knows (`A100-SXM4-80GB`, `RTX 3090`,
    /// PyTorch's device name...): the realistic edition takes its kernel
    /// facts and memory bandwidth where the file gives none (section 11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// The GPU's datasheet, for a GPU this tool does not know (section
    /// 11): its kernels take its architecture's measured fractions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datasheet: Option<Datasheet>,
    /// `R`: sustained FLOP/s of one GPU.
    pub gpu_flops_per_s: f64,
    /// `M`: memory of one GPU in bytes.
    pub gpu_memory_bytes: f64,
    /// `n`: GPUs per node.
    pub gpus_per_node: u64,
    /// `P_max`: largest allocation in GPUs.
    pub max_gpus: u64,
    /// Intra-node link between two GPUs (`bw_in`, `a_in`).
    pub intra_node: LinkSpec,
    /// One NIC (`bw_nic`) and the one-sided endpoint latency `a_nic`.
    pub nic: LinkSpec,
    /// `k_nic`: NICs per node.
    pub nics_per_node: u64,
    /// Switch levels, innermost first; the last spans everything.
    pub switch_levels: Vec<SwitchLevelSpec>,
    /// Sustained FLOP/s per precision (section 9); FP32 is `gpu_flops_per_s`.
    #[serde(default, skip_serializing_if = "PrecisionRates::is_empty")]
    pub gpu_flops_by_precision: PrecisionRates,
    /// The facts of the realistic edition (section 7); each one left out
    /// turns its term off.
    #[serde(default, skip_serializing_if = "RealisticFacts::is_empty")]
    pub realistic: RealisticFacts,
    /// Its power besides the GPUs', its PUE and grid (section 14); each
    /// left out: not counted, or the default, said.
    #[serde(default, skip_serializing_if = "Facility::is_empty")]
    pub facility: Facility,
}

/// A checked cluster, with the realistic edition's facts in force: its
/// own, then its GPU's (section 11).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ClusterSpec", into = "ClusterSpec")]
pub struct Cluster {
    spec: ClusterSpec,
    realistic: RealisticFacts,
    device: Option<Gpu>,
}

/// A term of the realistic edition that fell back to an older section
/// because the cluster neither gives its fact nor names a GPU that does.
#[derive(Debug, Clone, PartialEq)]
pub enum Fallback {
    /// The cluster names a GPU this tool does not know (and gives its
    /// kernel facts itself).
    UnknownGpu(String),
    /// No kernel facts: compute as section 7's roofline (a time per sample
    /// that does not depend on the batch).
    Kernels,
    /// No memory bandwidth: no roofline, and elementwise layers are not
    /// split with a spatial split.
    MemoryBandwidth,
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::UnknownGpu(name) => write!(
                f,
                "gpu '{}' is not a GPU this tool knows (its kernel facts are the cluster's own); nearest: {}",
                super::errors::quoted(name),
                devices::nearest(name).join(", ")
            ),
            Self::Kernels => f.write_str(
                "no kernel facts (realistic.kernels) and no known GPU named: compute falls back to section 7's roofline, a time per sample that does not depend on the batch",
            ),
            Self::MemoryBandwidth => f.write_str(
                "no memory bandwidth (realistic.memory_bandwidth_bytes_per_s) and no known GPU named: no roofline, and elementwise layers are not split with a spatial split",
            ),
        }
    }
}

impl Fallback {
    /// How to bring the term back.
    pub fn remedy() -> String {
        format!(
            "name the cluster's GPU with \"gpu\": \"NAME\" (the name nvidia-smi or PyTorch prints, such as NVIDIA H100 80GB HBM3 or NVIDIA GeForce RTX 4090: {} GPUs are known, `paradl presets --gpus` lists them), give its datasheet under \"datasheet\", or give the facts under \"realistic\"",
            devices::DEVICES.len()
        )
    }
}

/// The facts in force: the cluster's own, then its GPU's kernels and
/// memory bandwidth (at the presets' derating of the datasheet,
/// [`SUSTAINED`]), then the framework's memory and reserved bytes
/// (PyTorch's, a fact of the framework, not of the cluster). The GPU is the
/// cluster's datasheet, else the known GPU it names.
///
/// # Errors
/// A GPU named that this tool does not know, with neither a datasheet nor
/// kernel facts: the realistic edition would have nothing to time its
/// kernels by ([`devices::unknown`]).
fn resolve(spec: &ClusterSpec) -> Result<(RealisticFacts, Option<Gpu>), InputError> {
    let name = spec.gpu.as_deref();
    let device = match (&spec.datasheet, name) {
        (Some(sheet), _) => {
            sheet.check()?;
            Some(sheet.gpu(name.unwrap_or("the cluster's GPU")))
        }
        (None, Some(name)) => match devices::device(name, None) {
            Some(d) => Some(d.gpu()),
            None if spec.realistic.kernels.is_some() => None,
            None => return Err(devices::unknown(name)),
        },
        (None, None) => None,
    };
    let mut facts = spec.realistic;
    if let Some(d) = &device {
        facts.kernels = facts.kernels.or(Some(d.kernels()));
        facts.memory_bandwidth_bytes_per_s = facts
            .memory_bandwidth_bytes_per_s
            .or(Some(d.memory_bandwidth_bytes_per_s * SUSTAINED));
    }
    facts.framework_memory = facts.framework_memory.or(Some(FRAMEWORK_MEMORY));
    facts.reserved_bytes = facts.reserved_bytes.or(Some(RESERVED_BYTES));
    Ok((facts, device))
}

impl ClusterSpec {
    /// Sets the intra-node link's bandwidth, keeping NCCL's measured bus
    /// bandwidth (when the cluster has one) the same share of the link.
    ///
    /// # Formula
    /// `bw_in ← v`, `busbw_in ← busbw_in·v/bw_in` (section 11).
    pub fn set_intra_node_bandwidth(&mut self, bandwidth_bytes_per_s: f64) {
        set_link(
            &mut self.intra_node,
            &mut self.realistic.intra_node_bus_bandwidth_bytes_per_s,
            bandwidth_bytes_per_s,
        );
    }

    /// Sets one NIC's bandwidth, keeping NCCL's measured bus bandwidth
    /// through a NIC the same share of it.
    ///
    /// # Formula
    /// `bw_nic ← v`, `busbw_nic ← busbw_nic·v/bw_nic` (section 11).
    pub fn set_nic_bandwidth(&mut self, bandwidth_bytes_per_s: f64) {
        set_link(
            &mut self.nic,
            &mut self.realistic.nic_bus_bandwidth_bytes_per_s,
            bandwidth_bytes_per_s,
        );
    }
}

/// Sets `link`'s bandwidth to `new` bytes/s and carries its measured bus
/// bandwidth with it (left as it is when the old link had none).
fn set_link(link: &mut LinkSpec, bus: &mut Option<f64>, new: f64) {
    let old = link.bandwidth_bytes_per_s;
    if let Some(b) = bus.as_mut()
        && old > 0.0
        && old.is_finite()
        && new.is_finite()
    {
        *b *= new / old;
    }
    link.bandwidth_bytes_per_s = new;
}

impl Cluster {
    /// Checks a cluster.
    ///
    /// Rules: a non-blank name; FLOP/s, memory and bandwidths between 1 and
    /// 1e30; latencies finite, not negative, at most 1000 s; 1 to 2^40 GPUs
    /// per node and in the largest allocation, a node no larger than it; at least one NIC per node; at
    /// least one switch level, spans strictly increasing and given for every
    /// level but the last, which has none (it spans everything).
    ///
    /// # Errors
    /// An [`InputError`] naming the field, e.g. `switch_levels[1].span_nodes`.
    pub fn new(spec: ClusterSpec) -> Result<Self, InputError> {
        checks::name("name", &spec.name)?;
        checks::within("gpu_flops_per_s", spec.gpu_flops_per_s, MIN_RATE, MAX_RATE)?;
        checks::within("gpu_memory_bytes", spec.gpu_memory_bytes, MIN_RATE, MAX_RATE)?;
        checks::count("gpus_per_node", spec.gpus_per_node, 1, MAX_GPUS)?;
        checks::count("max_gpus", spec.max_gpus, 1, MAX_GPUS)?;
        checks::count("nics_per_node", spec.nics_per_node, 1, MAX_GPUS)?;
        // a node holds no more GPUs than the whole cluster
        checks::count("gpus_per_node", spec.gpus_per_node, 1, spec.max_gpus)?;
        for (field, link) in [("intra_node", &spec.intra_node), ("nic", &spec.nic)] {
            let field = Field::from(field);
            checks::within(
                field.clone().key("bandwidth_bytes_per_s"),
                link.bandwidth_bytes_per_s,
                MIN_RATE,
                MAX_RATE,
            )?;
            checks::within(field.key("latency_s"), link.latency_s, 0.0, MAX_LATENCY_S)?;
        }
        check_switch_levels(&spec.switch_levels)?;
        spec.facility.check()?;
        spec.realistic.check()?;
        spec.gpu_flops_by_precision
            .check(&Field::from("gpu_flops_by_precision"))?;
        if let Some(gpu) = &spec.gpu {
            checks::name("gpu", gpu)?;
        }
        let (realistic, device) = resolve(&spec)?;
        Ok(Self {
            spec,
            realistic,
            device,
        })
    }

    /// The cluster's data, as entered.
    pub fn spec(&self) -> &ClusterSpec {
        &self.spec
    }

    /// The cluster's GPU, if it names a known one or gives its datasheet.
    pub fn device(&self) -> Option<&Gpu> {
        self.device.as_ref()
    }

    /// The realistic edition's terms that fell back to an older section:
    /// a GPU named but unknown, no kernel facts, no memory bandwidth.
    pub fn fallbacks(&self) -> Vec<Fallback> {
        let mut out = Vec::new();
        if let (Some(name), None) = (&self.spec.gpu, &self.device) {
            out.push(Fallback::UnknownGpu(name.clone()));
        }
        if self.realistic.kernels.is_none() {
            out.push(Fallback::Kernels);
        }
        if self.realistic.memory_bandwidth_bytes_per_s.is_none() {
            out.push(Fallback::MemoryBandwidth);
        }
        out
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// `R`: sustained FLOP/s of one GPU.
    pub fn gpu_flops_per_s(&self) -> f64 {
        self.spec.gpu_flops_per_s
    }

    /// `R_p`: sustained FLOP/s of one GPU in `precision` (`R` when the
    /// cluster gives no rate for it).
    pub fn flops_per_s(&self, precision: Precision) -> f64 {
        self.spec
            .gpu_flops_by_precision
            .rate(precision, self.spec.gpu_flops_per_s)
    }

    /// `M`: bytes of memory per GPU.
    pub fn gpu_memory_bytes(&self) -> f64 {
        self.spec.gpu_memory_bytes
    }

    /// `n`: GPUs per node.
    pub fn gpus_per_node(&self) -> u64 {
        self.spec.gpus_per_node
    }

    /// `P_max`: largest allocation in GPUs.
    pub fn max_gpus(&self) -> u64 {
        self.spec.max_gpus
    }

    /// The facts of the realistic edition in force: the cluster's own, its
    /// GPU's where it gives none, and the framework's memory (see
    /// [`Fallback`] for what is left out).
    pub fn realistic(&self) -> &RealisticFacts {
        &self.realistic
    }

    /// A flat cluster, as the original tool's `.plat` files describe one:
    /// every ring and pair sees `latency_s` and `bandwidth_bytes_per_s`.
    /// A `.plat` file carries none of the realistic edition's facts, so a
    /// flat cluster projects as the ideal edition in both.
    ///
    /// # Formula
    /// `bw_in = bw_nic = bandwidth`, one NIC per GPU (`k_nic = n`),
    /// `a_in = latency`, `a_nic = latency/2`, one switch level of latency 0,
    /// so that `α = max(a_in, 2·a_nic + 0) = latency` and
    /// `β = 1/bandwidth` for every ring of up to `n` rings per node.
    ///
    /// # Errors
    /// As [`Cluster::new`].
    pub fn flat(
        name: &str,
        gpu_flops_per_s: f64,
        gpu_memory_bytes: f64,
        gpus_per_node: u64,
        max_gpus: u64,
        link: LinkSpec,
    ) -> Result<Self, InputError> {
        Self::new(ClusterSpec {
            name: name.into(),
            source: "a flat ParaDL platform: one bandwidth and one latency for every link; a .plat file carries none of the realistic edition's facts (memory bandwidth, Allreduce algorithm, NIC sharing, halo transport), so it projects as the ideal edition".into(),
            gpu: None,
            datasheet: None,
            gpu_flops_per_s,
            gpu_memory_bytes,
            gpus_per_node,
            max_gpus,
            intra_node: link,
            nic: LinkSpec {
                bandwidth_bytes_per_s: link.bandwidth_bytes_per_s,
                latency_s: link.latency_s / 2.0,
            },
            nics_per_node: gpus_per_node,
            switch_levels: vec![SwitchLevelSpec {
                name: "network".into(),
                span_nodes: None,
                latency_s: 0.0,
            }],
            gpu_flops_by_precision: PrecisionRates::default(),
            realistic: RealisticFacts::default(),
            facility: Facility::default(),
        })
    }

    /// The link of a flat cluster (see [`Cluster::flat`]), `None` otherwise.
    pub fn flat_link(&self) -> Option<LinkSpec> {
        let s = &self.spec;
        let flat = s.nic.bandwidth_bytes_per_s == s.intra_node.bandwidth_bytes_per_s
            && s.nic.latency_s == s.intra_node.latency_s / 2.0
            && s.nics_per_node == s.gpus_per_node
            && s.switch_levels.len() == 1
            && s.switch_levels[0].latency_s == 0.0
            && s.realistic.is_empty()
            && s.gpu_flops_by_precision.is_empty();
        flat.then_some(s.intra_node)
    }
}

impl TryFrom<ClusterSpec> for Cluster {
    type Error = InputError;

    fn try_from(spec: ClusterSpec) -> Result<Self, Self::Error> {
        Self::new(spec)
    }
}

impl From<Cluster> for ClusterSpec {
    fn from(cluster: Cluster) -> Self {
        cluster.spec
    }
}

fn check_switch_levels(levels: &[SwitchLevelSpec]) -> Result<(), InputError> {
    if levels.is_empty() {
        return Err(InputError::new("switch_levels", Rule::Empty));
    }
    let mut previous_span = 0;
    for (i, level) in levels.iter().enumerate() {
        let field = Field::from("switch_levels").index(i);
        checks::name(field.clone().key("name"), &level.name)?;
        checks::within(field.clone().key("latency_s"), level.latency_s, 0.0, MAX_LATENCY_S)?;
        let last = i + 1 == levels.len();
        match (level.span_nodes, last) {
            (None, true) => {}
            (Some(_), true) => {
                return Err(InputError::new(
                    field.clone().key("span_nodes"),
                    Rule::SwitchOrder("must be empty: the last level spans every node".into()),
                ));
            }
            (None, false) => {
                return Err(InputError::new(
                    field.clone().key("span_nodes"),
                    Rule::SwitchOrder("is required for every level but the last".into()),
                ));
            }
            (Some(span), false) => {
                if span <= previous_span {
                    return Err(InputError::new(
                        field.clone().key("span_nodes"),
                        Rule::SwitchOrder(format!(
                            "must be more than the inner level's span ({previous_span}), found {span}"
                        )),
                    ));
                }
                previous_span = span;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn presets_are_valid_and_abci_is_the_contracts() {
        let abci = presets::cluster("abci").unwrap();
        assert_eq!(abci.gpu_flops_per_s(), 7.8e12);
        assert_eq!(abci.gpu_memory_bytes(), 16e9);
        assert_eq!(abci.gpus_per_node(), 4);
        assert_eq!(abci.max_gpus(), 4096);
    }

    #[test]
    fn invalid_values_name_their_field() {
        let good = presets::cluster("abci").unwrap().spec().clone();
        let mut s = good.clone();
        s.intra_node.latency_s = -1.0;
        assert_eq!(Cluster::new(s).unwrap_err().field, "intra_node.latency_s");
        let mut s = good.clone();
        s.gpu_flops_per_s = f64::NAN;
        assert_eq!(Cluster::new(s).unwrap_err().field, "gpu_flops_per_s");
        let mut s = good.clone();
        s.gpus_per_node = 0;
        assert_eq!(Cluster::new(s).unwrap_err().field, "gpus_per_node");
        let mut s = good.clone();
        s.switch_levels[1].span_nodes = Some(10);
        assert_eq!(Cluster::new(s).unwrap_err().field, "switch_levels[1].span_nodes");
        let mut s = good.clone();
        s.switch_levels[2].span_nodes = Some(1000);
        assert!(Cluster::new(s).is_err());
        let mut s = good;
        s.switch_levels.clear();
        assert_eq!(Cluster::new(s).unwrap_err().rule, Rule::Empty);
    }

    #[test]
    fn flat_clusters_are_recognised() {
        let link = LinkSpec {
            bandwidth_bytes_per_s: 12.5e9,
            latency_s: 500e-9,
        };
        let flat = Cluster::flat("x", 7.8e12, 16e9, 4, 4096, link).unwrap();
        assert_eq!(flat.flat_link(), Some(link));
        assert_eq!(presets::cluster("abci").unwrap().flat_link(), None);
    }
}
