//! Where a visit starts: the link's view (and lesson), else the last view
//! kept in this browser, else the defaults.

use std::rc::Rc;

use yew::Reducible;

use crate::app::input::document::Document;
use crate::app::input::keys::RunKey;
use crate::app::input::run_fields;
use crate::app::lessons;
use crate::app::page::{browser, url};
use crate::app::state::action::{Action, ClusterAction, ModelAction, RunAction};
use crate::app::state::{AppState, LessonState};

/// The state a visit starts from: the link's, else the last one kept, else
/// the defaults, with what the visitor changed on the pre-rendered page
/// before the app took it over ([`with_typed`]). A link that cannot be read
/// falls back to the defaults with a notice.
pub fn boot() -> AppState {
    with_typed(
        boot_from(&browser::query_param, browser::remembered),
        &browser::typed_early(&EARLY_FIELDS),
    )
}

/// The inputs a pre-rendered page lets a visitor change before the app takes
/// it over (the pre-render leaves them enabled, `index.html`'s script keeps
/// what is typed, [`with_typed`] applies it): those that decide the answer
/// (network, cluster, GPUs, batch, precision, what is best), in the summary
/// bar and the run's panel, both drawn at the app's first render.
pub const EARLY_FIELDS: [&str; 11] = [
    "bar-model",
    "bar-cluster",
    "bar-batch",
    "bar-precision",
    "bar-rank-by",
    "bar-gpus",
    "gpus",
    "samples-per-gpu",
    "mini-batch",
    "precision",
    "rank-by",
];

/// The action the input with id `id` sends for `value` (its component's:
/// the bar's network and cluster pick a preset, the others set their run
/// field; the bar's batch is the samples per GPU or the mini-batch, as the
/// run shows it). `None` for an id not in [`EARLY_FIELDS`].
fn early_action(state: &AppState, id: &str, value: String) -> Option<Action> {
    let key = match id {
        "bar-model" => return Some(Action::Model(ModelAction::Pick(value))),
        "bar-cluster" => return Some(Action::Cluster(ClusterAction::Pick(value))),
        "bar-batch" if state.run.per_gpu() => RunKey::SamplesPerGpu,
        "bar-batch" => RunKey::MiniBatch,
        "bar-precision" => RunKey::Precision,
        "bar-rank-by" => RunKey::RankBy,
        "bar-gpus" => RunKey::Gpus,
        _ if EARLY_FIELDS.contains(&id) => run_fields::RUN_FIELDS.iter().find(|f| f.id == id)?.key,
        _ => return None,
    };
    Some(Action::Run(RunAction::Set(key, value)))
}

/// `state` with the values typed into the pre-rendered page's
/// [`EARLY_FIELDS`] (`typed`: input ids and values, in the order typed, so
/// that an input's last value counts), each applied as its input's action:
/// the app's first render answers them. Ids of other inputs are ignored.
pub fn with_typed(state: AppState, typed: &[(String, String)]) -> AppState {
    let mut state = Rc::new(state);
    for (id, value) in typed {
        if let Some(action) = early_action(&state, id, value.clone()) {
            state = state.reduce(action);
        }
    }
    Rc::unwrap_or_clone(state)
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

    fn typed(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(i, v)| (i.to_string(), v.to_string())).collect()
    }

    #[test]
    fn what_was_typed_before_the_app_is_its_first_answer() {
        let start = || AppState::new(Document::default(), None);
        let state = with_typed(
            start(),
            &typed(&[
                ("gpus", "4"),
                ("bar-model", "vgg16"),
                ("gpus", "48"),
                ("bar-precision", "fp16"),
            ]),
        );
        let question = &state.answer.as_ref().unwrap().document.question;
        assert_eq!(question.run.gpus, 48, "the last value typed");
        assert_eq!(question.model.preset(), Some("vgg16"));
        assert_eq!(question.run.precision, crate::oracle::Precision::Fp16);
        // the bar's batch is the samples per GPU in that mode
        let state = with_typed(start(), &typed(&[("bar-batch", "8"), ("bar-cluster", "dgx-a100")]));
        let question = &state.answer.as_ref().unwrap().document.question;
        assert_eq!(question.run.batch, crate::oracle::Batch::SamplesPerGpu(8.0));
        assert_eq!(question.cluster.preset(), Some("dgx-a100"));
        // an input not in the list, and nothing typed, change nothing
        let untouched = start().answer.unwrap().document.clone();
        for other in [typed(&[("fidelity", "ideal"), ("node-gpus", "3")]), typed(&[])] {
            assert_eq!(with_typed(start(), &other).answer.unwrap().document, untouched);
        }
        // a value the field refuses is kept with its error, as typing it into the app would
        let state = with_typed(start(), &typed(&[("bar-gpus", "many")]));
        assert_eq!(state.run.text(RunKey::Gpus), "many");
        assert!(state.error(crate::app::input::keys::Key::Run(RunKey::Gpus)).is_some());
    }

    #[test]
    fn every_early_field_is_an_input_of_the_first_render_that_sends_its_action() {
        let state = AppState::new(Document::default(), None);
        for id in EARLY_FIELDS {
            assert!(early_action(&state, id, "1".into()).is_some(), "{id}");
        }
    }

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
