//! The page around the app: the location and history (share links), local
//! storage (the last state), the clipboard and downloads. Every call
//! tolerates a missing browser API: it does nothing and says so.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement, Url, UrlSearchParams};

use crate::app::page::url::PARAMETER;

/// Where the last state is kept.
pub const STORAGE_KEY: &str = "paradl.state";

/// The page's window; none outside a browser (the pre-render, native
/// tests), where every call here does nothing.
#[cfg(target_arch = "wasm32")]
fn window() -> Result<web_sys::Window, JsValue> {
    web_sys::window().ok_or_else(|| JsValue::from_str("no window"))
}

/// Outside a browser there is no window: `JsValue::UNDEFINED` is a constant,
/// so saying so calls nothing of JavaScript's.
#[cfg(not(target_arch = "wasm32"))]
fn window() -> Result<web_sys::Window, JsValue> {
    Err(JsValue::UNDEFINED)
}

/// The state parameter of the page's address, if any.
pub fn linked_state() -> Option<String> {
    query_param(PARAMETER)
}

/// A parameter of the page's address, if present. A bare address reads
/// the query its page was pre-rendered for ([`PAGE_QUERY`]: a lesson's
/// page shows that lesson).
pub fn query_param(name: &str) -> Option<String> {
    let w = window().ok()?;
    let mut search = w.location().search().ok()?;
    if search.is_empty() {
        search = w
            .document()
            .and_then(|d| d.document_element())
            .and_then(|e| e.get_attribute(PAGE_QUERY))
            .unwrap_or_default();
    }
    UrlSearchParams::new_with_str(&search).ok()?.get(name)
}

/// The attribute of a pre-rendered page's `<html>` that holds the query
/// it shows (empty for the default view).
pub const PAGE_QUERY: &str = "data-query";

/// The address of a network file the page was opened with
/// (`?model=ADDRESS`, for course pages), if any.
pub fn linked_model() -> Option<String> {
    query_param("model").filter(|m| !m.trim().is_empty())
}

