//! End-to-end tests of the pre-rendered pages (src/app/page/prerender.rs) in
//! headless Chromium: what each page shows before its WebAssembly arrives
//! (the WebAssembly blocked, or JavaScript off), that it is what the app
//! then shows, and that an address the pre-render cannot know waits for the
//! app instead.

use super::{cli_ranking, page, shown_ranking, value, web};

use fantoccini::{Client, Locator};
use paradl::app::lessons::{LESSONS, page_file};
use paradl::app::page::prerender::pages;
use serde_json::{Value, json};

/// A session whose page never gets its WebAssembly: what a visitor sees
/// until it arrives.
pub(crate) async fn before_the_app(driver: &web::Driver) -> Client {
    let client = web::browser(driver).await;
    web::devtools(driver, &client, "Network.enable", json!({})).await;
    web::devtools(driver, &client, "Network.setBlockedURLs", json!({ "urls": ["*.wasm"] })).await;
    client
}

/// What the page shows of its answer: the ranking's rows, the verdict, the
/// lesson's question and every plot's SVG, read from what is displayed.
pub(crate) const SHOWN: &str = r#"
const shown = (e) => e && e.offsetParent !== null;
const rows = Array.from(document.querySelectorAll('#ranking tbody tr')).filter(shown).map(r =>
  [r.dataset.strategy, r.dataset.totalS, r.dataset.memoryBytes, r.dataset.feasible]);
const verdict = document.querySelector('#verdict');
const question = document.querySelector('#lesson .question');
return {
  rows,
  verdict: shown(verdict) ? verdict.textContent : null,
  question: shown(question) ? question.textContent : null,
  plots: Array.from(document.querySelectorAll('.outputs svg')).filter(s => s.getBoundingClientRect().width > 0).map(s => s.outerHTML),
};
"#;

pub(crate) async fn shown(client: &Client) -> Value {
    client.execute(SHOWN, vec![]).await.expect("read the page")
}

