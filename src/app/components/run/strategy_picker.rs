//! Which strategies the plots compare.

use yew::prelude::*;

use crate::oracle::Strategy;

/// Props of [`StrategyPicker`].
#[derive(Properties, PartialEq, Clone)]
pub struct StrategyPickerProps {
    /// The chosen strategies.
    pub chosen: Vec<Strategy>,
    /// Shows or hides one.
    pub ontoggle: Callback<Strategy>,
    /// Error (none chosen).
    #[prop_or_default]
    pub error: Option<AttrValue>,
}

/// What a strategy does, in one line.
fn explain(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Serial => "one GPU does everything",
        Strategy::Data => "each GPU takes a share of the samples and a full copy of the weights; gradients are summed",
        Strategy::Spatial => "the early, wide layers are cut along their width; neighbours swap halos",
        Strategy::Pipeline => "consecutive layers on consecutive GPUs, micro-batches in flight",
        Strategy::Filter => "each GPU holds a share of every convolution's filters; layer outputs are gathered",
        Strategy::Channel => "each GPU holds a share of every convolution's input channels; partial sums are reduced",
        Strategy::DataFilter => "filter parallelism inside groups (a node), data parallelism between groups",
        Strategy::DataSpatial => "spatial parallelism inside groups (a node), data parallelism between groups",
    }
}

/// One checkbox per strategy, in its plot colour.
#[function_component(StrategyPicker)]
pub fn strategy_picker(props: &StrategyPickerProps) -> Html {
    let boxes = Strategy::ALL.into_iter().map(|s| {
        let color = crate::app::charts::strategy_color(s);
        let style = format!("border-color: rgb({}, {}, {})", color.0, color.1, color.2);
        let onchange = props.ontoggle.reform(move |_: Event| s);
        html! {
            <label class="strategy" {style} title={explain(s)}>
                <input type="checkbox" name="strategy" value={s.name()} checked={props.chosen.contains(&s)} {onchange} />
                { s.name() }
            </label>
        }
    });
    html! {
        <fieldset class="strategies" id="strategies">
            <legend>{ "Strategies to plot" }</legend>
            { for boxes }
            if let Some(e) = &props.error { <p class="error" role="alert">{ e }</p> }
        </fieldset>
    }
}
