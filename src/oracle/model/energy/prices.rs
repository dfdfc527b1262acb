//! What an hour of a GPU and a kWh cost: cloud providers' on-demand list
//! prices and electricity tariffs (contract, section 14). Copied from
//! `tests/validation/energy/{prices,electricity}.csv`, which say where each
//! comes from; only prices read from a dated source are here (the CSV's
//! rows marked "recalled" or undated are not).

/// One cloud instance's on-demand list price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Instance {
    /// Its key in `--price`, documents and links.
    pub key: &'static str,
    /// The provider.
    pub provider: &'static str,
    /// The instance type.
    pub instance: &'static str,
    /// Its GPU, as this tool names it.
    pub gpu: &'static str,
    /// GPUs in one instance.
    pub gpus: u32,
    /// US dollars an instance-hour (Linux, on demand).
    pub usd_per_hour: f64,
    /// The region priced.
    pub region: &'static str,
    /// When the price was read.
    pub date: &'static str,
    /// Where it comes from.
    pub source: &'static str,
}

impl Instance {
    /// US dollars a GPU-hour: `usd_per_hour / gpus`.
    pub fn usd_per_gpu_hour(&self) -> f64 {
        self.usd_per_hour / f64::from(self.gpus)
    }
}

const AWS_LIST: &str = "AWS EC2 Price List API, on demand, Linux (as read into public repositories)";
const SKYPILOT: &str = "SkyPilot catalog of AWS on-demand prices (AWS_PRICED_ON 2026-09-08)";
const GCP: &str = "Google Cloud accelerator-optimized VM pricing page, us-central1";
const AZURE: &str = "Azure Retail Prices API, pay as you go, Linux";

const fn instance(
    key: &'static str,
    provider: &'static str,
    instance: &'static str,
    gpu: &'static str,
    (gpus, usd_per_hour): (u32, f64),
    (region, date, source): (&'static str, &'static str, &'static str),
) -> Instance {
    Instance {
        key,
        provider,
        instance,
        gpu,
        gpus,
        usd_per_hour,
        region,
        date,
        source,
    }
}

/// Every instance priced.
pub const INSTANCES: [Instance; 13] = [
    instance(
        "aws-p3.16xlarge",
        "AWS",
        "p3.16xlarge",
        "V100-SXM2-16GB",
        (8, 24.48),
        ("us-east-1", "2017 (unchanged list price)", AWS_LIST),
    ),
    instance(
        "aws-p3dn.24xlarge",
        "AWS",
        "p3dn.24xlarge",
        "V100-SXM2-32GB",
        (8, 31.212),
        ("us-west-2", "2026-09-08", SKYPILOT),
    ),
    instance(
        "aws-p4d.24xlarge",
        "AWS",
        "p4d.24xlarge",
        "A100-SXM4-40GB",
        (8, 21.9576),
        ("us-west-2", "2026-09-08", SKYPILOT),
    ),
    instance(
        "aws-p4de.24xlarge",
        "AWS",
        "p4de.24xlarge",
        "A100-SXM4-80GB",
        (8, 27.4471),
        ("us-east-1", "2026-09-25", AWS_LIST),
    ),
    instance(
        "aws-p5.48xlarge",
        "AWS",
        "p5.48xlarge",
        "H100-SXM5-80GB",
        (8, 55.04),
        ("us-east-1", "2026-09-25", AWS_LIST),
    ),
    instance(
        "aws-p5en.48xlarge",
        "AWS",
        "p5en.48xlarge",
        "H200",
        (8, 63.296),
        ("us-east-1", "2026-09-25", AWS_LIST),
    ),
    instance(
        "aws-g6.48xlarge",
        "AWS",
        "g6.48xlarge",
        "L4",
        (8, 13.3504),
        ("us-west-2", "2026-09-08", SKYPILOT),
    ),
    instance(
        "aws-g4dn.xlarge",
        "AWS",
        "g4dn.xlarge",
        "T4",
        (1, 0.526),
        ("us-west-2", "2026-09-08", SKYPILOT),
    ),
    instance(
        "gcp-a3-highgpu-8g",
        "Google Cloud",
        "a3-highgpu-8g",
        "H100-SXM5-80GB",
        (8, 88.49),
        ("us-central1", "2026-09-27", GCP),
    ),
    instance(
        "gcp-a2-ultragpu-8g",
        "Google Cloud",
        "a2-ultragpu-8g",
        "A100-SXM4-80GB",
        (8, 40.5504),
        ("us-central1", "2026-09-27", GCP),
    ),
    instance(
        "azure-nd96amsr-a100-v4",
        "Azure",
        "Standard_ND96amsr_A100_v4",
        "A100-SXM4-80GB",
        (8, 32.77),
        ("eastus", "2026-09-27", AZURE),
    ),
    instance(
        "azure-nd96isr-h100-v5",
        "Azure",
        "Standard_ND96isr_H100_v5",
        "H100-SXM5-80GB",
        (8, 98.32),
        ("eastus", "2026-09-27", AZURE),
    ),
    instance(
        "azure-nd96isr-h200-v5",
        "Azure",
        "Standard_ND96isr_H200_v5",
        "H200",
        (8, 84.8),
        ("eastus2", "2026-09-27", AZURE),
    ),
];

/// The cheapest instance per GPU-hour of `gpu` (a name of this tool), if
/// any is priced.
pub fn cheapest(gpu: &str) -> Option<&'static Instance> {
    INSTANCES
        .iter()
        .filter(|i| i.gpu == gpu)
        .min_by(|a, b| a.usd_per_gpu_hour().total_cmp(&b.usd_per_gpu_hour()))
}

