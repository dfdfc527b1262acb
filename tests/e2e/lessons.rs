//! Lessons: a link that asks first, a guess revealed, a setup that no
//! longer matches.

use super::*;
use crate::screens::rect;

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_lesson_link_asks_first_and_reveals_on_demand() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    open(&client, &s.base).await;
    // the lessons are listed with their links
    page::click(&client, "#lessons summary").await;
    let link = client
        .find(Locator::Css("#lessons li[data-lesson='memory-wall'] a.predict"))
        .await
        .expect("the lesson's predict link")
        .attr("href")
        .await
        .ok()
        .flatten()
        .expect("an address");
    assert!(
        link.contains("lesson=memory-wall") && link.contains("predict=1"),
        "{link}"
    );
    page::goto(&client, &link).await;
    let question = page::text_once(&client, "#lesson .question", "VGG-16").await;
    assert!(question.contains("which strategies fit"), "{question}");
    page::text_once(&client, "#hidden-results", "hidden").await;
    assert!(ranking(&client).await.is_empty(), "no results before the guess");
    page::click(&client, "#reveal").await;
    let shown = eventually("the revealed ranking", || async {
        let rows = ranking(&client).await;
        (!rows.is_empty()).then_some(rows)
    })
    .await;
    assert_eq!(shown, cli_ranking("vgg16", "abci", 8, "256"));
    page::text_once(&client, "#lesson .answer", "out of memory").await;
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_lesson_opens_on_its_question_ranking_and_plot_and_takes_a_guess() {
    let s = setup();
    for (width, height) in [(853, 480), (360, 740)] {
        let client = web::browser(&s.driver).await;
        page::viewport(&client, width, height).await;
        let lesson = paradl::app::lessons::find("memory-wall").expect("the lesson");
        let query = paradl::app::lessons::query(lesson, false);
        open(&client, &format!("{}{query}", s.base)).await;
        page::text_once(&client, "#lesson .question", "VGG-16").await;
        // the question and the ranking are on screen; the lesson's plot follows the ranking,
        // and the explanation (opened by the link) comes after it and takes no focus
        let question = rect(&client, "#lesson .question").await;
        let ranking = rect(&client, "#ranking").await;
        assert!(
            question[0] >= 0.0 && question[1] <= f64::from(height),
            "{width}x{height}: question {question:?}"
        );
        assert!(ranking[0] < f64::from(height), "{width}x{height}: ranking {ranking:?}");
        let order = client
            .execute(
                "const r = document.querySelector('#ranking'), p = document.querySelector('#memory-plot'), e = document.querySelector('#explain'); \
                 return [!!(r.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING), !!(p.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING), document.activeElement === e];",
                vec![],
            )
            .await
            .expect("order");
        assert_eq!(order, serde_json::json!([true, true, false]), "{width}x{height}");
        // the lesson stays in the address, and in the link
        let search = client.execute("return location.search;", vec![]).await.expect("search");
        assert!(
            search.as_str().unwrap_or_default().contains("lesson=memory-wall"),
            "{search}"
        );
        client.close().await.ok();
    }
    // predict, then reveal: a guess of the kind each question asks, then how close it was
    let predict = |id: &str| {
        let lesson = paradl::app::lessons::find(id).expect("the lesson");
        format!("{}{}", s.base, paradl::app::lessons::query(lesson, true))
    };
    let client = web::browser(&s.driver).await;
    // "which strategies fit?": none checked is an answer (the right one here)
    open_predict(&client, &predict("memory-wall")).await;
    assert!(
        client.find(Locator::Css("#guess-strategy")).await.is_err(),
        "not asked as the best strategy"
    );
    assert!(enabled(&client, "#guess").await, "none checked is a guess");
    page::click(&client, "#guess-fit-data").await;
    page::click(&client, "#guess").await;
    let result = page::text_once(&client, "#guess-result", "You picked").await;
    assert_eq!(result, "You picked data; the model says none fit.");
    ranking_becomes(&client, &cli_ranking("vgg16", "abci", 8, "256")).await;
    let search = client.execute("return location.search;", vec![]).await.expect("search");
    assert!(search.as_str().unwrap_or_default().contains("predict=1"), "{search}");
    // a yes-or-no question: yes or no, nothing preselected
    open_predict(&client, &predict("data-stops-scaling")).await;
    assert!(!enabled(&client, "#guess").await, "waits for yes or no");
    page::click(&client, "#guess-no").await;
    page::click(&client, "#guess").await;
    let result = page::text_once(&client, "#guess-result", "You said").await;
    assert!(result.starts_with("You said no: right."), "{result}");
    // "which strategy is fastest": none picked for the student, an epoch that is no time said so
    open_predict(&client, &predict("spatial-cosmoflow")).await;
    assert_eq!(value(&client, "#guess-strategy").await, "");
    assert!(!enabled(&client, "#guess").await);
    client
        .find(Locator::Css("#guess-strategy"))
        .await
        .expect("the strategy")
        .select_by_value("data")
        .await
        .expect("picked");
    page::type_into(&client, "#guess-time", "banana").await;
    page::text_once(&client, "#guess-time-error", "Not a time").await;
    assert!(!enabled(&client, "#guess").await);
    page::type_into(&client, "#guess-time", "2 min").await;
    eventually("the guess enabled", || async {
        enabled(&client, "#guess").await.then_some(())
    })
    .await;
    page::click(&client, "#guess").await;
    let result = page::text_once(&client, "#guess-result", "You guessed").await;
    assert!(result.starts_with("You guessed data; the model says"), "{result}");
    assert!(result.contains("Your epoch of 120 s"), "{result}");
    client.close().await.ok();
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs the built app (dist/) and Chromium: scripts/dev test runs it"]
async fn a_lesson_says_when_the_setup_no_longer_matches_it() {
    let s = setup();
    let client = web::browser(&s.driver).await;
    page::goto(&client, &format!("{}?lesson=memory-wall", s.base)).await;
    page::text_once(&client, "#lesson .answer", "out of memory").await;
    // an old lesson link (no state in it) opens the lesson's own setup, not the last view
    ranking_becomes(&client, &cli_ranking("vgg16", "abci", 8, "256")).await;
    assert!(
        client.find(Locator::Css("#lesson-stale")).await.is_err(),
        "the lesson's own setup is not stale"
    );
    page::type_into(&client, "#gpus", "32").await;
    let note = page::text_once(&client, "#lesson-stale", "changed the setup").await;
    assert!(note.contains("Back to the lesson's setup"), "{note}");
    let back = client
        .find(Locator::Css("#lesson-stale a"))
        .await
        .expect("the link back")
        .attr("href")
        .await
        .ok()
        .flatten()
        .expect("an address");
    // the lesson's own page, pre-rendered beside the app's
    assert!(back.ends_with("lesson-memory-wall.html"), "{back}");
    // the lesson's setup typed back: the note goes
    page::type_into(&client, "#gpus", "8").await;
    eventually("the note gone", || async {
        client.find(Locator::Css("#lesson-stale")).await.is_err().then_some(())
    })
    .await;
    client.close().await.ok();
}
