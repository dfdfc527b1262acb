//! Phones and projectors: results in view while editing, thumb-sized
//! targets, a lesson on one screen.

use super::*;

/// The bounding box `[top, bottom, left, right]` of `css` in the viewport.
pub(crate) async fn rect(client: &Client, css: &str) -> [f64; 4] {
    let script = format!(
        "const r = document.querySelector('{css}').getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right];"
    );
    let v = client
        .execute(&script, vec![])
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
    [n(0), n(1), n(2), n(3)]
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_projector_shows_ranking_and_plot_and_results_stay_in_view_while_editing() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    // 1280x720 at 150% zoom: a page of 853x480 CSS pixels (the window's
    // frame added to the size asked for)
    open(&client, &s.base).await;
    page::viewport(&client, 853, 480).await;
    let (width, height) = (853.0, 480.0);
    let short = eventually("the short plot", || async {
        let r = rect(&client, "#scaling-plot .plot-area").await;
        (r[1] <= height).then_some(r)
    })
    .await;
    let ranking = rect(&client, "#ranking").await;
    assert!(
        ranking[0] >= 0.0 && ranking[1] <= short[0],
        "ranking {ranking:?} above the plot {short:?}"
    );
    assert!(short[3] <= width, "no sideways overflow: {short:?}");
    // plot text at least 12 px on screen: font size times the drawing's scale
    let smallest = client
        .execute(
            "const svg = document.querySelector('#scaling-plot .plot-area > svg'); const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * scale));",
            vec![],
        )
        .await
        .expect("font sizes")
        .as_f64()
        .unwrap_or(0.0);
    let sizes = client
        .execute(
            "const svg = document.querySelector('#scaling-plot .plot-area > svg'); return [svg.getBoundingClientRect().width, svg.viewBox.baseVal.width, [...svg.querySelectorAll('text')].map(t => t.getAttribute('font-size') + ':' + t.textContent).join('|')];",
            vec![],
        )
        .await
        .expect("sizes");
    assert!(smallest >= 12.0, "smallest plot text {smallest} px: {sizes}");

    // a wide screen: the inputs scroll in their own pane, the ranking stays in view
    client.set_window_size(1400, 800).await.expect("resized");
    page::click(&client, "#run-heading").await; // fold the run panel, and open it again
    let folded = client
        .execute(
            "return document.querySelector('#run-heading').closest('details').open;",
            vec![],
        )
        .await
        .expect("folded");
    assert_eq!(folded.as_bool(), Some(false), "an input section folds");
    page::click(&client, "#run-heading").await;
    page::type_into(&client, "#bucket-mib", "50").await;
    // the field deep in the inputs was reached by scrolling their pane
    let pane = client
        .execute("return document.querySelector('.inputs').scrollTop;", vec![])
        .await
        .expect("scrollTop")
        .as_f64()
        .unwrap_or(0.0);
    assert!(pane > 0.0, "the inputs scrolled in their own pane");
    let ranking = rect(&client, "#ranking").await;
    assert!(
        ranking[0] > -1.0 && ranking[1] < 800.0,
        "the ranking in view while editing: {ranking:?}"
    );

    // the diagram draws the best strategy, then the one picked
    let diagram = page::html(&client, "#diagram").await;
    assert!(diagram.contains("data-strategy=\"data\""), "the best first");
    let model = client
        .find(Locator::Css("#diagram-strategy"))
        .await
        .expect("the select");
    model.select_by_value("data+filter").await.expect("picked");
    let drawn = eventually("data+filter drawn", || async {
        let html = page::html(&client, "#diagram").await;
        html.contains("data-strategy=\"data+filter\"").then_some(html)
    })
    .await;
    // as the engine places it: groups, slices and collectives with their bytes
    let scenario = paradl::oracle::presets::scenario("resnet50", "abci").expect("preset");
    let spec = paradl::oracle::RunSpec::new(
        paradl::oracle::Strategy::DataFilter,
        64,
        paradl::oracle::Batch::SamplesPerGpu(32.0),
    );
    let placement = scenario.placement(&spec).expect("placed");
    let gpus = drawn.matches("class=\"gpu\"").count() as u64;
    assert_eq!(
        gpus,
        4 * placement.gpus_per_node,
        "four nodes drawn of {}",
        placement.nodes
    );
    assert!(drawn.contains("filters 2/"), "slices labelled");
    for c in &placement.collectives {
        assert!(
            drawn.contains(&format!("data-kind=\"{}\" data-bytes=\"{}\"", c.kind.name(), c.bytes)),
            "{:?} with {} bytes",
            c.kind,
            c.bytes
        );
    }
    client.close().await.ok();
}

