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
    for page in pages() {
        let path = folder.join(&page.file);
        let written = page_html(&template, &page, &render_view(&page.query))
            .map_err(|e| e.to_string())
            .and_then(|html| std::fs::write(&path, html).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("paradl-prerender: {}: {e}", path.display());
            return std::process::ExitCode::FAILURE;
        }
    }
    std::process::ExitCode::SUCCESS
}

#[cfg(target_arch = "wasm32")]
fn main() {}
