//! Where a visit starts: the link's view (and lesson), else the last view
//! kept in this browser, else the defaults.

use crate::app::input::document::Document;
use crate::app::lessons;
use crate::app::page::{browser, url};
use crate::app::state::{AppState, LessonState};

/// The state a visit starts from: the link's, else the last one kept, else
/// the defaults. A link that cannot be read falls back to the defaults
/// with a notice.
pub fn boot() -> AppState {
    boot_from(&browser::query_param, browser::remembered)
}

/// The state a visit starts from, given the address's parameters (`param`)
/// and the last state kept in this browser (`remembered`, asked only when
/// the address names none). The pre-render starts from it too, so that a
/// pre-rendered page shows what the app will.
pub fn boot_from(param: &dyn Fn(&str) -> Option<String>, remembered: fn() -> Option<String>) -> AppState {
    let lesson = param("lesson").and_then(|id| lessons::find(&id));
    let linked = param(url::PARAMETER);
    let mut state = match lesson {
        // an old lesson link (`?lesson=ID` without its state), or the lesson's own link (its
        // page, its list entry): its setup as built, not decoded and checked again (a phone's
        // first answer comes sooner)
        Some(lesson) if linked.as_deref().is_none_or(|l| l == url::encode(&(lesson.inputs)())) => {
            AppState::new((lesson.inputs)(), None)
        }
        _ => linked_or_kept(linked, remembered),
    };
    // a lesson's link: its question first, and with predict=1 the results
    // hidden until revealed
    if let Some(lesson) = lesson {
        state.lesson = Some(LessonState {
            lesson,
            predict: param("predict").is_some_and(|p| p == "1"),
            revealed: false,
            guess: None,
        });
    }
    state
}

fn linked_or_kept(linked: Option<String>, remembered: fn() -> Option<String>) -> AppState {
    match linked {
        Some(link) => match url::decode(&link) {
            Ok(document) => AppState::new(document, None),
            Err(e) => AppState::new(
                Document::default(),
                Some(format!(
                    "This link could not be opened ({e}), so the default view is shown."
                )),
            ),
        },
        None => match remembered().map(|text| url::decode_stored(&text)) {
            None => AppState::new(Document::default(), None),
            Some(Ok(document)) => AppState::new(document, None),
            Some(Err(e)) => AppState::new(
                Document::default(),
                Some(format!(
                    "Your last view could not be restored ({e}), so the default view is shown."
                )),
            ),
        },
    }
}

/// What to say when a view cannot be kept as it should.
pub fn keep_notice(too_long_for_link: bool, stored: bool) -> Option<String> {
    match (too_long_for_link, stored) {
        (false, true) => None,
        (true, true) => Some(
            "This view is too large to share by link: the address shows the page only. It is kept in this browser for reloads; download the network (Import or export a network) to share it.".into(),
        ),
        (_, false) => Some(
            "This view could not be kept in this browser (storage is full or off): a reload will not restore it. Download the network (Import or export a network) to keep it.".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::app::lessons::LESSONS;
    use crate::app::page::boot::*;

    fn boot_with(s: Option<String>, lesson: &str) -> AppState {
        let lesson = lesson.to_string();
        boot_from(
            &move |key| match key {
                "lesson" => Some(lesson.clone()),
                "s" => s.clone(),
                _ => None,
            },
            || None,
        )
    }

    #[test]
    fn a_lesson_s_own_link_opens_its_setup_as_the_link_says() {
        for lesson in &LESSONS {
            let document = (lesson.inputs)();
            let link = url::encode(&document);
            let state = boot_with(Some(link.clone()), lesson.id);
            let answer = state.answer.as_ref().unwrap();
            // what the link decodes to, shown without decoding it
            assert_eq!(answer.document, url::decode(&link).unwrap(), "{}", lesson.id);
            assert_eq!(state.lesson.map(|l| l.lesson.id), Some(lesson.id));
        }
    }

    #[test]
    fn an_edited_lesson_link_is_decoded_and_shows_its_own_setup() {
        let lesson = &LESSONS[0];
        let mut document = (lesson.inputs)();
        document.question.run.gpus = 16;
        let state = boot_with(Some(url::encode(&document)), lesson.id);
        assert_eq!(state.answer.as_ref().unwrap().document.question.run.gpus, 16);
        assert!(state.notice.is_none());
        // a broken link with a lesson: the defaults and a notice, not the lesson's setup
        let state = boot_with(Some("not a link".into()), lesson.id);
        assert!(state.notice.is_some_and(|n| n.contains("could not be opened")));
    }
}
