//! Component tests in headless Chromium (wasm-bindgen-test): each mounts a
//! component, drives it with DOM events and reads the DOM back.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use paradl::app::charts::{Area, Drawn, Target};
use paradl::app::components::page::app::{App, AppProps};
use paradl::app::components::page::number_field::{NumberField, NumberFieldProps};
use paradl::app::components::page::shipped_text::{FetchLine, FetchLineProps, Fetched};
use paradl::app::components::planner::plan_table::{PlanTable, PlanTableProps};
use paradl::app::components::plots::plot_frame::{PlotFrame, PlotFrameProps};
use paradl::app::components::results::ranking_table::{RankingTable, RankingTableProps};
use paradl::app::input::document::Document;
use paradl::app::reference::shipped_files::{self, Shipped};
use paradl::app::state::AppState;
use paradl::oracle::{Batch, Config, Objective, RankBy, RunSpec, Strategy, presets, units};
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

/// Waits (polling every 5 ms, at most 10 s) until `check` holds: a
/// rendering is awaited by what it shows, not by a fixed sleep.
async fn until(what: &str, check: impl Fn() -> bool) {
    for _ in 0..2000 {
        if check() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(5).await;
    }
    panic!("timed out waiting for {what}");
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
    until("the field", || count(&root, "[role=alert]") == 1).await;
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
        calibration: None,
        like_the_runs: true,
        by: RankBy::Time,
    });
    until("the rows", || count(&root, "#ranking tbody tr") > 0).await;
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
        // the time to train, its cell marked where its epochs are assumed or extrapolated
        let train: f64 = row
            .get_attribute("data-train-s")
            .unwrap_or_default()
            .parse()
            .expect("number");
        assert_eq!(train, p.training.time_s);
        let cell = row.query_selector("td.train").expect("query").expect("the cell");
        let class = cell.get_attribute("class").unwrap_or_default();
        assert_eq!(class.split(' ').any(|c| c == "assumed"), p.training.assumed, "{class}");
        // the energy, CO2 and money to train, each a cell that opens its explanation
        let e = p.energy.as_ref().expect("a V100's board power is known");
        let number = |name: &str| -> f64 { row.get_attribute(name).unwrap_or_default().parse().expect("number") };
        assert_eq!(number("data-energy-kwh"), e.train_kwh);
        assert_eq!(number("data-co2-kg"), e.train_co2_kg);
        assert_eq!(number("data-usd"), e.train_usd);
        let costs = row.query_selector_all("td.cost [data-explain]").expect("query");
        assert_eq!(costs.length(), 3);
        let keys: Vec<String> = (0..3)
            .filter_map(|k| costs.get(k)?.dyn_into::<Element>().ok()?.get_attribute("data-explain"))
            .collect();
        let at = format!("{}@{}", p.strategy.name(), p.gpus);
        assert_eq!(
            keys,
            [format!("{at}:energy"), format!("{at}:co2"), format!("{at}:cost")]
        );
    }
}

#[wasm_bindgen_test]
async fn beside_a_time_unlike_the_abci_runs_is_the_band_of_its_gpu_class() {
    let scenario = presets::scenario("resnet50", "dgx-h100").expect("preset");
    let mut run = RunSpec::new(Strategy::Data, 64, Batch::SamplesPerGpu(32.0));
    run.precision = paradl::oracle::Precision::Fp16;
    let ranking = scenario.rank(&run, RankBy::Time).points;
    let root = mount::<RankingTable>(RankingTableProps {
        ranking: ranking.clone(),
        calibration: None,
        like_the_runs: false,
        by: RankBy::TimeToTrain,
    });
    until("the rows", || count(&root, "#ranking tbody tr") > 0).await;
    let badge = root
        .query_selector("#ranking tr[data-strategy=data] .track")
        .expect("query")
        .expect("a badge")
        .text_content()
        .unwrap_or_default();
    let band = ranking[0].band.clone().expect("a band");
    assert_eq!(
        badge,
        format!(
            "{}–{}",
            units::seconds(band.low * ranking[0].total_s),
            units::seconds(band.high * ranking[0].total_s)
        )
    );
}

