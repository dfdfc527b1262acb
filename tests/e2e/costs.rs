//! Energy, carbon and money (issue 48): the ranking's energy, CO2 and cost
//! are the CLI's for the defaults and for what the user picks (a grid, a
//! price, a PUE), a bad figure keeps what was typed and the last results,
//! "best" can mean the least of any, the explanation and the plot show
//! them, the link keeps every choice, and the lesson's guess is scored.

use super::*;

/// The rows' strategy, energy, CO2 and money to train: the page's
/// attributes and the CLI's JSON paths.
const KEYS: [&str; 4] = ["strategy", "energyKwh", "co2Kg", "usd"];
const PATHS: [&[&str]; 4] = [
    &["strategy"],
    &["energy", "train_kwh"],
    &["energy", "train_co2_kg"],
    &["energy", "train_usd"],
];

async fn costs(client: &Client) -> Vec<Vec<String>> {
    row_data(client, &KEYS).await
}

fn cli_costs(args: &[&str]) -> Vec<Vec<String>> {
    cli_rank_fields(args, &PATHS)
}

async fn costs_become(client: &Client, expected: &[Vec<String>]) {
    rows_become(client, "the energy, CO2 and money", &KEYS, expected).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn an_engineer_prices_a_run_on_her_grid_and_her_own_cluster_and_shares_it() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    // the first visit: ABCI's V100s, Japan's grid, ABCI's PUE, AWS's V100 list price
    let mut args = FIRST_VISIT.to_vec();
    costs_become(&client, &cli_costs(&args)).await;
    assert!(
        costs(&client).await.iter().all(|r| !r[1].is_empty()),
        "every row has its energy"
    );

    // the grid and the price, picked under Run
    page::click(&client, "#costs > summary").await;
    let defaults = page::text_once(&client, "#costs", "default: jp").await;
    assert!(defaults.contains("aws-p3.16xlarge"), "{defaults}");
    page::choose(&client, "#grid-choice", "fr").await;
    args.extend_from_slice(&["--grid", "fr"]);
    costs_become(&client, &cli_costs(&args)).await;
    // the default stays named as the default, whatever is chosen
    let blank = page::text_once(&client, "#grid-choice option[value=\"\"]", "default").await;
    assert!(blank.contains("jp"), "{blank}");
    page::choose(&client, "#price-choice", "owned").await;
    args.extend_from_slice(&["--price", "owned"]);
    costs_become(&client, &cli_costs(&args)).await;

    // a PUE below 1 keeps what was typed and the last results, the error beside it
    page::type_into(&client, "#pue", "0.5").await;
    page::text_once(&client, "#pue-error", "at least 1").await;
    assert_eq!(value(&client, "#pue").await, "0.5");
    costs_become(&client, &cli_costs(&args)).await;
    page::type_into(&client, "#pue", "1.3").await;
    args.extend_from_slice(&["--pue", "1.3"]);
    costs_become(&client, &cli_costs(&args)).await;

    // best by money: the CLI's order, said first in the verdict
    page::choose(&client, "#rank-by", "money").await;
    args.push("--by-money");
    costs_become(&client, &cli_costs(&args)).await;
    page::text_once(&client, "#ranking caption", "best first (money to train").await;
    page::text_once(&client, "#verdict", "to train, ").await;

    // the energy explains itself: its formula, its parts, its sources
    page::click(
        &client,
        "#ranking tr[data-strategy=\"data\"] [data-explain=\"data@64:energy\"]",
    )
    .await;
    let panel = page::text_once(&client, "#explain", "E_train = E(B)·PUE").await;
    assert!(panel.contains("GPUs computing, an epoch"), "{panel}");
    assert!(panel.contains("Zeus"), "the measured power's source: {panel}");

    // the scaling plot draws the energy to train
    page::choose(&client, "#plot-metric", "energy").await;
    page::text_once(&client, "#scaling-plot", "energy to train (kWh)").await;

    // the link keeps the grid, the price, the PUE, the order and the plot
    let href = page::share_link(&client, |h| h.contains("?s=")).await;
    let second = web::browser(&s.driver).await;
    open(&second, &href).await;
    costs_become(&second, &cli_costs(&args)).await;
    assert_eq!(value(&second, "#grid-choice").await, "fr");
    assert_eq!(value(&second, "#price-choice").await, "owned");
    assert_eq!(value(&second, "#pue").await, "1.3");
    assert_eq!(value(&second, "#rank-by").await, "money");
    assert_eq!(value(&second, "#plot-metric").await, "energy");
    second.close().await.ok();
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_student_guesses_whether_the_fastest_run_is_the_greenest() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open_predict(&client, &format!("{}?lesson=fastest-is-not-greenest&predict=1", s.base)).await;
    assert!(!enabled(&client, "#guess").await, "waits for yes or no");
    page::click(&client, "#guess-yes").await;
    page::click(&client, "#guess").await;
    let result = page::text_once(&client, "#guess-result", "You said").await;
    assert!(result.starts_with("You said yes; the model says no."), "{result}");
    assert!(result.contains("The least energy is at"), "{result}");
    // revealed: the energy plot and the explanation of the energy at 1,024 GPUs
    page::text_once(&client, "#scaling-plot", "energy to train (kWh)").await;
    page::text_once(&client, "#explain", "E_train = E(B)·PUE").await;
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn the_planner_finds_the_least_money_and_keeps_to_a_money_budget() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    page::click(&client, "#plan summary").await;
    page::choose(&client, "#plan-objective", "money").await;
    planner::plan_done(&client, "money to train").await;
    // the command line's search, best by money, within a budget of 1.2 times the least
    let search = |bound: Option<&str>| -> Value {
        let mut args = vec!["search"];
        args.extend_from_slice(&FIRST_VISIT[..4]);
        args.extend_from_slice(&["--max-gpus", "64", "--samples-per-gpu", "32", "--objective", "money"]);
        if let Some(b) = bound {
            args.extend_from_slice(&["--max-usd", b]);
        }
        args.extend_from_slice(&["--format", "json"]);
        serde_json::from_slice(&cli(&args)).expect("JSON")
    };
    let least = search(None)["best"]["usd"].as_f64().expect("the least money");
    let bound = (least * 1.2).to_string();
    page::type_into(&client, "#plan-usd", &bound).await;
    let within = search(Some(&bound));
    let front = within["front"].as_array().expect("a front");
    // the page shows the ten best by money of that front
    let mut by_money: Vec<f64> = front.iter().map(|c| c["usd"].as_f64().unwrap_or(f64::NAN)).collect();
    by_money.sort_by(f64::total_cmp);
    let expected: Vec<String> = by_money.iter().take(10).map(f64::to_string).collect();
    assert!(by_money.iter().all(|usd| *usd <= least * 1.2), "{by_money:?}");
    eventually("the front within the money budget", || async {
        let usd = client
            .execute(
                "return Array.from(document.querySelectorAll('#plan-table tbody tr[data-config]')).map(r => r.dataset.usd).sort((a, b) => a - b);",
                vec![],
            )
            .await
            .ok()?;
        let mut shown: Vec<String> = usd
            .as_array()?
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        let mut want = expected.clone();
        want.sort_by(|a, b| a.parse::<f64>().unwrap_or(0.0).total_cmp(&b.parse::<f64>().unwrap_or(0.0)));
        shown.sort_by(|a, b| a.parse::<f64>().unwrap_or(0.0).total_cmp(&b.parse::<f64>().unwrap_or(0.0)));
        (shown == want).then_some(())
    })
    .await;
    // a bad budget is said beside it, the typed text kept
    page::type_into(&client, "#plan-usd", "free").await;
    page::text_once(&client, "#plan-usd-error", "dollars").await;
    assert_eq!(value(&client, "#plan-usd").await, "free");
    client.close().await.ok();
}
