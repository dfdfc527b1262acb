//! Projections as comma-separated values: one row per projection, times
//! per epoch in seconds, memory in bytes, communication by kind, and what
//! the row is of (network, cluster, edition, how the run trains) and how
//! far it is likely off (the error band), so that a file read alone says
//! what it holds.

use std::fmt::Write;

use crate::oracle::{CommKind, Config, Projection};

/// The header row.
pub const HEADER: &str = "strategy,gpus,mini_batch,samples_per_gpu,iterations,compute_s,communication_s,total_s,gpu_hours,memory_bytes,feasible,violations,gradient_allreduce_s,layer_collectives_s,halo_s,gather_s,pipeline_p2p_s,weight_allgather_s,key_value_allgather_s,network,cluster,edition,precision,optimizer,zero,recompute,overlap,likely_low_s,likely_high_s,epochs_to_converge,convergence,time_to_train_s,likely_train_low_s,likely_train_high_s,epoch_kwh,train_kwh,train_co2_kg,train_usd";

/// A text cell quoted as RFC 4180 writes it: in double quotes, its own
/// quotes doubled.
pub fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// A text cell as RFC 4180 writes it: [`quoted`] when it holds a comma, a
/// quote or a line break, as it is otherwise.
pub fn cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        quoted(text)
    } else {
        text.to_string()
    }
}

/// Writes `points`, projections of `network` on `cluster`, with a header;
/// numbers in Rust's shortest exact form, violations separated by `;`;
/// the likely epoch (`likely_low_s`, `likely_high_s`: the projection times
/// its error band) empty where it has none (the ideal edition); epochs to
/// converge at the global batch, the convergence curve they follow (empty:
/// epochs given or assumed), the time to train and where it is likely to
/// fall (section 13; empty in the ideal edition); the energy of an epoch
/// and to train, kWh, its CO2-equivalent, kg, and money, US dollars
/// (section 14; empty where the GPU's board power is unknown).
pub fn projections(points: &[Projection], network: &str, cluster: &str) -> String {
    let mut text = String::from(HEADER);
    text.push('\n');
    let (network, cluster) = (cell(network), cell(cluster));
    for p in points {
        let violations: Vec<&str> = p.violations.iter().map(|v| v.name()).collect();
        let _ = write!(
            text,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            p.strategy,
            p.gpus,
            p.mini_batch,
            p.samples_per_gpu,
            p.iterations,
            p.compute_s,
            p.communication_s,
            p.total_s,
            p.gpu_hours,
            p.memory_bytes,
            p.feasible,
            violations.join(";")
        );
        for kind in CommKind::ALL {
            let _ = write!(text, ",{}", p.communication.get(kind));
        }
        let energy = |of: fn(&crate::oracle::report::energy::Energy) -> f64| {
            p.energy.as_ref().map_or(String::new(), |e| of(e).to_string())
        };
        let likely = |factor: fn(&crate::oracle::report::track_record::Band) -> f64| {
            p.band
                .as_ref()
                .map_or(String::new(), |b| (p.total_s * factor(b)).to_string())
        };
        let _ = writeln!(
            text,
            ",{network},{cluster},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            p.edition.name(),
            p.precision.name(),
            p.optimizer.name(),
            p.zero,
            p.recompute,
            p.overlap,
            likely(|b| b.low),
            likely(|b| b.high),
            p.training.epochs.epochs,
            p.training.epochs.curve.unwrap_or_default(),
            p.training.time_s,
            p.training.likely_s.map_or(String::new(), |l| l.0.to_string()),
            p.training.likely_s.map_or(String::new(), |l| l.1.to_string()),
            energy(|e| e.epoch_kwh),
            energy(|e| e.train_kwh),
            energy(|e| e.train_co2_kg),
            energy(|e| e.train_usd)
        );
    }
    text
}

/// The header row of planner configurations.
pub const CONFIG_HEADER: &str = "strategy,gpus,group_size,segments,zero,recompute,mini_batch,samples_per_gpu,total_s,gpu_hours,memory_bytes,feasible,epochs_to_converge,time_to_train_s,train_kwh,train_co2_kg,train_usd";