#[wasm_bindgen_test]
async fn plot_frame_shows_numbers_on_hover() {
    let drawn = Drawn {
        width: 760,
        height: 430,
        svg: r#"<svg xmlns="http://www.w3.org/2000/svg" width="760" height="430" viewBox="0 0 760 430"><rect width="760" height="430" fill="white"/></svg>"#.into(),
        targets: vec![
            Target { area: Area::Point { x: 100, y: 200 }, lines: vec!["data on 8 GPUs".into(), "epoch 12 s".into()], explain: None },
            Target { area: Area::Bar { x: 300, y: 50, width: 40, height: 300 }, lines: vec!["filter on 8 GPUs".into()], explain: None },
        ],
    };
    let root = mount::<PlotFrame>(PlotFrameProps {
        id: "scaling-plot".into(),
        title: "Scaling".into(),
        summary: "test".into(),
        drawn: Rc::new(Ok(drawn)),
        onpick: None,
        caption: Rc::default(),
        controls: yew::Html::default(),
    });
    until("the plot", || count(&root, ".overlay .mark") == 2).await;
    assert_eq!(count(&root, ".overlay .pickable"), 0, "nothing to pick without onpick");
    assert_eq!(count(&root, "#scaling-plot svg"), 2, "the plot and its overlay");
    assert_eq!(count(&root, ".overlay .mark"), 2);
    assert_eq!(count(&root, ".tooltip:not([hidden])"), 0);
    // the pointer near a mark (not only on it) shows its numbers
    let overlay = find(&root, ".overlay");
    let at = |selector: &str, dx: f64| {
        let r = find(&root, selector).get_bounding_client_rect();
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(true);
        init.set_client_x((r.left() + r.width() / 2.0 + dx) as i32);
        init.set_client_y((r.top() + r.height() / 2.0) as i32);
        MouseEvent::new_with_mouse_event_init_dict("mousemove", &init).expect("event")
    };
    overlay
        .dispatch_event(&at(".overlay circle.mark", 3.0))
        .expect("dispatched");
    until("the tooltip", || count(&root, ".tooltip:not([hidden])") == 1).await;
    let tip = find(&root, ".tooltip:not([hidden])");
    assert!(tip.text_content().unwrap_or_default().contains("epoch 12 s"));
    // over the bar, the bar's numbers
    overlay
        .dispatch_event(&at(".overlay rect.mark", 0.0))
        .expect("dispatched");
    until("the bar's tooltip", || {
        find(&root, ".tooltip")
            .text_content()
            .unwrap_or_default()
            .contains("filter on 8 GPUs")
    })
    .await;
    overlay
        .dispatch_event(&MouseEvent::new("mouseleave").expect("event"))
        .expect("dispatched");
    until("the tooltip to hide", || count(&root, ".tooltip:not([hidden])") == 0).await;
    assert_eq!(count(&root, ".tooltip:not([hidden])"), 0);
    // the keyboard reaches the marks: focus shows the numbers too
    assert_eq!(count(&root, ".overlay [tabindex='0']"), 2);
    js_sys::eval("document.querySelector('#scaling-plot .overlay rect.mark').focus()").expect("focused");
    until("the tooltip on focus", || {
        root.query_selector(".tooltip:not([hidden])")
            .ok()
            .flatten()
            .and_then(|t| t.text_content())
            .is_some_and(|t| t.contains("filter on 8 GPUs"))
    })
    .await;
}

