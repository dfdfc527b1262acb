//! A student's guess at a lesson's question, of the kind the question
//! asks (yes or no, the fastest strategy, which strategies fit), and how
//! it compares with what the engine answers for the lesson's setup.

use crate::app::results::Results;
use crate::oracle::{Projection, RankBy, Strategy, units};

/// What a lesson's question asks the student to guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asks {
    /// Yes or no: does the time (the epoch, or the time to train when the
    /// lesson ranks by it) keep halving with each doubling of the GPUs, up
    /// to the budget?
    KeepsHalving,
    /// The fastest strategy (and, if wished, its epoch).
    Fastest,
    /// Which strategies fit in a GPU's memory (none is an answer).
    WhichFit,
    /// Yes or no: is the data-parallel run at the budget, the fastest to
    /// train, also the one of least energy to train, of every GPU count up
    /// to it?
    FastestIsGreenest,
}

/// A set of strategies, as a bit per [`Strategy::ALL`] entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Strategies(u16);

impl Strategies {
    fn bit(strategy: Strategy) -> u16 {
        Strategy::ALL.iter().position(|s| *s == strategy).map_or(0, |i| 1 << i)
    }

    /// This set with `strategy` in it (`true`) or out.
    pub fn with(self, strategy: Strategy, chosen: bool) -> Self {
        let bit = Self::bit(strategy);
        Self(if chosen { self.0 | bit } else { self.0 & !bit })
    }

    /// Whether `strategy` is in it.
    pub fn contains(self, strategy: Strategy) -> bool {
        self.0 & Self::bit(strategy) != 0
    }

    /// Its strategies, in [`Strategy::ALL`]'s order.
    pub fn list(self) -> Vec<Strategy> {
        Strategy::ALL.into_iter().filter(|s| self.contains(*s)).collect()
    }

    /// The strategies, in words: `data, filter`, or `none`.
    fn words(self) -> String {
        let list = self.list();
        if list.is_empty() {
            "none".into()
        } else {
            list.iter().map(|s| s.label()).collect::<Vec<_>>().join(", ")
        }
    }
}

impl FromIterator<Strategy> for Strategies {
    fn from_iter<I: IntoIterator<Item = Strategy>>(iter: I) -> Self {
        iter.into_iter().fold(Self::default(), |set, s| set.with(s, true))
    }
}

/// A guess committed before the results are revealed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Guess {
    /// Whether the epoch keeps halving.
    KeepsHalving(bool),
    /// Whether the fastest run is also the one of least energy.
    FastestIsGreenest(bool),
    /// The fastest strategy and, if given, its epoch time in seconds.
    Fastest {
        /// The strategy guessed fastest.
        strategy: Strategy,
        /// Its epoch time guessed, seconds.
        seconds: Option<f64>,
    },
    /// The strategies guessed to fit.
    Fit(Strategies),
}

/// A doubling of the GPUs keeps halving the epoch when it speeds it up
/// at least this much (90% of the ideal ×2).
pub const HALVING_SPEEDUP: f64 = 1.8;

/// The time a "keeps halving" question is about: the epoch, or the time to
/// train when the results rank by it.
fn timed(results: &Results, p: &Projection) -> f64 {
    match results.rank_by {
        RankBy::TimeToTrain => p.training.time_s,
        _ => p.total_s,
    }
}

/// The doubling of the GPUs (`from`, `to`) with the smallest speed-up of
/// the data-parallel time ([`timed`]) up to the budget, and that speed-up.
fn worst_doubling(results: &Results) -> Option<(u64, u64, f64)> {
    let data: Vec<&Projection> = results
        .sweep()
        .iter()
        .filter(|p| p.strategy == Strategy::Data && p.gpus <= results.gpus && timed(results, p) > 0.0)
        .collect();
    data.iter()
        .filter_map(|a| {
            let b = data.iter().find(|b| b.gpus == 2 * a.gpus)?;
            Some((a.gpus, b.gpus, timed(results, a) / timed(results, b)))
        })
        .min_by(|x, y| x.2.total_cmp(&y.2))
}

