//! End-to-end tests of the built app (`dist/`) in headless Chromium:
//! load it, change inputs, read the DOM, share links, bad links and bad
//! values. The ranking on screen must equal what `paradl rank` prints.
#![cfg(not(target_arch = "wasm32"))]

mod costs;
mod editing;
mod explaining;
mod first_visit;
mod four_users;
mod importing;
mod lessons;
mod links;
mod planner;
mod prerender;
mod screens;
mod training;

#[path = "../support/mod.rs"]
mod support;
use support::{page, web};

use std::process::Command;

use fantoccini::{Client, Locator};
use page::{Row, ranking, ranking_becomes, ranking_change};
use serde_json::Value;
use web::eventually;

/// What `paradl rank` prints for a view in FP32 (the CLI's default and
/// ABCI's usual precision), as rows.
fn cli_ranking(model: &str, cluster: &str, gpus: u64, samples_per_gpu: &str) -> Vec<Row> {
    cli_ranking_in(model, cluster, gpus, samples_per_gpu, "fp32")
}

/// What `paradl rank` prints for a view in `precision` (a cluster of
/// tensor-core GPUs is picked with FP16 mixed precision).
fn cli_ranking_in(model: &str, cluster: &str, gpus: u64, samples_per_gpu: &str, precision: &str) -> Vec<Row> {
    cli_rank(&[
        "--model",
        model,
        "--cluster",
        cluster,
        "--gpus",
        &gpus.to_string(),
        "--samples-per-gpu",
        samples_per_gpu,
        "--precision",
        precision,
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

/// The CLI's options of the first visit's view: ResNet-50 on ABCI, 64 GPUs,
/// 32 samples per GPU.
const FIRST_VISIT: [&str; 8] = [
    "--model",
    "resnet50",
    "--cluster",
    "abci",
    "--gpus",
    "64",
    "--samples-per-gpu",
    "32",
];

/// What `paradl rank ARGS --format json` prints: its projections.
fn cli_rank_json(args: &[&str]) -> Vec<Value> {
    let mut line = vec!["rank"];
    line.extend_from_slice(args);
    line.extend_from_slice(&["--format", "json"]);
    match serde_json::from_slice(&cli(&line)).expect("JSON") {
        Value::Array(list) => list,
        other => panic!("a list: {other}"),
    }
}

/// Each ranking row's data attributes `keys` (their dataset names), as the
/// page holds them (a missing one blank).
async fn row_data(client: &Client, keys: &[&str]) -> Vec<Vec<String>> {
    let keys = serde_json::to_string(keys).unwrap_or_default();
    let script = format!(
        "return Array.from(document.querySelectorAll('#ranking tbody tr')).map(r => {keys}.map(k => r.dataset[k] || ''));"
    );
    let rows = client.execute(&script, vec![]).await.unwrap_or(Value::Null);
    rows.as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    r.as_array()
                        .map(|cells| {
                            cells
                                .iter()
                                .map(|c| c.as_str().unwrap_or_default().to_string())
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// What `paradl rank ARGS --format json` prints at each of `paths` (JSON
/// keys, outermost first) of each projection: a string as it is, a number
/// as the page writes it.
fn cli_rank_fields(args: &[&str], paths: &[&[&str]]) -> Vec<Vec<String>> {
    cli_rank_json(args)
        .iter()
        .map(|p| {
            paths
                .iter()
                .map(|path| {
                    let v = path.iter().fold(p, |v, key| &v[*key]);
                    v.as_str()
                        .map(str::to_string)
                        .or_else(|| v.as_f64().map(|x| x.to_string()))
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect()
}

/// Waits until the ranking rows' attributes `keys` are `expected`.
async fn rows_become(client: &Client, what: &str, keys: &[&str], expected: &[Vec<String>]) {
    eventually(what, || async {
        let rows = row_data(client, keys).await;
        (rows == expected).then_some(())
    })
    .await;
}

/// What `paradl rank ARGS --format json` prints, as rows.
fn cli_rank(args: &[&str]) -> Vec<Row> {
    cli_rank_json(args)
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
    shown_ranking(client).await
}

/// The ranking's rows, once it has some.
async fn shown_ranking(client: &Client) -> Vec<Row> {
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