#[wasm_bindgen_test]
async fn plot_marks_can_be_picked_by_click_and_enter() {
    let drawn = Drawn {
        width: 760,
        height: 430,
        svg: r#"<svg xmlns="http://www.w3.org/2000/svg" width="760" height="430" viewBox="0 0 760 430"><rect width="760" height="430" fill="white"/></svg>"#.into(),
        targets: vec![
            Target { area: Area::Point { x: 100, y: 200 }, lines: vec!["first".into()], explain: None },
            Target { area: Area::Point { x: 300, y: 100 }, lines: vec!["second".into()], explain: None },
        ],
    };
    let picked = Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = picked.clone();
    let root = mount::<PlotFrame>(PlotFrameProps {
        id: "plan-plot".into(),
        title: "Front".into(),
        summary: "test".into(),
        drawn: Rc::new(Ok(drawn)),
        onpick: Some(Callback::from(move |i: usize| sink.borrow_mut().push(i))),
        caption: Rc::default(),
        controls: yew::Html::default(),
    });
    until("the marks", || count(&root, ".overlay .mark.pickable") == 2).await;
    let second = root
        .query_selector_all(".overlay .mark")
        .expect("marks")
        .get(1)
        .expect("a second mark");
    let second: Element = second.dyn_into().expect("an element");
    assert_eq!(second.get_attribute("tabindex").as_deref(), Some("0"));
    let click = web_sys::MouseEventInit::new();
    click.set_bubbles(true);
    second
        .dispatch_event(&MouseEvent::new_with_mouse_event_init_dict("click", &click).expect("click"))
        .expect("dispatched");
    until("the click", || picked.borrow().len() == 1).await;
    let enter = web_sys::KeyboardEventInit::new();
    enter.set_key("Enter");
    enter.set_bubbles(true);
    find(&root, ".overlay .mark")
        .dispatch_event(&web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &enter).expect("key"))
        .expect("dispatched");
    until("the key", || picked.borrow().len() == 2).await;
    assert_eq!(*picked.borrow(), vec![1, 0]);
}

#[wasm_bindgen_test]
async fn the_app_updates_as_inputs_change_and_keeps_results_on_errors() {
    let initial = Rc::new(AppState::new(Document::default(), None));
    let root = mount::<App>(AppProps { initial: Some(initial) });
    until("the app", || count(&root, "#ranking tbody tr") == 7).await;
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
    until("the alert", || count(&root, "#gpus-error") == 1).await;
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
    // and the results say they are stale, for which budget
    let stale = find(&root, "#stale").text_content().unwrap_or_default();
    assert!(
        stale.starts_with("Results for 64 GPUs") && stale.contains("the highlighted input"),
        "{stale}"
    );

    // a valid one: new results
    type_into(&find(&root, "#gpus"), "256");
    until("the new ranking", || {
        count(&root, "#gpus-error") == 0 && find(&root, "#ranking tbody tr").get_attribute("data-total-s") != first
    })
    .await;
    assert_eq!(count(&root, "#gpus-error"), 0);
    assert_ne!(find(&root, "#ranking tbody tr").get_attribute("data-total-s"), first);
    assert_eq!(count(&root, "#stale"), 0, "fresh results are not stale");
    // limits in plain words, unique button names
    let status = root.text_content().unwrap_or_default();
    assert!(!status.contains("pipeline_depth"), "engine codes stay out of sight");
    let png = find(&root, "#memory-plot .download-png");
    assert_eq!(
        png.get_attribute("aria-label").as_deref(),
        Some("Download the memory plot as PNG")
    );

    // another model
    let select: HtmlSelectElement = find(&root, "#model").dyn_into().expect("a select");
    select.set_value("alexnet");
    select
        .dispatch_event(&Event::new("change").expect("event"))
        .expect("dispatched");
    let scenario = presets::scenario("alexnet", "abci").expect("preset");
    let best = &scenario
        .rank(
            &RunSpec::new(Strategy::Data, 256, Batch::SamplesPerGpu(32.0)),
            RankBy::Time,
        )
        .points[0];
    until("the alexnet ranking", || {
        find(&root, "#ranking tbody tr").get_attribute("data-total-s") == Some(best.total_s.to_string())
    })
    .await;
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
        Document::default(),
        Some("This link could not be opened".into()),
    ));
    let root = mount::<App>(AppProps { initial: Some(initial) });
    until("the notice", || count(&root, "#notice") == 1).await;
    let notice = find(&root, "#notice");
    assert_eq!(notice.get_attribute("role").as_deref(), Some("alert"));
    assert_eq!(
        count(&root, "#ranking tbody tr"),
        7,
        "the defaults are shown under the notice"
    );
    let button: web_sys::HtmlElement = find(&root, "#notice button").dyn_into().expect("a button");
    button.click();
    until("the notice to go", || count(&root, "#notice") == 0).await;
    assert_eq!(count(&root, "#notice"), 0);
}

