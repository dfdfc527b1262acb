//! The results under the ranking follow an answer once the ranking is
//! painted: an edit (or the app taking over a pre-rendered page) shows its
//! ranking in the next frame, and the plots, findings and diagram in a task
//! after it. Until then they show the answer before, or, when the app takes
//! over a pre-rendered page, the pre-rendered parts themselves (adopted, not
//! drawn again).

use std::rc::Rc;

use yew::prelude::*;

use crate::app::components::Same;
use crate::app::page::browser;
use crate::app::state::Answer;

/// The answer the parts under the ranking show: `answer` once a frame with
/// its ranking is painted. At the first render it is `answer` itself, unless
/// the app is `adopting` the pre-rendered view's parts: then none, and they
/// stay on screen.
#[hook]
pub fn use_settled(answer: &Rc<Answer>, adopting: bool) -> Option<Rc<Answer>> {
    let settled = {
        let answer = Rc::clone(answer);
        use_state(move || (!adopting).then_some(answer))
    };
    let pending = use_mut_ref(|| None::<browser::AfterPaint>);
    {
        let settled = settled.clone();
        use_effect_with(Same(Rc::clone(answer)), move |Same(answer)| {
            let shown = settled.as_ref().is_some_and(|s| Rc::ptr_eq(s, answer));
            // a newer answer replaces (and so cancels) the one waiting
            *pending.borrow_mut() = (!shown).then(|| {
                let answer = Rc::clone(answer);
                browser::after_paint(move || settled.set(Some(answer)))
            });
        });
    }
    (*settled).clone()
}

/// The pre-rendered parts with these ids (kept by [`crate::app::start`]
/// before the app mounts), taken at the first render, to stay on screen
/// until the app draws them.
#[hook]
pub fn use_adopted<const N: usize>(ids: [&'static str; N]) -> Rc<[Option<web_sys::Element>; N]> {
    use_memo((), move |()| ids.map(browser::take_prerendered))
}

/// A part of the page: drawn from what it shows once settled, else the
/// pre-rendered part (if any) as it is.
pub fn part<T>(
    id: &'static str,
    settled: Option<&T>,
    adopted: Option<&web_sys::Element>,
    body: impl FnOnce(&T) -> Html,
) -> Html {
    match (settled, adopted) {
        (Some(answer), _) => html! { <div {id}>{ body(answer) }</div> },
        (None, Some(element)) => adopted_part(element),
        (None, None) => Html::default(),
    }
}

/// Once the app has drawn the parts it adopted: opens again the
/// `<details>` a visitor opened in them meanwhile, and says they are drawn
/// ([`browser::drawn_adopted`]).
#[hook]
pub fn use_reopened<const N: usize>(adopted: Rc<[Option<web_sys::Element>; N]>, drawn: bool) {
    use_effect_with(drawn, move |drawn| {
        if *drawn {
            let adopted: Vec<_> = adopted.iter().flatten().collect();
            for element in &adopted {
                browser::reopen_details(element);
            }
            browser::drawn_adopted(adopted.len());
        }
    });
}

/// A pre-rendered part on the page, in an element of the app's own (which
/// then holds what the app draws there: the pre-rendered element itself
/// never lies among the app's elements, where the app would place others
/// by it).
fn adopted_part(element: &web_sys::Element) -> Html {
    html! { <div class="adopted">{ Html::VRef(element.clone().into()) }</div> }
}