/// Fetches a file's bytes.
///
/// # Errors
/// Why it could not be fetched, in words.
pub async fn fetch_bytes(address: &str) -> Result<Vec<u8>, String> {
    let window = window().map_err(|_| "no browser window".to_string())?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(address))
        .await
        .map_err(|_| "the address could not be reached (network error or the server does not allow it)".to_string())?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| "the answer was not an HTTP response".to_string())?;
    if !response.ok() {
        return Err(format!(
            "the server answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let buffer = response
        .array_buffer()
        .map_err(|_| "the answer has no body".to_string())?;
    let buffer = wasm_bindgen_futures::JsFuture::from(buffer)
        .await
        .map_err(|_| "the answer could not be read".to_string())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Scrolls `element` to the top of the window: right under the summary
/// bar where the bar stays in view (a phone's sticky bar, whose height
/// varies with its names and verdict), so that nothing of it hides there.
pub fn bring_to_top(element: &web_sys::Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let sticky = window
        .document()
        .and_then(|d| d.get_element_by_id("summary"))
        .filter(|bar| {
            window
                .get_computed_style(bar)
                .ok()
                .flatten()
                .and_then(|style| style.get_property_value("position").ok())
                .as_deref()
                == Some("sticky")
        });
    let below = sticky.map_or(0.0, |bar| bar.get_bounding_client_rect().height());
    let top = element.get_bounding_client_rect().top() + window.scroll_y().unwrap_or(0.0) - below;
    window.scroll_to_with_x_and_y(0.0, top.max(0.0));
}

/// Moves through the page's history: back (`-1`, undo) or forward (`1`,
/// redo).
pub fn go(steps: i32) {
    if let Ok(history) = window().and_then(|w| w.history()) {
        let _ = history.go_with_delta(steps);
    }
}

/// The address that shows `encoded` with `suffix` (a lesson's
/// `&lesson=ID`): this page with `?s=...`.
pub fn address(encoded: &str, suffix: &str) -> String {
    let url = share_url(encoded);
    match (suffix.is_empty(), encoded.is_empty()) {
        (true, _) => url,
        (false, true) => format!("{url}?{}", suffix.trim_start_matches('&')),
        (false, false) => format!("{url}{suffix}"),
    }
}

/// The address that shows `encoded`: this page with `?s=...` (no
/// parameter for the default view).
pub fn share_url(encoded: &str) -> String {
    let Ok(location) = window().map(|w| w.location()) else {
        return String::new();
    };
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    );
    if encoded.is_empty() {
        base
    } else {
        format!("{base}?{PARAMETER}={encoded}")
    }
}

/// Shows the link of `link` and `suffix` (a lesson's) in the address (or
/// the bare page when the view is too large for a link), as a new history
/// entry when `push` (else in place) that records `position`, its place
/// among the page's entries; and remembers `stored` for the next visit.
///
/// # Errors
/// When the browser refuses to keep the state (storage missing or full).
pub fn keep(link: Option<&str>, suffix: &str, stored: &str, push: bool, position: usize) -> Result<(), JsValue> {
    let w = window()?;
    if let Ok(history) = w.history() {
        let url = address(link.unwrap_or_default(), suffix);
        let state = JsValue::from_f64(position as f64);
        let _ = if push {
            history.push_state_with_url(&state, "", Some(&url))
        } else {
            history.replace_state_with_url(&state, "", Some(&url))
        };
    }
    let storage = w
        .local_storage()?
        .ok_or_else(|| JsValue::from_str("no local storage"))?;
    storage.set_item(STORAGE_KEY, stored)
}

/// The page's list for a CSS media query, if the browser has one (none
/// outside a browser: the pre-render draws for a common screen).
pub fn media(query: &str) -> Option<web_sys::MediaQueryList> {
    window().ok()?.match_media(query).ok().flatten()
}

/// The state remembered by [`keep`], if any.
pub fn remembered() -> Option<String> {
    window().ok()?.local_storage().ok()??.get_item(STORAGE_KEY).ok()?
}

/// Copies text to the clipboard; `Ok` once the browser confirms.
pub async fn copy(text: String) -> Result<(), JsValue> {
    let promise = window()?.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::JsFuture::from(promise).await.map(|_| ())
}

/// Offers `text` as a file download.
pub fn download_text(file_name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let clicked = click_link(file_name, &url);
    let _ = Url::revoke_object_url(&url);
    clicked
}

fn click_link(file_name: &str, href: &str) -> Result<(), JsValue> {
    let document = window()?.document().ok_or_else(|| JsValue::from_str("no document"))?;
    let anchor: HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    anchor.set_href(href);
    anchor.set_download(file_name);
    anchor.click();
    Ok(())
}

/// Renders an SVG document to a PNG at twice its size and offers it as a
/// download.
pub fn download_png(file_name: &str, svg: &str, width: u32, height: u32) -> Result<(), JsValue> {
    let document = window()?.document().ok_or_else(|| JsValue::from_str("no document"))?;
    let canvas: HtmlCanvasElement = document.create_element("canvas")?.dyn_into()?;
    canvas.set_width(width * 2);
    canvas.set_height(height * 2);
    let image = HtmlImageElement::new()?;
    let name = file_name.to_string();
    let drawn = image.clone();
    let onload = wasm_bindgen::closure::Closure::once(move || {
        let painted = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
            .map(|context| {
                context.draw_image_with_html_image_element_and_dw_and_dh(
                    &drawn,
                    0.0,
                    0.0,
                    f64::from(width * 2),
                    f64::from(height * 2),
                )
            });
        if let (Some(Ok(())), Ok(data)) = (painted, canvas.to_data_url_with_type("image/png")) {
            let _ = click_link(&name, &data);
        }
    });
    image.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    let source = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(svg));
    image.set_src(&source);
    Ok(())
}

/// Sets a performance mark once per page (for the app benchmark), if the
/// page has the API.
pub fn mark_once(name: &str) {
    if let Some(performance) = window().ok().and_then(|w| w.performance())
        && performance.get_entries_by_name(name).length() == 0
    {
        let _ = performance.mark(name);
    }
}

thread_local! {
    /// The pre-rendered view's parts kept by [`keep_prerendered`].
    static PRERENDERED: RefCell<Vec<web_sys::Element>> = const { RefCell::new(Vec::new()) };
    /// How many of them the app has not drawn yet.
    static UNDRAWN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Keeps the pre-rendered view's parts with these ids, if the page shows one
/// for the question the app starts from (its `<html>` has a [`PAGE_QUERY`]
/// and no `unknown-view` class, which the page's first script sets when the
/// address asks for another view), before the app mounts (which empties the
/// page's body): the app adopts them ([`take_prerendered`]) until it draws
/// those parts itself.
pub fn keep_prerendered(ids: &[&str]) {
    let Some(document) = window().ok().and_then(|w| w.document()) else {
        return;
    };
    let Some(root) = document.document_element() else {
        return;
    };
    let unknown = root
        .get_attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|c| c == "unknown-view"));
    let Some(placeholder) = document.get_element_by_id(PLACEHOLDER_ID) else {
        return;
    };
    if !root.has_attribute(PAGE_QUERY) || unknown {
        return;
    }
    let parts = ids
        .iter()
        .filter_map(|id| placeholder.query_selector(&format!("#{id}")).ok().flatten())
        // marked until the app draws the part itself (the end-to-end tests wait for that)
        .inspect(|part| {
            let _ = part.set_attribute(ADOPTED, "");
        });
    PRERENDERED.with(|kept| kept.borrow_mut().extend(parts));
}

