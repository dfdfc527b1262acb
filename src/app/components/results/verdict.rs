//! The verdict of a ranking in one sentence (the summary bar's): the best
//! strategy, its time to train when ranked by it, its epoch with its
//! likely range, a tie said as one, or why nothing fits.

use crate::app::components::results::explained_sentence::{Span, limits, plain};
use crate::oracle::{Projection, RankBy, units};

/// The verdict when a strategy fits, around its epoch: the words before
/// the epoch, the best projection, and the words after it (a tie said as
/// one).
pub fn best_verdict(ranking: &[Projection], by: RankBy) -> Option<(String, &Projection, String)> {
    let mut fitting = ranking.iter().filter(|p| p.feasible);
    let best = fitting.next()?;
    let count = ranking.iter().filter(|p| p.feasible).count();
    let tie = fitting
        .next()
        .filter(|next| ties(best, next))
        .map_or_else(String::new, |next| {
            format!(
                ", tied with {} at {}{}: their likely times overlap, so only measured runs can order them",
                next.strategy.label(),
                units::seconds(next.total_s),
                band_words(next)
            )
        });
    // ranked by time to train, the verdict says it first (the epoch's likely range is in the ranking)
    // ranked by what a run costs, the verdict says that cost first
    let costs = best.energy.as_ref();
    let (to_train, band) = match (by, costs) {
        (RankBy::TimeToTrain, _) => (
            format!("{} to train, ", units::seconds(best.training.time_s)),
            String::new(),
        ),
        (RankBy::Energy, Some(e)) => (format!("{} to train, ", units::energy_kwh(e.train_kwh)), String::new()),
        (RankBy::Carbon, Some(e)) => (
            format!("{} CO2e to train, ", units::co2_kg(e.train_co2_kg)),
            String::new(),
        ),
        (RankBy::Money, Some(e)) => (format!("{} to train, ", units::dollars(e.train_usd)), String::new()),
        _ => (String::new(), band_words(best)),
    };
    Some((
        format!("Best: {} at {} GPUs, {to_train}", best.strategy.label(), best.gpus),
        best,
        format!(" per epoch{band}{tie}; {count} of {} strategies fit.", ranking.len()),
    ))
}

/// Whether two projections' likely epochs overlap (their bands, the
/// engine's track record), so that which is faster is not known.
///
/// # Formula
/// `high_a · T_a ≥ low_b · T_b` for the faster `a` (no band: never).
pub fn ties(a: &Projection, b: &Projection) -> bool {
    match (&a.band, &b.band) {
        (Some(x), Some(y)) => x.high * a.total_s >= y.low * b.total_s,
        _ => false,
    }
}

/// The band of a projected epoch, in words: where measured epochs of runs
/// like it fell (the engine's track record; its basis is in the number's
/// explanation), or nothing in the ideal edition.
fn band_words(p: &Projection) -> String {
    p.band.as_ref().map_or_else(String::new, |band| {
        format!(
            " (likely {} to {})",
            units::seconds(band.low * p.total_s),
            units::seconds(band.high * p.total_s)
        )
    })
}

/// The verdict when nothing fits: the fastest strategy and its limits,
/// each number opening its explanation.
pub fn none_fits(ranking: &[Projection]) -> Option<Vec<Span>> {
    let p = ranking.first()?;
    let mut said = vec![Span::Text(format!(
        "No strategy fits at {} GPUs. The fastest, {}: ",
        p.gpus,
        p.strategy.name()
    ))];
    said.extend(limits(p));
    said.push(Span::text("."));
    Some(said)
}

/// The verdict of a ranking ordered `by`, in one sentence.
pub fn verdict(ranking: &[Projection], by: RankBy) -> String {
    match best_verdict(ranking, by) {
        Some((before, best, after)) => format!("{before}{}{after}", units::seconds(best.total_s)),
        None => none_fits(ranking).map_or_else(|| "No strategy applies at this GPU count.".into(), |s| plain(&s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{Batch, Precision, RankBy, RunSpec, Strategy, presets};

    #[test]
    fn a_gap_inside_the_likely_times_is_a_tie_said_as_one() {
        let scenario = presets::scenario("resnet50", "dgx-h100").unwrap();
        let mut run = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
        run.precision = Precision::Fp16;
        let ranking = scenario.rank(&run, RankBy::Time).points;
        let said = verdict(&ranking, RankBy::Time);
        assert!(!said.contains("to train"), "{said}");
        let fitting: Vec<&Projection> = ranking.iter().filter(|p| p.feasible).collect();
        let by_train = verdict(&ranking, RankBy::TimeToTrain);
        assert!(
            by_train.contains(&format!("{} to train, ", units::seconds(fitting[0].training.time_s))),
            "{by_train}"
        );
        assert_eq!(said.contains("tied with"), ties(fitting[0], fitting[1]), "{said}");
        // two runs 1.5x apart whose bands overlap are a tie; far apart, not
        let mut a = fitting[0].clone();
        let mut b = a.clone();
        b.strategy = Strategy::DataFilter;
        b.total_s = a.total_s * 1.5;
        if let (Some(x), Some(y)) = (&mut a.band, &mut b.band) {
            (x.low, x.high, y.low, y.high) = (0.8, 1.6, 0.8, 1.6);
        }
        let said = verdict(&[a.clone(), b.clone()], RankBy::Time);
        assert!(
            said.contains(&format!("tied with {}", Strategy::DataFilter.label())),
            "{said}"
        );
        b.total_s = a.total_s * 3.0;
        assert!(!verdict(&[a, b], RankBy::Time).contains("tied"));
    }
}
