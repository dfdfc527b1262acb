//! The network's layers, editable, with per-layer totals.

use yew::prelude::*;

use super::AppContext;
use super::layer_row::LayerRow;
use crate::oracle::units;

/// The layer table, folded until opened.
#[function_component(LayerTable)]
pub fn layer_table() -> Html {
    let open = use_state(|| false);
    let Some(state) = use_context::<AppContext>() else {
        return html! {};
    };
    let rows = &state.model.rows;
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            open.set(!*open)
        })
    };
    let network = state.view.as_ref().map(|v| v.scenario.network().clone());
    let summary = match &network {
        Some(n) => format!(
            "Layers: {} layers, {} parameters, {} activations per sample, {} GFLOPs forward per sample",
            n.layers().len(),
            units::significant(n.weight_items(), 4),
            units::significant(n.activation_items(), 4),
            units::significant(n.forward_flops() / 1e9, 4)
        ),
        None => format!("Layers: {}", rows.len()),
    };
    let body = (*open).then(|| {
        let totals = state
            .view
            .as_ref()
            .map(|v| v.results.layers.clone())
            .unwrap_or_default();
        let same_shape = totals.len() == rows.len();
        let dispatch = {
            let state = state.clone();
            Callback::from(move |a| state.dispatch(a))
        };
        html! {
            <table class="layers" id="layers">
                <thead><tr>
                    <th>{ "#" }</th><th>{ "name" }</th><th>{ "kind" }</th><th>{ "input x" }</th><th>{ "weights w" }</th>
                    <th>{ "output y" }</th><th>{ "time (s/sample)" }</th><th>{ "params" }</th><th>{ "activations" }</th>
                    <th>{ "GFLOPs" }</th><th></th>
                </tr></thead>
                <tbody>
                    { for rows.iter().enumerate().map(|(i, row)| {
                        let prefix = format!("model.layers[{i}].");
                        let errors: Vec<(String, String)> = state.errors.iter()
                            .filter(|(k, _)| k.starts_with(&prefix))
                            .map(|(k, v)| (k.clone(), v.clone())).collect();
                        html! { <LayerRow index={i} row={row.clone()} totals={same_shape.then(|| totals[i])}
                            {errors} dispatch={dispatch.clone()} /> }
                    }) }
                </tbody>
            </table>
        }
    });
    let layer_errors = state.errors.keys().filter(|k| k.starts_with("model.layers[")).count();
    html! {
        <details class="layer-table" open={*open}>
            <summary onclick={ontoggle}>
                { summary }
                if layer_errors > 0 { <span class="error" role="alert">{ format!(" — {layer_errors} layer error(s)") }</span> }
            </summary>
            { for body }
        </details>
    }
}
