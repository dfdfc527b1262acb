//! The GPUs a profile can be measured on that this tool knows: a device
//! named by PyTorch (`torch.cuda.get_device_name`) is one of the cluster
//! presets' GPUs when its name carries the GPU's model and its SM count
//! (when recorded) is that GPU's. Its facts are then the preset's, so a
//! profile measured on it scales to any cluster's GPU by section 11's
//! kernels, and is used as measured on a cluster of the same GPU.

use crate::oracle::model::cluster::ClusterSpec;
use crate::oracle::model::network::ProfiledGpu;

use super::clusters;

/// A known GPU: the word of its model in device names, its SMs and the
/// preset that holds its facts.
struct KnownGpu {
    model: &'static str,
    sms: u64,
    cluster: fn() -> ClusterSpec,
}

/// The cluster presets' GPUs (SMs from the vendors' datasheets, as the
/// presets give them).
const KNOWN: [KnownGpu; 6] = [
    KnownGpu {
        model: "V100",
        sms: 80,
        cluster: clusters::dgx1_v100_32gb,
    },
    KnownGpu {
        model: "A100",
        sms: 108,
        cluster: clusters::dgx_a100,
    },
    KnownGpu {
        model: "H100",
        sms: 132,
        cluster: clusters::dgx_h100,
    },
    KnownGpu {
        model: "H200",
        sms: 132,
        cluster: clusters::dgx_h200,
    },
    KnownGpu {
        model: "B200",
        sms: 148,
        cluster: clusters::dgx_b200,
    },
    KnownGpu {
        model: "MI300X",
        sms: 304,
        cluster: clusters::mi300x,
    },
];

/// The known GPU a device is, with the facts of its preset, or `None`
/// (a CPU, or a GPU no preset has).
///
/// A device is a known GPU when one word of its name (split at spaces and
/// dashes) is the GPU's model, case aside, and its SMs, when given, are
/// the GPU's: `NVIDIA H100 80GB HBM3` with 132 SMs is the H100, `NVIDIA
/// H100 PCIe` with 114 is not.
pub fn known_gpu(device: &str, sms: Option<u64>) -> Option<ProfiledGpu> {
    let words: Vec<String> = device
        .split([' ', '-', '_'])
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_uppercase)
        .collect();
    let known = KNOWN
        .iter()
        .find(|k| words.iter().any(|w| w == k.model) && sms.is_none_or(|s| s == k.sms))?;
    let spec = (known.cluster)();
    let kernels = spec.realistic.kernels?;
    Some(ProfiledGpu {
        name: device.trim().to_string(),
        flops_per_s: spec.gpu_flops_per_s,
        memory_bandwidth_bytes_per_s: spec.realistic.memory_bandwidth_bytes_per_s,
        gemm_flops_per_s: Some(kernels.gemm_flops_per_s.fp32),
        kernels: Some(kernels),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pytorch_device_names_are_recognised() {
        let h100 = known_gpu("NVIDIA H100 80GB HBM3", Some(132)).unwrap();
        assert_eq!(h100.name, "NVIDIA H100 80GB HBM3");
        assert_eq!(h100.kernels, clusters::dgx_h100().realistic.kernels);
        assert_eq!(h100.flops_per_s, clusters::dgx_h100().gpu_flops_per_s);
        let a100 = known_gpu("NVIDIA A100-SXM4-80GB", None).unwrap();
        assert_eq!(a100.kernels, clusters::dgx_a100().realistic.kernels);
        assert!(known_gpu("Tesla V100-SXM2-16GB", Some(80)).is_some());
        assert!(known_gpu("AMD Instinct MI300X", Some(304)).is_some());
        assert!(known_gpu("NVIDIA H200", Some(132)).is_some());
    }

    #[test]
    fn other_devices_are_not() {
        // an H100 PCIe has 114 SMs: not the SXM preset's GPU
        assert_eq!(known_gpu("NVIDIA H100 PCIe", Some(114)), None);
        assert_eq!(known_gpu("x86_64", None), None);
        assert_eq!(known_gpu("NVIDIA GeForce RTX 4090", Some(128)), None);
        // a model's word inside another word is not the model
        assert_eq!(known_gpu("NVIDIA H1000", None), None);
    }
}