#[wasm_bindgen_test]
async fn a_long_layer_table_renders_only_the_rows_in_view() {
    use paradl::app::input::source::ModelSource;
    let mut spec = presets::network("resnet152").expect("preset").spec();
    let layers = spec.layers.clone();
    spec.layers.extend(layers.iter().cloned());
    let total = spec.layers.len();
    assert!(total > 1000);
    let mut inputs = Document::default();
    inputs.question.model = ModelSource::Custom(Box::new(spec));
    let root = mount::<App>(AppProps {
        initial: Some(Rc::new(AppState::new(inputs, None))),
    });
    until("the app", || count(&root, "#ranking tbody tr") > 0).await;
    let summary: web_sys::HtmlElement = find(&root, ".layer-table summary").dyn_into().expect("summary");
    summary.click();
    until("the table", || count(&root, "#layers tbody tr:not(.spacer)") > 0).await;
    let rendered = count(&root, "#layers tbody tr:not(.spacer)");
    assert!(rendered < 60, "{rendered} of {total} rows rendered");
    let first_index = || {
        find(&root, "#layers tbody tr:not(.spacer) td")
            .text_content()
            .unwrap_or_default()
    };
    assert_eq!(first_index(), "0");
    // scrolled far down, the rows there are rendered instead
    let scroller = find(&root, ".layer-scroll");
    scroller.set_scroll_top(500 * 34);
    scroller
        .dispatch_event(&Event::new("scroll").expect("event"))
        .expect("dispatched");
    until("the rows further down", || first_index() != "0").await;
    let first: usize = first_index().parse().expect("a row index");
    assert!((480..=500).contains(&first), "first rendered row {first}");
    assert!(count(&root, "#layers tbody tr:not(.spacer)") < 60);
}

