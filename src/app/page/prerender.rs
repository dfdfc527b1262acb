//! The pre-rendered pages: at build time (Trunk's `post_build` hook runs
//! the `paradl-prerender` binary) the app itself is rendered with Yew's
//! server renderer, from the same engine, for the default view and for each
//! lesson, and written into the built page: a visitor sees the answer while
//! the WebAssembly is on its way. The app then takes the page over (see
//! [`crate::app::start`]).
//!
//! A page is Trunk's `index.html` with
//! - `<html data-query="…">`: the query it shows (empty for the default
//!   view); the app reads it when the address has none, and the page's
//!   first script hides the view when the address asks for another (a share
//!   link, a guess, a kept view), showing the waiting placeholder instead;
//! - the view inside the placeholder, every input disabled until the app
//!   takes over, with a note that says so.

use std::rc::Rc;

use thiserror::Error;

use crate::app::charts::escape;
use crate::app::components::page::app::{App, AppProps};
use crate::app::lessons::{self, LESSONS};
use crate::app::page::boot::{EARLY_FIELDS, boot_from};
use crate::app::page::browser::{PAGE_QUERY, PLACEHOLDER_ID};

/// Why a page could not be pre-rendered.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PrerenderError {
    /// The built page lacks a part the pre-render writes into.
    #[error("the built index.html has no {0} (it must keep index.html's <html lang=\"en\"> and placeholder)")]
    Missing(&'static str),
}

/// A page to pre-render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Its file, at the top of the built folder.
    pub file: String,
    /// The query it shows (`?s=…&lesson=…`; empty for the default view).
    pub query: String,
    /// Its title.
    pub title: String,
}

/// The default view (`index.html`) and each lesson's page.
pub fn pages() -> Vec<Page> {
    let mut pages = vec![Page {
        file: "index.html".into(),
        query: String::new(),
        title: "ParaDL oracle: how to parallelise CNN training".into(),
    }];
    pages.extend(LESSONS.iter().map(|lesson| Page {
        file: lessons::page_file(lesson),
        query: lessons::query(lesson, false),
        title: format!("{}: a ParaDL oracle lesson", lesson.title),
    }));
    pages
}

/// A parameter of a query the app wrote (`?a=1&b=2`; its values are URL-safe
/// as written, so nothing is decoded).
pub fn param(query: &str, name: &str) -> Option<String> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_string())
}

/// The app's HTML for a visit to `query` with nothing kept in the browser,
/// exactly as the app's first render (the same start, [`boot_from`]).
pub fn render_view(query: &str) -> String {
    let state = boot_from(&|name| param(query, name), || None);
    let renderer = yew::LocalServerRenderer::<App>::with_props(AppProps {
        initial: Some(Rc::new(state)),
    })
    .hydratable(false);
    futures::executor::block_on(renderer.render())
}