/// The engine's answer to a yes-or-no "does it keep halving": yes when
/// every doubling up to the budget speeds the data-parallel epoch up by
/// at least [`HALVING_SPEEDUP`].
pub fn keeps_halving(results: &Results) -> Option<bool> {
    worst_doubling(results).map(|(_, _, speedup)| speedup >= HALVING_SPEEDUP)
}

/// The data-parallel runs of least energy to train up to the budget and
/// at the budget, feasible and with a known energy.
pub fn least_energy(results: &Results) -> Option<(&Projection, &Projection)> {
    let energy = |p: &Projection| p.energy.as_ref().map_or(f64::INFINITY, |e| e.train_kwh);
    let data: Vec<&Projection> = results
        .sweep()
        .iter()
        .filter(|p| p.strategy == Strategy::Data && p.gpus <= results.gpus && p.feasible && energy(p).is_finite())
        .collect();
    let least = data.iter().copied().min_by(|a, b| energy(a).total_cmp(&energy(b)))?;
    let budget = data.iter().copied().find(|p| p.gpus == results.gpus)?;
    Some((least, budget))
}

/// The strategies whose memory per GPU fits its capacity at the budget.
pub fn fitting(results: &Results) -> Strategies {
    results
        .ranking
        .iter()
        .filter(|p| p.memory_bytes <= results.capacity_bytes)
        .map(|p| p.strategy)
        .collect()
}

/// How close a guess was to the engine's answer, in words.
pub fn verdict(guess: Guess, results: &Results) -> String {
    match guess {
        Guess::KeepsHalving(yes) => {
            let said = if yes { "yes" } else { "no" };
            match (keeps_halving(results), worst_doubling(results)) {
                (Some(answer), Some((from, to, speedup))) => {
                    let judged = if answer == yes {
                        format!("You said {said}: right.")
                    } else {
                        format!("You said {said}; the model says {}.", if answer { "yes" } else { "no" })
                    };
                    let what = match results.rank_by {
                        RankBy::TimeToTrain => "training",
                        _ => "the epoch",
                    };
                    format!(
                        "{judged} Its worst doubling, {from} to {to} GPUs, makes {what} ×{} faster (halving is ×2).",
                        units::significant(speedup, 2)
                    )
                }
                _ => format!("You said {said}."),
            }
        }
        Guess::Fit(chosen) => {
            let answer = fitting(results);
            if chosen == answer {
                format!("You picked {}: right.", chosen.words())
            } else {
                format!(
                    "You picked {}; the model says {} fit{}.",
                    chosen.words(),
                    answer.words(),
                    if answer.list().len() == 1 { "s" } else { "" }
                )
            }
        }
        Guess::Fastest { strategy, seconds } => fastest(strategy, seconds, &results.ranking),
        Guess::FastestIsGreenest(yes) => {
            let said = if yes { "yes" } else { "no" };
            let Some((least, budget)) = least_energy(results) else {
                return format!("You said {said}.");
            };
            let answer = least.gpus == budget.gpus;
            let judged = if answer == yes {
                format!("You said {said}: right.")
            } else {
                format!("You said {said}; the model says {}.", if answer { "yes" } else { "no" })
            };
            let kwh = |p: &Projection| p.energy.as_ref().map_or(f64::NAN, |e| e.train_kwh);
            format!(
                "{judged} The least energy is at {} GPUs ({}); {} GPUs train ×{} sooner for ×{} the energy.",
                least.gpus,
                units::energy_kwh(kwh(least)),
                budget.gpus,
                units::significant(least.training.time_s / budget.training.time_s, 2),
                units::significant(kwh(budget) / kwh(least), 2)
            )
        }
    }
}

