//! Importing: ONNX graphs, a whole detection export and profiles dropped on
//! the page, and a file that fails.

use super::*;

/// Drops `(name, bytes)` files on `target`, as a user dragging them from
/// their files would.
pub(crate) async fn drop_files(client: &Client, target: &str, files: &[(&str, &[u8])]) {
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
pub(crate) const DROP_FILES: &str = r#"
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