/// While the app shows parts of the pre-rendered view it has not drawn
/// ([`take_prerendered`]), an empty, hidden placeholder stays in the page,
/// until it has drawn them all ([`drawn_adopted`]): what waits for the
/// placeholder to go (a script, a test) then finds every part of the page
/// the app's own. The GPU count answers before.
fn mark_adopting() {
    let Some(document) = window().ok().and_then(|w| w.document()) else {
        return;
    };
    if let (Ok(marker), Some(body)) = (document.create_element("div"), document.body()) {
        marker.set_id(PLACEHOLDER_ID);
        let _ = marker.set_attribute("hidden", "");
        let _ = body.append_child(&marker);
    }
}

/// Says that the app has drawn `count` more of the parts it adopted; once
/// it has drawn them all, the placeholder [`mark_adopting`] left goes.
pub fn drawn_adopted(count: usize) {
    let left = UNDRAWN.with(|undrawn| {
        let left = undrawn.get().saturating_sub(count);
        undrawn.set(left);
        left
    });
    if left == 0
        && count > 0
        && let Some(marker) = window()
            .ok()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(PLACEHOLDER_ID))
    {
        marker.remove();
    }
}

/// The attribute of a pre-rendered part the app shows until it draws it.
pub const ADOPTED: &str = "data-adopted";

/// Opens, in the page, each `<details>` with an id that is open in
/// `adopted` (a pre-rendered part the app has just drawn again): what a
/// visitor opened before the app drew it stays open.
pub fn reopen_details(adopted: &web_sys::Element) {
    let (Ok(opened), Some(document)) = (
        adopted.query_selector_all("details[open][id]"),
        window().ok().and_then(|w| w.document()),
    ) else {
        return;
    };
    for i in 0..opened.length() {
        let id = opened
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            .map(|e| e.id());
        if let Some(element) = id.and_then(|id| document.get_element_by_id(&id))
            && !element.has_attribute("open")
        {
            let _ = element.set_attribute("open", "");
        }
    }
}

/// The kept pre-rendered part with id `id` ([`keep_prerendered`]), once.
pub fn take_prerendered(id: &str) -> Option<web_sys::Element> {
    PRERENDERED.with(|kept| {
        let mut kept = kept.borrow_mut();
        let at = kept.iter().position(|e| e.id() == id)?;
        let part = kept.swap_remove(at);
        if UNDRAWN.with(|undrawn| undrawn.replace(undrawn.get() + 1)) == 0 {
            mark_adopting();
        }
        Some(part)
    })
}

/// Calls `f` once the next frame is painted (in a task after the next
/// animation frame), unless the returned handle is dropped first.
pub fn after_paint(f: impl FnOnce() + 'static) -> AfterPaint {
    let timeout = Rc::new(RefCell::new(None));
    let later = Rc::clone(&timeout);
    let frame = gloo::render::request_animation_frame(move |_| {
        *later.borrow_mut() = Some(gloo::timers::callback::Timeout::new(0, f));
    });
    AfterPaint {
        _frame: frame,
        _timeout: timeout,
    }
}

