//! What a run costs besides time (contract, section 14): the energy of an
//! epoch and of the whole training, by part; its carbon; its money.

use serde::Serialize;

use crate::oracle::model::cluster::Cluster;
use crate::oracle::model::energy::prices::Tariff;
use crate::oracle::model::energy::{
    self, Costs, DEFAULT_GRID, DEFAULT_PUE, DEFAULT_TARIFF, Grid, OWNED, Price, TARIFFS, grids, power, prices,
};
use crate::oracle::units;

/// Joules in a kWh.
const J_PER_KWH: f64 = 3.6e6;

/// Where the money of a run comes from.
#[derive(Debug, Clone, PartialEq)]
enum Money {
    /// A price given.
    Given,
    /// A listed instance, the cheapest of its GPU when not named.
    Listed(&'static prices::Instance, bool),
    /// Owned, at a tariff given or listed.
    Owned(Option<&'static Tariff>),
}

/// Where a fact in force comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Whence {
    /// The run's choice.
    Given,
    /// The cluster's facility.
    Facility,
    /// The tool's default.
    Default,
}

/// Where each power fact comes from (written out only when asked: a sweep
/// projects thousands of runs and shows none of it).
#[derive(Debug, Clone, PartialEq)]
struct Origins {
    board: &'static str,
    training: power::Fraction,
    waiting: power::Fraction,
    /// The facility's source, when it gave the node's other power or the
    /// PUE in force.
    facility: Option<String>,
    /// Whether the facility gave the node's other power.
    other_given: bool,
    /// Where the PUE comes from.
    pue: Whence,
    /// The grid listed (`None`: given).
    grid: Option<&'static grids::Grid>,
    money: Money,
}

/// The power facts of a run on a cluster, each with where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerFacts {
    /// One GPU's rated board power, W.
    pub board_w: f64,
    /// One GPU while computing, W.
    pub busy_w: f64,
    /// One GPU while waiting (exposed communication, bubbles), W.
    pub waiting_w: f64,
    /// A node besides its GPUs, W (0: not counted).
    pub node_other_w: f64,
    /// GPUs of a node.
    pub gpus_per_node: u64,
    /// The facility's power usage effectiveness.
    pub pue: f64,
    /// Grams of CO2-equivalent per kWh of the grid.
    pub g_co2_per_kwh: f64,
    /// The grid's key (`given`: the user's figure).
    pub grid: &'static str,
    /// How the money is counted.
    pub basis: CostBasis,
    origins: Origins,
}

impl Serialize for PowerFacts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("PowerFacts", 10)?;
        st.serialize_field("board_w", &self.board_w)?;
        st.serialize_field("busy_w", &self.busy_w)?;
        st.serialize_field("waiting_w", &self.waiting_w)?;
        st.serialize_field("node_other_w", &self.node_other_w)?;
        st.serialize_field("gpus_per_node", &self.gpus_per_node)?;
        st.serialize_field("pue", &self.pue)?;
        st.serialize_field("g_co2_per_kwh", &self.g_co2_per_kwh)?;
        st.serialize_field("grid", &self.grid)?;
        st.serialize_field("basis", &self.basis)?;
        st.serialize_field("sources", &self.sources())?;
        st.end()
    }
}

/// How a run's money is counted.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CostBasis {
    /// Rented: GPU-hours at a price.
    Cloud {
        /// US dollars a GPU-hour.
        usd_per_gpu_hour: f64,
        /// The instance priced (`None`: the user's figure).
        #[serde(skip_serializing_if = "Option::is_none")]
        instance: Option<&'static str>,
    },
    /// Owned: the facility's energy at a tariff.
    Owned {
        /// US dollars a kWh.
        usd_per_kwh: f64,
    },
}

