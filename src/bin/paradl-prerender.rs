//! Writes the pre-rendered pages (src/app/page/prerender.rs) into a built app's
//! folder: Trunk's `post_build` hook runs it on its staging folder
//! (`TRUNK_STAGING_DIR`), or give the folder as the argument.
// no unwrap, expect or panic outside tests: a panic in WebAssembly kills the page (src/ARCHITECTURE.md)
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use paradl::app::page::prerender::{page_html, pages, render_view};
    let Some(folder) = std::env::args_os()
        .nth(1)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR"))
        .map(std::path::PathBuf::from)
    else {
        eprintln!("usage: paradl-prerender FOLDER (the built app, with its index.html)");
        return std::process::ExitCode::from(2);
    };
    let index = folder.join("index.html");
    let template = match std::fs::read_to_string(&index) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("paradl-prerender: {}: {e}", index.display());
            return std::process::ExitCode::FAILURE;
        }
    };
    let engine_bytes = engine_bytes(&folder);
    for page in pages() {
        let path = folder.join(&page.file);
        let written = page_html(&template, &page, &render_view(&page.query), engine_bytes)
            .map_err(|e| e.to_string())
            .and_then(|html| std::fs::write(&path, html).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("paradl-prerender: {}: {e}", path.display());
            return std::process::ExitCode::FAILURE;
        }
    }
    std::process::ExitCode::SUCCESS
}

/// The page's WebAssembly (`paradl-web-*_bg.wasm`) as it travels: its
/// size deflated at level 9, as gzip sends it (the build's zopfli copies
/// are a few percent smaller).
#[cfg(not(target_arch = "wasm32"))]
fn engine_bytes(folder: &std::path::Path) -> Option<u64> {
    let wasm = std::fs::read_dir(folder).ok()?.flatten().map(|e| e.path()).find(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("paradl-web-") && n.ends_with("_bg.wasm"))
    })?;
    let bytes = std::fs::read(wasm).ok()?;
    u64::try_from(miniz_oxide::deflate::compress_to_vec(&bytes, 9).len()).ok()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