#[wasm_bindgen_test]
async fn the_calibration_panel_calibrates_and_marks_a_bad_row() {
    let root = mount::<App>(AppProps {
        initial: Some(Rc::new(AppState::new(Document::default(), None))),
    });
    until("the app", || count(&root, "#calibration-input") == 1).await;
    let before = find(&root, "#ranking tbody tr[data-strategy='data']")
        .get_attribute("data-total-s")
        .unwrap_or_default();
    let area: web_sys::HtmlTextAreaElement = find(&root, "#calibration-input").dyn_into().expect("a text area");
    area.set_value("strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,64,2048,,0.3,,\n");
    area.dispatch_event(&Event::new("input").expect("event"))
        .expect("dispatched");
    // the data row: 625 iterations of the measured 0.3 s
    let data_total = || {
        find(&root, "#ranking tbody tr[data-strategy='data']")
            .get_attribute("data-total-s")
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    until("the calibrated ranking", || (data_total() - 187.5).abs() < 1e-9).await;
    assert!((before.parse::<f64>().unwrap_or(f64::NAN) - 187.5).abs() > 1.0);
    assert_eq!(count(&root, "#calibration .factors tr[data-strategy='data']"), 1);
    // the edition note follows once the ranking is painted
    until("the edition note of the calibrated view", || {
        find(&root, "#edition")
            .text_content()
            .unwrap_or_default()
            .contains("Calibrated")
    })
    .await;
    // a bad row: its error with line and column, the calibrated ranking kept
    area.set_value(
        "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,64,2048,,0.3,,\ndata,8,x,,1,,\n",
    );
    area.dispatch_event(&Event::new("input").expect("event"))
        .expect("dispatched");
    until("the row's error", || {
        count(&root, "#calibration .error[data-line='3']") == 1
    })
    .await;
    assert!(
        find(&root, "#calibration .error")
            .text_content()
            .unwrap_or_default()
            .starts_with("Line 3, column 8")
    );
    assert!((data_total() - 187.5).abs() < 1e-9);
}

#[wasm_bindgen_test]
async fn the_edition_switch_lists_the_realistic_terms() {
    let root = mount::<App>(AppProps {
        initial: Some(Rc::new(AppState::new(Document::default(), None))),
    });
    until("the app", || count(&root, "#edition") == 1).await;
    assert_eq!(
        find(&root, "#edition").get_attribute("data-fidelity").as_deref(),
        Some("realistic")
    );
    // data on 64 GPUs of ABCI: the roofline, NIC sharing and section 11's kernels and memory
    // applied; its Allreduce is the flat ring the measured runs used, so no term
    for term in ["roofline", "nic_sharing", "kernels", "framework_memory"] {
        assert_eq!(count(&root, &format!("#edition li[data-term='{term}']")), 1, "{term}");
    }
    assert_eq!(count(&root, "#edition li[data-term='allreduce']"), 0);
    let select: HtmlSelectElement = find(&root, "#fidelity").dyn_into().expect("a select");
    select.set_value("ideal");
    select
        .dispatch_event(&Event::new("change").expect("event"))
        .expect("dispatched");
    until("the ideal edition", || {
        find(&root, "#edition").get_attribute("data-fidelity").as_deref() == Some("ideal")
    })
    .await;
    assert_eq!(count(&root, "#edition li"), 0);
}

#[wasm_bindgen_test]
async fn the_plan_table_lists_the_best_ten_and_a_click_picks_one() {
    let s = presets::scenario("resnet50", "abci").expect("preset");
    let template = RunSpec::new(Strategy::Data, 1, Batch::SamplesPerGpu(32.0));
    let plan = Rc::new(s.search(&template, 256, Objective::Memory).expect("a plan"));
    assert!(plan.front.len() > 10, "{}", plan.front.len());
    let picked = Rc::new(std::cell::RefCell::new(None::<Config>));
    let sink = picked.clone();
    let root = mount::<PlanTable>(PlanTableProps {
        plan: Rc::clone(&plan),
        onpick: Callback::from(move |c: Config| *sink.borrow_mut() = Some(c)),
    });
    until("the rows", || count(&root, "tr[data-config]") == 10).await;
    // least memory first, as the engine's best by memory
    let best = plan.best.clone().expect("a best");
    let first = find(&root, "tr[data-config]");
    assert_eq!(first.get_attribute("data-total-s"), Some(best.total_s.to_string()));
    let rows = root.query_selector_all("tr[data-config]").expect("rows");
    let third: web_sys::HtmlElement = rows.get(2).and_then(|n| n.dyn_into().ok()).expect("a third row");
    third.click();
    until("the pick", || picked.borrow().is_some()).await;
    let chosen = picked.borrow().clone().expect("picked");
    assert_eq!(third.get_attribute("data-gpus"), Some(chosen.gpus.to_string()));
    assert_eq!(third.get_attribute("data-total-s"), Some(chosen.total_s.to_string()));
    assert!(plan.front.contains(&chosen));
    let mut memories: Vec<f64> = Vec::new();
    for i in 0..rows.length() {
        let row: Element = rows.get(i).and_then(|n| n.dyn_into().ok()).expect("a row");
        let key = row.get_attribute("data-config").unwrap_or_default();
        let c = plan
            .front
            .iter()
            .find(|c| paradl::app::components::planner::plan_table::config_key(c) == key)
            .expect("a front member");
        memories.push(c.memory_bytes);
    }
    assert!(memories.windows(2).all(|w| w[0] <= w[1]), "least memory first");
}

#[wasm_bindgen_test]
async fn a_clicked_number_opens_its_explanation_and_the_diagram_follows_a_pick() {
    // the contract is fetched from beside the built page; this test page has none
    shipped_files::keep(Shipped::ModelDoc, include_str!("../src/oracle/ORACLE-MODEL.md").into());
    let initial = Rc::new(AppState::new(Document::default(), None));
    let root = mount::<App>(AppProps { initial: Some(initial) });
    until("the app", || count(&root, "#ranking tbody tr") == 7).await;
    assert_eq!(count(&root, "#explain"), 0, "closed until a number is clicked");
    // the ranking's memory of data parallelism
    let cell: web_sys::HtmlElement = find(&root, "#ranking [data-explain=\"data@64:memory\"]")
        .dyn_into()
        .expect("a button");
    cell.click();
    until("the panel", || count(&root, "#explain") == 1).await;
    let result = find(&root, "#explain .explain-result output");
    assert_eq!(result.get_attribute("data-value"), cell.get_attribute("data-value"));
    assert_eq!(result.text_content(), cell.text_content());
    // its parts (the eight of sections 9 and 11), each a step that explains itself
    assert_eq!(count(&root, "#explain [data-step^=\"memory-\"]"), 8);
    let step: web_sys::HtmlElement = find(&root, "#explain [data-step=\"memory-activations\"]")
        .dyn_into()
        .expect("a button");
    let value = step.get_attribute("data-value");
    step.click();
    until("the activations", || {
        count(&root, "#explain[data-explain=\"data@64:memory-activations\"]") == 1
    })
    .await;
    assert_eq!(
        find(&root, "#explain .explain-result output").get_attribute("data-value"),
        value
    );
    assert!(
        find(&root, "#explain .formula")
            .text_content()
            .unwrap_or_default()
            .contains("activations = B_g·a, a = the bytes per sample autograd saves"),
        "the realistic edition counts what autograd saves (section 11)"
    );
    // the model's sections come with it, and the panel closes
    assert!(count(&root, "#explain details.model-section[data-section=\"9\"]") == 1);
    let close: web_sys::HtmlElement = find(&root, "#explain .close").dyn_into().expect("a button");
    close.click();
    until("closed", || count(&root, "#explain") == 0).await;

    // the diagram draws the best strategy, then the one picked
    assert_eq!(
        find(&root, "#diagram").get_attribute("data-strategy").as_deref(),
        Some("data")
    );
    let select: HtmlSelectElement = find(&root, "#diagram-strategy").dyn_into().expect("a select");
    select.set_value("pipeline");
    select
        .dispatch_event(&Event::new("change").expect("event"))
        .expect("dispatched");
    until("the pipeline", || {
        find(&root, "#diagram").get_attribute("data-strategy").as_deref() == Some("pipeline")
    })
    .await;
    assert!(
        find(&root, "#diagram")
            .text_content()
            .unwrap_or_default()
            .contains("stage 1")
    );
    assert_eq!(count(&root, "#diagram-collectives li[data-kind=\"pipeline_p2p\"]"), 1);
}

#[wasm_bindgen_test]
async fn an_exported_svg_carries_its_caption() {
    // catch the download link instead of downloading (and keep its blob)
    js_sys::eval(
        "window.__downloads = []; HTMLAnchorElement.prototype.click = function () { window.__downloads.push(this.href); }; URL.revokeObjectURL = function () {};",
    )
    .expect("patched");
    let drawn = Drawn {
        width: 760,
        height: 430,
        svg: r#"<svg xmlns="http://www.w3.org/2000/svg" width="760" height="430" viewBox="0 0 760 430"><rect width="760" height="430" fill="white"/></svg>"#.into(),
        targets: vec![Target { area: Area::Point { x: 100, y: 200 }, lines: vec!["a point".into()], explain: None }],
    };
    let root = mount::<PlotFrame>(PlotFrameProps {
        id: "scaling-plot".into(),
        title: "Scaling".into(),
        summary: "test".into(),
        drawn: Rc::new(Ok(drawn)),
        onpick: None,
        caption: Rc::new(vec![
            "Scaling: ResNet50 on ABCI, 64 GPUs, 32 samples per GPU, realistic edition".into(),
            "ParaDL oracle · http://host/?s=abc".into(),
        ]),
        controls: yew::Html::default(),
    });
    until("the plot", || count(&root, ".download-svg") == 1).await;
    let button: web_sys::HtmlElement = find(&root, ".download-svg").dyn_into().expect("a button");
    button.click();
    let href = js_sys::eval("window.__downloads[0]")
        .expect("a download")
        .as_string()
        .expect("its address");
    let window = web_sys::window().expect("a window");
    let response: web_sys::Response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&href))
        .await
        .expect("fetched")
        .dyn_into()
        .expect("a response");
    let text = wasm_bindgen_futures::JsFuture::from(response.text().expect("text"))
        .await
        .expect("read")
        .as_string()
        .expect("a string");
    assert!(
        text.contains("Scaling: ResNet50 on ABCI, 64 GPUs, 32 samples per GPU, realistic edition"),
        "{text}"
    );
    assert!(text.contains("http://host/?s=abc"));
    assert!(text.contains("height=\"476\""), "430 and the caption's 46");
}

