//! A plot on the page: the SVG drawn by plotters, an overlay that shows a
//! mark's numbers on hover, and PNG and SVG downloads.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::charts::{Area, ChartError, Drawn, REACH, WIDTH, nearest, titled};
use crate::app::components::plots::plot_marks::PlotMarks;
use crate::app::page::browser;

/// Props of [`PlotFrame`].
#[derive(Properties, PartialEq, Clone)]
pub struct PlotFrameProps {
    /// The figure's id (`scaling-plot`, ...).
    pub id: AttrValue,
    /// Caption.
    pub title: AttrValue,
    /// One sentence saying what the plot shows (also its accessible name).
    pub summary: AttrValue,
    /// The drawing.
    pub drawn: Rc<Result<Drawn, ChartError>>,
    /// Called with a mark's index when it is clicked (or Enter pressed on
    /// it); marks are then focusable buttons.
    #[prop_or_default]
    pub onpick: Option<Callback<usize>>,
    /// What an exported PNG or SVG says above the plot (what it shows and
    /// the link that reproduces it); none: the plot alone.
    #[prop_or_default]
    pub caption: Rc<Vec<String>>,
    /// What goes under the plot and its downloads: inputs of the view (the
    /// GPU range) or what it shows in words (the largest batches that fit),
    /// under it so that the plot keeps its place on a short screen.
    #[prop_or_default]
    pub controls: Html,
}

/// The figure.
#[function_component(PlotFrame)]
pub fn plot_frame(props: &PlotFrameProps) -> Html {
    let hovered = use_state(|| None::<usize>);
    let overlay = use_node_ref();
    let drawn = match props.drawn.as_ref() {
        Ok(drawn) if !drawn.svg.is_empty() => drawn,
        Ok(_) => return frame(props, html! { <p class="quiet">{ "Nothing to draw." }</p> }),
        Err(e) => return frame(props, html! { <p class="error" role="alert">{ e.to_string() }</p> }),
    };
    // the pointer shows the numbers of the nearest mark (marks may overlap)
    let onmove = {
        let (hovered, targets, overlay) = (hovered.clone(), drawn.targets.clone(), overlay.clone());
        let (width, height) = (drawn.width, drawn.height);
        Callback::from(move |e: MouseEvent| {
            let Some(area) = overlay.cast::<web_sys::Element>() else {
                return;
            };
            let rect = area.get_bounding_client_rect();
            if rect.width() <= 0.0 || rect.height() <= 0.0 {
                return;
            }
            let x = (f64::from(e.client_x()) - rect.left()) / rect.width() * f64::from(width);
            let y = (f64::from(e.client_y()) - rect.top()) / rect.height() * f64::from(height);
            let found = nearest(&targets, x, y, REACH);
            if *hovered != found {
                hovered.set(found);
            }
        })
    };
    let onleave = {
        let hovered = hovered.clone();
        Callback::from(move |_: MouseEvent| hovered.set(None))
    };
    let onhover = {
        let hovered = hovered.clone();
        Callback::from(move |i: Option<usize>| hovered.set(i))
    };
    let marks =
        html! { <PlotMarks targets={Rc::new(drawn.targets.clone())} onpick={props.onpick.clone()} {onhover} /> };
    let hovered_target = (*hovered).and_then(|i| drawn.targets.get(i));
    let (style, below, lines) = hovered_target.map_or((String::new(), false, Vec::new()), |target| {
        let (x, y) = match target.area {
            Area::Point { x, y } => (x, y),
            Area::Bar { x, y, width, .. } => (x + width / 2, y),
        };
        let left = f64::from(x) / f64::from(drawn.width) * 100.0;
        let horizontal = if left > 50.0 {
            format!("right: {:.1}%", 100.0 - left)
        } else {
            format!("left: {left:.1}%")
        };
        let top = f64::from(y) / f64::from(drawn.height) * 100.0;
        (
            format!("{horizontal}; top: {top:.1}%;"),
            // near the top the numbers go below the mark, inside the figure
            top < 30.0,
            target
                .lines
                .iter()
                .cloned()
                .chain(
                    target
                        .explain
                        .filter(|_| props.onpick.is_none())
                        .map(|_| "Click or press Enter: where this comes from".to_string()),
                )
                .collect::<Vec<_>>(),
        )
    });
    let tooltip = html! {
        <div class={classes!("tooltip", below.then_some("below"))} role="status" hidden={hovered_target.is_none()} {style}>
            { for lines.iter().map(|l| html! { <div>{ l }</div> }) }
        </div>
    };
    let stem = props.id.to_string();
    let onsvg = {
        let (drawn, caption, stem) = (drawn.clone(), Rc::clone(&props.caption), stem.clone());
        Callback::from(move |_: MouseEvent| {
            let (svg, _) = titled(&drawn, &caption);
            let _ = browser::download_text(&format!("{stem}.svg"), "image/svg+xml", &svg);
        })
    };
    let onpng = {
        let (drawn, caption) = (drawn.clone(), Rc::clone(&props.caption));
        Callback::from(move |_: MouseEvent| {
            let (svg, height) = titled(&drawn, &caption);
            let width = drawn.width;
            let _ = browser::download_png(&format!("{stem}.png"), &svg, width, height);
        })
    };
    let body = html! {
        <>
            // a group of marks, each reachable by the keyboard (an image could hold none)
            // drawn at its full size so that its text stays 12 px or more: a phone's drawing is
            // narrow, a wide one on a narrower screen scrolls sideways
            <div class="plot-scroll">
                <div class={classes!("plot-area", (drawn.width < WIDTH).then_some("narrow"))} role="group" aria-label={props.summary.clone()}>
                    { Html::from_html_unchecked(drawn.svg.clone().into()) }
                    <svg class="overlay" ref={overlay} viewBox={format!("0 0 {} {}", drawn.width, drawn.height)} preserveAspectRatio="xMidYMid meet"
                        onmousemove={onmove} onmouseleave={onleave}>{ marks }</svg>
                    { tooltip }
                </div>
            </div>
            if drawn.width >= WIDTH { <p class="plot-scroll-hint quiet">{ "⇆ scroll the plot sideways" }</p> }
            <div class="plot-actions">
                <button type="button" class="download-png" onclick={onpng}
                    aria-label={format!("Download the {} plot as PNG", props.title.to_lowercase())}>{ "PNG" }</button>
                <button type="button" class="download-svg" onclick={onsvg}
                    aria-label={format!("Download the {} plot as SVG", props.title.to_lowercase())}>{ "SVG" }</button>
            </div>
        </>
    };
    frame(props, body)
}

fn frame(props: &PlotFrameProps, body: Html) -> Html {
    html! {
        <figure id={props.id.clone()} class="plot">
            <figcaption><strong>{ &props.title }</strong>{ " " }<span class="quiet">{ &props.summary }</span></figcaption>
            { body }
            { props.controls.clone() }
        </figure>
    }
}
