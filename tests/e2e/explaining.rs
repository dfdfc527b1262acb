//! Every number explains itself with the engine's values, and the accuracy
//! view shows the measured runs.

use super::*;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn the_accuracy_view_shows_the_measured_runs() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    // the ranking's track record opens the view of the runs it comes from
    page::click(&client, "#ranking tr[data-strategy=\"data\"] .track").await;
    let table = eventually("the accuracy table", || async {
        let html = page::html(&client, "#accuracy-table").await;
        html.contains("data-strategy=\"all\"").then_some(html)
    })
    .await;
    // the same mean accuracy as `paradl validate --tier all`: the runs of the ranking's track record
    let report: Value = serde_json::from_slice(&cli(&["validate", "--tier", "all", "--format", "json"])).expect("JSON");
    let want = report["overall"]["realistic"].as_f64().expect("a number");
    // the accuracy a row of the table shows for the realistic edition, uncalibrated
    let accuracy = |strategy: &'static str| {
        let client = client.clone();
        async move {
            client
                .execute(
                    &format!("return document.querySelector('#accuracy-table tr[data-strategy=\"{strategy}\"] td[data-method=\"realistic\"]').dataset.accuracy;"),
                    vec![],
                )
                .await
                .ok()
                .and_then(|v| v.as_str().and_then(|t| t.parse::<f64>().ok()))
                .expect("the accuracy")
        }
    };
    let shown = accuracy("all").await;
    assert!((shown - want).abs() < 1e-12, "{shown} {want}");
    assert!(table.contains("realistic, calibrated"));
    // the best strategy's badge and the table tell the same runs: data parallelism's
    let data = &report["by_strategy"][0];
    assert_eq!(data["strategy"], "data");
    let badge = client
        .execute(
            "return document.querySelector('#ranking tr[data-strategy=\"data\"] .track').getAttribute('title');",
            vec![],
        )
        .await
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .expect("the data row's track record");
    let runs = data["runs"].as_u64().expect("runs");
    let factor = 1.0 / data["realistic"].as_f64().expect("accuracy");
    assert!(badge.contains(&format!("on {runs} measured runs")), "{badge}");
    assert!(
        badge.contains(&format!("×{}", paradl::oracle::units::significant(factor, 2))),
        "{badge}: ×{factor}"
    );
    let row = accuracy("data").await;
    assert!((row - data["realistic"].as_f64().unwrap_or(0.0)).abs() < 1e-12, "{row}");
    let plot = page::html(&client, "#accuracy-plot").await;
    let marks = plot.matches("class=\"mark\"").count();
    assert_eq!(marks, report["runs"].as_array().map_or(0, Vec::len));
    client.close().await.ok();
}

/// The text and unrounded value of a number on the page.
pub(crate) async fn number(client: &Client, css: &str) -> (String, f64) {
    let element = client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    let text = element.prop("textContent").await.ok().flatten().unwrap_or_default();
    let value = element
        .attr("data-value")
        .await
        .ok()
        .flatten()
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::NAN);
    (text.trim().to_string(), value)
}

/// `paradl COMMAND` on the default view's data-parallel run (ResNet-50 on
/// ABCI, 64 GPUs, 32 samples each) with `extra` options, as JSON.
pub(crate) fn default_data_run(command: &str, extra: &[&str]) -> Value {
    let mut line = vec![
        command,
        "--model",
        "resnet50",
        "--cluster",
        "abci",
        "--strategy",
        "data",
        "--gpus",
        "64",
        "--samples-per-gpu",
        "32",
        "--format",
        "json",
    ];
    line.extend_from_slice(extra);
    serde_json::from_slice(&cli(&line)).expect("JSON")
}

/// Waits for the explanation panel on `key` and returns its result (read
/// again until it is a number: a page still being replaced, after a
/// reload, can hand over an element that is gone).
pub(crate) async fn explained(client: &Client, key: &str) -> (String, f64) {
    let css = format!("#explain[data-explain=\"{key}\"] .explain-result output");
    eventually(&css, || async {
        let element = client.find(Locator::Css(&css)).await.ok()?;
        let text = element.prop("textContent").await.ok().flatten()?;
        let value: f64 = element.attr("data-value").await.ok().flatten()?.parse().ok()?;
        value.is_finite().then(|| (text.trim().to_string(), value))
    })
    .await
}

