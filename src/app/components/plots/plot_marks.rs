//! The marks over a plot: one focusable element per point or bar, which
//! shows its numbers on focus and, on a click or Enter, picks it (when the
//! plot picks) or explains its number. The marks are written as SVG text
//! and listened to once, on their group (a plot has a hundred marks: a
//! hundred components, each with four listeners, made a phone's first
//! render slower).

use std::fmt::Write;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::app::charts::{Area, Target, escape};
use crate::app::components::use_app;
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

/// The marks as SVG: `pickable` says which can be picked or explained,
/// `explain` which carry the key of the number they explain. A mark's
/// numbers are shown by the plot's tooltip (a live region) on hover and
/// focus, so the marks carry no `<title>` (a second, native tooltip, and a
/// hundred elements more to parse).
fn marks_svg(
    targets: &[Target],
    pickable: impl Fn(&Target) -> bool,
    explain: impl Fn(&Target) -> Option<String>,
) -> String {
    let mut svg = String::new();
    for (i, target) in targets.iter().enumerate() {
        let can = pickable(target);
        let class = if can { "mark pickable" } else { "mark" };
        let role = if can { "button" } else { "img" };
        let key = explain(target).map_or(String::new(), |k| format!(" data-explain=\"{}\"", escape(&k)));
        let label = escape(target.lines.first().map_or("", String::as_str));
        let common =
            format!("class=\"{class}\" data-index=\"{i}\"{key} tabindex=\"0\" role=\"{role}\" aria-label=\"{label}\"");
        let _ = match target.area {
            Area::Point { x, y } => write!(svg, "<circle {common} cx=\"{x}\" cy=\"{y}\" r=\"9\"/>"),
            Area::Bar { x, y, width, height } => write!(
                svg,
                "<rect {common} x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\"/>"
            ),
        };
    }
    svg
}

/// The index of the mark an event happened on, if any.
fn index_of(event: &Event) -> Option<usize> {
    let element = event.target()?.dyn_into::<web_sys::Element>().ok()?;
    element
        .closest("[data-index]")
        .ok()??
        .get_attribute("data-index")?
        .parse()
        .ok()
}

/// The marks.
#[function_component(PlotMarks)]
pub fn plot_marks(props: &PlotMarksProps) -> Html {
    let state = use_app();
    let targets = Rc::clone(&props.targets);
    // a click (or Enter) picks the mark, or explains its number
    let pick = {
        let (onpick, state, targets) = (props.onpick.clone(), state.clone(), Rc::clone(&targets));
        Callback::from(move |i: usize| match &onpick {
            Some(pick) => pick.emit(i),
            None => {
                if let (Some(state), Some(target)) = (&state, targets.get(i).and_then(|t| t.explain)) {
                    state.dispatch(Action::View(ViewAction::Explain(target)));
                }
            }
        })
    };
    let svg = use_memo(
        (Rc::clone(&targets), props.onpick.is_some(), state.is_some()),
        |(targets, picks, explains)| {
            let (picks, explains) = (*picks, *explains);
            marks_svg(
                targets,
                |t| picks || (explains && t.explain.is_some()),
                |t| t.explain.filter(|_| !picks).map(|e| e.key()),
            )
        },
    );
    let onclick = {
        let pick = pick.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(i) = index_of(&e) {
                pick.emit(i);
            }
        })
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter"
            && let Some(i) = index_of(&e)
        {
            pick.emit(i);
        }
    });
    // the keyboard reaches every mark: focus shows its numbers as hover does
    let onfocusin = {
        let hovered = props.onhover.clone();
        Callback::from(move |e: FocusEvent| hovered.emit(index_of(&e)))
    };
    let onfocusout = {
        let hovered = props.onhover.clone();
        Callback::from(move |_: FocusEvent| hovered.emit(None))
    };
    html! {
        <g class="marks" {onclick} {onkeydown} {onfocusin} {onfocusout}>
            { Html::from_html_unchecked(AttrValue::from((*svg).clone())) }
        </g>
    }
}
