//! `#explain`: where the number the user clicked comes from, as the engine
//! explains it (the UI computes nothing here). Focus moves to the panel
//! when it opens on a number.

use yew::prelude::*;

use super::AppContext;
use super::ViewProps;
use super::explanation_view::ExplanationView;
use crate::app::state::Action;
use crate::oracle::Quantity;

/// The explanation panel (nothing while no number is explained).
#[function_component(ExplainPanel)]
pub fn explain_panel(props: &ViewProps) -> Html {
    let state = use_context::<AppContext>();
    let target = state.as_ref().and_then(|s| s.run.explaining);
    let panel = use_node_ref();
    {
        let panel = panel.clone();
        use_effect_with(target, move |target| {
            if target.is_some()
                && let Some(panel) = panel.cast::<web_sys::HtmlElement>()
            {
                let _ = panel.focus();
            }
        });
    }
    let explanation = use_memo((props.clone(), target), |(props, target)| {
        target.map(|t| {
            let spec = props.view.results.template.for_strategy(t.strategy, t.gpus);
            props.view.scenario.explain(&spec, t.quantity)
        })
    });
    let (Some(state), Some(target), Some(explanation)) = (state, target, explanation.as_ref()) else {
        return html! {};
    };
    let onclose = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::CloseExplanation))
    };
    let onexplain = {
        let state = state.clone();
        Callback::from(move |quantity: Quantity| state.dispatch(Action::Explain(target.with(quantity))))
    };
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