impl PowerFacts {
    /// The facts of `costs` on `cluster`, `None` when its GPU's board
    /// power is unknown (a GPU this tool does not know and no
    /// `facility.gpu_board_power_w`).
    ///
    /// # Formula
    /// `P_busy = f_train·P_board`, `P_wait = f_idle·P_board` (the
    /// architecture's measured fractions, [`power`]); `P_other` the
    /// facility's (0: not counted); PUE the run's, else the facility's,
    /// else 1.58; the grid the run's, else the facility's, else the
    /// world's; the price the run's, else the cheapest instance listed
    /// with this GPU, else owned at the run's tariff, else US industrial.
    pub fn of(cluster: &Cluster, costs: &Costs) -> Option<Self> {
        let facility = &cluster.spec().facility;
        let device = cluster.device()?;
        let (board_w, board) = match (facility.gpu_board_power_w, device.board_power) {
            (Some(w), _) => (w, "the cluster's facility"),
            (None, Some(known)) => known,
            (None, None) => return None,
        };
        let training = power::training(device.architecture);
        let waiting = power::waiting(device.architecture);
        let (pue, pue_from) = match (costs.pue, facility.pue) {
            (Some(p), _) => (p, Whence::Given),
            (None, Some(p)) => (p, Whence::Facility),
            (None, None) => (DEFAULT_PUE, Whence::Default),
        };
        let other_given = facility.node_other_power_w.is_some();
        let (g_co2_per_kwh, grid) = match &costs.grid {
            Some(Grid::Intensity(g)) => (*g, None),
            Some(Grid::Region(key)) => grid_of(key),
            None => grid_of(facility.grid.as_deref().unwrap_or(DEFAULT_GRID)),
        };
        let owned = || match costs.usd_per_kwh {
            Some(usd_per_kwh) => (CostBasis::Owned { usd_per_kwh }, Money::Owned(None)),
            None => {
                let t = TARIFFS.iter().find(|t| t.key == DEFAULT_TARIFF).unwrap_or(&TARIFFS[0]);
                (
                    CostBasis::Owned {
                        usd_per_kwh: t.usd_per_kwh,
                    },
                    Money::Owned(Some(t)),
                )
            }
        };
        let cloud = |i: &'static prices::Instance, cheapest: bool| {
            (
                CostBasis::Cloud {
                    usd_per_gpu_hour: i.usd_per_gpu_hour(),
                    instance: Some(i.key),
                },
                Money::Listed(i, cheapest),
            )
        };
        let (basis, money) = match &costs.price {
            Some(Price::PerGpuHour(usd)) => (
                CostBasis::Cloud {
                    usd_per_gpu_hour: *usd,
                    instance: None,
                },
                Money::Given,
            ),
            Some(Price::Named(key)) if key.trim() == OWNED => owned(),
            Some(Price::Named(key)) => energy::instance(key).map_or_else(|_| owned(), |i| cloud(i, false)),
            None => prices::cheapest(&device.name).map_or_else(owned, |i| cloud(i, true)),
        };
        Some(Self {
            board_w,
            busy_w: training.fraction * board_w,
            waiting_w: waiting.fraction * board_w,
            node_other_w: facility.node_other_power_w.unwrap_or(0.0),
            gpus_per_node: cluster.gpus_per_node(),
            pue,
            g_co2_per_kwh,
            grid: grid.map_or("given", |g| g.key),
            basis,
            origins: Origins {
                board,
                training,
                waiting,
                facility: (other_given || pue_from == Whence::Facility).then(|| facility.source.clone()),
                other_given,
                pue: pue_from,
                grid,
                money,
            },
        })
    }

    /// Where each fact comes from, a sentence each: the board power, the
    /// two fractions, the node's other power, the PUE, the grid, the money.
    pub fn sources(&self) -> Vec<String> {
        let o = &self.origins;
        let facility = o.facility.as_deref().unwrap_or_default();
        let other = if o.other_given {
            facility
        } else {
            "not counted: the cluster gives no power besides its GPUs (give facility.node_other_power_w)"
        };
        let pue = match o.pue {
            Whence::Given => "given",
            Whence::Facility => facility,
            Whence::Default => "Uptime Institute Global Data Center Survey 2023, the average PUE",
        };
        let grid = o.grid.map_or_else(
            || "given".to_string(),
            |g| format!("{}, {} average ({}; location-based)", g.region, g.year, g.source),
        );
        let money = match (&o.money, &self.basis) {
            (Money::Given, _) => "given".to_string(),
            (Money::Listed(i, cheapest), _) => format!(
                "{}{} {} ({} GPUs, {}/h, {}, {}; {})",
                if *cheapest {
                    "the cheapest on-demand list price of this GPU: "
                } else {
                    ""
                },
                i.provider,
                i.instance,
                i.gpus,
                units::dollars(i.usd_per_hour),
                i.region,
                i.date,
                i.source
            ),
            (Money::Owned(tariff), CostBasis::Owned { usd_per_kwh }) => format!(
                "owned: electricity at {} ({})",
                per_kwh(*usd_per_kwh),
                tariff.map_or_else(
                    || "given".to_string(),
                    |t| format!("{}, {} ({})", t.region, t.year, t.source)
                )
            ),
            (Money::Owned(_), CostBasis::Cloud { .. }) => String::new(),
        };
        vec![
            format!("board power {} W: {}", units::significant(self.board_w, 4), o.board),
            format!(
                "computing at {} of it: {}",
                units::significant(o.training.fraction, 3),
                o.training.source
            ),
            format!(
                "waiting at {} of it (idle power, a floor): {}",
                units::significant(o.waiting.fraction, 3),
                o.waiting.source
            ),
            format!(
                "node besides its GPUs {} W: {other}",
                units::significant(self.node_other_w, 4)
            ),
            format!("PUE {}: {pue}", units::significant(self.pue, 3)),
            format!("grid {} g/kWh: {grid}", units::significant(self.g_co2_per_kwh, 4)),
            format!("money: {money}"),
        ]
    }
}

