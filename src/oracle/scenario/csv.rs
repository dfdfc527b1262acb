//! Projections as comma-separated values: one row per projection, times
//! per epoch in seconds, memory in bytes, communication by kind.

use std::fmt::Write;

use crate::oracle::{CommKind, Config, Projection};

/// The header row.
pub const HEADER: &str = "strategy,gpus,mini_batch,samples_per_gpu,iterations,compute_s,communication_s,total_s,gpu_hours,memory_bytes,feasible,violations,gradient_allreduce_s,layer_collectives_s,halo_s,gather_s,pipeline_p2p_s,weight_allgather_s";

/// Writes `points` with a header; numbers in Rust's shortest exact form,
/// violations separated by `;`.
pub fn projections(points: &[Projection]) -> String {
    let mut text = String::from(HEADER);
    text.push('\n');
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
        text.push('\n');
    }
    text
}

/// The header row of planner configurations.
pub const CONFIG_HEADER: &str = "strategy,gpus,group_size,segments,zero,recompute,mini_batch,samples_per_gpu,total_s,gpu_hours,memory_bytes,feasible";

/// Writes planner configurations with a header: an empty cell where a
/// strategy has no group or segments.
pub fn configs(configs: &[Config]) -> String {
    let mut text = String::from(CONFIG_HEADER);
    text.push('\n');
    let cell = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    for c in configs {
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
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
            c.feasible
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
        let text = projections(&ranking.points);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(HEADER));
        let columns = HEADER.split(',').count();
        for (line, p) in lines.zip(&ranking.points) {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells.len(), columns);
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
            assert_eq!(cells.len(), 12);
            assert_eq!(cells[0], c.strategy.name());
            assert_eq!(cells[2], c.group_size.map_or(String::new(), |g| g.to_string()));
            assert_eq!(cells[3], c.segments.map_or(String::new(), |g| g.to_string()));
            assert_eq!(cells[8].parse::<f64>().unwrap(), c.total_s);
            assert_eq!(cells[10].parse::<f64>().unwrap(), c.memory_bytes);
        }
    }
}
