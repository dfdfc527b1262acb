//! Says when the network's compute comes from a profiled time, from which
//! GPU, and what it became on this cluster's GPU.

use yew::prelude::*;

use super::AnswerProps;
use crate::oracle::{Fidelity, Profile, Term, units};

/// The note under the network's origin.
#[function_component(ProfileNote)]
pub fn profile_note(props: &AnswerProps) -> Html {
    let network = props.answer.scenario.network();
    let per_sample = match network.profile() {
        Profile::Flops => return html! {},
        Profile::WholeModel { per_sample_s } => format!("{} per sample", units::seconds(per_sample_s)),
        Profile::PerLayer => "per-layer times".to_string(),
    };
    let from = network.profiled_on().map_or_else(
        || "a GPU it does not record, taken as this cluster's (used as measured)".to_string(),
        |gpu| format!("{} ({})", gpu.name, units::flops(gpu.flops_per_s)),
    );
    let results = &props.answer.results;
    let scaled = results
        .ranking
        .first()
        .and_then(|p| p.terms.iter().find(|t| t.term == Term::ProfileScaling));
    let effect = match (results.fidelity, scaled) {
        (Fidelity::Ideal, _) => "The ideal edition uses it as it is, on any GPU.".to_string(),
        (Fidelity::Realistic, Some(term)) => format!("Scaled to this cluster's GPU: {}.", term.detail()),
        (Fidelity::Realistic, None) => "Same GPU as this cluster's: used as it is.".to_string(),
    };
    html! {
        <p class="source" id="profile-note">
            { format!("Compute from a profiled time ({per_sample}) measured on {from}. {effect}") }
        </p>
    }
}