fn per_kwh(usd: f64) -> String {
    format!("${}/kWh", units::significant(usd, 3))
}

/// A grid's intensity and the grid (an unknown key, refused by the run's
/// check before, takes the world's).
fn grid_of(key: &str) -> (f64, Option<&'static grids::Grid>) {
    let g = energy::grid("costs.grid", key)
        .or_else(|_| energy::grid("costs.grid", DEFAULT_GRID))
        .ok();
    (g.map_or(0.0, |g| g.g_co2_per_kwh), g)
}

/// Energy per epoch by part, kWh.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EnergyParts {
    /// The GPUs while computing.
    pub gpus_computing_kwh: f64,
    /// The GPUs while waiting.
    pub gpus_waiting_kwh: f64,
    /// The nodes besides their GPUs.
    pub nodes_other_kwh: f64,
    /// The facility's overhead (cooling, power delivery): `(PUE − 1)·IT`.
    pub facility_kwh: f64,
}

impl EnergyParts {
    /// The sum.
    pub fn total_kwh(&self) -> f64 {
        self.gpus_computing_kwh + self.gpus_waiting_kwh + self.nodes_other_kwh + self.facility_kwh
    }
}

/// What a run costs besides time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Energy {
    /// The facts it was computed with.
    pub facts: PowerFacts,
    /// Seconds of an epoch a GPU computes.
    pub computing_s: f64,
    /// Seconds of an epoch a GPU waits.
    pub waiting_s: f64,
    /// Nodes the run occupies.
    pub nodes: u64,
    /// One epoch, by part.
    pub epoch: EnergyParts,
    /// One epoch, kWh.
    pub epoch_kwh: f64,
    /// The whole training (the epochs to converge), kWh.
    pub train_kwh: f64,
    /// The whole training's CO2-equivalent, kg.
    pub train_co2_kg: f64,
    /// The whole training's money, US dollars.
    pub train_usd: f64,
}