#[wasm_bindgen_test]
async fn an_edited_preset_says_so_and_units_convert() {
    let initial = Rc::new(AppState::new(Document::default(), None));
    let root = mount::<App>(AppProps { initial: Some(initial) });
    until("the app", || count(&root, "#ranking tbody tr") == 7).await;
    let source = || find(&root, "#cluster-source").text_content().unwrap_or_default();
    assert!(!source().contains("Edited from"), "{}", source());
    // 32 GB typed with its unit: the capacity follows, the preset's sources no longer vouch
    type_into(&find(&root, "#cluster-gpu-memory-bytes"), "32 GB");
    until("the edited note", || source().starts_with("Edited from ABCI")).await;
    until("the memory plot at 32 GB", || {
        find(&root, "#memory-plot")
            .text_content()
            .unwrap_or_default()
            .contains("32 GB")
    })
    .await;
    // a unit of another kind: an error on that field
    type_into(&find(&root, "#cluster-gpu-memory-bytes"), "32 GB/s");
    until("the unit error", || {
        root.text_content()
            .unwrap_or_default()
            .contains("not a unit of this field")
    })
    .await;
    assert_eq!(count(&root, "#stale"), 1, "the results are marked stale meanwhile");
}

#[wasm_bindgen_test]
async fn a_shipped_file_says_it_is_loading_then_why_it_failed_then_nothing() {
    let loading = mount::<FetchLine>(FetchLineProps {
        file: Shipped::ModelDoc,
        fetched: Fetched::Loading,
    });
    until("the loading line", || count(&loading, "[role=status]") == 1).await;
    let status = find(&loading, "[role=status]");
    assert!(
        status
            .text_content()
            .unwrap_or_default()
            .contains("Loading the model's contract"),
        "{:?}",
        status.text_content()
    );
    assert_eq!(count(&loading, "progress"), 1);
    let failed = mount::<FetchLine>(FetchLineProps {
        file: Shipped::MeasuredRuns,
        fetched: Fetched::Failed("the runs measured on ABCI could not be loaded: the server answered 404".into()),
    });
    until("the failure", || count(&failed, "[role=alert]") == 1).await;
    let alert = find(&failed, "[role=alert]").text_content().unwrap_or_default();
    assert!(alert.contains("404") && alert.contains("retry"), "{alert}");
    let ready = mount::<FetchLine>(FetchLineProps {
        file: Shipped::ModelDoc,
        fetched: Fetched::Ready("text".into()),
    });
    // rendered in the same pass as the others, which have shown by now
    until("the others", || count(&failed, "[role=alert]") == 1).await;
    assert_eq!(ready.child_element_count(), 0);
}