/// Clicks an SVG mark by script (WebDriver's click aims at the centre of
/// a box, which for a thin bar may be another mark).
pub(crate) async fn click_mark(client: &Client, css: &str) {
    let script = format!(
        "const e = document.querySelector('{css}'); if (!e) return false; e.dispatchEvent(new MouseEvent('click', {{bubbles: true}})); return true;"
    );
    let clicked = client.execute(&script, vec![]).await.expect("clicked");
    assert_eq!(clicked.as_bool(), Some(true), "{css} is there");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_clicked_number_explains_itself_with_the_engines_values() {
    let driver = web::driver();
    let (port, _online) = web::serve_at(web::dist(), "/course/paradl/");
    let base = format!("http://127.0.0.1:{port}/course/paradl/");
    let client = web::browser(&driver).await;
    open(&client, &base).await;

    // a number of the ranking: the panel's result is that number
    let cell = "#ranking tr[data-strategy=\"data\"] [data-explain=\"data@64:total\"]";
    let (text, value) = number(&client, cell).await;
    page::click(&client, cell).await;
    let (shown, result) = explained(&client, "data@64:total").await;
    assert_eq!((shown.as_str(), result), (text.as_str(), value));
    // the contract is fetched with the first explanation that cites it
    let panel = eventually("the model's section", || async {
        let panel = page::html(&client, "#explain").await;
        panel.contains("data-section=\"5\"").then_some(panel)
    })
    .await;
    assert!(panel.contains("T = T_comp + T_comm"), "the formula");
    assert!(panel.contains("Strategies (per iteration)"), "section 5 with its title");
    let focused = client
        .execute("return document.activeElement && document.activeElement.id;", vec![])
        .await
        .expect("focus");
    assert_eq!(focused.as_str(), Some("explain"), "focus moves to the panel");

    // down to the gradient Allreduce, whose values are the CLI's
    page::click(&client, "#explain [data-step=\"communication\"]").await;
    let (_, communication) = explained(&client, "data@64:communication").await;
    let (_, cell_value) = number(&client, "#ranking [data-explain=\"data@64:communication\"]").await;
    assert_eq!(communication, cell_value);
    page::click(&client, "#explain [data-step=\"comm-gradient_allreduce\"]").await;
    let (_, gradient) = explained(&client, "data@64:comm-gradient_allreduce").await;
    let cli_projection = default_data_run("project", &[]);
    assert_eq!(
        Some(gradient),
        cli_projection["communication"]["gradient_allreduce"].as_f64()
    );
    let cli_explained = default_data_run("explain", &["--quantity", "comm-gradient_allreduce"]);
    for symbol in ["d", "m", "α", "β"] {
        let (_, shown) = number(&client, &format!("#explain .term tr[data-symbol=\"{symbol}\"] td.num")).await;
        let want = cli_explained["terms"][0]["symbols"]
            .as_array()
            .and_then(|list| list.iter().find(|s| s["symbol"] == symbol))
            .and_then(|s| s["value"].as_f64());
        assert_eq!(Some(shown), want, "{symbol} as the CLI explains it");
    }

    // the diagram's numbers: each collective's GPUs, bytes and seconds open its kind's explanation
    let keys = client
        .execute(
            "return [...document.querySelectorAll('#diagram-collectives li')].map(li => [...li.querySelectorAll('button[data-explain]')].map(b => b.dataset.explain));",
            vec![],
        )
        .await
        .expect("the diagram's numbers");
    let keys: Vec<Vec<String>> = serde_json::from_value(keys).expect("keys");
    assert!(
        !keys.is_empty() && keys.iter().all(|k| k.len() >= 2 && k.iter().all(|key| *key == k[0])),
        "{keys:?}"
    );
    page::click(
        &client,
        &format!("#diagram-collectives [data-explain=\"{}\"]", keys[0][1]),
    )
    .await;
    let (_, per_kind) = explained(&client, &keys[0][1]).await;
    assert!(keys[0][1].contains(":comm-") && per_kind > 0.0, "{keys:?}: {per_kind}");

    // the summary bar's epoch: the best strategy's, explained
    page::click(&client, "#verdict [data-explain=\"data@64:total\"]").await;
    let (_, epoch) = explained(&client, "data@64:total").await;
    let (_, best) = number(&client, "#ranking [data-explain=\"data@64:total\"]").await;
    assert_eq!(epoch, best);

    // a plot's mark: the scaling curve's point, and a memory bar
    click_mark(&client, "#scaling-plot [data-explain=\"spatial@16:total\"]").await;
    let (_, spatial) = explained(&client, "spatial@16:total").await;
    let cli_spatial = cli_rank(&[
        "--model",
        "resnet50",
        "--cluster",
        "abci",
        "--gpus",
        "16",
        "--samples-per-gpu",
        "32",
    ]);
    let want = cli_spatial.iter().find(|r| r.strategy == "spatial").map(|r| r.total_s);
    assert_eq!(Some(spatial), want);
    click_mark(&client, "#memory-plot [data-explain=\"filter@64:memory\"]").await;
    let (_, memory) = explained(&client, "filter@64:memory").await;
    let (_, cell_memory) = number(&client, "#ranking [data-explain=\"filter@64:memory\"]").await;
    assert_eq!(memory, cell_memory);
    // the panel follows the view, and closes
    page::type_into(&client, "#gpus", "16").await;
    explained(&client, "filter@64:memory").await;
    // the link carries the open explanation: it reopens on it
    let href = page::share_link(&client, |href| {
        href.split("?s=")
            .nth(1)
            .and_then(|state| paradl::app::page::url::decode(state).ok())
            .is_some_and(|inputs| {
                inputs.question.run.gpus == 16
                    && inputs.view.explaining.map(|t| t.key()).as_deref() == Some("filter@64:memory")
            })
    })
    .await;
    page::goto(&client, &href).await;
    let (_, reopened) = explained(&client, "filter@64:memory").await;
    assert_eq!(reopened, memory);
    page::click(&client, "#explain .close").await;
    eventually("the panel closed", || async {
        client.find(Locator::Css("#explain")).await.is_err().then_some(())
    })
    .await;
    client.close().await.ok();
}

/// Every number written in the findings (the best strategy's, every other
/// strategy's, why the best wins and why the others are out), the edition
/// note, the ranking's numbers and limits and the strategy diagram's words
/// that is not inside a number that opens an explanation (or, for a track
/// record, the runs it comes from): `(where, the text)`. Digits
/// after a letter are part of a name (`V100 SXM2`), not numbers; the
/// diagram's drawing, its formulas and its picker are not words.
pub(crate) const UNEXPLAINED_DIGITS: &str = r#"
document.querySelectorAll('#findings details').forEach(d => d.open = true);
const out = [];
for (const root of document.querySelectorAll('#findings, #edition, #ranking td.num, #ranking td.bad, #diagram')) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (/(?<![A-Za-z\d])\d/.test(n.textContent) && !n.parentElement.closest('button[data-explain], a.track, svg, code, select')) {
      out.push([root.id || root.className, n.parentElement.textContent.trim().slice(0, 160)]);
    }
  }
}
return out;"#;