/// The view as it waits for the app: every input, choice and button
/// disabled (nothing can be typed that the app would lose) but the inputs
/// that decide the answer ([`EARLY_FIELDS`], whose values the app takes
/// over), links and the lesson's text working.
pub fn waking(view: &str) -> String {
    let mut out = String::with_capacity(view.len() + 4096);
    let mut rest = view;
    while let Some(open) = rest.find('<') {
        let (before, tag) = rest.split_at(open);
        let (tag, after) = tag.split_at(tag.find('>').map_or(tag.len(), |i| i + 1));
        out.push_str(before);
        match ["<input", "<select", "<textarea", "<button"]
            .iter()
            .find(|name| tag.strip_prefix(**name).is_some_and(|r| r.starts_with([' ', '>'])))
        {
            Some(name) if !EARLY_FIELDS.iter().any(|id| tag.contains(&format!(" id=\"{id}\""))) => {
                out.push_str(name);
                out.push_str(" disabled");
                out.push_str(&tag[name.len()..]);
            }
            _ => out.push_str(tag),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// What the page says while the app wakes up: what loads, and how much of
/// it (`engine_bytes`: the page's WebAssembly as it travels, compressed).
pub fn waking_note(engine_bytes: Option<u64>) -> String {
    match engine_bytes {
        Some(bytes) => format!(
            "The oracle is waking up: loading its {} of WebAssembly; type now, it answers then.",
            crate::oracle::units::bytes(bytes as f64)
        ),
        None => "The oracle is waking up: type now, it answers in a moment.".into(),
    }
}

/// `template` (Trunk's built `index.html`) made into `page`, showing `view`.
///
/// # Errors
/// [`PrerenderError::Missing`] when the template lacks `<html lang="en">`,
/// its `<title>` or its placeholder.
pub fn page_html(template: &str, page: &Page, view: &str, engine_bytes: Option<u64>) -> Result<String, PrerenderError> {
    let html_start = template
        .find(r#"<html lang="en""#)
        .ok_or(PrerenderError::Missing("<html lang=\"en\">"))?;
    let html_end = template[html_start..]
        .find('>')
        .map(|i| html_start + i + 1)
        .ok_or(PrerenderError::Missing("<html lang=\"en\">"))?;
    let title_start = template.find("<title>").ok_or(PrerenderError::Missing("<title>"))?;
    let title_end = template[title_start..]
        .find("</title>")
        .map(|i| title_start + i + "</title>".len())
        .ok_or(PrerenderError::Missing("</title>"))?;
    let opening = format!(r#"<div id="{PLACEHOLDER_ID}" class="placeholder">"#);
    let start = template.find(&opening).ok_or(PrerenderError::Missing("placeholder"))?;
    let end = template[start..]
        .find("<!-- /placeholder -->")
        .map(|i| start + i)
        .ok_or(PrerenderError::Missing("<!-- /placeholder --> mark"))?;
    // a page pre-rendered before is rendered again, not twice
    let inner = &template[start + opening.len()..end];
    let inner = inner.find(PRERENDERED).map_or(inner, |i| &inner[..i]);
    let mut out = String::with_capacity(template.len() + view.len() + 256);
    out.push_str(&template[..html_start]);
    out.push_str(&format!(r#"<html lang="en" {PAGE_QUERY}="{}">"#, escape(&page.query)));
    out.push_str(&template[html_end..title_start]);
    out.push_str(&format!("<title>{}</title>", escape(&page.title)));
    out.push_str(&template[title_end..start]);
    out.push_str(&opening);
    out.push_str(inner);
    out.push_str(&format!(
        r#"{PRERENDERED}<p class="waking" role="status">{}</p>{}</div>"#,
        escape(&waking_note(engine_bytes)),
        waking(view)
    ));
    out.push_str(&template[end..]);
    Ok(out)
}

const PRERENDERED: &str = r#"<div class="prerendered">"#;

#[cfg(test)]
mod tests {
    use crate::app::page::prerender::*;

    const TEMPLATE: &str = r#"<!doctype html><html lang="en"><head><title>T</title></head><body><div id="placeholder" class="placeholder"><div class="waiting">W</div><!-- /placeholder --></div></body></html>"#;

    #[test]
    fn a_page_carries_its_query_title_and_view() {
        let page = Page {
            file: "lesson-x.html".into(),
            query: "?s=abc&lesson=x".into(),
            title: "A & B".into(),
        };
        let html = page_html(TEMPLATE, &page, "<p>view</p><input type=\"number\">", Some(600_000)).unwrap();
        assert!(html.contains("loading its 600 kB of WebAssembly; type now"), "{html}");
        assert!(
            html.contains(r#"<html lang="en" data-query="?s=abc&amp;lesson=x">"#),
            "{html}"
        );
        assert!(html.contains("<title>A &amp; B</title>"), "{html}");
        assert!(
            html.contains(r#"<div class="waiting">W</div><div class="prerendered">"#),
            "{html}"
        );
        assert!(html.contains("<input disabled type=\"number\">"), "{html}");
        // the inputs that decide the answer stay enabled, and only they
        let view = r#"<input id="gpus" value="64"><select id="bar-model"><option>x</option></select><input id="node-gpus"><button>b</button>"#;
        assert_eq!(
            waking(view),
            r#"<input id="gpus" value="64"><select id="bar-model"><option>x</option></select><input disabled id="node-gpus"><button disabled>b</button>"#
        );
        assert!(html.ends_with("<!-- /placeholder --></div></body></html>"), "{html}");
        // rendered again, not twice
        let again = page_html(&html, &page, "<p>other</p>", None).unwrap();
        assert_eq!(again.matches("prerendered").count(), 1, "{again}");
        assert_eq!(again.matches("data-query").count(), 1, "{again}");
        assert!(
            again.contains("<p>other</p>") && !again.contains("<p>view</p>"),
            "{again}"
        );
    }

    #[test]
    fn a_template_without_its_marks_is_refused() {
        let page = &pages()[0];
        assert_eq!(
            page_html("<html>", page, "", None),
            Err(PrerenderError::Missing("<html lang=\"en\">"))
        );
        let no_mark = TEMPLATE.replace("<!-- /placeholder -->", "");
        assert!(matches!(
            page_html(&no_mark, page, "", None),
            Err(PrerenderError::Missing(_))
        ));
    }

    #[test]
    fn the_pages_first_script_reads_what_the_app_writes() {
        // index.html's script decides, before the app, whether the page shows its view:
        // it must read the attribute the pre-render writes and the key the app keeps views under
        let index = include_str!("../../../index.html");
        assert!(index.contains(&format!("getAttribute('{PAGE_QUERY}')")));
        assert!(index.contains(&format!(
            "localStorage.getItem('{}')",
            crate::app::page::browser::STORAGE_KEY
        )));
        assert!(index.contains(&format!("asked.get('{}')", crate::app::page::url::PARAMETER)));
        // and it keeps what is typed early where the app reads it
        assert!(index.contains(&format!("window.{} = []", crate::app::page::browser::TYPED_EARLY)));
    }

    #[test]
    fn params_of_a_written_query() {
        assert_eq!(param("?s=a-b_c&lesson=x", "s").as_deref(), Some("a-b_c"));
        assert_eq!(param("?s=a&lesson=x", "lesson").as_deref(), Some("x"));
        assert_eq!(param("", "s"), None);
        assert_eq!(param("?predict", "predict"), None);
    }

    #[test]
    fn each_lesson_has_a_page_that_shows_it() {
        let pages = pages();
        assert_eq!(pages.len(), LESSONS.len() + 1);
        for (page, lesson) in pages[1..].iter().zip(LESSONS.iter()) {
            assert_eq!(param(&page.query, "lesson").as_deref(), Some(lesson.id));
            let view = render_view(&page.query);
            assert!(view.contains(lesson.question), "{}", page.file);
            assert!(view.contains("id=\"ranking\""), "{}: no ranking", page.file);
        }
    }

    #[test]
    fn the_inputs_left_enabled_are_the_early_fields_each_on_some_page() {
        let views: Vec<String> = pages().iter().map(|p| waking(&render_view(&p.query))).collect();
        for id in EARLY_FIELDS {
            assert!(
                views.iter().any(|v| v.contains(&format!(" id=\"{id}\""))),
                "{id} is on no pre-rendered page"
            );
        }
        for view in &views {
            for tag in view.split('<').skip(1).filter(|t| {
                ["input ", "select ", "textarea ", "button "]
                    .iter()
                    .any(|n| t.starts_with(n))
            }) {
                let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
                let early = EARLY_FIELDS.iter().any(|id| tag.contains(&format!(" id=\"{id}\"")));
                assert_eq!(!tag.contains(" disabled"), early, "{tag}");
            }
        }
    }

    #[test]
    fn the_default_view_shows_the_ranking_and_the_plots() {
        let view = render_view("");
        assert!(view.contains("id=\"ranking\""));
        assert!(view.contains("<svg"), "no plot drawn");
        assert!(!view.contains("id=\"lesson\""));
    }
}