#[wasm_bindgen_test]
async fn a_cluster_that_names_no_gpu_says_which_terms_fell_back() {
    // ABCI's links as a cluster file written by hand: no realistic facts, no GPU named
    let mut spec = presets::cluster("abci").expect("preset").spec().clone();
    spec.realistic = Default::default();
    spec.gpu = None;
    let mut document = Document::default();
    document.question.cluster = paradl::app::input::source::ClusterSource::Custom(Box::new(spec));
    let root = mount::<App>(AppProps {
        initial: Some(Rc::new(AppState::new(document, None))),
    });
    until("the note", || count(&root, "#fallbacks li") == 2).await;
    let text = find(&root, "#fallbacks").text_content().unwrap_or_default();
    for needle in [
        "kernel facts",
        "memory bandwidth",
        "\"gpu\"",
        "\"datasheet\"",
        "NVIDIA H100 80GB HBM3",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // the preset names its GPU: no note
    let root = mount::<App>(AppProps {
        initial: Some(Rc::new(AppState::new(Document::default(), None))),
    });
    until("the app", || count(&root, "#edition") == 1).await;
    assert_eq!(count(&root, "#fallbacks"), 0);
}

#[wasm_bindgen_test]
async fn a_closed_fold_puts_its_fields_in_the_page_once_opened() {
    let root = mount::<App>(AppProps {
        initial: Some(Rc::new(AppState::new(Document::default(), None))),
    });
    until("the app", || count(&root, "#cluster-today") == 1).await;
    // closed: the kernel facts' fields are not built (the first render costs less)
    assert_eq!(count(&root, "#cluster-today input"), 0);
    let fold = find(&root, "#cluster-today");
    fold.set_attribute("open", "").expect("opened");
    until("the kernel facts", || count(&root, "#cluster-today input") > 3).await;
    // closed again, they stay (what was typed is kept)
    fold.remove_attribute("open").expect("closed");
    gloo_timers::future::TimeoutFuture::new(50).await;
    assert!(count(&root, "#cluster-today input") > 3);
}
