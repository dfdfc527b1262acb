//! `#explain`: where the number the user clicked comes from, as the engine
//! explains it (the UI computes nothing here). Focus moves to the panel
//! when it opens on a number.

use yew::prelude::*;

use crate::app::components::results::explanation_view::ExplanationView;
use crate::app::components::{AnswerProps, use_app};
use crate::app::state::action::{Action, ViewAction};
use crate::oracle::Quantity;

/// The explanation panel (nothing while no number is explained).
#[function_component(ExplainPanel)]
pub fn explain_panel(props: &AnswerProps) -> Html {
    let state = use_app();
    let target = state.as_ref().and_then(|s| s.view.explaining);
    let panel = use_node_ref();
    {
        // focus (and so scroll to) the panel when a number is clicked, not
        // when the page opens on a link that explains one (a lesson's)
        let panel = panel.clone();
        let opened = use_mut_ref(|| target);
        use_effect_with(target, move |target| {
            let clicked = *opened.borrow() != *target;
            *opened.borrow_mut() = *target;
            if clicked
                && target.is_some()
                && let Some(panel) = panel.cast::<web_sys::HtmlElement>()
            {
                let _ = panel.focus();
            }
        });
    }
    let deps = (
        crate::app::components::Same(props.answer.results.clone()),
        crate::app::components::Same(props.answer.scenario.clone()),
        target,
    );
    let explanation = use_memo(
        deps,
        |(crate::app::components::Same(results), crate::app::components::Same(scenario), target)| {
            target.map(|t| {
                let spec = results.template.for_strategy(t.strategy, t.gpus);
                scenario.explain(&spec, t.quantity)
            })
        },
    );
    let (Some(state), Some(target), Some(explanation)) = (state, target, explanation.as_ref()) else {
        return html! {};
    };
    let onclose = state.send::<MouseEvent>(Action::View(ViewAction::CloseExplanation));
    let onexplain = state.callback(move |quantity: Quantity| Action::View(ViewAction::Explain(target.with(quantity))));
    let (title, body) = match explanation {
        Ok(e) => (
            e.title.clone(),
            html! { <ExplanationView explanation={e.clone()} {onexplain} /> },
        ),
        Err(error) => (
            format!(
                "{} of {} at {} GPUs",
                target.quantity.label(),
                target.strategy.label(),
                target.gpus
            ),
            html! { <p class="error" role="alert">{ error.to_string() }</p> },
        ),
    };
    html! {
        <section id="explain" class="explain" ref={panel} tabindex="-1" aria-labelledby="explain-title"
            data-explain={target.key()}>
            <header>
                <h3 id="explain-title">{ "Where this number comes from: " }{ title }</h3>
                <button type="button" class="close" aria-label="Close the explanation" onclick={onclose}>{ "×" }</button>
            </header>
            { body }
        </section>
    }
}
