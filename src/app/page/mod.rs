//! The page around the app: where a visit starts ([`boot`]), the browser's
//! location, history, storage, clipboard and downloads ([`browser`]), the
//! share link's codec ([`url`]) and the pre-rendered pages (`prerender`,
//! native only).

pub mod boot;
pub mod browser;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
pub mod url;
