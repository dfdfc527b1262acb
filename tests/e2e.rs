//! End-to-end tests of the built app (`dist/`) in headless Chromium:
//! load it, change inputs, read the DOM, share links, bad links and bad
//! values. The ranking on screen must equal what `paradl rank` prints.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/page.rs"]
mod page;
#[path = "support/web.rs"]
mod web;

use std::process::Command;

use fantoccini::{Client, Locator};
use page::{Row, ranking, ranking_becomes, ranking_change};
use serde_json::Value;
use web::eventually;

/// What `paradl rank` prints for a view, as rows.
fn cli_ranking(model: &str, cluster: &str, gpus: u64, samples_per_gpu: &str) -> Vec<Row> {
    cli_rank(&[
        "--model",
        model,
        "--cluster",
        cluster,
        "--gpus",
        &gpus.to_string(),
        "--samples-per-gpu",
        samples_per_gpu,
    ])
}

/// Runs `paradl` and returns what it prints.
fn cli(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_paradl"))
        .args(args)
        .output()
        .expect("paradl runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// What `paradl rank ARGS --format json` prints, as rows.
fn cli_rank(args: &[&str]) -> Vec<Row> {
    let mut line = vec!["rank"];
    line.extend_from_slice(args);
    line.extend_from_slice(&["--format", "json"]);
    let list: Value = serde_json::from_slice(&cli(&line)).expect("JSON");
    list.as_array()
        .expect("a list")
        .iter()
        .map(|p| Row {
            strategy: p["strategy"].as_str().unwrap_or_default().to_string(),
            total_s: p["total_s"].as_f64().unwrap_or(f64::NAN),
            memory_bytes: p["memory_bytes"].as_f64().unwrap_or(f64::NAN),
            feasible: p["feasible"].as_bool().unwrap_or(false),
        })
        .collect()
}

async fn value(client: &Client, css: &str) -> String {
    let element = client.find(Locator::Css(css)).await.expect(css);
    element.prop("value").await.ok().flatten().unwrap_or_default()
}

async fn open(client: &Client, url: &str) -> Vec<Row> {
    page::goto(client, url).await;
    eventually("the ranking", || async {
        let rows = ranking(client).await;
        (!rows.is_empty()).then_some(rows)
    })
    .await
}

/// Waits until `script` returns `true` in the page.
async fn until_true(client: &Client, what: &str, script: &str) {
    eventually(what, || async {
        let done = client.execute(script, vec![]).await.ok()?;
        done.as_bool().filter(|d| *d)
    })
    .await;
}

async fn history_length(client: &Client) -> i64 {
    client
        .execute("return history.length;", vec![])
        .await
        .ok()
        .and_then(|v| v.as_i64())
        .unwrap_or(-1)
}

struct Setup {
    base: String,
    driver: web::Driver,
}

fn setup() -> Setup {
    let port = web::serve(web::dist());
    Setup {
        base: format!("http://127.0.0.1:{port}/"),
        driver: web::driver(),
    }
}

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
async fn changing_model_cluster_and_gpus_updates_ranking_and_plots() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    let entries = history_length(&client).await;
    let scaling = page::html(&client, "#scaling-plot").await;

    let model = client.find(Locator::Css("#model")).await.expect("#model");
    model.select_by_value("vgg16").await.expect("selected");
    ranking_becomes(&client, &cli_ranking("vgg16", "abci", 64, "32")).await;
    assert_ne!(
        page::html(&client, "#scaling-plot").await,
        scaling,
        "the scaling plot follows"
    );

    let cluster = client.find(Locator::Css("#cluster")).await.expect("#cluster");
    cluster.select_by_value("dgx-a100").await.expect("selected");
    ranking_becomes(&client, &cli_ranking("vgg16", "dgx-a100", 64, "32")).await;

    let memory = page::html(&client, "#memory-plot").await;
    page::type_into(&client, "#gpus", "256").await;
    ranking_becomes(&client, &cli_ranking("vgg16", "dgx-a100", 256, "32")).await;
    assert_ne!(page::html(&client, "#memory-plot").await, memory);

    let url = client.current_url().await.expect("a URL").to_string();
    assert!(url.contains("?s="), "{url}");
    // one history entry per view made: the model, the cluster, the GPU
    // count (its keystrokes one entry)
    assert_eq!(history_length(&client).await, entries + 3, "one entry per view");

    // back (or undo) returns to the views made, forward (or redo) again
    client.back().await.expect("back");
    let dgx_64 = cli_ranking("vgg16", "dgx-a100", 64, "32");
    ranking_becomes(&client, &dgx_64).await;
    assert_eq!(value(&client, "#gpus").await, "64");
    page::click(&client, "#undo").await;
    ranking_becomes(&client, &cli_ranking("vgg16", "abci", 64, "32")).await;
    assert_eq!(value(&client, "#cluster").await, "abci");
    page::click(&client, "#redo").await;
    ranking_becomes(&client, &dgx_64).await;
    client.forward().await.expect("forward");
    ranking_becomes(&client, &cli_ranking("vgg16", "dgx-a100", 256, "32")).await;
    assert_eq!(value(&client, "#gpus").await, "256");
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_shared_link_reproduces_the_view_in_a_fresh_browser() {
    let s = setup();
    let first = web::browser(&s.driver).await;
    let rows = open(&first, &s.base).await;
    first
        .find(Locator::Css("#model"))
        .await
        .expect("#model")
        .select_by_value("alexnet")
        .await
        .expect("selected");
    let rows = ranking_change(&first, &rows).await;
    first
        .find(Locator::Css("#cluster"))
        .await
        .expect("#cluster")
        .select_by_value("dgx-h100")
        .await
        .expect("selected");
    ranking_change(&first, &rows).await;
    // typing passes through other valid values ("1", "12"): wait for the last
    page::type_into(&first, "#gpus", "128").await;
    page::type_into(&first, "#samples-per-gpu", "16").await;
    let rows = ranking_becomes(&first, &cli_ranking("alexnet", "dgx-h100", 128, "16")).await;
    let href = page::share_link(&first, |_| true).await;
    first.close().await.ok();

    let second = web::browser(&s.driver).await;
    let shared = open(&second, &href).await;
    assert_eq!(shared, rows);
    assert_eq!(value(&second, "#model").await, "alexnet");
    assert_eq!(value(&second, "#cluster").await, "dgx-h100");
    assert_eq!(value(&second, "#gpus").await, "128");
    assert_eq!(value(&second, "#samples-per-gpu").await, "16");
    assert_eq!(
        second
            .find_all(Locator::Css("#notice"))
            .await
            .map(|v| v.len())
            .unwrap_or(1),
        0
    );
    second.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn malformed_and_oversized_links_show_an_alert_and_the_defaults() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let defaults = cli_ranking("resnet50", "abci", 64, "32");
    let oversized = "A".repeat(300_000);
    for link in ["!!not-a-state!!", "eyJtIjoibGVuZXQifQ", oversized.as_str()] {
        let rows = open(&client, &format!("{}?s={link}", s.base)).await;
        assert_eq!(rows, defaults);
        let notice = client.find(Locator::Css("#notice")).await.expect("a notice");
        assert_eq!(notice.attr("role").await.ok().flatten().as_deref(), Some("alert"));
        let text = notice.text().await.unwrap_or_default();
        assert!(text.contains("could not be opened"), "{text}");
    }
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn an_invalid_value_shows_an_error_and_keeps_the_results() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let rows = open(&client, &s.base).await;
    let plot = page::html(&client, "#scaling-plot").await;
    for (input, bad) in [("#gpus", "0"), ("#gpus", "lots"), ("#samples-per-gpu", "-2")] {
        page::type_into(&client, input, bad).await;
        let error = format!("{input}-error");
        let alert = eventually("an alert", || async {
            let e = client.find(Locator::Css(&error)).await.ok()?;
            e.attr("role").await.ok().flatten()
        })
        .await;
        assert_eq!(alert, "alert");
        assert_eq!(value(&client, input).await, bad, "what the user typed stays");
        assert_eq!(ranking(&client).await, rows, "the last valid results stay");
        assert_eq!(page::html(&client, "#scaling-plot").await, plot);
        let restore = if input == "#gpus" { "64" } else { "32" };
        page::type_into(&client, input, restore).await;
        eventually("the alert to go", || async {
            client
                .find_all(Locator::Css(&error))
                .await
                .ok()
                .filter(|v| v.is_empty())
                .map(|_| ())
        })
        .await;
    }
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
async fn a_view_beyond_the_largest_allocation_opens_from_its_link_and_survives_reload() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let mut document = paradl::app::input::document::Document::default();
    document.question.run.gpus = 8192;
    let link = paradl::app::page::url::encode(&document);
    let rows = open(&client, &format!("{}?s={link}", s.base)).await;
    assert_eq!(value(&client, "#gpus").await, "8192");
    assert_eq!(
        client
            .find_all(Locator::Css("#notice"))
            .await
            .map(|v| v.len())
            .unwrap_or(1),
        0,
        "the link is accepted"
    );
    assert!(
        rows.iter().all(|r| !r.feasible),
        "ABCI has 4096 GPUs: every strategy is ruled out"
    );
    assert_eq!(rows, cli_ranking("resnet50", "abci", 8192, "32"));
    client.refresh().await.expect("reloaded");
    page::taken_over(&client).await;
    let url = client.current_url().await.expect("a URL");
    let again = open(&client, url.as_ref()).await;
    assert_eq!(again, rows);
    assert_eq!(value(&client, "#gpus").await, "8192");
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn edition_and_calibration_change_the_ranking_and_travel_in_the_link() {
    let s = setup();
    let first = web::browser(&s.driver).await;
    let realistic = open(&first, &s.base).await;
    let base = [
        "--model",
        "resnet50",
        "--cluster",
        "abci",
        "--gpus",
        "64",
        "--samples-per-gpu",
        "32",
    ];
    assert_eq!(realistic, cli_rank(&base));
    // the ideal edition: ParaDL's published numbers
    let edition = first.find(Locator::Css("#fidelity")).await.expect("#fidelity");
    edition.select_by_value("ideal").await.expect("selected");
    let mut ideal_args = base.to_vec();
    ideal_args.extend_from_slice(&["--fidelity", "ideal"]);
    let ideal = ranking_becomes(&first, &cli_rank(&ideal_args)).await;
    assert_ne!(ideal, realistic);
    edition.select_by_value("realistic").await.expect("selected");
    ranking_becomes(&first, &realistic).await;

    // measured runs calibrate every strategy; the ranking equals the CLI's calibrated one
    let csv = "strategy,gpus,mini_batch,group,iteration_s,compute_s,communication_s\ndata,64,2048,,0.3,,\ndata+spatial,64,1024,,0.25,,\n";
    page::type_into(&first, "#calibration-input", csv).await;
    let dir = std::env::temp_dir().join(format!("paradl-e2e-cal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let measured = dir.join("runs.csv");
    std::fs::write(&measured, csv).expect("written");
    let calibration = cli(&[
        "calibrate",
        "--model",
        "resnet50",
        "--cluster",
        "abci",
        "--measured",
        &measured.to_string_lossy(),
        "--format",
        "json",
    ]);
    let factors = dir.join("calibration.json");
    std::fs::write(&factors, calibration).expect("written");
    let mut calibrated_args = base.to_vec();
    let factors_path = factors.to_string_lossy().to_string();
    calibrated_args.extend_from_slice(&["--calibration", &factors_path]);
    let calibrated = ranking_becomes(&first, &cli_rank(&calibrated_args)).await;
    // data at 64 GPUs, 32 samples each: 625 iterations of the measured 0.3 s
    let data = calibrated.iter().find(|r| r.strategy == "data").expect("data");
    assert!((data.total_s - 625.0 * 0.3).abs() < 1e-6, "{}", data.total_s);
    let factor_rows = page::html(&first, "#calibration .factors").await;
    assert!(factor_rows.contains("data-strategy=\"data+spatial\""), "{factor_rows}");

    // a bad row shows its error next to the input and keeps the last calibration
    page::type_into(&first, "#calibration-input", &format!("{csv}filter,4,x,,1,,\n")).await;
    let error = eventually("the row's error", || async {
        let e = first
            .find(Locator::Css("#calibration .error[data-line='4']"))
            .await
            .ok()?;
        e.text().await.ok()
    })
    .await;
    assert!(error.contains("Line 4, column 10"), "{error}");
    assert_eq!(ranking(&first).await, calibrated);
    page::type_into(&first, "#calibration-input", csv).await;

    // the link carries edition and calibration into a fresh browser
    let href = page::share_link(&first, |_| true).await;
    first.close().await.ok();
    let second = web::browser(&s.driver).await;
    assert_eq!(open(&second, &href).await, calibrated);
    assert_eq!(value(&second, "#fidelity").await, "realistic");
    assert_eq!(value(&second, "#calibration-input").await, csv);
    // the runs measured on ABCI, fetched when asked for, replace the typed ones
    page::click(&second, "#calibration-load").await;
    let shipped = paradl::oracle::validation::measured_csv("resnet50", paradl::oracle::validation::Tier::Head);
    assert!(shipped.lines().count() > 2, "{shipped}");
    let loaded = eventually("the measured runs", || async {
        Some(value(&second, "#calibration-input").await).filter(|v| v.as_str() != csv)
    })
    .await;
    assert_eq!(loaded, shipped);
    second.close().await.ok();
}

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

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn training_practice_changes_the_memory_parts_as_the_cli_does() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let rows = open(&client, &s.base).await;
    for (css, value) in [("#precision", "bf16"), ("#optimizer", "adam"), ("#zero", "1")] {
        let select = client.find(Locator::Css(css)).await.expect(css);
        select.select_by_value(value).await.expect("selected");
    }
    page::click(&client, "#recompute").await;
    let args = [
        "--model",
        "resnet50",
        "--cluster",
        "abci",
        "--gpus",
        "64",
        "--samples-per-gpu",
        "32",
        "--precision",
        "bf16",
        "--optimizer",
        "adam",
        "--zero",
        "1",
        "--recompute",
    ];
    let shown = ranking_becomes(&client, &cli_rank(&args)).await;
    assert_ne!(shown, rows);
    // every part of every row, as the CLI's JSON gives it
    let mut line = vec!["rank"];
    line.extend_from_slice(&args);
    line.extend_from_slice(&["--format", "json"]);
    let list: Value = serde_json::from_slice(&cli(&line)).expect("JSON");
    let parts = client
        .execute(
            "return Array.from(document.querySelectorAll('#ranking tbody tr')).map(r => r.dataset.memoryParts);",
            vec![],
        )
        .await
        .expect("parts");
    let parts = parts.as_array().expect("a list");
    assert_eq!(parts.len(), list.as_array().map_or(0, Vec::len));
    for (row, p) in parts.iter().zip(list.as_array().expect("a list")) {
        let numbers: Vec<f64> = row
            .as_str()
            .unwrap_or_default()
            .split(',')
            .filter_map(|v| v.parse().ok())
            .collect();
        // every part, in the plot's order
        let want: Vec<f64> = paradl::oracle::Part::ALL
            .iter()
            .map(|part| {
                p["memory"][format!("{}_bytes", part.key())]
                    .as_f64()
                    .unwrap_or(f64::NAN)
            })
            .collect();
        assert_eq!(numbers, want, "{}", p["strategy"]);
    }
    // the memory plot stacks the parts
    let plot = page::html(&client, "#memory-plot").await;
    for part in ["weights", "gradients", "optimizer states", "activations", "reserved"] {
        assert!(plot.contains(part), "{part}");
    }
    // and the link carries the options
    let href = page::share_link(&client, |_| true).await;
    client.close().await.ok();
    let second = web::browser(&s.driver).await;
    assert_eq!(open(&second, &href).await, shown);
    assert_eq!(value(&second, "#precision").await, "bf16");
    assert_eq!(value(&second, "#zero").await, "1");
    second.close().await.ok();
}

/// The planner's table rows: `(data-config, data-strategy, data-gpus, data-total-s)`.
async fn plan_rows(client: &Client) -> Vec<(String, String, String, String)> {
    let rows = client
        .execute(
            "return Array.from(document.querySelectorAll('#plan-table tbody tr[data-config]')).map(r => [r.dataset.config, r.dataset.strategy, r.dataset.gpus, r.dataset.totalS]);",
            vec![],
        )
        .await
        .unwrap_or(Value::Null);
    rows.as_array()
        .map(|list| {
            list.iter()
                .map(|r| {
                    let cell = |i: usize| r[i].as_str().unwrap_or_default().to_string();
                    (cell(0), cell(1), cell(2), cell(3))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Waits for the planner to finish and returns `(evaluated, rows)`.
async fn plan_done(client: &Client, caption: &str) -> (u64, Vec<(String, String, String, String)>) {
    eventually("the planner's front", || async {
        let status = client.find(Locator::Css("#plan-status[data-state=done]")).await.ok()?;
        let evaluated = status.attr("data-evaluated").await.ok().flatten()?.parse().ok()?;
        let table = page::html(client, "#plan-table caption").await;
        let rows = plan_rows(client).await;
        (table.contains(caption) && !rows.is_empty()).then_some((evaluated, rows))
    })
    .await
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn the_planner_finds_the_clis_front_and_a_pick_loads_it() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    page::click(&client, "#plan summary").await;
    let (evaluated, rows) = plan_done(&client, "epoch time").await;
    // the same search as the command line's, ten best by time
    let cli_plan: Value = serde_json::from_slice(&cli(&[
        "search",
        "--model",
        "resnet50",
        "--cluster",
        "abci",
        // the planner's budget is the run's, 64 GPUs
        "--max-gpus",
        "64",
        "--samples-per-gpu",
        "32",
        "--format",
        "json",
    ]))
    .expect("JSON");
    assert_eq!(Some(evaluated), cli_plan["evaluated"].as_u64());
    let front = cli_plan["front"].as_array().expect("a front");
    assert_eq!(rows.len(), front.len().min(10));
    for ((_, strategy, gpus, total), c) in rows.iter().zip(front) {
        assert_eq!(strategy, c["strategy"].as_str().unwrap_or_default());
        assert_eq!(gpus, &c["gpus"].to_string());
        assert_eq!(total.parse::<f64>().ok(), c["total_s"].as_f64());
    }
    let plot = page::html(&client, "#plan-plot").await;
    assert_eq!(
        plot.matches("class=\"mark pickable\"").count(),
        front.len(),
        "a point per front member"
    );

    // pick a row at a GPU count other than the view's
    let before = client
        .find(Locator::Css("#share-link"))
        .await
        .expect("link")
        .attr("href")
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
    let (config, strategy, gpus, total) = rows.iter().find(|r| r.2 != "64").cloned().expect("another count");
    client
        .find(Locator::Css(&format!("#plan-table tr[data-config='{config}']")))
        .await
        .expect("row")
        .click()
        .await
        .expect("picked");
    eventually("the main view at the picked configuration", || async {
        let shown = value(&client, "#gpus").await;
        let row = client
            .find(Locator::Css(&format!("#ranking tr[data-strategy='{strategy}']")))
            .await
            .ok()?;
        let shown_total = row.attr("data-total-s").await.ok().flatten()?;
        (shown == gpus && shown_total == total).then_some(())
    })
    .await;
    // the share link of the picked view
    let href = page::share_link(&client, |h| h != before).await;
    // the pick does not restart the search: same front
    assert_eq!(plan_done(&client, "epoch time").await.1, rows);

    // another objective restarts it
    client
        .find(Locator::Css("#plan-objective"))
        .await
        .expect("objective")
        .select_by_value("memory")
        .await
        .expect("selected");
    let (_, by_memory) = plan_done(&client, "memory per GPU").await;
    assert_ne!(by_memory, rows);
    client.close().await.ok();

    // the link reopens the picked view with the planner open
    let second = web::browser(&s.driver).await;
    page::goto(&second, &href).await;
    let (_, again) = plan_done(&second, "epoch time").await;
    assert_eq!(again, rows);
    assert_eq!(value(&second, "#gpus").await, gpus);
    second.close().await.ok();
}

/// Drops `(name, bytes)` files on `target`, as a user dragging them from
/// their files would.
async fn drop_files(client: &Client, target: &str, files: &[(&str, &[u8])]) {
    use base64::Engine;
    let files: Vec<Value> = files
        .iter()
        .map(|(name, bytes)| {
            Value::from(vec![
                Value::from(*name),
                Value::from(base64::engine::general_purpose::STANDARD.encode(bytes)),
            ])
        })
        .collect();
    client
        .execute(DROP_FILES, vec![Value::from(target), Value::from(files)])
        .await
        .expect("dropped");
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_dropped_onnx_graph_becomes_the_network_and_a_wrong_file_keeps_it() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let before = open(&client, &s.base).await;
    let path = format!("{}/tests/onnx/light_squeezenet.onnx", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("the graph");
    drop_files(&client, "#model-import", &[("squeezenet.onnx", &bytes)]).await;
    let summary = page::text_once(&client, "#import-summary", "66 layers").await;
    assert!(summary.contains("1235496 parameters"), "{summary}");
    // the ranking is the CLI's for the same graph
    let shown = ranking_becomes(&client, &cli_ranking(&path, "abci", 64, "32")).await;
    assert_ne!(shown, before);
    // the plots follow
    for plot in ["#scaling-plot", "#memory-plot"] {
        assert!(page::html(&client, plot).await.contains("class=\"mark"), "{plot}");
    }
    // the layer table lists the imported layers, with the groups column
    page::click(&client, ".layer-table summary").await;
    let header = page::html(&client, "#layers thead").await;
    assert!(header.contains("groups"), "{header}");
    // a wrong file: its error, and the network stays
    drop_files(&client, "#model-import", &[("broken.onnx", &bytes[..bytes.len() / 2])]).await;
    let error = page::text_once(&client, "#import-error", "").await;
    assert!(error.starts_with("broken.onnx: ONNX graph"), "{error}");
    assert_eq!(ranking(&client).await, shown);
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_whole_detection_export_imports_and_says_what_is_no_layer() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let before = open(&client, &s.base).await;
    let path = format!(
        "{}/tests/onnx/detection/fasterrcnn_resnet50_fpn.onnx",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).expect("the graph");
    drop_files(&client, "#model-import", &[("fasterrcnn.onnx", &bytes)]).await;
    let summary = page::text_once(&client, "#import-summary", "parameters").await;
    // the first stage, PyTorch's count less the second stage, which the summary says
    assert!(summary.contains("27446351 parameters"), "{summary}");
    assert!(
        summary.contains("parameters of the second stage, not counted 14362055"),
        "{summary}"
    );
    assert!(summary.contains("inference-only post-processing"), "{summary}");
    // the ranking is the CLI's for the same graph
    let shown = ranking_becomes(&client, &cli_ranking(&path, "abci", 64, "32")).await;
    assert_ne!(shown, before);
    client.close().await.ok();
}

/// Drops files `[[name, base64], ...]` on the element `target`.
const DROP_FILES: &str = r#"
const [target, files] = arguments;
const transfer = new DataTransfer();
for (const [name, base64] of files) {
  transfer.items.add(new File([Uint8Array.from(atob(base64), c => c.charCodeAt(0))], name));
}
const zone = document.querySelector(target);
zone.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }));
zone.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
"#;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_profile_dropped_beside_the_network_gives_its_compute_and_travels_in_the_link() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    let dir = format!("{}/tests/profile/resnet18-cpu-b8", env!("CARGO_MANIFEST_DIR"));
    let (onnx, profile) = (format!("{dir}/model.onnx"), format!("{dir}/profile.json"));
    let read = |path: &str| std::fs::read(path).expect("the fixture");
    drop_files(
        &client,
        "#profile-drop",
        &[("profile.json", &read(&profile)), ("model.onnx", &read(&onnx))],
    )
    .await;
    let sentence = "compute from your profile of resnet18 on x86_64 (cpu) at batch 8";
    let note = page::text_once(&client, "#profile-note", "at batch 8").await;
    assert!(note.to_lowercase().contains(sentence), "{note}");
    assert!(note.to_lowercase().contains("step at batch 8: measured"), "{note}");
    // the ranking is the CLI's for the same two files
    let args = [
        "--model",
        &onnx,
        "--profile",
        &profile,
        "--cluster",
        "abci",
        "--gpus",
        "64",
        "--samples-per-gpu",
        "32",
    ];
    let shown = ranking_becomes(&client, &cli_rank(&args)).await;
    // the explanation of a compute number shows the measured step it came from
    client
        .find(Locator::Css("#ranking [data-explain=\"data@64:compute\"]"))
        .await
        .expect("the compute cell")
        .click()
        .await
        .expect("clicked");
    let explanation = page::text_once(&client, "#explain", "T_step").await;
    assert!(
        explanation.contains("the training step the profile measured"),
        "{explanation}"
    );
    // the share link carries the profile: a fresh browser shows the same note and ranking
    let href = page::share_link(&client, |_| true).await;
    client.close().await.ok();
    let second = web::browser(&s.driver).await;
    assert_eq!(open(&second, &href).await, shown);
    let again = page::text_once(&second, "#profile-note", "at batch 8").await;
    assert_eq!(again, note);
    second.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_model_link_opens_the_network_at_that_address_or_says_why_not() {
    let s = setup();
    // the files of a course page, served from another origin
    let files = web::serve(std::path::PathBuf::from(format!(
        "{}/tests",
        env!("CARGO_MANIFEST_DIR")
    )));
    let address = |file: &str| format!("http://127.0.0.1:{files}/{file}");
    let client = web::browser(&s.driver).await;
    page::goto(
        &client,
        &format!("{}?model={}", s.base, address("onnx/light_squeezenet.onnx")),
    )
    .await;
    let summary = page::text_once(&client, "#import-summary", "66 layers").await;
    assert!(summary.contains("light_squeezenet.onnx"), "{summary}");
    // the share link then carries the network itself
    let href = page::share_link(&client, |h| !h.contains("model=")).await;
    let shown = ranking(&client).await;
    client.close().await.ok();
    let second = web::browser(&s.driver).await;
    assert_eq!(open(&second, &href).await, shown);
    second.close().await.ok();

    // a missing file and a file of another kind: the notice says why, the view stays
    for (file, why) in [
        ("onnx/missing.onnx", "404"),
        ("onnx/count.py", "not a file this tool reads"),
    ] {
        let client = web::browser(&s.driver).await;
        let before = open(&client, &s.base).await;
        page::goto(&client, &format!("{}?model={}", s.base, address(file))).await;
        let notice = eventually("the notice", || async {
            let element = client.find(Locator::Css(".notice")).await.ok()?;
            element.text().await.ok().filter(|t| t.contains(why))
        })
        .await;
        assert!(notice.contains(&address(file)), "{notice}");
        assert_eq!(ranking(&client).await, before);
        client.close().await.ok();
    }
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

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_preset_offers_its_typical_run_and_a_phone_sees_results_first() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    let model = client.find(Locator::Css("#model")).await.expect("#model");
    model.select_by_value("cosmoflow").await.expect("selected");
    page::click(&client, "#typical-run").await;
    ranking_becomes(&client, &cli_ranking("cosmoflow", "abci", 64, "0.25")).await;
    assert_eq!(value(&client, "#samples-per-gpu").await, "0.25");
    assert!(
        client.find(Locator::Css("#typical-run")).await.is_err(),
        "offered only while not in use"
    );

    // a phone: no sideways scroll, and the ranking above the inputs
    client.set_window_size(390, 844).await.expect("resized");
    let layout = eventually("the phone layout", || async {
        let v = client
            .execute(
                "const d = document.scrollingElement; return [d.scrollWidth, window.innerWidth, document.querySelector('#ranking').getBoundingClientRect().top, document.querySelector('.inputs').getBoundingClientRect().top];",
                vec![],
            )
            .await
            .ok()?;
        let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
        (n(1) <= 400.0).then(|| (n(0), n(1), n(2), n(3)))
    })
    .await;
    assert!(layout.0 <= layout.1, "no sideways scroll: {layout:?}");
    assert!(layout.2 < layout.3, "the ranking comes before the inputs: {layout:?}");
    client.close().await.ok();
}

/// Runs axe-core (npm, `node_modules/axe-core`) on the page: the WCAG 2 A
/// and AA rules' violations as `(rule, impact, nodes)`.
async fn accessibility_audit(client: &Client) -> Vec<(String, String, u64)> {
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
            "const done = arguments[0]; axe.run(document, { runOnly: ['wcag2a', 'wcag2aa'] }).then(r => done(r.violations.map(v => [v.id, v.impact || '', v.nodes.length])));",
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
    let found = accessibility_audit(&client).await;
    eprintln!("axe-core (WCAG 2 A and AA) violations: {found:?}");
    let serious: Vec<_> = found
        .iter()
        .filter(|(_, impact, _)| impact == "critical" || impact == "serious")
        .collect();
    assert!(
        serious.is_empty(),
        "critical or serious accessibility violations: {serious:?}"
    );
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_lesson_link_asks_first_and_reveals_on_demand() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    // the lessons are listed with their links
    page::click(&client, "#lessons summary").await;
    let link = client
        .find(Locator::Css("#lessons li[data-lesson='memory-wall'] a.predict"))
        .await
        .expect("the lesson's predict link")
        .attr("href")
        .await
        .ok()
        .flatten()
        .expect("an address");
    assert!(
        link.contains("lesson=memory-wall") && link.contains("predict=1"),
        "{link}"
    );
    page::goto(&client, &link).await;
    let question = page::text_once(&client, "#lesson .question", "VGG-16").await;
    assert!(question.contains("which strategies fit"), "{question}");
    page::text_once(&client, "#hidden-results", "hidden").await;
    assert!(ranking(&client).await.is_empty(), "no results before the guess");
    page::click(&client, "#reveal").await;
    let shown = eventually("the revealed ranking", || async {
        let rows = ranking(&client).await;
        (!rows.is_empty()).then_some(rows)
    })
    .await;
    assert_eq!(shown, cli_ranking("vgg16", "abci", 8, "256"));
    page::text_once(&client, "#lesson .answer", "out of memory").await;
    client.close().await.ok();
}

/// The text and unrounded value of a number on the page.
async fn number(client: &Client, css: &str) -> (String, f64) {
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
fn default_data_run(command: &str, extra: &[&str]) -> Value {
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

/// Waits for the explanation panel on `key` and returns its result.
async fn explained(client: &Client, key: &str) -> (String, f64) {
    let css = format!("#explain[data-explain=\"{key}\"] .explain-result output");
    eventually(&css, || async { client.find(Locator::Css(&css)).await.ok() }).await;
    number(client, &css).await
}

/// Clicks an SVG mark by script (WebDriver's click aims at the centre of
/// a box, which for a thin bar may be another mark).
async fn click_mark(client: &Client, css: &str) {
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

/// The bounding box `[top, bottom, left, right]` of `css` in the viewport.
async fn rect(client: &Client, css: &str) -> [f64; 4] {
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
async fn plot_text_px(client: &Client, css: &str) -> f64 {
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
async fn a_lesson_opens_on_its_question_ranking_and_plot_and_takes_a_guess() {
    let s = setup();
    for (width, height) in [(853, 480), (360, 740)] {
        let client = web::browser(&s.driver).await;
        page::viewport(&client, width, height).await;
        let lesson = paradl::app::lessons::find("memory-wall").expect("the lesson");
        let query = paradl::app::lessons::query(lesson, false);
        open(&client, &format!("{}{query}", s.base)).await;
        page::text_once(&client, "#lesson .question", "VGG-16").await;
        // the question and the ranking are on screen; the lesson's plot follows the ranking,
        // and the explanation (opened by the link) comes after it and takes no focus
        let question = rect(&client, "#lesson .question").await;
        let ranking = rect(&client, "#ranking").await;
        assert!(
            question[0] >= 0.0 && question[1] <= f64::from(height),
            "{width}x{height}: question {question:?}"
        );
        assert!(ranking[0] < f64::from(height), "{width}x{height}: ranking {ranking:?}");
        let order = client
            .execute(
                "const r = document.querySelector('#ranking'), p = document.querySelector('#memory-plot'), e = document.querySelector('#explain'); \
                 return [!!(r.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING), !!(p.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING), document.activeElement === e];",
                vec![],
            )
            .await
            .expect("order");
        assert_eq!(order, serde_json::json!([true, true, false]), "{width}x{height}");
        // the lesson stays in the address, and in the link
        let search = client.execute("return location.search;", vec![]).await.expect("search");
        assert!(
            search.as_str().unwrap_or_default().contains("lesson=memory-wall"),
            "{search}"
        );
        client.close().await.ok();
    }
    // predict, then reveal: a guess of the kind each question asks, then how close it was
    let predict = |id: &str| {
        let lesson = paradl::app::lessons::find(id).expect("the lesson");
        format!("{}{}", s.base, paradl::app::lessons::query(lesson, true))
    };
    let client = web::browser(&s.driver).await;
    // "which strategies fit?": none checked is an answer (the right one here)
    open_predict(&client, &predict("memory-wall")).await;
    assert!(
        client.find(Locator::Css("#guess-strategy")).await.is_err(),
        "not asked as the best strategy"
    );
    assert!(enabled(&client, "#guess").await, "none checked is a guess");
    page::click(&client, "#guess-fit-data").await;
    page::click(&client, "#guess").await;
    let result = page::text_once(&client, "#guess-result", "You picked").await;
    assert_eq!(result, "You picked data; the model says none fit.");
    ranking_becomes(&client, &cli_ranking("vgg16", "abci", 8, "256")).await;
    let search = client.execute("return location.search;", vec![]).await.expect("search");
    assert!(search.as_str().unwrap_or_default().contains("predict=1"), "{search}");
    // a yes-or-no question: yes or no, nothing preselected
    open_predict(&client, &predict("data-stops-scaling")).await;
    assert!(!enabled(&client, "#guess").await, "waits for yes or no");
    page::click(&client, "#guess-no").await;
    page::click(&client, "#guess").await;
    let result = page::text_once(&client, "#guess-result", "You said").await;
    assert!(result.starts_with("You said no: right."), "{result}");
    // "which strategy is fastest": none picked for the student, an epoch that is no time said so
    open_predict(&client, &predict("spatial-cosmoflow")).await;
    assert_eq!(value(&client, "#guess-strategy").await, "");
    assert!(!enabled(&client, "#guess").await);
    client
        .find(Locator::Css("#guess-strategy"))
        .await
        .expect("the strategy")
        .select_by_value("data")
        .await
        .expect("picked");
    page::type_into(&client, "#guess-time", "banana").await;
    page::text_once(&client, "#guess-time-error", "Not a time").await;
    assert!(!enabled(&client, "#guess").await);
    page::type_into(&client, "#guess-time", "2 min").await;
    eventually("the guess enabled", || async {
        enabled(&client, "#guess").await.then_some(())
    })
    .await;
    page::click(&client, "#guess").await;
    let result = page::text_once(&client, "#guess-result", "You guessed").await;
    assert!(result.starts_with("You guessed data; the model says"), "{result}");
    assert!(result.contains("Your epoch of 120 s"), "{result}");
    client.close().await.ok();
}

/// Whether the button `css` selects (which must be there) can be pressed.
async fn enabled(client: &Client, css: &str) -> bool {
    let v = client
        .execute(&format!("return !document.querySelector('{css}').disabled;"), vec![])
        .await
        .expect("a button");
    v.as_bool().unwrap_or(false)
}

/// Opens a page whose results wait for a guess.
async fn open_predict(client: &Client, url: &str) {
    page::goto(client, url).await;
    page::text_once(client, "#hidden-results", "hidden").await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn one_strategys_charts_draw_and_off_scale_bars_are_cut() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let lesson = paradl::app::lessons::find("data-stops-scaling").expect("the lesson");
    open(
        &client,
        &format!("{}{}", s.base, paradl::app::lessons::query(lesson, false)),
    )
    .await;
    for plot in ["#comparison-plot", "#memory-plot"] {
        let svg = page::html(&client, &format!("{plot} .plot-area > svg")).await;
        assert!(!svg.contains("width=\"-"), "{plot}: a rectangle of negative width");
        let widths = client
            .execute(
                &format!(
                    "return Array.from(document.querySelectorAll('{plot} .overlay rect.mark')).map(r => r.width.baseVal.value);"
                ),
                vec![],
            )
            .await
            .expect("marks");
        let widths: Vec<f64> = widths
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_f64)
            .collect();
        assert_eq!(widths.len(), 1, "{plot}: one bar");
        assert!(widths[0] > 10.0, "{plot}: {widths:?}");
    }
    // VGG-16 at 256 per GPU: the memory axis is the GPU's, the bars that do not fit are cut and marked
    let lesson = paradl::app::lessons::find("memory-wall").expect("the lesson");
    open(
        &client,
        &format!("{}{}", s.base, paradl::app::lessons::query(lesson, false)),
    )
    .await;
    let svg = page::html(&client, "#memory-plot .plot-area > svg").await;
    assert!(svg.contains("↑"), "a cut bar carries its total");
    // plot text is 12 px or more, on a desktop and on a phone
    assert!(plot_text_px(&client, "#scaling-plot").await >= 12.0);
    page::viewport(&client, 360, 740).await;
    assert!(plot_text_px(&client, "#scaling-plot").await >= 12.0);
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn undo_and_redo_act_only_when_they_can_and_back_returns_to_the_last_committed_value() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    assert!(
        !enabled(&client, "#undo").await && !enabled(&client, "#redo").await,
        "a fresh page can neither undo nor redo"
    );
    for gpus in ["64", "128", "256"] {
        // the whole value in one input (as pasted: typed key by key, a first "6" would be an
        // entry of its own, and whether the keys reach the page one by one is the browser's
        // timing), then committed: the field is left
        client
            .execute(
                "const field = document.querySelector('#gpus');
                 field.value = arguments[0];
                 field.dispatchEvent(new Event('input', {bubbles: true}));
                 field.dispatchEvent(new Event('change', {bubbles: true}));",
                vec![Value::from(gpus)],
            )
            .await
            .expect("entered and committed");
        ranking_becomes(
            &client,
            &cli_ranking("resnet50", "abci", gpus.parse().unwrap_or(64), "32"),
        )
        .await;
    }
    assert!(enabled(&client, "#undo").await && !enabled(&client, "#redo").await);
    client.back().await.expect("back");
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 128, "32")).await;
    assert_eq!(value(&client, "#gpus").await, "128");
    assert!(enabled(&client, "#redo").await, "redo returns to 256");
    page::click(&client, "#undo").await;
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 64, "32")).await;
    assert!(!enabled(&client, "#undo").await, "undo never leaves the app");
    page::click(&client, "#redo").await;
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 128, "32")).await;
    // back, then the browser's forward: 256 is still ahead, so redo acts
    client.back().await.expect("back");
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 64, "32")).await;
    client.forward().await.expect("forward");
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 128, "32")).await;
    assert!(enabled(&client, "#redo").await, "redo after returning with forward");
    page::click(&client, "#redo").await;
    ranking_becomes(&client, &cli_ranking("resnet50", "abci", 256, "32")).await;
    assert!(!enabled(&client, "#redo").await);
    client.close().await.ok();
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
    // every fold open; file names, paths and torchvision's function names
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
const doubled = text.match(/\b(\w{2,})[ \t\u00a0]+\1\b/gi) || [];
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
async fn first_view_files(client: &Client) -> Vec<(String, f64, f64)> {
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
/// copies `scripts/dev` writes). This holds the former, plus 5%, against
/// growth.
const FIRST_VIEW_BUDGET_BYTES: f64 = 615_000.0;

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

/// Every visible control (and list link) smaller than 40 px in either
/// direction: `(what, width, height)`. Links inside running text (the
/// numbers of a sentence, `.said`) are exempt, as WCAG's target-size rule
/// exempts them.
async fn small_targets(client: &Client) -> Vec<(String, f64, f64)> {
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
async fn a_lesson_says_when_the_setup_no_longer_matches_it() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::goto(&client, &format!("{}?lesson=memory-wall", s.base)).await;
    page::text_once(&client, "#lesson .answer", "out of memory").await;
    // an old lesson link (no state in it) opens the lesson's own setup, not the last view
    ranking_becomes(&client, &cli_ranking("vgg16", "abci", 8, "256")).await;
    assert!(
        client.find(Locator::Css("#lesson-stale")).await.is_err(),
        "the lesson's own setup is not stale"
    );
    page::type_into(&client, "#gpus", "32").await;
    let note = page::text_once(&client, "#lesson-stale", "changed the setup").await;
    assert!(note.contains("Back to the lesson's setup"), "{note}");
    let back = client
        .find(Locator::Css("#lesson-stale a"))
        .await
        .expect("the link back")
        .attr("href")
        .await
        .ok()
        .flatten()
        .expect("an address");
    // the lesson's own page, pre-rendered beside the app's
    assert!(back.ends_with("lesson-memory-wall.html"), "{back}");
    // the lesson's setup typed back: the note goes
    page::type_into(&client, "#gpus", "8").await;
    eventually("the note gone", || async {
        client.find(Locator::Css("#lesson-stale")).await.is_err().then_some(())
    })
    .await;
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

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn an_uploaded_file_that_fails_leaves_the_picker_empty_and_the_network_loaded() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let before = open(&client, &s.base).await;
    page::click(&client, "#model-import summary").await;
    let bad = std::env::temp_dir().join(format!("paradl-e2e-broken-{}.onnx", std::process::id()));
    std::fs::write(&bad, b"not a graph at all").expect("written");
    let picker = client.find(Locator::Css("#model-file")).await.expect("the picker");
    picker.send_keys(bad.to_str().expect("a path")).await.expect("picked");
    let error = page::text_once(&client, "#import-error", "").await;
    assert!(!error.is_empty());
    // the picker names no file (the one that failed is not shown as loaded), the network stays
    let shown = eventually("the picker emptied", || async {
        let v = client
            .execute("return document.querySelector('#model-file').value;", vec![])
            .await
            .ok()?;
        v.as_str().filter(|s| s.is_empty()).map(str::to_string)
    })
    .await;
    assert!(shown.is_empty());
    assert_eq!(ranking(&client).await, before);
    std::fs::remove_file(&bad).ok();
    client.close().await.ok();
}

/// Every number written in the findings (the best strategy's, every other
/// strategy's, why the best wins and why the others are out), the edition
/// note, the ranking's numbers and limits and the strategy diagram's words
/// that is not inside a number that opens an explanation (or, for a track
/// record, the runs it comes from): `(where, the text)`. Digits
/// after a letter are part of a name (`V100 SXM2`), not numbers; the
/// diagram's drawing, its formulas and its picker are not words.
const UNEXPLAINED_DIGITS: &str = r#"
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
async fn sentence_figures(client: &Client) -> Vec<(String, f64, String)> {
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
