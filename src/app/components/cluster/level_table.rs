//! The switch levels of a cluster, innermost first.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::app::components::use_app;
use crate::app::input::keys::{ClusterKey, Key, LevelColumn};
use crate::app::state::action::{Action, ClusterAction};

/// The switch-level table.
#[function_component(LevelTable)]
pub fn level_table() -> Html {
    let Some(state) = use_app() else {
        return html! {};
    };
    let levels = &state.cluster.base().switch_levels;
    let count = levels.len();
    let cell = |index: usize, column: LevelColumn, disabled: bool, name: &str| {
        let key = ClusterKey::Level(index, column);
        let error = state.error(Key::Cluster(key)).map(str::to_string);
        let oninput = state.callback(move |e: InputEvent| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            Action::Cluster(ClusterAction::Edit(key, text))
        });
        let value = state.cluster.level_text(index, column);
        let label = match column {
            LevelColumn::Span => format!("nodes under one {name} switch"),
            LevelColumn::Latency => format!("latency of a {name} switch in ns"),
        };
        html! {
            <td>
                <input type="text" inputmode="decimal" value={value} {disabled} {oninput} aria-label={label}
                    placeholder={disabled.then_some("all")} aria-invalid={error.is_some().to_string()} />
                if let Some(e) = error { <p class="error" role="alert">{ e }</p> }
            </td>
        }
    };
    let rows = levels.iter().enumerate().map(|(i, level)| {
        let onremove = state.send::<MouseEvent>(Action::Cluster(ClusterAction::RemoveLevel(i)));
        html! {
            <tr>
                <th scope="row">{ &level.name }</th>
                { cell(i, LevelColumn::Span, i + 1 == count, &level.name) }
                { cell(i, LevelColumn::Latency, false, &level.name) }
                <td><button type="button" onclick={onremove} disabled={count == 1} aria-label={format!("Remove the {} level", level.name)}>{ "−" }</button></td>
            </tr>
        }
    });
    let onadd = state.send::<MouseEvent>(Action::Cluster(ClusterAction::AddLevel));
    html! {
        <table class="levels">
            <caption>{ "Switch levels, innermost first (the last spans every node)" }</caption>
            <thead><tr><th>{ "level" }</th><th>{ "nodes under one switch" }</th><th>{ "latency (ns)" }</th><th></th></tr></thead>
            <tbody>{ for rows }</tbody>
            <tfoot><tr><td colspan="4"><button type="button" onclick={onadd}>{ "Add a level" }</button></td></tr></tfoot>
        </table>
    }
}
