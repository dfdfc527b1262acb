//! Carbon intensity of electricity by region: the location-based annual
//! averages of the grid (contract, section 14). Copied from
//! `tests/validation/energy/carbon.csv`, which says where each comes from.

/// One grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// Its key in `--grid`, documents and links.
    pub key: &'static str,
    /// The region, for people.
    pub region: &'static str,
    /// Grams of CO2-equivalent per kWh generated.
    pub g_co2_per_kwh: f64,
    /// The year the average is of.
    pub year: u16,
    /// Where it comes from.
    pub source: &'static str,
}

/// Our World in Data's `carbon_intensity_elec` (from Ember's Yearly
/// Electricity Data and the Energy Institute), life-cycle gCO2e/kWh.
const OWID: &str =
    "Our World in Data, carbon_intensity_elec (Ember Yearly Electricity Data, Energy Institute), life-cycle gCO2e/kWh";
/// EPA eGRID2023 (rev. 2, June 2025), subregion total output emission
/// rates, CO2e lb/MWh converted to g/kWh: combustion only, below the
/// life-cycle figures.
const EGRID: &str = "US EPA eGRID2023 rev. 2, subregion total output CO2e rate (combustion only), lb/MWh x 0.4536";

/// The grid a cluster that names none is on.
pub const DEFAULT_GRID: &str = "world";

/// Every grid.
pub const GRIDS: [Grid; 32] = [
    Grid {
        key: "world",
        region: "World",
        g_co2_per_kwh: 483.18,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "world-2024",
        region: "World",
        g_co2_per_kwh: 471.08,
        year: 2024,
        source: OWID,
    },
    Grid {
        key: "eu27",
        region: "EU-27",
        g_co2_per_kwh: 235.84,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "eu27-2024",
        region: "EU-27",
        g_co2_per_kwh: 211.2,
        year: 2024,
        source: OWID,
    },
    Grid {
        key: "us",
        region: "USA",
        g_co2_per_kwh: 369.5,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "cn",
        region: "China",
        g_co2_per_kwh: 582.3,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "in",
        region: "India",
        g_co2_per_kwh: 713.4,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "jp",
        region: "Japan",
        g_co2_per_kwh: 485.4,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "de",
        region: "Germany",
        g_co2_per_kwh: 380.9,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "fr",
        region: "France",
        g_co2_per_kwh: 56.0,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "gb",
        region: "United Kingdom",
        g_co2_per_kwh: 237.6,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "se",
        region: "Sweden",
        g_co2_per_kwh: 40.7,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "no",
        region: "Norway",
        g_co2_per_kwh: 30.1,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "ca",
        region: "Canada",
        g_co2_per_kwh: 170.0,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "au",
        region: "Australia",
        g_co2_per_kwh: 548.7,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "kr",
        region: "South Korea",
        g_co2_per_kwh: 430.6,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "sg",
        region: "Singapore",
        g_co2_per_kwh: 470.8,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "ch",
        region: "Switzerland",
        g_co2_per_kwh: 34.8,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "fi",
        region: "Finland",
        g_co2_per_kwh: 79.2,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "it",
        region: "Italy",
        g_co2_per_kwh: 330.7,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "es",
        region: "Spain",
        g_co2_per_kwh: 174.1,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "nl",
        region: "Netherlands",
        g_co2_per_kwh: 267.6,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "tw",
        region: "Taiwan",
        g_co2_per_kwh: 642.4,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "br",
        region: "Brazil",
        g_co2_per_kwh: 98.3,
        year: 2023,
        source: OWID,
    },
    Grid {
        key: "us-egrid",
        region: "USA (eGRID US total)",
        g_co2_per_kwh: 349.7,
        year: 2023,
        source: EGRID,
    },
    Grid {
        key: "us-ca",
        region: "California (eGRID CAMX, WECC California)",
        g_co2_per_kwh: 195.0,
        year: 2023,
        source: EGRID,
    },
    Grid {
        key: "us-tx",
        region: "Texas ERCOT (eGRID ERCT)",
        g_co2_per_kwh: 334.1,
        year: 2023,
        source: EGRID,
    },
    Grid {
        key: "us-va",
        region: "Virginia/N.Carolina incl. N.Virginia data-centre cluster, Dominion zone of PJM (eGRID SRVC)",
        g_co2_per_kwh: 270.5,
        year: 2023,
        source: EGRID,
    },
    Grid {
        key: "us-pjm-east",
        region: "PJM East: NJ/eastern PA/MD/DE (eGRID RFCE)",
        g_co2_per_kwh: 271.8,
        year: 2023,
        source: EGRID,
    },
    Grid {
        key: "us-pjm-west",
        region: "PJM West: OH/western PA/WV/IN, incl. Ohio us-east-2 (eGRID RFCW)",
        g_co2_per_kwh: 415.5,
        year: 2023,
        source: EGRID,
    },
    Grid {
        key: "us-nw",
        region: "Pacific Northwest incl. Oregon us-west-2 (eGRID NWPP; includes ID/MT/WY/UT/NV)",
        g_co2_per_kwh: 288.2,
        year: 2023,
        source: EGRID,
    },
    Grid {
        key: "us-mi",
        region: "Michigan (eGRID RFCM)",
        g_co2_per_kwh: 442.7,
        year: 2023,
        source: EGRID,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grid_has_a_key_a_year_and_a_plausible_intensity() {
        for g in &GRIDS {
            assert!((10.0..1200.0).contains(&g.g_co2_per_kwh), "{}", g.key);
            assert!((2022..=2025).contains(&g.year) && !g.source.is_empty());
            assert_eq!(GRIDS.iter().filter(|o| o.key == g.key).count(), 1, "{}", g.key);
        }
        assert!(GRIDS.iter().any(|g| g.key == DEFAULT_GRID));
    }
}
