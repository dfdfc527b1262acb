//! The planner: the CLI's Pareto front, and a pick that loads it.

use super::*;

/// The planner's table rows: `(data-config, data-strategy, data-gpus, data-total-s)`.
pub(crate) async fn plan_rows(client: &Client) -> Vec<(String, String, String, String)> {
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
pub(crate) async fn plan_done(client: &Client, caption: &str) -> (u64, Vec<(String, String, String, String)>) {
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
