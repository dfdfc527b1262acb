//! One editable layer of the layer table.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::app::input::keys::LayerColumn;
use crate::app::results::LayerTotals;
use crate::app::state::action::{Action, ModelAction};
use crate::app::state::model_editor::LayerRow as Row;
use crate::oracle::{LayerKind, units};

/// Props of [`LayerRow`].
#[derive(Properties, PartialEq, Clone)]
pub struct LayerRowProps {
    /// Position.
    pub index: usize,
    /// The cells.
    pub row: Row,
    /// Totals of the last valid network, if it has this layer.
    pub totals: Option<LayerTotals>,
    /// How the layer shares its weights, in words ("shared with 4 other
    /// layers"); empty when they are its own alone.
    #[prop_or_default]
    pub sharing: String,
    /// Errors of this row by column.
    pub errors: Vec<(LayerColumn, String)>,
    /// Sends edits.
    pub dispatch: Callback<Action>,
}

/// A row: name, kind, shapes, time, totals and the row's buttons.
#[function_component(LayerRow)]
pub fn layer_row(props: &LayerRowProps) -> Html {
    let index = props.index;
    let cell = |column: LayerColumn, value: &str, label: &str| {
        let error = props.errors.iter().find(|(c, _)| *c == column).map(|(_, e)| e.clone());
        let dispatch = props.dispatch.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            dispatch.emit(Action::Model(ModelAction::Edit(
                index,
                column,
                e.target_unchecked_into::<HtmlInputElement>().value(),
            )))
        });
        html! {
            <td class={classes!(error.is_some().then_some("invalid"))}>
                <input type="text" value={value.to_string()} aria-label={format!("{label} of layer {index}")}
                    aria-invalid={error.is_some().to_string()} title={error} {oninput} />
            </td>
        }
    };
    let onkind = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            if let Ok(kind) = e
                .target_unchecked_into::<HtmlSelectElement>()
                .value()
                .parse::<LayerKind>()
            {
                dispatch.emit(Action::Model(ModelAction::Kind(index, kind)));
            }
        })
    };
    let button = |label: &'static str, title: &'static str, action: Action| {
        let dispatch = props.dispatch.clone();
        html! { <button type="button" {title} aria-label={title} onclick={Callback::from(move |_: MouseEvent| dispatch.emit(action.clone()))}>{ label }</button> }
    };
    let totals = props.totals.map_or_else(
        || html! { <><td class="num">{ "–" }</td><td class="num">{ "–" }</td><td class="num">{ "–" }</td></> },
        |t| {
            let sharing =
                (!props.sharing.is_empty()).then(|| html! { <small class="sharing">{ &props.sharing }</small> });
            html! { <>
                <td class="num">{ units::significant(t.parameters, 4) }{ for sharing }</td>
                <td class="num">{ units::significant(t.activations, 4) }</td>
                <td class="num">{ units::significant(t.flops / 1e9, 4) }</td>
            </> }
        },
    );
    let r = &props.row;
    html! {
        <tr>
            <td class="num">{ index }</td>
            { cell(LayerColumn::Name, &r.name, "name") }
            <td><select aria-label={format!("kind of layer {index}")} onchange={onkind}>
                { for LayerKind::ALL.iter().map(|k| html! { <option value={k.name()} selected={*k == r.kind}>{ k.name() }</option> }) }
            </select></td>
            { cell(LayerColumn::X, &r.x, "input shape") }
            { cell(LayerColumn::W, &r.w, "weight shape") }
            { cell(LayerColumn::Y, &r.y, "output shape") }
            { cell(LayerColumn::Groups, &r.groups, "groups") }
            { cell(LayerColumn::Time, &r.time, "time") }
            { totals }
            <td class="row-actions">
                { button("↑", "Move up", Action::Model(ModelAction::Move(index, true))) }
                { button("↓", "Move down", Action::Model(ModelAction::Move(index, false))) }
                { button("+", "Insert a layer below", Action::Model(ModelAction::Insert(index))) }
                { button("−", "Remove this layer", Action::Model(ModelAction::Remove(index))) }
            </td>
        </tr>
    }
}
