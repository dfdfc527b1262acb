//! A first visit: the default view equals the CLI, the placeholder then the
//! app within its budget, a sub-path and offline, reload, accessibility, and
//! every text read without raw labels.

use super::*;
use crate::explaining::explained;
use crate::planner::plan_done;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn loads_the_default_view_with_the_clis_ranking() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let rows = open(&client, &s.base).await;
    assert_eq!(rows, cli_ranking("resnet50", "abci", 64, "32"));
    assert_eq!(value(&client, "#model").await, "resnet50");
    assert_eq!(value(&client, "#cluster").await, "abci");
    assert_eq!(value(&client, "#gpus").await, "64");
    assert_eq!(value(&client, "#samples-per-gpu").await, "32");
    for plot in ["#scaling-plot", "#comparison-plot", "#memory-plot"] {
        let html = page::html(&client, plot).await;
        assert!(
            html.contains("<svg") && html.contains("class=\"mark"),
            "{plot} has a drawing and marks"
        );
    }
    let link = client.find(Locator::Css("#share-link")).await.expect("a link");
    assert_eq!(link.attr("href").await.ok().flatten().as_deref(), Some(s.base.as_str()));
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn reload_restores_the_last_state() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let rows = open(&client, &s.base).await;
    client
        .find(Locator::Css("#model"))
        .await
        .expect("#model")
        .select_by_value("resnet152")
        .await
        .expect("selected");
    let rows = ranking_change(&client, &rows).await;
    client.refresh().await.expect("reloaded");
    page::taken_over(&client).await;
    let again = open(&client, &s.base).await;
    assert_eq!(again, rows, "the bare address restores the last state from storage");
    assert_eq!(value(&client, "#model").await, "resnet152");
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn the_built_app_works_under_a_sub_path_and_offline_after_a_first_visit() {
    let driver = web::driver();
    let (port, online) = web::serve_at(web::dist(), "/course/paradl/");
    let base = format!("http://127.0.0.1:{port}/course/paradl/");
    let client = web::browser(&driver).await;
    // nothing is served from the host's root: the app must use its sub-path
    let rows = open(&client, &base).await;
    assert_eq!(rows, cli_ranking("resnet50", "abci", 64, "32"));
    // the planner's worker loads from beside the page too
    page::click(&client, "#plan summary").await;
    plan_done(&client, "epoch time").await;
    // a view, and its share link under the sub-path
    let input = client.find(Locator::Css("#gpus")).await.expect("#gpus");
    input.clear().await.expect("cleared");
    input.send_keys("16").await.expect("typed");
    let shown = ranking_becomes(&client, &cli_ranking("resnet50", "abci", 16, "32")).await;
    let href = page::share_link(&client, |h| h.starts_with(&format!("{base}?s="))).await;
    // the service worker has taken the page and cached the built files
    until_true(
        &client,
        "the service worker",
        "return !!navigator.serviceWorker.controller && (await caches.keys()).length > 0;",
    )
    .await;
    // offline: a reload and the share link still open, with their view
    online.store(false, std::sync::atomic::Ordering::SeqCst);
    page::goto(&client, &href).await;
    let offline = eventually("the ranking offline", || async {
        let rows = ranking(&client).await;
        (!rows.is_empty()).then_some(rows)
    })
    .await;
    assert_eq!(offline, shown);
    assert_eq!(value(&client, "#gpus").await, "16");
    client.close().await.ok();
}

