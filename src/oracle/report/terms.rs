//! The realistic terms that applied to a run, in words (section 7): what
//! each is and what it did, each number with the quantity whose
//! explanation shows it.

use crate::oracle::model::practice::AttentionForm;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::quantity::Quantity;
use super::sentence::Sentence;
use crate::oracle::cost::communication::CommKind;
use crate::oracle::cost::memory::Part;
use crate::oracle::cost::terms::{Applied, AppliedTerm};
use crate::oracle::units;

impl AppliedTerm {
    /// What it is and what it did, in words.
    pub fn detail(&self) -> String {
        self.sentence().to_string()
    }

    /// [`AppliedTerm::detail`], each number with the quantity whose
    /// explanation shows it (the compute's lists the kernel facts, the
    /// halo exchange's the host path, the activations' and workspace's
    /// their bytes; the communication's leads to each collective's
    /// bandwidth).
    pub fn sentence(&self) -> Sentence {
        let s = Sentence::new();
        let compute = Quantity::Compute;
        match &self.applied {
            Applied::Roofline {
                bandwidth_bytes_per_s,
                memory_bound,
                layers,
            } => s
                .text("memory bandwidth ")
                .figure(
                    format!("{}/s", units::bytes(*bandwidth_bytes_per_s)),
                    *bandwidth_bytes_per_s,
                    compute,
                )
                .text(": ")
                .figure(memory_bound.to_string(), *memory_bound as f64, compute)
                .text(" of ")
                .figure(layers.to_string(), *layers as f64, compute)
                .text(" layers are bound by memory traffic, not arithmetic"),
            Applied::ProfileScaling {
                gpu,
                there_s,
                here_s,
                replaced: true,
            } => s
                .text(&format!("profiled in FP32 on {gpu} at "))
                .figure(units::seconds(*there_s), *there_s, compute)
                .text(" per sample, in its authors' framework: not carried to another GPU or precision; the kernels give ")
                .figure(units::seconds(*here_s), *here_s, compute)
                .text(" per sample here"),
            Applied::ProfileScaling { gpu, there_s, here_s, .. } => s
                .text(&format!("profiled on {gpu} at "))
                .figure(units::seconds(*there_s), *there_s, compute)
                .text(" per sample; ")
                .figure(units::seconds(*here_s), *here_s, compute)
                .text(" per sample on this cluster's GPU"),
            Applied::ElementwiseSplit { parts } => s
                .text("bn, relu, add and dropout layers inside the split run on ")
                .figure(format!("1/{parts}"), *parts as f64, compute)
                .text(" of the width"),
            Applied::Allreduce { algorithm } => s.text(&format!("gradient Allreduces use the {}", algorithm.label())),
            Applied::NicSharing { gpus } => {
                let count = *gpus as f64;
                s.figure(gpus.to_string(), count, Quantity::Communication)
                    .text(" GPUs share each PCIe path to a NIC: traffic that leaves a node gets ")
                    .figure(format!("1/{gpus}"), count, Quantity::Communication)
                    .text(" of the NIC")
            }
            Applied::HaloTransport { host, per_node } => {
                let halo = Quantity::Kind(CommKind::Halo);
                s.text("halos go through host memory: ")
                    .figure(units::seconds(host.latency_s), host.latency_s, halo)
                    .text(" a transfer, PCIe ")
                    .figure(
                        format!("{}/s", units::bytes(host.pcie_bandwidth_bytes_per_s)),
                        host.pcie_bandwidth_bytes_per_s,
                        halo,
                    )
                    .text(" shared by the node's ")
                    .figure(per_node.to_string(), *per_node as f64, halo)
                    .text(" parts, crossed twice")
            }
            Applied::Kernels {
                sms,
                gemm_flops_per_s,
                kernel_overhead_s,
                kernels,
                stream_bytes_per_s,
                memory_format,
            } => s
                .figure(kernels.to_string(), *kernels as f64, compute)
                .text(" kernels a step, each at least ")
                .figure(units::seconds(*kernel_overhead_s), *kernel_overhead_s, compute)
                .text(" to launch; matrix multiplications at ")
                .figure(units::flops(*gemm_flops_per_s), *gemm_flops_per_s, compute)
                .text(" sustained (convolutions at their class's measured share of it), in ")
                .figure("128x128", 128.0, compute)
                .text(" tiles over ")
                .figure(sms.to_string(), *sms as f64, compute)
                .text(" SMs (narrow layers and small batches leave tiles and SMs idle); memory-bound kernels at ")
                .figure(
                    format!("{}/s", units::bytes(*stream_bytes_per_s)),
                    *stream_bytes_per_s,
                    compute,
                )
                .text(&format!(" (STREAM); activations {}", memory_format.label())),
            Applied::FrameworkMemory {
                saved_bytes_per_sample,
                workspace_bytes,
                attention,
            } => s
                .text("activations as autograd saves them: ")
                .figure(
                    units::bytes(*saved_bytes_per_sample),
                    *saved_bytes_per_sample,
                    Quantity::Part(Part::Activations),
                )
                .text(" per sample; the backward pass's gradient buffers, ")
                .figure(
                    units::bytes(*workspace_bytes),
                    *workspace_bytes,
                    Quantity::Part(Part::Workspace),
                )
                .text(" of library workspace and the allocator's rounding")
                .text(match attention {
                    Some(AttentionForm::Fused) => {
                        "; attention fused, one kernel a pass that keeps no scores"
                    }
                    Some(AttentionForm::Eager) => "; attention eager, its scores and probabilities kept",
                    None => "",
                }),
            Applied::BusBandwidth {
                intra_node_bytes_per_s,
                nic_bytes_per_s,
            } => {
                let parts = [
                    (intra_node_bytes_per_s, "inside a node "),
                    (nic_bytes_per_s, "through each NIC "),
                ];
                parts
                    .into_iter()
                    .filter_map(|(bw, what)| bw.map(|bw| (bw, what)))
                    .enumerate()
                    .fold(
                        s.text("collectives at the bus bandwidth NCCL achieves: "),
                        |s, (i, (bw, what))| {
                            s.text(if i > 0 { ", " } else { "" }).text(what).figure(
                                format!("{}/s", units::bytes(bw)),
                                bw,
                                Quantity::Communication,
                            )
                        },
                    )
            }
        }
    }
}

impl Serialize for AppliedTerm {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("term", &self.term)?;
        map.serialize_entry("label", self.term.label())?;
        map.serialize_entry("value", &self.value())?;
        map.serialize_entry("detail", &self.detail())?;
        map.end()
    }
}