/// The figures of the findings and the edition note: `(data-explain,
/// data-value, text)` of each, in page order.
pub(crate) async fn sentence_figures(client: &Client) -> Vec<(String, f64, String)> {
    let v = client
        .execute(
            "return [...document.querySelectorAll('#findings button[data-explain], #edition button[data-explain]')].map(b => [b.dataset.explain, Number(b.dataset.value), b.textContent.trim()]);",
            vec![],
        )
        .await
        .expect("read");
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| Some((f[0].as_str()?.to_string(), f[1].as_f64()?, f[2].as_str()?.to_string())))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn every_number_of_the_findings_the_edition_note_the_limits_and_the_diagram_explains_itself() {
    use paradl::app::input::document::Document;
    use paradl::app::input::source::ClusterSource;
    let s = setup();
    let client = web::browser(&s.driver).await;
    let mut pages = vec![String::new()];
    for cluster in ["dgx-h100", "dgx1-v100-16gb"] {
        let mut d = Document::default();
        d.question.cluster = ClusterSource::Preset(cluster.into());
        pages.push(format!("?s={}", paradl::app::page::url::encode(&d)));
    }
    for lesson in &paradl::app::lessons::LESSONS {
        pages.push(paradl::app::lessons::query(lesson, false));
    }
    let mut kinds = std::collections::BTreeSet::new();
    for page in &pages {
        open(&client, &format!("{}{page}", s.base)).await;
        let unexplained = client.execute(UNEXPLAINED_DIGITS, vec![]).await.expect("scanned");
        assert_eq!(unexplained, Value::Array(Vec::new()), "{page}");
        let figures = sentence_figures(&client).await;
        assert!(figures.len() >= 5, "{page}: {figures:?}");
        for (key, _, _) in &figures {
            kinds.insert(
                key.split(':')
                    .nth(1)
                    .unwrap_or_default()
                    .split('-')
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            );
        }
        // one figure of each kind the page has opens an explanation ending
        // at its own value (a count, an option's memory, the other edition's epoch)
        let mut seen = std::collections::BTreeSet::new();
        for (key, value, text) in figures {
            let quantity = key.split(':').nth(1).unwrap_or_default().to_string();
            let class = match quantity.split('-').next() {
                Some("total") if quantity != "total" => "edition",
                Some("bound") => "bound",
                // an option's memory (its batch or stage also opens it)
                Some("fit") if text.ends_with('B') => "fit",
                _ => continue,
            };
            if !seen.insert(class) {
                continue;
            }
            let css = format!("#findings button[data-explain=\"{key}\"], #edition button[data-explain=\"{key}\"]");
            let clicked = client
                .execute(
                    &format!(
                        "const b = document.querySelector('{css}'); if (!b) return false; b.click(); return true;"
                    ),
                    vec![],
                )
                .await
                .expect("clicked");
            assert_eq!(clicked.as_bool(), Some(true), "{css}");
            let (_, result) = explained(&client, &key).await;
            if quantity.starts_with("fit-") || quantity.starts_with("total-") {
                assert!(
                    (result - value).abs() <= 1e-9 * value.abs().max(1.0),
                    "{page} {key}: {result} against {value}"
                );
            }
        }
    }
    for kind in ["bound", "fit", "total", "memory", "compute", "communication", "gpu"] {
        assert!(kinds.contains(kind), "a figure explained by {kind}: {kinds:?}");
    }
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_split_limit_names_its_layer_and_the_name_opens_the_layer_table_on_it() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    page::type_into(&client, "#gpus", "256").await;
    page::text_once(&client, "#ranking caption", "at 256 GPUs").await;
    // spatial is out: 256 GPUs exceed the narrowest split layer's width, and the layer is named
    let limit = page::text_once(&client, "#ranking tr[data-strategy=spatial] .limit-words", "layer").await;
    assert!(
        limit.contains("the narrowest split layer's width (113, layer CONV_1)"),
        "{limit}"
    );
    // its limits name two layers (the memory's, keeping the most per sample, and the split's): follow the split's
    let index = client
        .execute(
            "const links = [...document.querySelectorAll('#ranking tr[data-strategy=spatial] .limit-words .layer-link')]; const l = links.find(a => a.textContent === 'CONV_1'); if (!l) return null; l.click(); return Number(l.dataset.layer);",
            vec![],
        )
        .await
        .expect("followed")
        .as_u64()
        .expect("the split's layer is a link");
    // the table opens on that row: its name field holds the layer's name
    let shown = eventually("the layer's row", || async {
        let v = client
            .execute(
                &format!("const i = document.querySelector('.layer-table[open] input[aria-label=\"name of layer {index}\"]'); return i ? i.value : null;"),
                vec![],
            )
            .await
            .ok()?;
        v.as_str().map(str::to_string)
    })
    .await;
    assert_eq!(shown, "CONV_1");
    client.close().await.ok();
}