/// A call waiting for the next paint ([`after_paint`]); dropping it cancels
/// the call.
pub struct AfterPaint {
    _frame: gloo::render::AnimationFrame,
    _timeout: Rc<RefCell<Option<gloo::timers::callback::Timeout>>>,
}

/// The global where `index.html`'s script keeps the ids of the pre-rendered
/// page's inputs a visitor typed into before the app took it over, in the
/// order typed (an array of strings).
pub const TYPED_EARLY: &str = "paradlTyped";

/// What a visitor changed in the pre-rendered page's inputs with these
/// `ids` before the app: each input whose value is not the one it was
/// rendered with (typed, picked, or restored by the browser), with its
/// value, in the order last typed ([`TYPED_EARLY`]; inputs changed without
/// an event first). Empty without a pre-rendered view, or outside a browser.
///
/// Read once, before the app mounts (which empties the page's body), and
/// the same thereafter.
pub fn typed_early(ids: &[&str]) -> Vec<(String, String)> {
    TYPED.with(|typed| typed.get_or_init(|| read_typed(ids)).clone())
}

thread_local! {
    /// What [`typed_early`] read.
    static TYPED: std::cell::OnceCell<Vec<(String, String)>> = const { std::cell::OnceCell::new() };
}

fn read_typed(ids: &[&str]) -> Vec<(String, String)> {
    let Some(view) = window()
        .ok()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".prerendered").ok().flatten())
    else {
        return Vec::new();
    };
    let log: Vec<String> = window()
        .ok()
        .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str(TYPED_EARLY)).ok())
        .filter(js_sys::Array::is_array)
        .map(|log| {
            js_sys::Array::from(&log)
                .iter()
                .filter_map(|id| id.as_string())
                .collect()
        })
        .unwrap_or_default();
    // each input at its last place in the log, after those changed without an event
    let mut order: Vec<&str> = ids.iter().copied().filter(|id| !log.iter().any(|l| l == id)).collect();
    for (at, id) in log.iter().enumerate() {
        if !log[at + 1..].contains(id) {
            order.push(id);
        }
    }
    order
        .into_iter()
        .filter(|id| ids.contains(id))
        .filter_map(|id| {
            let element = view.query_selector(&format!("#{id}")).ok().flatten()?;
            changed_value(&element).map(|value| (id.to_string(), value))
        })
        .collect()
}

/// An input's or a select's value, if it is not the one it was rendered
/// with (its `value` attribute, or its `selected` option, else its first).
fn changed_value(element: &web_sys::Element) -> Option<String> {
    if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
        return Some(input.value()).filter(|v| *v != input.default_value());
    }
    let select = element.dyn_ref::<web_sys::HtmlSelectElement>()?;
    let rendered = element
        .query_selector("option[selected]")
        .ok()
        .flatten()
        .or_else(|| element.query_selector("option").ok().flatten())
        .and_then(|o| o.get_attribute("value"))
        .unwrap_or_default();
    Some(select.value()).filter(|v| *v != rendered)
}

/// The id of the pre-rendered page's input that has the focus, if one does
/// (the visitor is typing into it as the app takes over).
pub fn focused_early() -> Option<String> {
    let document = window().ok()?.document()?;
    let active = document.active_element()?;
    active.closest(".prerendered").ok()??;
    Some(active.id()).filter(|id| !id.is_empty())
}

/// Gives the focus to the app's input with id `id`, the caret at the end of
/// its text, once the app has drawn it ([`after_paint`]).
pub fn refocus_after_paint(id: String) {
    let focus = after_paint(move || {
        let input = window()
            .ok()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(input) = input {
            let _ = input.focus();
            if let Some(text) = input.dyn_ref::<web_sys::HtmlInputElement>() {
                let end = text.value().encode_utf16().count() as u32;
                let _ = text.set_selection_range(end, end);
            }
        }
    });
    // kept until the page goes: the call happens once, after the next paint
    REFOCUS.with(|kept| *kept.borrow_mut() = Some(focus));
}

thread_local! {
    /// The focus [`refocus_after_paint`] gives back, waiting for its paint.
    static REFOCUS: RefCell<Option<AfterPaint>> = const { RefCell::new(None) };
}

/// The id of `index.html`'s placeholder.
pub const PLACEHOLDER_ID: &str = "placeholder";
