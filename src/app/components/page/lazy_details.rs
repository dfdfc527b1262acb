//! A `<details>` whose contents enter the page the first time it is
//! opened (and stay): a closed fold costs the first render nothing, which
//! on a slow phone is time before the page answers.

use web_sys::HtmlDetailsElement;
use yew::prelude::*;

/// Props of [`LazyDetails`].
#[derive(Properties, PartialEq)]
pub struct LazyDetailsProps {
    /// Its id.
    pub id: AttrValue,
    /// Its classes.
    #[prop_or_default]
    pub class: Classes,
    /// The summary's text.
    pub summary: AttrValue,
    /// Open (and its contents in the page): an error in it.
    #[prop_or_default]
    pub open: bool,
    /// The contents, rendered once opened.
    pub children: Html,
}

/// The fold.
#[function_component(LazyDetails)]
pub fn lazy_details(props: &LazyDetailsProps) -> Html {
    let opened = use_state(|| false);
    // opened for an error, it stays open in the page's eyes (the reader
    // may close it): an error put right never folds the field away
    let forced = use_mut_ref(|| false);
    if props.open {
        *forced.borrow_mut() = true;
    }
    let forced = *forced.borrow();
    let ontoggle = {
        let opened = opened.clone();
        Callback::from(move |e: Event| {
            if e.target_unchecked_into::<HtmlDetailsElement>().open() {
                opened.set(true);
            }
        })
    };
    html! {
        <details id={props.id.clone()} class={props.class.clone()} open={forced} {ontoggle}>
            <summary>{ props.summary.clone() }</summary>
            if *opened || forced { { props.children.clone() } }
        </details>
    }
}