/// The strategy guessed against the fastest that fits (or the fastest
/// at all, said not to fit, when none does), and the epoch against that
/// strategy's.
fn fastest(guessed: Strategy, seconds: Option<f64>, ranking: &[Projection]) -> String {
    let fits = ranking.iter().find(|p| p.feasible);
    let Some(answer) = fits.or(ranking.first()) else {
        return format!("You guessed {}.", guessed.label());
    };
    let strategy = match fits {
        Some(best) if best.strategy == guessed => format!("You guessed {}: right.", guessed.label()),
        Some(best) => format!(
            "You guessed {}; the model says {}.",
            guessed.label(),
            best.strategy.label()
        ),
        None => format!(
            "You guessed {}; no strategy fits in a GPU's memory here, so none can train as asked (the fastest on paper is {}).",
            guessed.label(),
            answer.strategy.label()
        ),
    };
    match seconds.filter(|s| *s > 0.0) {
        Some(s) => format!(
            "{strategy} Your epoch of {} is ×{} the model's {} for {}.",
            units::seconds(s),
            units::significant(s / answer.total_s, 2),
            units::seconds(answer.total_s),
            answer.strategy.label()
        ),
        None => strategy,
    }
}

#[cfg(test)]
mod tests {
    use crate::app::lessons::guess::*;
    use crate::app::lessons::{self, LESSONS};

    fn results_of(id: &str) -> Results {
        let lesson = lessons::find(id).unwrap();
        let question = (lesson.inputs)().question;
        Results::compute(&question, &question.scenario().unwrap()).unwrap()
    }

    #[test]
    fn every_lesson_asks_a_guess_the_engine_can_answer() {
        for lesson in &LESSONS {
            let results = results_of(lesson.id);
            match lesson.asks {
                Asks::KeepsHalving => assert!(keeps_halving(&results).is_some(), "{}", lesson.id),
                Asks::Fastest => assert!(!results.ranking.is_empty(), "{}", lesson.id),
                Asks::WhichFit => assert!(!results.ranking.is_empty(), "{}", lesson.id),
                Asks::FastestIsGreenest => assert!(least_energy(&results).is_some(), "{}", lesson.id),
            }
        }
    }

    #[test]
    fn data_parallelism_stops_halving_the_epoch_before_1024_gpus() {
        let results = results_of("data-stops-scaling");
        assert_eq!(keeps_halving(&results), Some(false));
        let (from, to, speedup) = worst_doubling(&results).unwrap();
        assert_eq!(to, 2 * from);
        assert!(speedup < HALVING_SPEEDUP, "{speedup}");
        let right = verdict(Guess::KeepsHalving(false), &results);
        assert!(right.starts_with("You said no: right."), "{right}");
        assert!(right.contains(&format!("{from} to {to} GPUs")), "{right}");
        let wrong = verdict(Guess::KeepsHalving(true), &results);
        assert!(wrong.starts_with("You said yes; the model says no."), "{wrong}");
    }

    #[test]
    fn none_fits_is_an_answer_to_which_fit() {
        let results = results_of("memory-wall");
        // the lesson's point: at 256 samples per GPU nothing fits in 16 GB
        assert_eq!(fitting(&results), Strategies::default());
        assert_eq!(
            verdict(Guess::Fit(Strategies::default()), &results),
            "You picked none: right."
        );
        let data = Strategies::default().with(Strategy::Data, true);
        assert_eq!(
            verdict(Guess::Fit(data), &results),
            "You picked data; the model says none fit."
        );
    }

    #[test]
    fn a_set_of_strategies_keeps_what_is_put_in() {
        let set: Strategies = [Strategy::Filter, Strategy::Data].into_iter().collect();
        assert_eq!(set.list(), vec![Strategy::Data, Strategy::Filter]);
        assert!(!set.with(Strategy::Data, false).contains(Strategy::Data));
        assert_eq!(set.words(), "data, filter");
    }

    #[test]
    fn the_fastest_is_scored_against_the_fastest_that_fits() {
        let results = results_of("spatial-cosmoflow");
        let best = results.ranking.iter().find(|p| p.feasible).unwrap();
        let right = verdict(
            Guess::Fastest {
                strategy: best.strategy,
                seconds: Some(best.total_s * 2.0),
            },
            &results,
        );
        assert!(right.contains(": right."), "{right}");
        assert!(right.contains("×2 the model's"), "{right}");
    }
}
