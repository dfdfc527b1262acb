//! Four users with a real task each (issue 51): a student on a phone, a
//! teacher with a projector, an HPC engineer and an ML engineer. Each test
//! plays one through to an answer the CLI confirms.

use super::*;

/// The strategies of the ranking's rows, in order.
async fn ranked_strategies(client: &Client) -> Vec<String> {
    ranking(client).await.into_iter().map(|r| r.strategy).collect()
}

/// The texts of the scaling plot's SVG, trimmed.
async fn scaling_texts(client: &Client) -> Vec<String> {
    let svg = page::html(client, "#scaling-plot svg").await;
    svg.split("</text>")
        .filter_map(|t| t.rsplit_once('>').map(|(_, text)| text.trim().to_string()))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The view `client` shows, opened in a second browser from its share
/// link once the link is no longer `before`.
async fn reopened(s: &Setup, client: &Client, before: &str) -> Client {
    let href = page::share_link(client, |h| h != before).await;
    let second = web::browser(&s.driver).await;
    open(&second, &href).await;
    second
}

/// Whether the page scrolls sideways (wider than the window).
async fn scrolls_sideways(client: &Client) -> bool {
    let v = client
        .execute(
            "return document.scrollingElement.scrollWidth > window.innerWidth;",
            vec![],
        )
        .await
        .expect("measured");
    v.as_bool().unwrap_or(true)
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_student_on_a_phone_turns_the_spatial_lesson_to_resnet50_and_gets_an_answer() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::viewport(&client, 390, 844).await;
    open(&client, &format!("{}?lesson=spatial-cosmoflow", s.base)).await;
    // the inputs that decide the answer are in the bar, above the results
    page::click(&client, "#bar-inputs summary").await;
    page::choose(&client, "#bar-model", "resnet50").await;
    // ResNet-50 comes with its usual run, said in one line: no "batch too small"
    let applied = page::text_once(&client, "#applied", "32 samples per GPU").await;
    assert!(applied.contains("Undo puts back 0.25"), "{applied}");
    let rows = eventually("an answer for ResNet-50", || async {
        let rows = ranking(&client).await;
        rows.iter().any(|r| r.feasible).then_some(rows)
    })
    .await;
    assert!(rows.iter().any(|r| r.strategy == "spatial"), "{rows:?}");
    assert_eq!(value(&client, "#samples-per-gpu").await, "32");
    // undo takes the pick and its run back
    page::click(&client, "#applied .notice-undo").await;
    eventually("the lesson's run again", || async {
        (value(&client, "#samples-per-gpu").await == "0.25").then_some(())
    })
    .await;
    // the phone's page never scrolls sideways, the planner open too, and the link's words are whole
    page::click(&client, "#plan summary").await;
    planner::plan_done(&client, "epoch time").await;
    assert!(!scrolls_sideways(&client).await, "the planner widens the page");
    let clipped = client
        .execute(
            "const a = document.querySelector('#share-link'); return a.scrollWidth > a.clientWidth + 1;",
            vec![],
        )
        .await
        .expect("measured");
    assert_eq!(clipped.as_bool(), Some(false), "the link's words are cut");
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_teacher_shows_data_against_data_spatial_for_cosmoflow_from_64_to_1024_gpus() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    page::choose(&client, "#model", "cosmoflow").await;
    // CosmoFlow is trained a quarter of a sample per GPU: picked, it runs so
    ranking_becomes(&client, &cli_ranking("cosmoflow", "abci", 64, "0.25")).await;
    page::text_once(&client, "#applied", "0.25 samples per GPU").await;
    // only the two strategies the class compares: the ranking follows the plot
    for other in ["serial", "spatial", "pipeline", "filter", "channel", "data+filter"] {
        page::click(&client, &format!("input[name=strategy][value='{other}']")).await;
    }
    let shown = eventually("the two strategies", || async {
        let shown = ranked_strategies(&client).await;
        (shown.len() == 2).then_some(shown)
    })
    .await;
    assert!(
        shown.contains(&"data".into()) && shown.contains(&"data+spatial".into()),
        "{shown:?}"
    );
    // 64 to 1,024 GPUs on the plot, each labelled
    let before = page::share_link(&client, |_| true).await;
    page::choose(&client, "#plot-from", "64").await;
    page::choose(&client, "#plot-to", "1024").await;
    let texts = eventually("the plot's range", || async {
        let texts = scaling_texts(&client).await;
        (texts.contains(&"64".into()) && !texts.contains(&"4k".into())).then_some(texts)
    })
    .await;
    for label in ["64", "128", "256", "512", "1k"] {
        assert!(texts.contains(&label.to_string()), "{label}: {texts:?}");
    }
    // the link reproduces the slide
    let second = reopened(&s, &client, &before).await;
    assert_eq!(value(&second, "#plot-from").await, "64");
    assert_eq!(value(&second, "#plot-to").await, "1024");
    assert_eq!(ranked_strategies(&second).await, shown);
    second.close().await.ok();
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn an_hpc_engineer_plans_resnet152_on_h100s_within_a_memory_budget() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    page::choose(&client, "#model", "resnet152").await;
    page::choose(&client, "#cluster", "dgx-h100").await;
    // what people train in on an H100, said and applied
    page::text_once(&client, "#applied", "FP16 mixed precision").await;
    assert_eq!(value(&client, "#precision").await, "fp16");
    page::type_into(&client, "#samples-per-gpu", "64").await;
    let expected = cli_rank(&[
        "--model",
        "resnet152",
        "--cluster",
        "dgx-h100",
        "--gpus",
        "64",
        "--samples-per-gpu",
        "64",
        "--precision",
        "fp16",
    ]);
    ranking_becomes(&client, &expected).await;
    // beside each time, where H100 runs in FP16 fell, not the ABCI V100 runs' record
    let badge = page::text_once(&client, "#ranking tr[data-strategy=data] .track", "–").await;
    assert!(!badge.contains('×'), "{badge}");
    // the planner within 6 GB per GPU: every configuration it offers fits the budget
    page::click(&client, "#plan summary").await;
    planner::plan_done(&client, "epoch time").await;
    let before = page::share_link(&client, |_| true).await;
    page::type_into(&client, "#plan-memory", "6").await;
    let memory = eventually("the front within 6 GB", || async {
        let v = client
            .execute(
                "return Array.from(document.querySelectorAll('#plan-table tbody tr[data-config]')).map(r => Number(r.dataset.memoryBytes));",
                vec![],
            )
            .await
            .ok()?;
        let list: Vec<f64> = v.as_array()?.iter().filter_map(Value::as_f64).collect();
        (!list.is_empty() && list.iter().all(|m| *m <= 6e9)).then_some(list)
    })
    .await;
    assert!(memory.iter().all(|m| *m > 0.0), "{memory:?}");
    let second = reopened(&s, &client, &before).await;
    assert_eq!(value(&second, "#plan-memory").await, "6");
    second.close().await.ok();
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn an_ml_engineer_builds_a_four_rtx_4090_workstation_and_sees_what_fits_in_24_gb() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    page::click(&client, "#node-builder summary").await;
    page::choose(&client, "#node-gpu", "RTX 4090").await;
    page::type_into(&client, "#node-gpus", "4").await;
    page::choose(&client, "#node-link", "pcie4").await;
    // a GeForce 4090 has no peer-to-peer access: said before it is used
    page::text_once(
        &client,
        "#node-builder",
        "NCCL goes through host memory, 14.4 GB/s measured",
    )
    .await;
    page::click(&client, "#node-use").await;
    // the budget shrinks to the node, the precision is the 4090's usual one
    let applied = page::text_once(&client, "#applied", "GPUs set to 4").await;
    assert!(applied.contains("FP16"), "{applied}");
    let expected = cli_rank(&[
        "--model",
        "resnet50",
        "--cluster",
        "node:4:pcie4:RTX 4090",
        "--gpus",
        "4",
        "--samples-per-gpu",
        "32",
        "--precision",
        "fp16",
    ]);
    ranking_becomes(&client, &expected).await;
    assert_eq!(value(&client, "#cluster").await, "node:4:pcie4:RTX 4090");
    // the largest batch that fits in the 4090's 24 GB, per strategy, in words
    let capacity = page::text_once(&client, "#capacity", "24 GB").await;
    assert!(capacity.contains("data:"), "{capacity}");
    // 2 GPUs against 4: the scaling plot's range, and the link keeps the node
    let second = reopened(&s, &client, "").await;
    assert_eq!(ranking(&second).await, expected);
    second.close().await.ok();
    client.close().await.ok();
}