/// Writes planner configurations with a header: an empty cell where a
/// strategy has no group or segments, or where the energy is unknown.
pub fn configs(configs: &[Config]) -> String {
    let mut text = String::from(CONFIG_HEADER);
    text.push('\n');
    let cell = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    let known = |v: f64| if v.is_finite() { v.to_string() } else { String::new() };
    for c in configs {
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            c.strategy,
            c.gpus,
            cell(c.group_size),
            cell(c.segments),
            c.zero,
            c.recompute,
            c.mini_batch,
            c.samples_per_gpu,
            c.total_s,
            c.gpu_hours,
            c.memory_bytes,
            c.feasible,
            c.epochs,
            c.time_to_train_s,
            known(c.energy_kwh),
            known(c.co2_kg),
            known(c.usd)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{Batch, RankBy, RunSpec, Strategy, presets};

    #[test]
    fn rows_read_back_to_the_same_numbers() {
        let s = presets::scenario("vgg16", "abci").unwrap();
        let ranking = s.rank(
            &RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(16.0)),
            RankBy::Time,
        );
        let text = projections(&ranking.points, s.network().name(), "ABCI, \"EDR\"");
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(HEADER));
        let columns = HEADER.split(',').count();
        for (line, p) in lines.zip(&ranking.points) {
            // the cluster's name is quoted, its comma and quotes kept
            let (line, quoted) = line.split_once(",\"ABCI, \"\"EDR\"\"\",").unwrap();
            let cells: Vec<&str> = line.split(',').chain(quoted.split(',')).collect();
            assert_eq!(cells.len() + 1, columns);
            assert_eq!(cells[0], p.strategy.name());
            assert_eq!(cells[1].parse::<u64>().unwrap(), p.gpus);
            assert_eq!(cells[7].parse::<f64>().unwrap(), p.total_s);
            assert_eq!(cells[9].parse::<f64>().unwrap(), p.memory_bytes);
            assert_eq!(cells[10].parse::<bool>().unwrap(), p.feasible);
            let violations: Vec<&str> = p.violations.iter().map(|v| v.name()).collect();
            assert_eq!(cells[11], violations.join(";"));
            assert_eq!(
                cells[12].parse::<f64>().unwrap(),
                p.communication.get(CommKind::GradientAllreduce)
            );
            // network, then (the cluster split off) edition, precision, ..., the likely epoch
            assert_eq!(cells[19], s.network().name());
            assert_eq!(cells[20], p.edition.name());
            assert_eq!(cells[21], p.precision.name());
            let band = p.band.as_ref().unwrap();
            assert_eq!(cells[26].parse::<f64>().unwrap(), p.total_s * band.low);
            assert_eq!(cells[27].parse::<f64>().unwrap(), p.total_s * band.high);
        }
    }

    #[test]
    fn config_rows_carry_every_field() {
        let s = presets::scenario("alexnet", "abci").unwrap();
        let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(16.0));
        let plan = s.search(&template, 8, crate::oracle::Objective::Time).unwrap();
        let text = configs(&plan.front);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(CONFIG_HEADER));
        for (line, c) in lines.zip(&plan.front) {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells.len(), 17);
            assert_eq!(cells[0], c.strategy.name());
            assert_eq!(cells[2], c.group_size.map_or(String::new(), |g| g.to_string()));
            assert_eq!(cells[3], c.segments.map_or(String::new(), |g| g.to_string()));
            assert_eq!(cells[8].parse::<f64>().unwrap(), c.total_s);
            assert_eq!(cells[10].parse::<f64>().unwrap(), c.memory_bytes);
            assert_eq!(cells[13].parse::<f64>().unwrap(), c.time_to_train_s);
            // ABCI's V100s have a board power: energy, CO2 and money known
            assert_eq!(cells[14].parse::<f64>().unwrap(), c.energy_kwh);
            assert_eq!(cells[16].parse::<f64>().unwrap(), c.usd);
        }
    }
}
