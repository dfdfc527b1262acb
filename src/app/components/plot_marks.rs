//! The marks over a plot: one focusable element per point or bar, which
//! shows its numbers on focus and, on a click or Enter, picks it (when the
//! plot picks) or explains its number.

use std::rc::Rc;

use yew::prelude::*;

use super::use_app;
use crate::app::charts::{Area, Target};
use crate::app::state::action::{Action, ViewAction};

/// Props of [`PlotMarks`].
#[derive(Properties, PartialEq, Clone)]
pub struct PlotMarksProps {
    /// The marks.
    pub targets: Rc<Vec<Target>>,
    /// Called with a mark's index when it is picked.
    #[prop_or_default]
    pub onpick: Option<Callback<usize>>,
    /// Called with the mark in focus (`None`: none).
    pub onhover: Callback<Option<usize>>,
}

/// The marks.
#[function_component(PlotMarks)]
pub fn plot_marks(props: &PlotMarksProps) -> Html {
    let state = use_app();
    let hovered = props.onhover.clone();
    let marks = props.targets.iter().enumerate().map(|(i, target)| {
        // the keyboard reaches every mark: focus shows its numbers as hover does
        let onfocus = {
            let hovered = hovered.clone();
            Callback::from(move |_: FocusEvent| hovered.emit(Some(i)))
        };
        let onblur = {
            let hovered = hovered.clone();
            Callback::from(move |_: FocusEvent| hovered.emit(None))
        };
        let label = target.lines.first().cloned().unwrap_or_default();
        let title = target.lines.join("\n");
        // a click (or Enter) picks the mark, or explains its number
        let pick = props.onpick.clone().or_else(|| {
            let (state, target) = (state.clone()?, target.explain?);
            Some(state.send::<usize>(Action::View(ViewAction::Explain(target))))
        });
        let onclick = pick.clone().map(|pick| Callback::from(move |_: MouseEvent| pick.emit(i)));
        let onkeydown = pick.clone().map(|pick| {
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" {
                    pick.emit(i);
                }
            })
        });
        let pickable = pick.is_some();
        let explain = target.explain.filter(|_| props.onpick.is_none()).map(|t| t.key());
        match target.area {
            Area::Point { x, y } => html! {
                <circle class={classes!("mark", pickable.then_some("pickable"))} data-index={i.to_string()} data-explain={explain}
                    cx={x.to_string()} cy={y.to_string()} r="9"
                    tabindex="0" role={if pickable { "button" } else { "img" }} aria-label={label}
                    {onfocus} {onblur} {onclick} {onkeydown}><title>{ title }</title></circle>
            },
            Area::Bar { x, y, width, height } => html! {
                <rect class={classes!("mark", pickable.then_some("pickable"))} data-index={i.to_string()} data-explain={explain}
                    x={x.to_string()} y={y.to_string()} width={width.to_string()} height={height.to_string()}
                    tabindex="0" role={if pickable { "button" } else { "img" }} aria-label={label}
                    {onfocus} {onblur} {onclick} {onkeydown}><title>{ title }</title></rect>
            },
        }
    });
    html! { <>{ for marks }</> }
}