/// The smallest size in CSS pixels of the text of the plot `css` (its
/// SVG's font sizes, scaled as the page draws the SVG).
pub(crate) async fn plot_text_px(client: &Client, css: &str) -> f64 {
    let script = format!(
        "const svg = document.querySelector('{css} .plot-area > svg'); const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; \
         const sizes = Array.from(svg.querySelectorAll('text')).map(t => parseFloat(getComputedStyle(t).fontSize)); \
         return Math.min(...sizes) * scale;"
    );
    client
        .execute(&script, vec![])
        .await
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(f64::NAN)
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_phone_sees_the_bar_edits_the_gpus_there_and_the_ranking_fits() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::viewport(&client, 360, 740).await;
    open(&client, &s.base).await;
    let bar = page::text_once(&client, "#summary", "ResNet50").await;
    assert!(bar.contains("ABCI") && bar.contains("Best:"), "{bar}");
    page::type_into(&client, "#bar-gpus", "128").await;
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 128, "32")).await;
    page::text_once(&client, "#verdict", "at 128 GPUs").await;
    assert_eq!(value(&client, "#gpus").await, "128");
    // the bar stays in view as the page scrolls
    client
        .execute("window.scrollTo(0, 2000);", vec![])
        .await
        .expect("scrolled");
    let top = rect(&client, "#summary").await;
    assert!(top[0].abs() < 1.0, "{top:?}");
    // the ranking needs no sideways scroll; a limit is a mark whose words a tap shows
    let fits = client
        .execute(
            "const t = document.querySelector('#ranking'); return t.scrollWidth <= t.clientWidth + 1 && t.getBoundingClientRect().right <= window.innerWidth + 1;",
            vec![],
        )
        .await
        .expect("widths");
    assert_eq!(fits, Value::Bool(true));
    // only the verdict is announced
    let live = client
        .execute(
            "return [document.querySelector('.outputs').getAttribute('aria-live'), document.querySelector('#verdict').getAttribute('aria-live'), document.querySelector('#verdict').textContent.length];",
            vec![],
        )
        .await
        .expect("live regions");
    assert_eq!(live[0], Value::Null);
    assert_eq!(live[1], Value::from("polite"));
    assert!(live[2].as_u64().unwrap_or(999) < 200, "{live}");
    // every text of the ranking, its "×N" track record too, is readable on the phone
    let smallest = client
        .execute(
            "const sizes = Array.from(document.querySelectorAll('#ranking *')).filter(e => e.offsetParent !== null && e.textContent.trim())
               .map(e => [parseFloat(getComputedStyle(e).fontSize), e.tagName + '.' + e.className]).sort((x, y) => x[0] - y[0]);
             return sizes[0];",
            vec![],
        )
        .await
        .expect("font sizes");
    assert!(
        smallest[0].as_f64().unwrap_or(0.0) >= 12.5,
        "the ranking's smallest text (px, element): {smallest}"
    );
    client.close().await.ok();
}

