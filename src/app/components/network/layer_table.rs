//! The network's layers, editable, with per-layer totals. Only the rows in
//! view are rendered (the table scrolls inside a box of fixed height), so
//! that a network of tens of thousands of layers opens and edits as fast as
//! a small one; every layer error is listed above the table.

use web_sys::HtmlElement;
use yew::prelude::*;

use crate::app::components::AppContext;
use crate::app::components::network::layer_row::LayerRow;
use crate::app::input::keys::{Key, LayerColumn};
use crate::app::state::action::Action;
use crate::oracle::units;

/// Height of one row in CSS pixels (`.layers tr` in the style sheet).
pub const ROW_HEIGHT_PX: usize = 34;
/// Height of the scrolling box in CSS pixels (`.layer-scroll`).
pub const VIEW_HEIGHT_PX: usize = 440;
/// Rows rendered above and below those in view.
const OVERSCAN: usize = 8;

/// The rows to render for a scroll position: `first..end`.
pub fn window(scroll_top_px: usize, rows: usize) -> std::ops::Range<usize> {
    let first = (scroll_top_px / ROW_HEIGHT_PX).saturating_sub(OVERSCAN).min(rows);
    let end = (first + VIEW_HEIGHT_PX / ROW_HEIGHT_PX + 2 * OVERSCAN).min(rows);
    first..end
}

/// The layer table, folded until opened.
#[function_component(LayerTable)]
pub fn layer_table() -> Html {
    let open = use_state(|| false);
    let scroll_top = use_state(|| 0usize);
    let context = use_context::<AppContext>();
    let dispatcher = context.as_ref().map(|s| s.dispatcher());
    // one callback for the table's lifetime, so that unchanged rows are not re-rendered
    let dispatch = use_callback(dispatcher, |action: Action, dispatcher| {
        if let Some(d) = dispatcher {
            d.dispatch(action)
        }
    });
    let Some(state) = context else {
        return html! {};
    };
    let rows = state.model.len();
    // a layer named in a sentence: the table opens, scrolled to its row, in view
    {
        let (open, scroll_top) = (open.clone(), scroll_top.clone());
        use_effect_with(state.shown_layer, move |shown| {
            let pending = shown.map(|(index, _)| {
                open.set(true);
                let top = index * ROW_HEIGHT_PX;
                scroll_top.set(top);
                crate::app::page::browser::after_paint(move || {
                    let document = gloo::utils::document();
                    if let Some(scroll) = document.query_selector(".layer-scroll").ok().flatten() {
                        scroll.set_scroll_top(i32::try_from(top).unwrap_or(i32::MAX));
                    }
                    if let Some(table) = document.query_selector(".layer-table").ok().flatten() {
                        crate::app::page::browser::bring_to_top(&table);
                    }
                })
            });
            // kept until the next layer is asked for (dropping it cancels the scroll)
            move || drop(pending)
        });
    }
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            open.set(!*open)
        })
    };
    let network = state.answer.as_ref().map(|a| a.scenario.network());
    let summary = match network {
        Some(n) => format!(
            "Layers: {} layers, {} parameters, {} activations per sample, {} GFLOPs forward per sample",
            n.layers().len(),
            units::significant(n.weight_items(), 4),
            units::significant(n.activation_items(), 4),
            units::significant(n.forward_flops() / 1e9, 4)
        ),
        None => format!("Layers: {rows}"),
    };
    let layer_errors: Vec<(usize, LayerColumn, String)> = state
        .errors
        .range(Key::Layer(0, LayerColumn::Name)..=Key::Layer(usize::MAX, LayerColumn::Groups))
        .filter_map(|(k, v)| match k {
            Key::Layer(row, column) => Some((*row, *column, v.clone())),
            _ => None,
        })
        .collect();
    let body = (*open).then(|| {
        let visible = window(*scroll_top, rows);
        let onscroll = {
            let scroll_top = scroll_top.clone();
            Callback::from(move |e: Event| {
                let top = e.target_unchecked_into::<HtmlElement>().scroll_top();
                scroll_top.set(usize::try_from(top).unwrap_or(0));
            })
        };
        let same_network = network.filter(|n| n.layers().len() == rows);
        let rendered = visible.clone().filter_map(|i| {
            let row = (i < rows).then(|| state.model.row(i))?;
            let errors: Vec<(LayerColumn, String)> = layer_errors
                .iter()
                .filter(|(r, _, _)| *r == i)
                .map(|(_, c, m)| (*c, m.clone()))
                .collect();
            let totals = same_network.and_then(|n| n.layers().get(i)).map(|l| crate::app::results::LayerTotals {
                parameters: l.own_weight_items(),
                activations: l.activation_items(),
                flops: l.forward_flops(),
            });
            let sharing = same_network.map(|n| crate::oracle::weight_sharing(n, i)).unwrap_or_default();
            Some(html! { <LayerRow key={i} index={i} {row} {totals} {sharing} {errors} dispatch={dispatch.clone()} /> })
        });
        let above = visible.start * ROW_HEIGHT_PX;
        let below = rows.saturating_sub(visible.end) * ROW_HEIGHT_PX;
        html! {
            <div class="layer-scroll" {onscroll} style={format!("max-height: {VIEW_HEIGHT_PX}px; overflow-y: auto")}>
                <table class="layers" id="layers" aria-rowcount={(rows + 1).to_string()}>
                    <thead><tr>
                        <th>{ "#" }</th><th>{ "name" }</th><th>{ "kind" }</th><th>{ "input x" }</th><th>{ "weights w" }</th>
                        <th>{ "output y" }</th><th>{ "groups" }</th><th>{ "time (s/sample)" }</th><th>{ "params" }</th><th>{ "activations" }</th>
                        <th>{ "GFLOPs" }</th><th></th>
                    </tr></thead>
                    <tbody>
                        <tr class="spacer" aria-hidden="true" style={format!("height: {above}px")}></tr>
                        { for rendered }
                        <tr class="spacer" aria-hidden="true" style={format!("height: {below}px")}></tr>
                    </tbody>
                </table>
            </div>
        }
    });
    let count = layer_errors.len();
    html! {
        <details class="layer-table" open={*open}>
            <summary onclick={ontoggle}>
                { summary }
                if count > 0 { <span class="error" role="alert">{ format!(" — {count} layer {}", if count == 1 { "error" } else { "errors" }) }</span> }
            </summary>
            if *open && count > 0 {
                <ul class="layer-errors" id="layer-errors">
                    { for layer_errors.iter().take(20).map(|(row, column, message)| html! {
                        <li class="error">{ format!("Layer {row}, {}: {message}", column.key()) }</li>
                    }) }
                </ul>
            }
            { for body }
        </details>
    }
}

#[cfg(test)]
mod tests {
    use crate::app::components::network::layer_table::*;

    #[test]
    fn the_window_covers_the_rows_in_view_and_a_margin() {
        assert_eq!(window(0, 1000), 0..(VIEW_HEIGHT_PX / ROW_HEIGHT_PX + 2 * OVERSCAN));
        let w = window(100 * ROW_HEIGHT_PX, 1000);
        assert_eq!(w.start, 100 - OVERSCAN);
        assert!(w.contains(&100) && w.contains(&(100 + VIEW_HEIGHT_PX / ROW_HEIGHT_PX)));
        assert_eq!(window(0, 5), 0..5);
        assert_eq!(window(1_000_000, 10), 10..10);
    }
}
