//! A part of the page drawn once the app's first frame is painted. When the
//! app takes over a pre-rendered page, the pre-rendered part stays on screen
//! (adopted, not drawn again) until then, so the app answers its first input
//! sooner.

use yew::prelude::*;

use crate::app::components::results::after_ranking::{part, use_adopted, use_reopened};
use crate::app::page::browser;

/// Props of [`Later`].
#[derive(Properties, PartialEq)]
pub struct LaterProps {
    /// The part's id (also the pre-rendered part's).
    pub id: &'static str,
    /// What it holds.
    pub children: Html,
}

/// The part: its children, or, at the app's first render over a
/// pre-rendered page, the pre-rendered part until a frame is painted.
#[function_component(Later)]
pub fn later(props: &LaterProps) -> Html {
    let id = props.id;
    let adopted = use_adopted([id]);
    let drawn = use_state(|| adopted[0].is_none());
    let pending = use_mut_ref(|| None::<browser::AfterPaint>);
    {
        let drawn = drawn.clone();
        use_effect_with((), move |()| {
            if !*drawn {
                *pending.borrow_mut() = Some(browser::after_paint(move || drawn.set(true)));
            }
        });
    }
    use_reopened(std::rc::Rc::clone(&adopted), *drawn);
    part(id, drawn.then_some(&()), adopted[0].as_ref(), |()| {
        props.children.clone()
    })
}
