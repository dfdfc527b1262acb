//! Component tests in headless Chromium (wasm-bindgen-test): each mounts a
//! component, drives it with DOM events and reads the DOM back.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use paradl::app::charts::{Area, Drawn, Target};
use paradl::app::components::app::{App, AppProps};
use paradl::app::components::number_field::{NumberField, NumberFieldProps};
use paradl::app::components::plot_frame::{PlotFrame, PlotFrameProps};
use paradl::app::components::ranking_table::{RankingTable, RankingTableProps};
use paradl::app::state::AppState;
use paradl::app::state::inputs::Inputs;
use paradl::oracle::{Batch, RankBy, RunSpec, Strategy, presets};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, HtmlInputElement, HtmlSelectElement, MouseEvent};
use yew::{AttrValue, BaseComponent, Callback, Renderer};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("a document")
}

fn mount<C: BaseComponent>(props: C::Properties) -> Element {
    let root = document().create_element("div").expect("a div");
    document()
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("appended");
    Renderer::<C>::with_root_and_props(root.clone(), props).render();
    root
}

async fn settle() {
    gloo_timers::future::TimeoutFuture::new(30).await;
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no {selector}"))
}

fn count(root: &Element, selector: &str) -> u32 {
    root.query_selector_all(selector).map(|l| l.length()).unwrap_or(0)
}

fn type_into(input: &Element, text: &str) {
    let input: HtmlInputElement = input.clone().dyn_into().expect("an input");
    input.set_value(text);
    input
        .dispatch_event(&Event::new("input").expect("event"))
        .expect("dispatched");
}

#[wasm_bindgen_test]
async fn number_field_shows_its_error_as_an_alert() {
    let typed = Rc::new(std::cell::RefCell::new(String::new()));
    let sink = typed.clone();
    let root = mount::<NumberField>(NumberFieldProps {
        id: "gpus".into(),
        label: "GPU budget".into(),
        unit: "GPUs".into(),
        value: "0".into(),
        placeholder: AttrValue::default(),
        error: Some("Must be at least 1, found 0".into()),
        oninput: Callback::from(move |t: String| *sink.borrow_mut() = t),
    });
    settle().await;
    let alert = find(&root, "[role=alert]");
    assert_eq!(alert.text_content().unwrap_or_default(), "Must be at least 1, found 0");
    let input = find(&root, "#gpus");
    assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(input.get_attribute("aria-describedby").as_deref(), Some("gpus-error"));
    type_into(&input, "128");
    assert_eq!(*typed.borrow(), "128");
}

#[wasm_bindgen_test]
async fn ranking_rows_carry_the_engines_numbers() {
    let scenario = presets::scenario("vgg16", "abci").expect("preset");
    let ranking = scenario
        .rank(
            &RunSpec::new(Strategy::Data, 32, Batch::SamplesPerGpu(16.0)),
            RankBy::Time,
        )
        .points;
    let root = mount::<RankingTable>(RankingTableProps {
        ranking: ranking.clone(),
    });
    settle().await;
    assert_eq!(count(&root, "#ranking tbody tr"), ranking.len() as u32);
    let rows = root.query_selector_all("#ranking tbody tr").expect("rows");
    for (i, p) in ranking.iter().enumerate() {
        let row: Element = rows.get(i as u32).expect("row").dyn_into().expect("element");
        assert_eq!(row.get_attribute("data-strategy").as_deref(), Some(p.strategy.name()));
        let total: f64 = row
            .get_attribute("data-total-s")
            .unwrap_or_default()
            .parse()
            .expect("number");
        assert_eq!(total, p.total_s);
        let memory: f64 = row
            .get_attribute("data-memory-bytes")
            .unwrap_or_default()
            .parse()
            .expect("number");
        assert_eq!(memory, p.memory_bytes);
        assert_eq!(row.get_attribute("data-feasible"), Some(p.feasible.to_string()));
    }
}