impl Energy {
    /// The energy of `gpus` GPUs whose epoch takes `epoch_s`, of which each
    /// computes `computing_s`, for `epochs` epochs.
    ///
    /// # Formula
    /// `N = ⌈p/n⌉` nodes; per epoch `E_busy = p·P_busy·t_c`, `E_wait =
    /// p·P_wait·(T − t_c)`, `E_other = N·P_other·T`, `E_facility = (PUE −
    /// 1)·(E_busy + E_wait + E_other)`, all over 3.6e6 J/kWh; to train
    /// `E_train = epochs·E_epoch`; CO2 `= E_train·I/1000` kg; money:
    /// rented `T_train·p/3600·price`, owned `E_train·tariff`.
    pub fn of(facts: PowerFacts, gpus: u64, epoch_s: f64, computing_s: f64, epochs: f64) -> Self {
        let p = gpus as f64;
        let computing_s = computing_s.clamp(0.0, epoch_s.max(0.0));
        let waiting_s = (epoch_s - computing_s).max(0.0);
        let nodes = gpus.div_ceil(facts.gpus_per_node.max(1));
        let gpus_computing_kwh = p * facts.busy_w * computing_s / J_PER_KWH;
        let gpus_waiting_kwh = p * facts.waiting_w * waiting_s / J_PER_KWH;
        let nodes_other_kwh = nodes as f64 * facts.node_other_w * epoch_s / J_PER_KWH;
        let it = gpus_computing_kwh + gpus_waiting_kwh + nodes_other_kwh;
        let epoch = EnergyParts {
            gpus_computing_kwh,
            gpus_waiting_kwh,
            nodes_other_kwh,
            facility_kwh: (facts.pue - 1.0) * it,
        };
        let epoch_kwh = epoch.total_kwh();
        let train_kwh = epochs * epoch_kwh;
        let train_usd = match facts.basis {
            CostBasis::Cloud { usd_per_gpu_hour, .. } => epochs * epoch_s * p / 3600.0 * usd_per_gpu_hour,
            CostBasis::Owned { usd_per_kwh } => train_kwh * usd_per_kwh,
        };
        Self {
            train_co2_kg: train_kwh * facts.g_co2_per_kwh / 1000.0,
            facts,
            computing_s,
            waiting_s,
            nodes,
            epoch,
            epoch_kwh,
            train_kwh,
            train_usd,
        }
    }

