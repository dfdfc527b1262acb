//! Share links: a view reproduced in a fresh browser, bad links, large
//! views, a model at an address, and history (undo, redo, back).

use super::*;

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
    let rows = ranking_becomes(&first, &cli_ranking_in("alexnet", "dgx-h100", 128, "16", "fp16")).await;
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
