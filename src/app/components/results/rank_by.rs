//! `#rank-by`: what the ranking calls best, the shortest epoch or the
//! shortest time to train (contract, section 13).

use yew::prelude::*;

use crate::app::components::run::run_field::run_choice;
use crate::app::components::use_app;
use crate::app::input::keys::RunKey;

/// The ranking's order, as a choice above it.
#[function_component(RankByChoice)]
pub fn rank_by_choice() -> Html {
    let Some(app) = use_app() else {
        return html! {};
    };
    html! {
        <div class="rank-by">
            { run_choice(&app, RunKey::RankBy, vec![
                ("epoch".into(), "time per epoch".into()),
                ("train".into(), "time to train (epochs grow with the global batch)".into()),
            ]) }
        </div>
    }
}
