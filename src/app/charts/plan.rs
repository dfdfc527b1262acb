//! The planner's front: epoch time against GPU-hours, log-log, one point
//! per configuration on the Pareto front, its outline the strategy's
//! colour and its fill the memory per GPU (light: little, dark: near the
//! GPU's capacity). Infeasible configurations are never on the front.

use plotters::prelude::*;

use crate::app::charts::{
    Area, ChartError, Drawn, Swatch, Target, Ticks, fail, legend, log_bounds, log_log, render, strategy_color,
};
use crate::oracle::{Config, Plan, Strategy, units};

/// One configuration on the plot.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontPoint {
    /// Strategy (the outline).
    pub strategy: Strategy,
    /// GPU-hours per epoch (x).
    pub gpu_hours: f64,
    /// Epoch seconds (y).
    pub total_s: f64,
    /// Memory per GPU as a share of the capacity, 0 to 1 (the fill).
    pub memory_share: f64,
    /// The hover text.
    pub lines: Vec<String>,
}

/// The hover text of a configuration.
pub fn describe(c: &Config) -> Vec<String> {
    let mut knobs = Vec::new();
    if let Some(group) = c.group_size {
        knobs.push(format!("groups of {group}"));
    }
    if let Some(segments) = c.segments {
        knobs.push(format!("{segments} segments"));
    }
    if c.zero > 0 {
        knobs.push(format!("ZeRO {}", c.zero));
    }
    if c.recompute {
        knobs.push("recompute".into());
    }
    let mut lines = vec![format!("{} on {} GPUs, batch {}", c.strategy, c.gpus, c.mini_batch)];
    if !knobs.is_empty() {
        lines.push(knobs.join(", "));
    }
    lines.push(format!(
        "epoch {}; {} GPU-hours; memory {} per GPU",
        units::seconds(c.total_s),
        units::significant(c.gpu_hours, 4),
        units::bytes(c.memory_bytes)
    ));
    lines.push("click to show it in the main view".into());
    lines
}

/// The points of a plan's front, in the front's order, memory as a share
/// of `capacity_bytes`.
pub fn data(plan: &Plan, capacity_bytes: f64) -> Vec<FrontPoint> {
    plan.front
        .iter()
        .map(|c| FrontPoint {
            strategy: c.strategy,
            gpu_hours: c.gpu_hours,
            total_s: c.total_s,
            memory_share: if capacity_bytes > 0.0 {
                (c.memory_bytes / capacity_bytes).clamp(0.0, 1.0)
            } else {
                0.0
            },
            lines: describe(c),
        })
        .collect()
}

/// The fill of a memory share: from a pale to a deep blue-green.
pub fn memory_fill(share: f64) -> RGBColor {
    let light = (0xe6, 0xf5, 0xf0);
    let dark = (0x00, 0x44, 0x4d);
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * share.clamp(0.0, 1.0)).round() as u8;
    RGBColor(mix(light.0, dark.0), mix(light.1, dark.1), mix(light.2, dark.2))
}

/// Draws the front; each point is a target, in the front's order.
///
/// # Errors
/// A [`ChartError`] if plotters fails.
pub fn draw(points: &[FrontPoint]) -> Result<Drawn, ChartError> {
    render(|root, targets| {
        let (Some((x_low, x_high)), Some((y_low, y_high))) = (
            log_bounds(points.iter().map(|p| p.gpu_hours)),
            log_bounds(points.iter().map(|p| p.total_s)),
        ) else {
            return Ok(false);
        };
        let hours = |v: &f64| units::significant(*v, 2);
        let seconds = |v: &f64| units::seconds(*v);
        let mut chart = log_log(
            root,
            (x_low, x_high, Ticks::Decades),
            (y_low, y_high),
            [("GPU-hours per epoch", &hours), ("epoch time", &seconds)],
        )?;
        for p in points {
            let at = (p.gpu_hours, p.total_s);
            chart
                .draw_series([
                    Circle::new(at, 6, memory_fill(p.memory_share).filled()),
                    Circle::new(at, 6, strategy_color(p.strategy).stroke_width(2)),
                ])
                .map_err(fail)?;
            let (x, y) = chart.backend_coord(&at);
            targets.push(Target {
                area: Area::Point { x, y },
                lines: p.lines.clone(),
                explain: None,
            });
        }
        let mut entries: Vec<(String, Swatch)> = Strategy::ALL
            .into_iter()
            .filter(|s| points.iter().any(|p| p.strategy == *s))
            .map(|s| (s.name().to_string(), Swatch::Line(strategy_color(s))))
            .collect();
        entries.push(("memory: little".into(), Swatch::Box(memory_fill(0.0))));
        entries.push(("memory: half".into(), Swatch::Box(memory_fill(0.5))));
        entries.push(("memory: full".into(), Swatch::Box(memory_fill(1.0))));
        legend(root, &entries)?;
        Ok(true)
    })
}

#[cfg(test)]
mod tests {
    use crate::app::charts::plan::*;
    use crate::oracle::{Batch, Objective, RunSpec, presets};

    #[test]
    fn every_front_member_is_a_point_placed_by_its_numbers() {
        let s = presets::scenario("resnet50", "abci").unwrap();
        let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(32.0));
        let plan = s.search(&template, 64, Objective::Time).unwrap();
        let points = data(&plan, s.cluster().gpu_memory_bytes());
        assert_eq!(points.len(), plan.front.len());
        assert!(points.len() > 1);
        let drawn = draw(&points).unwrap();
        assert_eq!(drawn.targets.len(), points.len());
        assert!(drawn.svg.contains("GPU-hours per epoch"));
        // slower sits higher, dearer further right
        let values: Vec<(f64, f64)> = points.iter().map(|p| (p.gpu_hours, p.total_s)).collect();
        crate::app::charts::assert_placed_by(&drawn, &values);
        assert!(points.iter().all(|p| (0.0..=1.0).contains(&p.memory_share)));
    }

    #[test]
    fn fill_darkens_with_memory_and_nothing_draws_nothing() {
        let sum = |c: RGBColor| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
        assert!(sum(memory_fill(0.0)) > sum(memory_fill(0.5)));
        assert!(sum(memory_fill(0.5)) > sum(memory_fill(1.0)));
        assert_eq!(draw(&[]).unwrap(), Drawn::default());
        let mut c = plan_config();
        c.group_size = Some(4);
        c.zero = 2;
        c.recompute = true;
        let lines = describe(&c);
        assert!(lines[1].contains("groups of 4") && lines[1].contains("ZeRO 2") && lines[1].contains("recompute"));
    }

    fn plan_config() -> Config {
        Config {
            strategy: Strategy::DataFilter,
            gpus: 8,
            group_size: None,
            segments: None,
            zero: 0,
            recompute: false,
            mini_batch: 256,
            samples_per_gpu: 32.0,
            total_s: 100.0,
            gpu_hours: 0.2,
            memory_bytes: 1e9,
            epochs: 35.0,
            time_to_train_s: 3500.0,
            energy_kwh: 50.0,
            co2_kg: 24.0,
            usd: 200.0,
            feasible: true,
        }
    }
}