/// Every visible control (and list link) smaller than 40 px in either
/// direction: `(what, width, height)`. Links inside running text (the
/// numbers of a sentence, `.said`) are exempt, as WCAG's target-size rule
/// exempts them.
pub(crate) async fn small_targets(client: &Client) -> Vec<(String, f64, f64)> {
    let v = client
        .execute(
            "const out = [];
             for (const e of document.querySelectorAll('button, select, summary, input, .lessons li a')) {
               const r = e.getBoundingClientRect();
               const shown = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
               if (!shown || e.closest('[hidden]') || e.closest('.said')) continue;
               if (r.width < 1.5 && r.height < 1.5) continue;
               if (e.offsetParent === null && getComputedStyle(e).position !== 'fixed') continue;
               if (r.height < 40 || (e.type === 'checkbox' && r.width < 40)) {
                 out.push([(e.id ? '#' + e.id : e.tagName.toLowerCase()) + ' ' + (e.textContent || e.type || '').trim().slice(0, 30), r.width, r.height]);
               }
             }
             return out;",
            vec![],
        )
        .await
        .expect("measured");
    v.as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    (
                        r[0].as_str().unwrap_or_default().to_string(),
                        r[1].as_f64().unwrap_or(0.0),
                        r[2].as_f64().unwrap_or(0.0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_phone_gets_thumb_sized_targets_and_sees_each_feasible_rows_mark() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::viewport(&client, 390, 844).await;
    open(&client, &s.base).await;
    page::click(&client, "#lessons summary").await;
    let small = small_targets(&client).await;
    assert!(small.is_empty(), "targets under 40 px: {small:?}");
    // a feasible row's status shows its check mark (its word is for screen readers)
    let marks = client
        .execute(
            "return [...document.querySelectorAll('#ranking tr[data-feasible=true] .mark-ok')].map(e => getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().width > 0);",
            vec![],
        )
        .await
        .expect("read");
    let marks: Vec<bool> = marks
        .as_array()
        .map(|a| a.iter().map(|b| b.as_bool() == Some(true)).collect())
        .unwrap_or_default();
    assert!(!marks.is_empty() && marks.iter().all(|m| *m), "{marks:?}");
    // the strategy diagram's text is read at its size (it was 6 px: 720 units across the phone)
    let sizes = client
        .execute(
            "const svg = document.querySelector('svg.diagram');
             const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
             return [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale);",
            vec![],
        )
        .await
        .expect("read the diagram");
    let sizes: Vec<f64> = sizes
        .as_array()
        .map(|a| a.iter().filter_map(serde_json::Value::as_f64).collect())
        .unwrap_or_default();
    assert!(
        !sizes.is_empty() && sizes.iter().all(|px| *px >= 11.0),
        "diagram text in px: {sizes:?}"
    );
    // the plots fit the phone's width (no sideways scrolling, the legend in view) at a readable size
    let plots = client
        .execute(
            "return [...document.querySelectorAll('figure.plot')].filter(f => f.querySelector('.plot-area')).map(f => {
               const scroll = f.querySelector('.plot-scroll'), svg = f.querySelector('.plot-area > svg');
               const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
               const texts = [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
               const legend = [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect().right);
               return [f.id, scroll.scrollWidth - scroll.clientWidth, Math.min(...texts), Math.max(...legend)];
             });",
            vec![],
        )
        .await
        .expect("read the plots");
    let plots = plots.as_array().cloned().unwrap_or_default();
    assert!(plots.len() >= 3, "{plots:?}");
    for plot in &plots {
        let overflow = plot[1].as_f64().unwrap_or(f64::MAX);
        let smallest = plot[2].as_f64().unwrap_or(0.0);
        let rightmost = plot[3].as_f64().unwrap_or(f64::MAX);
        assert!(
            overflow <= 1.0 && rightmost <= 390.0,
            "{plot}: scrolls sideways or its legend is off-screen"
        );
        assert!(smallest >= 11.0, "{plot}: text under 11 px");
    }
    // a lesson open: its reveal, close and guess controls are thumb-sized too
    let link = format!("{}?lesson=memory-wall&predict=1", s.base);
    page::goto(&client, &link).await;
    page::text_once(&client, "#lesson .question", "VGG-16").await;
    let small = small_targets(&client).await;
    assert!(small.is_empty(), "targets under 40 px with a lesson open: {small:?}");
    // revealed, the answer is where the question was: in view, not thousands of pixels away
    page::click(&client, "#reveal").await;
    page::text_once(&client, "#lesson .answer", "out of memory").await;
    let [top, bottom, _, _] = eventually("the answer in view", || async {
        let r = rect(&client, "#lesson .answer").await;
        (r[0] >= -1.0 && r[1] <= 845.0).then_some(r)
    })
    .await;
    assert!(top >= -1.0 && bottom <= 845.0, "{top} {bottom}");
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_projector_shows_a_lesson_s_ranking_and_plot_on_one_screen() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::viewport(&client, 853, 480).await;
    for (lesson, plot) in [("memory-wall", "#memory-plot"), ("data-stops-scaling", "#scaling-plot")] {
        let lesson = paradl::app::lessons::find(lesson).expect("the lesson");
        open(
            &client,
            &format!("{}{}", s.base, paradl::app::lessons::query(lesson, false)),
        )
        .await;
        page::text_once(&client, "#lesson .question", "").await;
        // the teacher scrolls the ranking to the top: the ranking and the lesson's plot are on one screen
        let [ranking, plot] = eventually("the ranking and the plot on one screen", || async {
            client
                .execute(
                    "document.querySelector('#ranking').scrollIntoView({ block: 'start' });",
                    vec![],
                )
                .await
                .ok()?;
            let ranking = rect(&client, "#ranking").await;
            let plot = rect(&client, &format!("{plot} .plot-area")).await;
            (ranking[0] >= -1.0 && plot[1] <= 481.0).then_some([ranking, plot])
        })
        .await;
        assert!(
            ranking[1] <= plot[0],
            "{} ranking {ranking:?} above its plot {plot:?}",
            lesson.id
        );
    }
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_projector_changes_the_gpu_count_without_scrolling() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::viewport(&client, 853, 480).await;
    open(&client, &s.base).await;
    // the GPU field is on screen, at its size, not clipped to a pixel
    let [top, bottom, left, right] = rect(&client, "#bar-gpus").await;
    assert!(
        top >= 0.0 && bottom <= 480.0 && left >= 0.0 && right <= 853.0 && bottom - top >= 20.0 && right - left >= 40.0,
        "{:?}",
        [top, bottom, left, right]
    );
    let scrolled = client
        .execute("return window.scrollY;", vec![])
        .await
        .expect("scrollY")
        .as_f64()
        .unwrap_or(0.0);
    page::type_into(&client, "#bar-gpus", "16").await;
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 16, "32")).await;
    let after = client
        .execute("return window.scrollY;", vec![])
        .await
        .expect("scrollY")
        .as_f64()
        .unwrap_or(0.0);
    assert_eq!(scrolled, after, "no scrolling to change the GPUs");
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_phone_sees_the_ranking_after_changing_the_gpus_with_a_lesson_open() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::viewport(&client, 390, 844).await;
    page::goto(&client, &format!("{}?lesson=data-stops-scaling", s.base)).await;
    page::text_once(&client, "#lesson .answer", "").await;
    let before = ranking(&client).await;
    let field = client.find(Locator::Css("#bar-gpus")).await.expect("the bar's field");
    field.clear().await.expect("cleared");
    // typed, then committed with Enter
    field.send_keys("64\u{E007}").await.expect("typed");
    page::ranking_change(&client, &before).await;
    let [top, _, _, _] = eventually("the ranking in view", || async {
        let r = rect(&client, "#ranking").await;
        (r[0] >= 0.0 && r[0] < 844.0 * 0.6).then_some(r)
    })
    .await;
    assert!(top < 844.0 * 0.6, "the ranking's top at {top}");
    client.close().await.ok();
}