/// Whether the element `css` lies wholly in the viewport, above the note
/// fixed at its foot while the app wakes up.
pub(crate) async fn on_screen(client: &Client, css: &str) -> bool {
    let script = format!(
        "const e = document.querySelector('{css}'); if (!e) return false; const r = e.getBoundingClientRect();
         const note = document.querySelector('.waking'); const foot = note ? note.getBoundingClientRect().top : innerHeight;
         return r.height > 0 && r.top >= 0 && r.bottom <= Math.min(innerHeight, foot);"
    );
    client.execute(&script, vec![]).await.ok().and_then(|v| v.as_bool()) == Some(true)
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn each_prerendered_page_shows_what_the_app_then_shows() {
    let port = web::serve(web::dist());
    let driver = web::driver();
    for built in pages() {
        let address = format!("http://127.0.0.1:{port}/{}", built.file);
        let client = before_the_app(&driver).await;
        client.goto(&address).await.expect("opened");
        let before = shown(&client).await;
        assert!(
            before["rows"].as_array().is_some_and(|r| !r.is_empty()),
            "{}: no ranking before the app",
            built.file
        );
        assert!(
            before["plots"].as_array().is_some_and(|p| !p.is_empty()),
            "{}: no plot",
            built.file
        );
        // waking up: the inputs that decide the answer take input, the others are disabled, and it says so
        let gpus = client.find(Locator::Css("#gpus")).await.expect("#gpus");
        assert_eq!(gpus.attr("disabled").await.ok().flatten(), None);
        let other = client.find(Locator::Css("#node-gpus")).await.expect("#node-gpus");
        assert_eq!(other.attr("disabled").await.ok().flatten().as_deref(), Some("true"));
        let note = client.find(Locator::Css(".waking")).await.expect("the waking note");
        // and what loads, with its size
        let said = note.text().await.unwrap_or_default();
        assert!(
            said.contains("waking up") && said.contains("kB of WebAssembly"),
            "{said}"
        );
        client.close().await.ok();

        let client = web::browser(&driver).await;
        page::goto(&client, &address).await;
        let after = shown(&client).await;
        assert_eq!(before["rows"], after["rows"], "{}: the ranking", built.file);
        assert_eq!(before["verdict"], after["verdict"], "{}: the verdict", built.file);
        assert_eq!(before["question"], after["question"], "{}: the lesson", built.file);
        assert_eq!(before["plots"], after["plots"], "{}: the plots' data", built.file);
        // the app answers input at once
        page::type_into(&client, "#gpus", "48").await;
        page::text_once(&client, "#ranking caption", "at 48 GPUs").await;
        client.close().await.ok();
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_lesson_page_shows_its_question_and_ranking_on_a_phone_and_a_projector_before_the_app() {
    let port = web::serve(web::dist());
    let driver = web::driver();
    for lesson in LESSONS.iter() {
        for (width, height) in [(390, 844), (853, 480)] {
            let client = before_the_app(&driver).await;
            page::viewport(&client, width, height).await;
            client
                .goto(&format!("http://127.0.0.1:{port}/{}", page_file(lesson)))
                .await
                .expect("opened");
            for part in ["#lesson .question", "#ranking tbody tr:first-child"] {
                assert!(
                    on_screen(&client, part).await,
                    "{} at {width}x{height}: {part} is not on screen",
                    lesson.id
                );
            }
            client.close().await.ok();
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn with_javascript_off_the_default_page_shows_its_ranking() {
    let port = web::serve(web::dist());
    let driver = web::driver();
    let client = web::browser(&driver).await;
    web::devtools(
        &driver,
        &client,
        "Emulation.setScriptExecutionDisabled",
        json!({ "value": true }),
    )
    .await;
    client.goto(&format!("http://127.0.0.1:{port}/")).await.expect("opened");
    let row = client
        .find(Locator::Css("#ranking tbody tr"))
        .await
        .expect("a ranking row");
    assert!(row.is_displayed().await.unwrap_or(false), "the ranking is hidden");
    assert!(row.text().await.unwrap_or_default().contains("data"));
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn an_address_the_prerender_cannot_know_waits_for_the_app() {
    let port = web::serve(web::dist());
    let base = format!("http://127.0.0.1:{port}/");
    let driver = web::driver();
    let lesson = &LESSONS[0];
    let other = paradl::app::page::url::encode(&(LESSONS[1].inputs)());
    let addresses = [
        // a share link, on the default page and on a lesson's page
        format!("{base}?s={other}"),
        format!("{base}{}?s={other}", page_file(lesson)),
        // a guess to make first
        format!(
            "{base}{}{}",
            page_file(lesson),
            paradl::app::lessons::query(lesson, true)
        ),
        // an old lesson link
        format!("{base}?lesson={}", lesson.id),
        // a network file to fetch
        format!("{base}?model=net.onnx"),
    ];
    for address in &addresses {
        let client = before_the_app(&driver).await;
        client.goto(address).await.expect("opened");
        let seen = shown(&client).await;
        assert_eq!(seen["rows"], json!([]), "{address}: a ranking of another question");
        let waiting = client.find(Locator::Css(".waiting")).await.expect("the placeholder");
        assert!(
            waiting.is_displayed().await.unwrap_or(false),
            "{address}: no placeholder"
        );
        client.close().await.ok();
    }
    // a view kept from a last visit, on the bare default page
    let client = before_the_app(&driver).await;
    client.goto(&base).await.expect("opened");
    assert!(shown(&client).await["rows"].as_array().is_some_and(|r| !r.is_empty()));
    client
        .execute(
            "localStorage.setItem('paradl.state', 'kept'); location.reload();",
            vec![],
        )
        .await
        .expect("kept");
    web::eventually("the placeholder for a kept view", || async {
        let waiting = client.find(Locator::Css(".waiting")).await.ok()?;
        waiting.is_displayed().await.ok()?.then_some(())
    })
    .await;
    assert_eq!(shown(&client).await["rows"], json!([]));
    client.close().await.ok();
    // the same share link, once the app is there: its own view
    let client = web::browser(&driver).await;
    page::goto(&client, &addresses[1]).await;
    let rows = page::ranking(&client).await;
    assert!(!rows.is_empty());
    assert!(
        client.find(Locator::Css("#lesson")).await.is_err(),
        "no lesson in a bare share link"
    );
    client.close().await.ok();
}

/// Watches, from the page's first script on, each frame: whether a plot is
/// on the page (`gaps` counts frames after the ranking first showed that had
/// none), and opens the glossary of the pre-rendered view as soon as it is
/// parsed, as a visitor may before the app draws that part itself.
pub(crate) const WATCH: &str = r#"
window.__watch = { frames: 0, gaps: 0, seen: false, errors: [], unmarked: 0 };
addEventListener('error', (e) => window.__watch.errors.push(String(e.message)));
const look = () => {
  const w = window.__watch;
  const plot = document.querySelector('#scaling-plot svg');
  if (plot) w.seen = true; else if (w.seen) w.gaps += 1;
  // a pre-rendered part the app shows but has not drawn: the placeholder is still there
  if (document.querySelector('[data-adopted]') && !document.getElementById('placeholder')) w.unmarked += 1;
  w.frames += 1;
  requestAnimationFrame(look);
};
requestAnimationFrame(look);
document.addEventListener('DOMContentLoaded', () => {
  const glossary = document.querySelector('#placeholder #glossary');
  if (glossary) glossary.open = true;
});
"#;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn the_app_takes_the_pre_rendered_parts_over_without_a_gap_and_keeps_what_was_opened() {
    let port = web::serve(web::dist());
    let driver = web::driver();
    for built in pages() {
        let client = web::browser(&driver).await;
        web::devtools(&driver, &client, "Page.enable", json!({})).await;
        web::devtools(
            &driver,
            &client,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": WATCH }),
        )
        .await;
        // taken over: no pre-rendered part is left (each was drawn by the app)
        page::goto(&client, &format!("http://127.0.0.1:{port}/{}", built.file)).await;
        // and the app answers
        page::type_into(&client, "#gpus", "48").await;
        page::text_once(&client, "#ranking caption", "at 48 GPUs").await;
        let watched = client
            .execute(
                "return [window.__watch.frames, window.__watch.gaps, document.querySelector('#glossary').open,
                         document.querySelectorAll('#glossary').length, window.__watch.errors, window.__watch.unmarked];",
                vec![],
            )
            .await
            .expect("watched");
        let file = &built.file;
        assert!(
            watched[0].as_u64().unwrap_or(0) > 2,
            "{file}: frames watched: {watched}"
        );
        assert_eq!(
            watched[1],
            json!(0),
            "{file}: frames without the scaling plot after it showed: {watched}"
        );
        assert_eq!(
            watched[2],
            json!(true),
            "{file}: the glossary opened before the app drew it is closed: {watched}"
        );
        assert_eq!(watched[3], json!(1), "{file}: {watched}");
        assert_eq!(watched[4], json!([]), "{file}: errors in the page: {watched}");
        assert_eq!(
            watched[5],
            json!(0),
            "{file}: frames with a pre-rendered part and no placeholder: {watched}"
        );
        client.close().await.ok();
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn what_is_typed_before_the_app_arrives_is_its_first_answer() {
    let port = web::serve(web::dist());
    let driver = web::driver();
    let client = web::browser(&driver).await;
    // a slow network: the WebAssembly (over 600 kB) takes seconds to come
    web::devtools(&driver, &client, "Network.enable", json!({})).await;
    web::devtools(
        &driver,
        &client,
        "Network.emulateNetworkConditions",
        json!({ "offline": false, "latency": 50, "downloadThroughput": 100_000, "uploadThroughput": 100_000 }),
    )
    .await;
    // navigated from a script, so that nothing waits for the page's load
    client
        .execute(&format!("location.href = 'http://127.0.0.1:{port}/';"), vec![])
        .await
        .expect("navigating");
    let gpus = web::eventually("the pre-rendered GPU count", || async {
        client.find(Locator::Css(".prerendered #gpus")).await.ok()
    })
    .await;
    gpus.clear().await.expect("cleared");
    gpus.send_keys("48").await.expect("typed");
    // a network picked in the bar (a select in a closed fold: set as the browser would)
    client
        .execute(
            "const s = document.querySelector('.prerendered #bar-model'); s.value = 'vgg16';
             s.dispatchEvent(new Event('change', { bubbles: true })); s.blur(); document.querySelector('.prerendered #gpus').focus();",
            vec![],
        )
        .await
        .expect("picked");
    // all of it before the app: the page still shows the pre-rendered view, which says its results are the old question's
    let before = client
        .execute(
            "return [!!document.querySelector('.prerendered'), document.documentElement.classList.contains('typed-early'),
                     document.querySelector('.waking').textContent];",
            vec![],
        )
        .await
        .expect("read");
    assert_eq!(
        before[0],
        Value::Bool(true),
        "typed after the app took over: the test proves nothing"
    );
    assert_eq!(before[1], Value::Bool(true), "the old results are not marked");
    assert!(
        before[2]
            .as_str()
            .is_some_and(|t| t.contains("Kept: answered once loaded")),
        "{before}"
    );
    // the app's first answer is to what was typed, and the visitor types on where they were
    page::taken_over(&client).await;
    assert_eq!(value(&client, "#gpus").await, "48");
    assert_eq!(value(&client, "#model").await, "vgg16");
    assert_eq!(shown_ranking(&client).await, cli_ranking("vgg16", "abci", 48, "32"));
    web::eventually("the GPU count focused", || async {
        let id = client
            .execute("return document.activeElement && document.activeElement.id;", vec![])
            .await
            .ok()?;
        (id.as_str() == Some("gpus")).then_some(())
    })
    .await;
    client
        .find(Locator::Css("#gpus"))
        .await
        .expect("#gpus")
        .send_keys("0")
        .await
        .expect("typed on");
    page::text_once(&client, "#ranking caption", "at 480 GPUs").await;
    client.close().await.ok();
}