/// One electricity tariff.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tariff {
    /// Its key.
    pub key: &'static str,
    /// Region and sector.
    pub region: &'static str,
    /// US dollars a kWh.
    pub usd_per_kwh: f64,
    /// The year.
    pub year: u16,
    /// Where it comes from.
    pub source: &'static str,
}

const EIA_STATES: &str = "US EIA Electric Power Annual 2023, average revenue per kWh by state and sector";

/// The tariff of an owned cluster that names none: the US industrial
/// average of 2023.
pub const DEFAULT_TARIFF: &str = "us-industrial";

/// Every tariff.
pub const TARIFFS: [Tariff; 11] = [
    Tariff {
        key: "us-industrial",
        region: "USA, industrial",
        usd_per_kwh: 0.0806,
        year: 2023,
        source: "US EIA average retail price of electricity, industrial sector, 2023",
    },
    Tariff {
        key: "us-va-industrial",
        region: "Virginia, industrial",
        usd_per_kwh: 0.0892,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-va-commercial",
        region: "Virginia, commercial",
        usd_per_kwh: 0.0895,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-tx-industrial",
        region: "Texas, industrial",
        usd_per_kwh: 0.066,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-tx-commercial",
        region: "Texas, commercial",
        usd_per_kwh: 0.0882,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-ca-industrial",
        region: "California, industrial",
        usd_per_kwh: 0.1864,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-ca-commercial",
        region: "California, commercial",
        usd_per_kwh: 0.2391,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-or-industrial",
        region: "Oregon, industrial",
        usd_per_kwh: 0.0752,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-or-commercial",
        region: "Oregon, commercial",
        usd_per_kwh: 0.0992,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-oh-industrial",
        region: "Ohio, industrial",
        usd_per_kwh: 0.0703,
        year: 2023,
        source: EIA_STATES,
    },
    Tariff {
        key: "us-wa-industrial",
        region: "Washington, industrial",
        usd_per_kwh: 0.0635,
        year: 2023,
        source: EIA_STATES,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::model::devices;

    #[test]
    fn every_instance_names_a_gpu_this_tool_knows_and_the_cheapest_is_found() {
        for i in &INSTANCES {
            assert!(devices::device(i.gpu, None).is_some(), "{}", i.gpu);
            assert!(i.usd_per_gpu_hour() > 0.1 && i.usd_per_gpu_hour() < 20.0, "{}", i.key);
        }
        // H100: AWS p5 at 6.88 a GPU-hour, below Google's 11.06 and Azure's 12.29
        let h100 = cheapest("H100-SXM5-80GB").unwrap();
        assert_eq!(h100.key, "aws-p5.48xlarge");
        assert!((h100.usd_per_gpu_hour() - 6.88).abs() < 1e-9);
        assert!(cheapest("RTX 4090").is_none());
        assert!(TARIFFS.iter().any(|t| t.key == DEFAULT_TARIFF));
    }
}