#[wasm_bindgen_test]
async fn plot_frame_shows_numbers_on_hover() {
    let drawn = Drawn {
        svg: r#"<svg xmlns="http://www.w3.org/2000/svg" width="760" height="430" viewBox="0 0 760 430"><rect width="760" height="430" fill="white"/></svg>"#.into(),
        targets: vec![
            Target { area: Area::Point { x: 100, y: 200 }, lines: vec!["data on 8 GPUs".into(), "epoch 12 s".into()] },
            Target { area: Area::Bar { x: 300, y: 50, width: 40, height: 300 }, lines: vec!["filter on 8 GPUs".into()] },
        ],
    };
    let root = mount::<PlotFrame>(PlotFrameProps {
        id: "scaling-plot".into(),
        title: "Scaling".into(),
        summary: "test".into(),
        drawn: Rc::new(Ok(drawn)),
    });
    settle().await;
    assert_eq!(count(&root, "#scaling-plot svg"), 2, "the plot and its overlay");
    assert_eq!(count(&root, ".overlay .mark"), 2);
    assert_eq!(count(&root, ".tooltip:not([hidden])"), 0);
    let mark = find(&root, ".overlay circle.mark");
    mark.dispatch_event(&MouseEvent::new("mouseenter").expect("event"))
        .expect("dispatched");
    settle().await;
    let tip = find(&root, ".tooltip:not([hidden])");
    assert!(tip.text_content().unwrap_or_default().contains("epoch 12 s"));
    mark.dispatch_event(&MouseEvent::new("mouseleave").expect("event"))
        .expect("dispatched");
    settle().await;
    assert_eq!(count(&root, ".tooltip:not([hidden])"), 0);
}

#[wasm_bindgen_test]
async fn the_app_updates_as_inputs_change_and_keeps_results_on_errors() {
    let initial = Rc::new(AppState::new(Inputs::default(), None));
    let root = mount::<App>(AppProps { initial: Some(initial) });
    settle().await;
    assert_eq!(count(&root, "#ranking tbody tr"), 7);
    for id in [
        "#scaling-plot",
        "#comparison-plot",
        "#memory-plot",
        "#share-link",
        "#model",
        "#cluster",
        "#gpus",
        "#samples-per-gpu",
    ] {
        assert_eq!(count(&root, id), 1, "{id}");
    }
    let first = find(&root, "#ranking tbody tr").get_attribute("data-total-s");

    // an invalid GPU count: an alert next to the input, the results stay
    type_into(&find(&root, "#gpus"), "0");
    settle().await;
    let alert = find(&root, "#gpus-error");
    assert_eq!(alert.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(
        find(&root, "#gpus")
            .dyn_into::<HtmlInputElement>()
            .map(|i| i.value())
            .ok()
            .as_deref(),
        Some("0")
    );
    assert_eq!(find(&root, "#ranking tbody tr").get_attribute("data-total-s"), first);

    // a valid one: new results
    type_into(&find(&root, "#gpus"), "256");
    settle().await;
    assert_eq!(count(&root, "#gpus-error"), 0);
    assert_ne!(find(&root, "#ranking tbody tr").get_attribute("data-total-s"), first);

    // another model
    let select: HtmlSelectElement = find(&root, "#model").dyn_into().expect("a select");
    select.set_value("alexnet");
    select
        .dispatch_event(&Event::new("change").expect("event"))
        .expect("dispatched");
    settle().await;
    let scenario = presets::scenario("alexnet", "abci").expect("preset");
    let best = &scenario
        .rank(
            &RunSpec::new(Strategy::Data, 256, Batch::SamplesPerGpu(32.0)),
            RankBy::Time,
        )
        .points[0];
    let row = find(&root, "#ranking tbody tr");
    assert_eq!(
        row.get_attribute("data-strategy").as_deref(),
        Some(best.strategy.name())
    );
    assert_eq!(row.get_attribute("data-total-s"), Some(best.total_s.to_string()));
    assert!(
        find(&root, "#share-link")
            .get_attribute("href")
            .unwrap_or_default()
            .contains("?s=")
    );
}

#[wasm_bindgen_test]
async fn a_notice_is_an_alert_that_can_be_dismissed() {
    let initial = Rc::new(AppState::new(
        Inputs::default(),
        Some("This link could not be opened".into()),
    ));
    let root = mount::<App>(AppProps { initial: Some(initial) });
    settle().await;
    let notice = find(&root, "#notice");
    assert_eq!(notice.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(
        count(&root, "#ranking tbody tr"),
        7,
        "the defaults are shown under the notice"
    );
    let button: web_sys::HtmlElement = find(&root, "#notice button").dyn_into().expect("a button");
    button.click();
    settle().await;
    assert_eq!(count(&root, "#notice"), 0);
}
