//! Editing a view: model, cluster, GPUs, bad values, the edition and a
//! calibration, training practice, a preset's usual run, one strategy's
//! charts.

use super::*;
use crate::screens::plot_text_px;

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
    // an A100 cluster is picked with the precision people train in on it
    ranking_becomes(&client, &cli_ranking_in("vgg16", "dgx-a100", 64, "32", "fp16")).await;
    page::text_once(&client, "#applied", "FP16 mixed precision").await;

    let memory = page::html(&client, "#memory-plot").await;
    page::type_into(&client, "#gpus", "256").await;
    ranking_becomes(&client, &cli_ranking_in("vgg16", "dgx-a100", 256, "32", "fp16")).await;
    assert_ne!(page::html(&client, "#memory-plot").await, memory);

    let url = client.current_url().await.expect("a URL").to_string();
    assert!(url.contains("?s="), "{url}");
    // one history entry per view made: the model, the cluster, the GPU
    // count (its keystrokes one entry)
    assert_eq!(history_length(&client).await, entries + 3, "one entry per view");

    // back (or undo) returns to the views made, forward (or redo) again
    client.back().await.expect("back");
    let dgx_64 = cli_ranking_in("vgg16", "dgx-a100", 64, "32", "fp16");
    ranking_becomes(&client, &dgx_64).await;
    assert_eq!(value(&client, "#gpus").await, "64");
    page::click(&client, "#undo").await;
    ranking_becomes(&client, &cli_ranking("vgg16", "abci", 64, "32")).await;
    assert_eq!(value(&client, "#cluster").await, "abci");
    page::click(&client, "#redo").await;
    ranking_becomes(&client, &dgx_64).await;
    client.forward().await.expect("forward");
    ranking_becomes(&client, &cli_ranking_in("vgg16", "dgx-a100", 256, "32", "fp16")).await;
    assert_eq!(value(&client, "#gpus").await, "256");
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
async fn edition_and_calibration_change_the_ranking_and_travel_in_the_link() {
    let s = setup();
    let first = web::browser(&s.driver).await;
    let realistic = open(&first, &s.base).await;
    let base = FIRST_VISIT;
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
async fn training_practice_changes_the_memory_parts_as_the_cli_does() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    let rows = open(&client, &s.base).await;
    for (css, value) in [("#precision", "bf16"), ("#optimizer", "adam"), ("#zero", "1")] {
        page::choose(&client, css, value).await;
    }
    page::click(&client, "#recompute").await;
    let practice = [
        "--precision",
        "bf16",
        "--optimizer",
        "adam",
        "--zero",
        "1",
        "--recompute",
    ];
    let args = [FIRST_VISIT.as_slice(), practice.as_slice()].concat();
    let shown = ranking_becomes(&client, &cli_rank(&args)).await;
    assert_ne!(shown, rows);
    // every part of every row, as the CLI's JSON gives it
    let list = cli_rank_json(&args);
    let parts = client
        .execute(
            "return Array.from(document.querySelectorAll('#ranking tbody tr')).map(r => r.dataset.memoryParts);",
            vec![],
        )
        .await
        .expect("parts");
    let parts = parts.as_array().expect("a list");
    assert_eq!(parts.len(), list.len());
    for (row, p) in parts.iter().zip(&list) {
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

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_preset_brings_its_usual_run_and_a_phone_sees_results_first() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    let model = client.find(Locator::Css("#model")).await.expect("#model");
    model.select_by_value("cosmoflow").await.expect("selected");
    // picked, CosmoFlow runs as it is trained: a quarter of a sample per GPU
    ranking_becomes(&client, &cli_ranking("cosmoflow", "abci", 64, "0.25")).await;
    assert_eq!(value(&client, "#samples-per-gpu").await, "0.25");
    assert!(
        client.find(Locator::Css("#usual-run")).await.is_err(),
        "offered only while not in use"
    );
    // changed away from it, the usual run is offered again
    page::type_into(&client, "#samples-per-gpu", "2").await;
    let two = ranking_becomes(&client, &cli_ranking("cosmoflow", "abci", 64, "2")).await;
    assert!(two.iter().all(|r| !r.feasible), "nothing fits at 2 samples per GPU");
    assert!(
        client.find(Locator::Css("#usual-run")).await.is_ok(),
        "offered in the network panel"
    );
    // nothing fits: the fix is at the top, in the bar
    page::text_once(&client, "#fix", "0.25 samples per GPU").await;
    page::click(&client, "#fix-usual").await;
    ranking_becomes(&client, &cli_ranking("cosmoflow", "abci", 64, "0.25")).await;

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