    /// In words: `412 kWh to train (4.58 kWh an epoch: GPUs computing 62%,
    /// waiting 3%, nodes besides 22%, facility 13%), 199 kg CO2e on the
    /// world's grid, $1,520 at AWS p5.48xlarge's list price`.
    pub fn sentence(&self) -> String {
        let e = &self.epoch;
        let total = self.epoch_kwh.max(f64::MIN_POSITIVE);
        let share = |x: f64| units::percent(x / total);
        let money = match self.facts.basis {
            CostBasis::Cloud {
                instance: Some(key), ..
            } => format!("at {key}'s list price"),
            CostBasis::Cloud { usd_per_gpu_hour, .. } => {
                format!("at ${}/GPU-hour", units::significant(usd_per_gpu_hour, 3))
            }
            CostBasis::Owned { usd_per_kwh } => format!("of electricity at {}", per_kwh(usd_per_kwh)),
        };
        format!(
            "{} to train ({} an epoch: GPUs computing {}, waiting {}, nodes besides them {}, facility {}), {} CO2e on the {} grid, {} {money}",
            units::energy_kwh(self.train_kwh),
            units::energy_kwh(self.epoch_kwh),
            share(e.gpus_computing_kwh),
            share(e.gpus_waiting_kwh),
            share(e.nodes_other_kwh),
            share(e.facility_kwh),
            units::co2_kg(self.train_co2_kg),
            self.facts.grid,
            units::dollars(self.train_usd)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::presets;

    #[test]
    fn a_dgx_h100_epoch_is_its_parts_and_each_part_its_formula() {
        let cluster = presets::cluster("dgx-h100").unwrap();
        let facts = PowerFacts::of(&cluster, &Costs::default()).unwrap();
        // H100 SXM: 700 W; not measured: the median training fraction, idle measured
        assert_eq!(facts.board_w, 700.0);
        assert!(
            (facts.busy_w - 700.0 * 0.8456666666666667).abs() < 1e-6,
            "{}",
            facts.busy_w
        );
        // DGX H100: 0.76·10,200 less 8 GPUs at their training power
        assert!((facts.node_other_w - (0.76 * 10_200.0 - 8.0 * facts.busy_w)).abs() < 1e-9);
        assert_eq!((facts.pue, facts.grid), (1.58, "world"));
        assert!(matches!(
            facts.basis,
            CostBasis::Cloud {
                instance: Some("aws-p5.48xlarge"),
                ..
            }
        ));
        // 16 GPUs (2 nodes), an epoch of 100 s of which 80 s computing, 10 epochs
        let e = Energy::of(facts.clone(), 16, 100.0, 80.0, 10.0);
        let busy = 16.0 * facts.busy_w * 80.0 / 3.6e6;
        let wait = 16.0 * facts.waiting_w * 20.0 / 3.6e6;
        let other = 2.0 * facts.node_other_w * 100.0 / 3.6e6;
        assert!((e.epoch.gpus_computing_kwh - busy).abs() < 1e-12);
        assert!((e.epoch.gpus_waiting_kwh - wait).abs() < 1e-12);
        assert!((e.epoch.nodes_other_kwh - other).abs() < 1e-12);
        assert!((e.epoch_kwh - 1.58 * (busy + wait + other)).abs() < 1e-12);
        assert!((e.train_kwh - 10.0 * e.epoch_kwh).abs() < 1e-12);
        assert!((e.train_co2_kg - e.train_kwh * 483.18 / 1000.0).abs() < 1e-9);
        // rented: 16 GPUs for 1000 s at 6.88 a GPU-hour
        assert!((e.train_usd - 16.0 * 1000.0 / 3600.0 * 6.88).abs() < 1e-9);
        assert!(e.sentence().contains("to train"), "{}", e.sentence());
    }

    #[test]
    fn the_run_s_choices_override_the_cluster_s_and_an_owned_cluster_pays_its_electricity() {
        let abci = presets::cluster("abci").unwrap();
        let facts = PowerFacts::of(&abci, &Costs::default()).unwrap();
        // ABCI: Japan's grid, PUE 1.1, its CPUs
        assert_eq!((facts.grid, facts.pue, facts.node_other_w), ("jp", 1.1, 300.0));
        assert!(facts.sources()[4].contains("Nikkei"), "{:?}", facts.sources());
        let owned = Costs {
            grid: Some(Grid::Intensity(100.0)),
            price: Some(Price::Named(OWNED.into())),
            usd_per_kwh: Some(0.2),
            pue: Some(1.3),
        };
        let facts = PowerFacts::of(&abci, &owned).unwrap();
        assert_eq!((facts.g_co2_per_kwh, facts.pue), (100.0, 1.3));
        let e = Energy::of(facts, 4, 3600.0, 3600.0, 1.0);
        assert!((e.train_usd - e.train_kwh * 0.2).abs() < 1e-12);
        // a node of a GPU without a price: owned at the US industrial tariff
        let node = presets::cluster("node:4:pcie4:RTX 4090").unwrap();
        let facts = PowerFacts::of(&node, &Costs::default()).unwrap();
        assert_eq!(facts.basis, CostBasis::Owned { usd_per_kwh: 0.0806 });
        assert_eq!(facts.node_other_w, 0.0);
        assert!(facts.sources()[3].contains("not counted"), "{:?}", facts.sources());
        assert!(
            facts.sources()[6].contains("USA, industrial, 2023"),
            "{:?}",
            facts.sources()
        );
    }
}
