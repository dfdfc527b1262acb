//! Reading and driving the app's page in end-to-end tests.

use fantoccini::{Client, Locator};
use serde_json::Value;

use super::web::eventually;

/// One row of `#ranking`: strategy, total seconds, memory bytes, feasible.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// `data-strategy`.
    pub strategy: String,
    /// `data-total-s`.
    pub total_s: f64,
    /// `data-memory-bytes`.
    pub memory_bytes: f64,
    /// `data-feasible`.
    pub feasible: bool,
}

/// The rows of `#ranking`, read through the DOM in one script.
pub async fn ranking(client: &Client) -> Vec<Row> {
    let script = r#"return Array.from(document.querySelectorAll('#ranking tbody tr')).map(r => [
        r.dataset.strategy, r.dataset.totalS, r.dataset.memoryBytes, r.dataset.feasible]);"#;
    let rows = client.execute(script, vec![]).await.unwrap_or(Value::Null);
    rows.as_array()
        .map(|rows| {
            rows.iter()
                .filter_map(|r| {
                    let cell = |i: usize| r.get(i).and_then(Value::as_str).unwrap_or_default().to_string();
                    Some(Row {
                        strategy: cell(0),
                        total_s: cell(1).parse().ok()?,
                        memory_bytes: cell(2).parse().ok()?,
                        feasible: cell(3) == "true",
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until `#ranking` shows `expected` (typing passes through
/// intermediate values, each with its own ranking), and returns it; after
/// 20 s, fails showing both.
pub async fn ranking_becomes(client: &Client, expected: &[Row]) -> Vec<Row> {
    let started = std::time::Instant::now();
    loop {
        let rows = ranking(client).await;
        if rows == expected {
            return rows;
        }
        if started.elapsed() > std::time::Duration::from_secs(20) {
            assert_eq!(rows, expected, "the ranking on screen");
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Waits until `#ranking` has rows that differ from `before`, and returns them.
pub async fn ranking_change(client: &Client, before: &[Row]) -> Vec<Row> {
    eventually("the ranking to change", || async {
        let rows = ranking(client).await;
        (!rows.is_empty() && rows != before).then_some(rows)
    })
    .await
}

/// The `outerHTML` of an element (to see a plot change).
pub async fn html(client: &Client, css: &str) -> String {
    let script = format!("const e = document.querySelector('{css}'); return e ? e.outerHTML : '';");
    client
        .execute(&script, vec![])
        .await
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Sets an input's text the way typing does (clear, then keys).
pub async fn type_into(client: &Client, css: &str, text: &str) {
    let input = client.find(Locator::Css(css)).await.expect("the input");
    input.clear().await.expect("cleared");
    input.send_keys(text).await.expect("typed");
}

/// Clicks the element `css` selects (which must be there).
pub async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("clicking {css}: {e}"));
}

/// The text of the element `css` selects (shown or not), once it holds
/// `part`.
pub async fn text_once(client: &Client, css: &str, part: &str) -> String {
    eventually(css, || async {
        let element = client.find(Locator::Css(css)).await.ok()?;
        element
            .prop("textContent")
            .await
            .ok()
            .flatten()
            .filter(|t| t.contains(part))
    })
    .await
}

/// The share link (`#share-link`'s address), once it carries a state
/// (`?s=`) that `accept` takes.
pub async fn share_link(client: &Client, accept: impl Fn(&str) -> bool) -> String {
    eventually("the share link", || async {
        let link = client.find(Locator::Css("#share-link")).await.ok()?;
        link.attr("href")
            .await
            .ok()
            .flatten()
            .filter(|h| h.contains("?s=") && accept(h))
    })
    .await
}

/// Waits until the app has taken the page over (its placeholder, or the
/// view pre-rendered at build time, is gone, and so are the pre-rendered
/// parts it showed until it drew them, `[data-adopted]`): before that, what
/// the page shows is not the app's and its inputs are disabled.
pub async fn taken_over(client: &Client) {
    eventually("the app to take the page over", || async {
        let gone = client
            .execute(
                "return document.getElementById('placeholder') === null && document.querySelector('[data-adopted]') === null;",
                vec![],
            )
            .await
            .ok()?;
        gone.as_bool().filter(|g| *g)
    })
    .await;
}

/// Opens `url` and waits until the app has taken the page over.
pub async fn goto(client: &Client, url: &str) {
    client
        .goto(url)
        .await
        .unwrap_or_else(|e| panic!("navigated to {url}: {e}"));
    taken_over(client).await;
}

/// Sets the page's viewport (the window's inner size) to `width × height`.
pub async fn viewport(client: &Client, width: u32, height: u32) {
    client.set_window_size(width, height).await.expect("resized");
    // the window's frame added, until the page itself has that size (a
    // resize may take a moment to reach the page)
    eventually("the page's size", || async {
        let v = client
            .execute("return [window.innerWidth, window.innerHeight];", vec![])
            .await
            .ok()?;
        let (w, h) = (v[0].as_u64()?, v[1].as_u64()?);
        if (w, h) == (u64::from(width), u64::from(height)) {
            return Some(());
        }
        let (outer_w, outer_h) = client.get_window_size().await.ok()?;
        let fit = |outer: u64, page: u64, wanted: u32| {
            u32::try_from((outer + u64::from(wanted)).saturating_sub(page)).unwrap_or(wanted)
        };
        let _ = client
            .set_window_size(fit(outer_w, w, width), fit(outer_h, h, height))
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        None
    })
    .await;
}

/// Chooses `value` in the select `css`.
pub async fn choose(client: &Client, css: &str, value: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("{css} = {value}: {e}"));
}
