//! What a pointer over a plot finds: the nearest mark and the numbers it
//! stands for.

use crate::app::charts::frame::{Area, Target};
use crate::oracle::{Projection, units};

/// The hover text of a projection.
pub fn describe(p: &Projection) -> Vec<String> {
    let mut lines = vec![
        format!("{} on {} GPUs, batch {}", p.strategy, p.gpus, p.mini_batch),
        format!(
            "epoch {} = compute {} + communication {}",
            units::seconds(p.total_s),
            units::seconds(p.compute_s),
            units::seconds(p.communication_s)
        ),
        format!(
            "to train {} ({} epochs at this batch)",
            units::seconds(p.training.time_s),
            units::significant(p.training.epochs.epochs, 3)
        ),
        format!(
            "memory {} of {} per GPU; {} GPU-hours",
            units::bytes(p.memory_bytes),
            units::bytes(p.memory_capacity_bytes),
            units::significant(p.gpu_hours, 4)
        ),
    ];
    if p.feasible {
        lines.push("feasible".into());
    } else {
        let names: Vec<&str> = p.violations.iter().map(|v| v.label()).collect();
        lines.push(format!("infeasible: {}", names.join(", ")));
    }
    lines
}

/// How far from a mark, in SVG units, the pointer still shows its numbers.
pub const REACH: f64 = 24.0;

/// The mark nearest to `(x, y)` (SVG units) within `reach`: a point by its
/// centre, a bar by its nearest edge (0 inside it). Overlapping marks do
/// not hide each other: the nearest one wins.
pub fn nearest(targets: &[Target], x: f64, y: f64, reach: f64) -> Option<usize> {
    let distance = |area: &Area| match *area {
        Area::Point { x: px, y: py } => (f64::from(px) - x).hypot(f64::from(py) - y),
        Area::Bar {
            x: bx,
            y: by,
            width,
            height,
        } => {
            let dx = (f64::from(bx) - x).max(x - f64::from(bx + width)).max(0.0);
            let dy = (f64::from(by) - y).max(y - f64::from(by + height)).max(0.0);
            dx.hypot(dy)
        }
    };
    targets
        .iter()
        .enumerate()
        .map(|(i, t)| (i, distance(&t.area)))
        .filter(|(_, d)| *d <= reach)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use crate::app::charts::hover::*;

    #[test]
    fn the_nearest_mark_wins() {
        let point = |x, y| Target {
            area: Area::Point { x, y },
            lines: Vec::new(),
            explain: None,
        };
        let bar = Target {
            area: Area::Bar {
                x: 300,
                y: 100,
                width: 40,
                height: 200,
            },
            lines: Vec::new(),
            explain: None,
        };
        // two points 6 units apart, overlapping markers: the closer one wins
        let targets = vec![point(100, 100), point(106, 100), bar];
        assert_eq!(nearest(&targets, 101.0, 100.0, REACH), Some(0));
        assert_eq!(nearest(&targets, 105.0, 101.0, REACH), Some(1));
        assert_eq!(nearest(&targets, 320.0, 250.0, REACH), Some(2), "inside a bar");
        assert_eq!(
            nearest(&targets, 350.0, 250.0, REACH),
            Some(2),
            "beside it, within reach"
        );
        assert_eq!(nearest(&targets, 500.0, 400.0, REACH), None);
        assert_eq!(nearest(&[], 1.0, 1.0, REACH), None);
    }
}
