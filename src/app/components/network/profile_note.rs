//! Says when the network's compute comes from a profiled time, from which
//! GPU, and what it became on this cluster's GPU; for a profile of your
//! own (section 12), the measured step and memory beside the model's.

use yew::prelude::*;

use crate::app::components::AnswerProps;
use crate::oracle::{Edition, Profile, Term, units};

/// The note under the network's origin.
#[function_component(ProfileNote)]
pub fn profile_note(props: &AnswerProps) -> Html {
    let network = props.answer.scenario.network();
    if network.step().is_some() {
        return measured_note(props);
    }
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
    let effect = match (results.edition, scaled) {
        (Edition::Ideal, _) => "The ideal edition uses it as it is, on any GPU.".to_string(),
        (Edition::Realistic, Some(term)) => format!("Scaled to this cluster's GPU: {}.", term.detail()),
        (Edition::Realistic, None) => "Same GPU as this cluster's: used as it is.".to_string(),
    };
    html! {
        <p class="source" id="profile-note">
            { format!("Compute from a profiled time ({per_sample}) measured on {from}. {effect}") }
        </p>
    }
}

/// A profile of your own: where it was measured, and its step and memory
/// beside the model's at its batch on one GPU of this cluster.
fn measured_note(props: &AnswerProps) -> Html {
    let answer = &props.answer;
    let Some(check) = answer.scenario.profile_check(answer.results.edition) else {
        return html! {};
    };
    html! {
        <div class="source" id="profile-note" data-batch={check.batch.to_string()}
            data-measured-step={check.measured_step_s.to_string()} data-projected-step={check.projected_step_s.to_string()}>
            <p class="profile-source"><strong>{ units::capitalised(&check.source()) }</strong>{ "." }</p>
            <p>{ units::capitalised(&check.step_sentence()) }{ "." }</p>
            <p>{ units::capitalised(&check.memory_sentence()) }{ "." }</p>
        </div>
    }
}
