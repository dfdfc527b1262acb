//! Time to train (issue 52): the ranking's time to train is the CLI's,
//! "best" can mean the shortest time to train, the convergence is the
//! preset's own or what the user names, the scaling plot draws it, past
//! the largest batch that converged the page says so, and the link keeps
//! every choice.

use super::*;

/// The rows' strategy, time to train and epochs: the page's attributes and
/// the CLI's JSON paths.
const KEYS: [&str; 3] = ["strategy", "trainS", "epochs"];
const PATHS: [&[&str]; 3] = [
    &["strategy"],
    &["training", "time_s"],
    &["training", "epochs", "epochs"],
];

async fn trainings(client: &Client) -> Vec<Vec<String>> {
    row_data(client, &KEYS).await
}

fn cli_trainings(args: &[&str]) -> Vec<Vec<String>> {
    cli_rank_fields(args, &PATHS)
}

async fn trainings_become(client: &Client, expected: &[Vec<String>]) {
    rows_become(client, "the times to train", &KEYS, expected).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn an_engineer_ranks_by_time_to_train_names_the_epochs_and_shares_it() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    // the first visit: ResNet-50 follows its own MLPerf curve, as the CLI's preset does
    let default = FIRST_VISIT;
    trainings_become(&client, &cli_trainings(&default)).await;

    // best by time to train: the CLI's order
    page::choose(&client, "#rank-by", "train").await;
    let mut by_train = default.to_vec();
    by_train.push("--by-time-to-train");
    trainings_become(&client, &cli_trainings(&by_train)).await;
    page::text_once(&client, "#ranking caption", "best first (to train)").await;
    // the verdict says the best's time to train first
    let verdict = page::text_once(&client, "#verdict", "to train, ").await;
    assert!(verdict.contains("per epoch"), "{verdict}");

    // the user's own epochs: the same at every batch
    page::choose(&client, "#convergence-curve", "epochs").await;
    page::type_into(&client, "#convergence", "42").await;
    let mut given = by_train.clone();
    given.extend_from_slice(&["--convergence", "42"]);
    trainings_become(&client, &cli_trainings(&given)).await;
    assert!(trainings(&client).await.iter().all(|r| r[2] == "42"));

    // a bad number keeps what was typed and the last results
    page::type_into(&client, "#convergence", "-1").await;
    page::text_once(&client, "#convergence-field [role=alert]", "greater than zero").await;
    assert_eq!(value(&client, "#convergence").await, "-1");
    trainings_become(&client, &cli_trainings(&given)).await;
    page::type_into(&client, "#convergence", "42").await;

    // the scaling plot draws the time to train
    page::choose(&client, "#plot-metric", "train").await;
    page::text_once(&client, "#scaling-plot", "time to train (s)").await;

    // the time to train explains itself: its epochs, its batch, its epoch
    page::click(
        &client,
        "#ranking tr[data-strategy=\"data\"] [data-explain=\"data@64:to-train\"]",
    )
    .await;
    let panel = page::text_once(&client, "#explain", "T_train = E(B)").await;
    assert!(panel.contains("as given, at every batch"), "{panel}");

    // the link keeps the order, the epochs and the plot
    let href = page::share_link(&client, |h| h.contains("?s=")).await;
    let second = web::browser(&s.driver).await;
    open(&second, &href).await;
    trainings_become(&second, &cli_trainings(&given)).await;
    assert_eq!(value(&second, "#rank-by").await, "train");
    assert_eq!(value(&second, "#convergence").await, "42");
    assert_eq!(value(&second, "#plot-metric").await, "train");
    second.close().await.ok();
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn past_the_largest_batch_that_converged_the_lesson_and_the_findings_say_so() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &format!("{}?lesson=training-stops-shortening", s.base)).await;
    // 1,024 GPUs x 128 images: a global batch of 131,072, its epochs extrapolated
    let args = [
        "--model",
        "resnet50",
        "--cluster",
        "dgx-a100",
        "--gpus",
        "1024",
        "--samples-per-gpu",
        "128",
        "--precision",
        "fp16",
        "--by-time-to-train",
    ];
    // the lesson draws data parallelism alone: its row is the CLI's
    let data: Vec<_> = cli_trainings(&args).into_iter().filter(|r| r[0] == "data").collect();
    trainings_become(&client, &data).await;
    page::text_once(&client, "#ranking tr[data-strategy=\"data\"] .train", "extrapolated").await;
    page::text_once(
        &client,
        "#findings",
        "is past the largest that converged in the reference runs",
    )
    .await;
    // the lesson opens the data row's time to train, extrapolated by the critical-batch model
    let panel = page::text_once(&client, "#explain", "B_crit").await;
    assert!(panel.contains("critical-batch model"), "{panel}");
    client.close().await.ok();
}
