//! `#plan`: the planner. Opened, it searches every configuration up to a
//! GPU budget in a Web Worker (cancelled and restarted when an input
//! changes), shows its progress, then the Pareto front as a plot and the
//! best ten as a table; picking one shows it in the main view.

use std::rc::Rc;

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

use crate::app::components::page::number_field::NumberField;
use crate::app::components::page::select_field::select;
use crate::app::components::planner::plan_plot::PlanPlot;
use crate::app::components::planner::plan_table::PlanTable;
use crate::app::components::{AnswerProps, use_app};
use crate::app::input::keys::Key;
use crate::app::input::view::PlanView;
use crate::app::planner::client::{Status, use_planner};
use crate::app::planner::protocol::Request;
use crate::app::results::Results;
use crate::app::state::action::{Action, RunAction, ViewAction};
use crate::oracle::Scenario;
use crate::oracle::{Config, Objective};

/// What the status line says.
fn status_line(status: &Status) -> Html {
    match status {
        Status::Off => html! {},
        Status::Starting => {
            html! { <p id="plan-status" class="quiet" data-state="starting">{ "Starting the search…" }</p> }
        }
        Status::Running { done, total } => html! {
            <p id="plan-status" class="quiet" data-state="running">
                <progress max={total.to_string()} value={done.to_string()} />
                { format!(" {done} of {total} configurations") }
            </p>
        },
        Status::Done(plan) => html! {
            <p id="plan-status" data-state="done" data-evaluated={plan.evaluated.to_string()}>
                { format!(
                    "{} configurations projected, {} feasible, {} on the front ({} invalid runs, {} skipped: more GPUs than the cluster has).",
                    plan.evaluated, plan.feasible, plan.front.len(), plan.invalid, plan.skipped
                ) }
            </p>
        },
        Status::Failed(message) => {
            html! { <p id="plan-status" class="error" role="alert" data-state="failed">{ message }</p> }
        }
    }
}

/// What the search depends on: the question's results on its scenario
/// (the same values while only the view changes) and the planner's view.
#[derive(Clone)]
struct Asked(Rc<Scenario>, Rc<Results>, PlanView);

impl PartialEq for Asked {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) && Rc::ptr_eq(&self.1, &other.1) && self.2 == other.2
    }
}

/// The planner panel.
#[function_component(PlanPanel)]
pub fn plan_panel(props: &AnswerProps) -> Html {
    let state = use_app();
    let answer = &props.answer;
    let asked = Asked(
        Rc::clone(&answer.scenario),
        Rc::clone(&answer.results),
        // the memory budget filters the search's front: it starts no search
        PlanView {
            memory_bytes: None,
            max_usd: None,
            ..answer.view().plan.clone()
        },
    );
    let request = use_memo(asked, |Asked(scenario, results, plan)| {
        plan.open.then(|| {
            // the run's GPU budget unless the planner is given its own
            let budget = plan.gpus.unwrap_or(results.gpus);
            Rc::new(Request::new(scenario, &results.template, budget, plan.objective))
        })
    });
    let status = use_planner((*request).clone());
    let Some(state) = state else {
        return html! {};
    };
    let open = state.view.plan.open;
    let ontoggle = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let now = e.target_unchecked_into::<HtmlDetailsElement>().open();
            if now != open {
                state.dispatch(Action::View(ViewAction::OpenPlan(now)));
            }
        })
    };
    let onbudget = state.callback(|text| Action::View(ViewAction::PlanGpus(text)));
    let onobjective = state.callback(|o| Action::View(ViewAction::PlanObjective(o)));
    let onmemory = state.callback(|text| Action::View(ViewAction::PlanMemory(text)));
    let onusd = state.callback(|text| Action::View(ViewAction::PlanUsd(text)));
    let onpick = state.callback(|c: Config| Action::Run(RunAction::Load(Box::new(c))));
    let objectives = Objective::ALL
        .map(|o| (o, o.name().to_string(), o.label().to_string()))
        .to_vec();
    // within the memory and money budgets (the engine's filter of the front: no search again)
    let view = &answer.view().plan;
    let status = match (status, view.memory_bytes, view.max_usd) {
        (Status::Done(plan), bytes, usd) if bytes.is_some() || usd.is_some() => {
            let plan = bytes.map_or_else(|| (*plan).clone(), |b| plan.within_memory(b));
            Status::Done(Rc::new(usd.map_or(plan.clone(), |u| plan.within(Objective::Money, u))))
        }
        (status, ..) => status,
    };
    let capacity_bytes = answer.view().plan.memory_bytes.unwrap_or(answer.results.capacity_bytes);
    let results = match &status {
        Status::Done(plan) if plan.front.is_empty() => html! {
            <p class="quiet" id="plan-none">{ format!(
                "No configuration fits in {} per GPU{}: try a smaller batch, more GPUs, another precision or a larger budget.",
                crate::oracle::units::bytes(capacity_bytes),
                view.max_usd.map_or_else(String::new, |u| format!(" for {} or less", crate::oracle::units::dollars(u)))
            ) }</p>
        },
        Status::Done(plan) => html! {
            <>
                <PlanPlot plan={Rc::clone(plan)} {capacity_bytes} onpick={onpick.clone()}
                    caption={crate::app::components::caption(answer, "Pareto front of the planner")} />
                <PlanTable plan={Rc::clone(plan)} {onpick} />
            </>
        },
        _ => html! {},
    };
    let budget = answer.results.gpus;
    html! {
        <details id="plan" class="plan" {open} {ontoggle}>
            <summary><h3>{ "Plan: search every configuration" }</h3></summary>
            <p class="source">{ "Every strategy, GPU count (powers of two and whole nodes), group size, pipeline segment count, ZeRO stage and recompute setting up to the budget, with this view's batch, precision, optimizer, edition and calibration; the front keeps the configurations no other beats at once in epoch time, GPU-hours, memory per GPU, and time, energy and money to train. It runs beside the page; changing an input restarts it." }</p>
            <div class="row">
                <NumberField id="plan-gpus" label="Budget" unit="GPUs" value={state.plan_gpus.clone()}
                    placeholder={format!("{budget} (the run's)")}
                    error={state.error(Key::PlanGpus).map(AttrValue::from)} oninput={onbudget} />
                <NumberField id="plan-memory" label="Memory per GPU at most" unit="GB" value={state.plan_memory.clone()}
                    placeholder={format!("{} (the GPU's)", crate::oracle::units::significant(answer.results.capacity_bytes / 1e9, 3))}
                    error={state.error(Key::PlanMemory).map(AttrValue::from)} oninput={onmemory} />
                <NumberField id="plan-usd" label="Money to train at most" unit="$" value={state.plan_usd.clone()}
                    placeholder="no bound" error={state.error(Key::PlanUsd).map(AttrValue::from)} oninput={onusd} />
                { select("plan-objective", "Best by", objectives, state.view.plan.objective, onobjective) }
            </div>
            { status_line(&status) }
            { results }
        </details>
    }
}
