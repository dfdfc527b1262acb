//! `#ranking`: every strategy at the GPU budget, feasible ones first and
//! fastest first, as `paradl rank` prints them.

use yew::prelude::*;

use crate::app::components::page::term::Term;
use crate::app::components::results::ranking_row;
use crate::oracle::{Calibration, Projection, RankBy};

/// The words of an order by what a run costs, if `by` is one.
fn cost_order(by: RankBy) -> Option<&'static str> {
    match by {
        RankBy::Energy => Some("energy to train"),
        RankBy::Carbon => Some("CO2 to train"),
        RankBy::Money => Some("money to train"),
        RankBy::Time | RankBy::Cost | RankBy::TimeToTrain => None,
    }
}

/// Props of [`RankingTable`].
#[derive(Properties, PartialEq, Clone)]
pub struct RankingTableProps {
    /// The ranked projections.
    pub ranking: Vec<Projection>,
    /// The calibration applied, if any (its runs are the track record).
    #[prop_or_default]
    pub calibration: Option<Calibration>,
    /// Whether the ABCI runs of the track record resemble this question
    /// (V100s in FP32, as they ran); else each time shows its band, from
    /// published runs of its own GPU class and precision.
    #[prop_or_default]
    pub like_the_runs: bool,
    /// What the ranking calls best.
    #[prop_or_default]
    pub by: RankBy,
}

/// The ranking as a table whose rows carry their numbers as data attributes.
#[function_component(RankingTable)]
pub fn ranking_table(props: &RankingTableProps) -> Html {
    let rows = props
        .ranking
        .iter()
        .enumerate()
        .map(|(i, p)| ranking_row::row(i, p, props.calibration.as_ref(), props.like_the_runs));
    let gpus = props.ranking.first().map_or(0, |p| p.gpus);
    html! {
        <table id="ranking" class="ranking">
            <caption>
                if props.by == RankBy::TimeToTrain {
                    { format!("Strategies at {gpus} GPUs, best first (") }<Term id="time-to-train" />{ "). " }
                } else if let Some(what) = cost_order(props.by) {
                    { format!("Strategies at {gpus} GPUs, best first ({what}). ") }
                } else {
                    { format!("Strategies at {gpus} GPUs, best first (time per ") }<Term id="epoch" />{ "). " }
                }
                if props.like_the_runs || props.calibration.is_some() {
                    <small><Term id="track-record" />{ ": how far this edition has typically been from measured runs of that strategy." }</small>
                } else {
                    <small>{ "Beside each time: where the measured time is likely to fall, from published runs of this GPU class and precision." }</small>
                }
            </caption>
            <thead>
                <tr>
                    <th scope="col">{ "#" }</th>
                    <th scope="col">{ "strategy" }</th>
                    <th scope="col">{ "epoch" }</th>
                    <th scope="col"><Term id="time-to-train" /></th>
                    <th scope="col">{ "compute" }</th>
                    <th scope="col">{ "communication" }</th>
                    <th scope="col"><Term id="gpu-hours" /></th>
                    <th scope="col" class="cost">{ "energy" }</th>
                    <th scope="col" class="cost co2">{ "CO2e" }</th>
                    <th scope="col" class="cost">{ "cost" }</th>
                    <th scope="col">{ "memory/" }<wbr />{ "GPU" }</th>
                    <th scope="col"><Term id="feasible" />{ " or " }<Term id="limit" /></th>
                </tr>
            </thead>
            <tbody>{ for rows }</tbody>
        </table>
    }
}