/// Runs axe-core (npm, `node_modules/axe-core`) on the page: the WCAG 2.0,
/// 2.1 and 2.2 A and AA rules' violations (target size and contrast among
/// them) as `(rule, impact, nodes)`.
pub(crate) async fn accessibility_audit(client: &Client) -> Vec<(String, String, u64)> {
    let axe = std::fs::read_to_string(format!(
        "{}/node_modules/axe-core/axe.min.js",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("axe-core from npm (scripts/dev installs it)");
    client
        .execute(&format!("{axe}\nreturn true;"), vec![])
        .await
        .expect("axe loaded");
    let found = client
        .execute_async(
            "const done = arguments[0]; axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }).then(r => done(r.violations.map(v => [v.id, v.impact || '', v.nodes.length])));",
            vec![],
        )
        .await
        .expect("audited");
    found
        .as_array()
        .map(|list| {
            list.iter()
                .map(|v| {
                    (
                        v[0].as_str().unwrap_or_default().to_string(),
                        v[1].as_str().unwrap_or_default().to_string(),
                        v[2].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Fails on a critical or serious violation of the audit, naming `what`
/// was audited.
async fn assert_no_serious_violations(client: &Client, what: &str) {
    let found = accessibility_audit(client).await;
    eprintln!("axe-core (WCAG 2.2 A and AA) violations on {what}: {found:?}");
    let serious: Vec<_> = found
        .iter()
        .filter(|(_, impact, _)| impact == "critical" || impact == "serious")
        .collect();
    assert!(
        serious.is_empty(),
        "{what}: critical or serious violations: {serious:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn the_page_passes_an_accessibility_audit() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    // every panel open, as a user exploring it would have them
    for summary in [
        ".layer-table summary",
        "#plan summary",
        "#accuracy-view summary",
        "#lessons summary",
        "#glossary summary",
        "#model-doc summary",
    ] {
        page::click(&client, summary).await;
    }
    plan_done(&client, "epoch time").await;
    // an explanation open too
    page::click(&client, "#ranking [data-explain=\"data@64:total\"]").await;
    explained(&client, "data@64:total").await;
    // the glossary names every strategy and kind of communication
    let glossary = page::html(&client, "#glossary").await;
    for term in ["data+spatial", "halo", "weight_allgather"] {
        assert!(glossary.contains(&format!("data-term=\"{term}\"")), "{term}");
    }
    assert_no_serious_violations(&client, "the default page, every section open").await;
    // a lesson revealed, on a phone
    page::viewport(&client, 390, 844).await;
    open(&client, &format!("{}?lesson=memory-wall", s.base)).await;
    page::text_once(&client, ".lesson", "memory wall").await;
    assert_no_serious_violations(&client, "a lesson on a phone").await;
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn every_preset_strategy_and_lesson_reads_without_doubled_words_or_raw_labels() {
    use paradl::app::input::document::Document;
    use paradl::app::input::source::{ClusterSource, ModelSource};
    let s = setup();
    let client = web::browser(&s.driver).await;
    let mut pages: Vec<String> = Vec::new();
    for preset in paradl::oracle::presets::NETWORKS {
        let mut d = Document::default();
        d.question.model = ModelSource::Preset(preset.key.into());
        pages.push(format!("?s={}", paradl::app::page::url::encode(&d)));
    }
    for preset in paradl::oracle::presets::CLUSTERS {
        let mut d = Document::default();
        d.question.cluster = ClusterSource::Preset(preset.key.into());
        pages.push(format!("?s={}", paradl::app::page::url::encode(&d)));
    }
    for lesson in &paradl::app::lessons::LESSONS {
        pages.push(paradl::app::lessons::query(lesson, false));
    }
    // the page's words as a reader sees them, line by line (not the formulas,
    // the layer names or the model's document, hidden for the scan), with
    // every fold open; file names, paths, numbers with a point and torchvision's function names
    // (`convnext_tiny`) are not words
    const SCAN: &str = r#"
document.querySelectorAll('details').forEach(d => d.open = true);
const skip = '#explain, #model-doc, .layer-table, code, pre, textarea, input, select, #profile-note, .explain';
const hidden = [...document.querySelectorAll(skip)];
hidden.forEach(e => e.dataset.scanDisplay = e.style.display);
hidden.forEach(e => e.style.display = 'none');
const text = document.body.innerText.replace(/\S*[./]\S*\w/g, ' ').replace(/torchvision's \w+/g, ' ');
hidden.forEach(e => e.style.display = e.dataset.scanDisplay);
const found = [];
// innerText parts a table's cells with a tab: a word ending one cell and
// starting the next (`78.3 ms` | `2.07 ms`) is no doubled word
const doubled = text.match(/\b(\w{2,})[ \u00a0]+\1\b/gi) || [];
for (const d of doubled) found.push('doubled word: ' + d);
for (const p of ['((', '))', ') (']) if (text.includes(p)) found.push('doubled parentheses: ' + text.substr(text.indexOf(p) - 40, 80));
const raw = text.match(/\b[a-z]+_[a-z]+\b|Some\(|None\b|\{\}|NaN|undefined/g) || [];
for (const r of raw) found.push('raw label: ' + r);
return found;
"#;
    for page in &pages {
        open(&client, &format!("{}{page}", s.base)).await;
        let found = client.execute(SCAN, vec![]).await.expect("scanned");
        assert_eq!(found, Value::Array(Vec::new()), "{page}");
    }
    client.close().await.ok();
}

/// Each file the page fetched until its first full render: `(address,
/// bytes on the wire, bytes decoded)`.
pub(crate) async fn first_view_files(client: &Client) -> Vec<(String, f64, f64)> {
    until_true(
        client,
        "the first full render",
        "return performance.getEntriesByName('paradl-rendered').length > 0;",
    )
    .await;
    let entries = client
        .execute(
            "const rendered = performance.getEntriesByName('paradl-rendered')[0].startTime;
             return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
               .filter(e => e.startTime <= rendered)
               .map(e => [e.name, e.transferSize, e.decodedBodySize]);",
            vec![],
        )
        .await
        .expect("resource timing");
    entries
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| Some((e[0].as_str()?.to_string(), e[1].as_f64()?, e[2].as_f64()?)))
        .collect()
}

/// What the first view may cost on the wire, compressed as the build ships
/// it. Issue 20 asks for 300 KB; with the importers and the planner in the
/// worker and the contract and measured runs fetched when opened, the first
/// view measured 531 KB; the pre-rendered answer in the page (issue 27)
/// added 30 KB of HTML, for 586 KB with `gzip -9` (556 KB with the zopfli
/// copies `scripts/dev` writes), held at 615 KB; features since brought it
/// to 613 KB, and issue 51's inputs (the bar's, a node built from any of
/// 146 GPUs, the plot's GPU range, the planner's memory budget, the
/// largest batches that fit) 17 KB more: 630 KB measured; issue 52's time
/// to train and issue 51's moves brought it to 636 KB, and issue 48's
/// energy, carbon and money (the power model, every GPU's board power with
/// its source, the grids, prices and tariffs, the run's cost inputs, the
/// ranking's cost columns, the plot's metrics, a lesson) 31 KB more: 667 KB
/// measured; issue 47's transformers (attention, its forms and splits, four
/// presets) brought it to 675 KB, and its two hybrid presets (MobileViT-S,
/// CoAtNet-0) to 680.3 KB. This holds that, plus 0.5%, against growth.
pub(crate) const FIRST_VIEW_BUDGET_BYTES: f64 = 684_000.0;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn the_first_view_shows_its_placeholder_then_the_app_compressed_within_budget() {
    // the page as served, before any script runs: the tool's name, its
    // question and a progress line
    let served = std::fs::read_to_string(web::dist().join("index.html")).expect("index.html");
    for part in [
        "id=\"placeholder\"",
        "ParaDL oracle",
        "How should this CNN be parallelised on that cluster",
        "<progress",
    ] {
        assert!(served.contains(part), "the placeholder holds {part}");
    }
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    let placeholder = client
        .execute("return document.getElementById('placeholder') === null;", vec![])
        .await
        .expect("a query");
    assert_eq!(
        placeholder.as_bool(),
        Some(true),
        "the app took the placeholder's place"
    );
    let files = first_view_files(&client).await;
    let wire: f64 = files.iter().map(|(_, wire, _)| wire).sum();
    let names: Vec<&str> = files.iter().map(|(name, _, _)| name.as_str()).collect();
    // the planner's worker is fetched when the planner opens, not before
    assert!(!names.iter().any(|n| n.contains("paradl-worker")), "{names:?}");
    // the model's contract and the measured runs are fetched when first opened
    assert!(
        !names
            .iter()
            .any(|n| n.contains("ORACLE-MODEL") || n.contains("measured-runs")),
        "{names:?}"
    );
    // the WebAssembly and the script came compressed (the build's .gz)
    for kind in ["_bg.wasm", ".js"] {
        let (name, on_wire, decoded) = files
            .iter()
            .find(|(name, _, _)| name.ends_with(kind) && name.contains("paradl-web"))
            .unwrap_or_else(|| panic!("the first view fetched a {kind}: {names:?}"));
        assert!(
            on_wire < &(0.6 * decoded),
            "{name}: {on_wire} bytes on the wire for {decoded}"
        );
    }
    assert!(
        wire <= FIRST_VIEW_BUDGET_BYTES,
        "the first view costs {wire} bytes on the wire: {files:?}"
    );
    // the importers come with the worker, when a network is first imported
    page::click(&client, "#model-import summary").await;
    let net = paradl::oracle::presets::network_preset("alexnet")
        .ok()
        .and_then(|p| p.file())
        .map(|(_, text)| text)
        .expect("AlexNet's .net file");
    client
        .execute(
            "const area = document.querySelector('#model-text'); area.value = arguments[0];
             area.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![Value::from(net)],
        )
        .await
        .expect("pasted");
    page::click(&client, "#model-load").await;
    page::text_once(&client, "#import-summary", "the pasted network").await;
    let fetched = client
        .execute(
            "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('paradl-worker'));",
            vec![],
        )
        .await
        .expect("resource timing");
    assert!(
        fetched.as_array().is_some_and(|names| !names.is_empty()),
        "the worker is fetched once a network is imported: {fetched:?}"
    );
    client.close().await.ok();
}
