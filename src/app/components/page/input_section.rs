//! An input panel that folds away (phones keep the results in reach):
//! a `<details>` open by default, its heading the summary.

use yew::prelude::*;

/// Props of [`InputSection`].
#[derive(Properties, PartialEq, Clone)]
pub struct InputSectionProps {
    /// The heading's id (the section is labelled by it).
    pub heading: AttrValue,
    /// The heading.
    pub title: AttrValue,
    /// The section's own id, if any.
    #[prop_or_default]
    pub id: Option<AttrValue>,
    /// The panel's fields.
    #[prop_or_default]
    pub children: Html,
}

/// The panel.
#[function_component(InputSection)]
pub fn input_section(props: &InputSectionProps) -> Html {
    html! {
        <section class="panel" id={props.id.clone()} aria-labelledby={props.heading.clone()}>
            <details class="fold" open=true>
                <summary><h2 id={props.heading.clone()}>{ &props.title }</h2></summary>
                { props.children.clone() }
            </details>
        </section>
    }
}
