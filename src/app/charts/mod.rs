//! The plots: each module computes its data from the results apart from
//! drawing it, and draws with plotters into an SVG string together with
//! the places a pointer can hover for numbers.

pub mod accuracy;
pub mod comparison;
pub mod diagram;
pub mod memory;
pub mod plan;
pub mod scaling;
pub mod stacked;

mod export;
mod frame;
mod hover;
mod palette;

pub use export::{escape, titled};
pub use frame::{
    AXIS_SIZE, Area, Axes, Canvas, ChartError, Drawn, FONT, HEIGHT, LEGEND_BELOW, LEGEND_WIDTH, LogLog, NARROW_WIDTH,
    Root, Swatch, TEXT_SIZE, Target, Ticks, WIDTH, count_label, dashed, fail, legend, log_bounds, log_log, render,
    render_on,
};
pub use hover::{REACH, describe, nearest};
pub use palette::{part_color, strategy_color, strategy_dash, strategy_swatch};

/// Checks that mark `i` of `drawn` sits by `values[i] = (x, y)`: a value
/// larger by more than 5% sits further right (x) or higher (y).
#[cfg(test)]
pub fn assert_placed_by(drawn: &Drawn, values: &[(f64, f64)]) {
    assert_eq!(drawn.targets.len(), values.len());
    let at = |i: usize| match drawn.targets[i].area {
        Area::Point { x, y } | Area::Bar { x, y, .. } => (x, y),
    };
    for (i, a) in values.iter().enumerate() {
        for (j, b) in values.iter().enumerate() {
            if a.1 > b.1 * 1.05 {
                assert!(at(i).1 < at(j).1, "{i} above {j}");
            }
            if a.0 > b.0 * 1.05 {
                assert!(at(i).0 > at(j).0, "{i} right of {j}");
            }
        }
    }
}

#[cfg(test)]
mod edge_tests {
    use crate::app::charts::*;
    use crate::app::input::question::Question;
    use crate::app::input::source::{ClusterSource, ModelSource};
    use crate::app::results::Results;
    use crate::oracle::{Strategy, presets};

    /// One GPU, one strategy: one point, one bar.
    #[test]
    fn a_single_gpu_and_strategy_still_draws() {
        let mut cluster = presets::cluster("abci").unwrap().spec().clone();
        cluster.max_gpus = 1;
        cluster.gpus_per_node = 1;
        let mut inputs = Question {
            cluster: ClusterSource::Custom(Box::new(cluster)),
            strategies: vec![Strategy::Serial],
            ..Question::default()
        };
        inputs.run.gpus = 1;
        let scenario = inputs.scenario().unwrap();
        let results = Results::compute(&inputs, &scenario).unwrap();
        let scaling = scaling::draw(
            &scaling::data(&results, &[], None, crate::app::input::metric::Metric::Epoch),
            crate::app::charts::Canvas::WIDE,
        )
        .unwrap();
        assert_eq!(scaling.targets.len(), 1);
        let bars = comparison::data(&results, &inputs.strategies);
        assert_eq!(
            comparison::draw(&bars, crate::app::charts::Canvas::WIDE)
                .unwrap()
                .targets
                .len(),
            1
        );
        let memory = memory::draw(
            &memory::data(&results, &inputs.strategies),
            crate::app::charts::Canvas::WIDE,
        )
        .unwrap();
        assert_eq!(memory.targets.len(), 1);
    }

    /// A network without compute (only dropout) has nothing to put on a log axis.
    #[test]
    fn zero_times_draw_nothing_rather_than_fail() {
        let mut spec = presets::network("alexnet").unwrap().spec().clone();
        for layer in &mut spec.layers {
            layer.time_s = None;
            if layer.kind != crate::oracle::LayerKind::Dropout {
                layer.kind = crate::oracle::LayerKind::Other;
                layer.w = Default::default();
            }
        }
        // the ideal edition: in the realistic one memory traffic takes time even without FLOPs
        let mut inputs = Question {
            model: ModelSource::Custom(Box::new(spec)),
            ..Question::default()
        };
        inputs.run.edition = crate::oracle::Edition::Ideal;
        let scenario = inputs.scenario().unwrap();
        let results = Results::compute(&inputs, &scenario).unwrap();
        assert!(results.sweep().iter().all(|p| p.compute_s == 0.0));
        let drawn = scaling::draw(
            &scaling::data(&results, &[], None, crate::app::input::metric::Metric::Epoch),
            crate::app::charts::Canvas::WIDE,
        )
        .unwrap();
        // communication latency still takes time, so there are points to draw
        assert_eq!(drawn.targets.len(), results.sweep().len());
        assert!(!drawn.targets.is_empty());
        assert!(drawn.targets.iter().all(|t| matches!(t.area, Area::Point { .. })));
        assert!(
            comparison::draw(
                &comparison::data(&results, &inputs.strategies),
                crate::app::charts::Canvas::WIDE
            )
            .is_ok()
        );
        assert!(
            memory::draw(
                &memory::data(&results, &inputs.strategies),
                crate::app::charts::Canvas::WIDE
            )
            .is_ok()
        );
    }
}
