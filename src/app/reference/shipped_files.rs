//! Files shipped beside the page and fetched when first needed (the
//! model's contract and the runs measured on ABCI), so that the first view
//! does not carry them. Each is fetched once and kept for the page's life;
//! the service worker keeps it for offline use like the page's own files.

use std::cell::RefCell;
use std::rc::Rc;

use crate::app::page::browser;

/// A file shipped beside the page (`index.html` copies it into the build).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shipped {
    /// The model's contract, `src/oracle/ORACLE-MODEL.md`.
    ModelDoc,
    /// The runs measured on ABCI, `src/oracle/validation/measured-runs.csv`.
    MeasuredRuns,
}

impl Shipped {
    /// Every shipped file.
    pub const ALL: [Self; 2] = [Self::ModelDoc, Self::MeasuredRuns];

    /// Its name beside the page.
    pub fn file(self) -> &'static str {
        match self {
            Self::ModelDoc => "ORACLE-MODEL.md",
            Self::MeasuredRuns => "measured-runs.csv",
        }
    }

    /// What it is, for people ("Loading the model's contract…").
    pub fn what(self) -> &'static str {
        match self {
            Self::ModelDoc => "the model's contract",
            Self::MeasuredRuns => "the runs measured on ABCI",
        }
    }

    fn slot(self) -> usize {
        match self {
            Self::ModelDoc => 0,
            Self::MeasuredRuns => 1,
        }
    }
}

thread_local! {
    static KEPT: RefCell<[Option<Rc<str>>; 2]> = const { RefCell::new([None, None]) };
}

/// The file's text, if it was fetched (or given by [`keep`]).
pub fn kept(file: Shipped) -> Option<Rc<str>> {
    KEPT.with(|kept| kept.borrow()[file.slot()].clone())
}

/// Keeps the file's text for the page's life (tests give it this way).
pub fn keep(file: Shipped, text: Rc<str>) {
    KEPT.with(|kept| kept.borrow_mut()[file.slot()] = Some(text));
}

/// The file's text: kept, or fetched from beside the page and kept.
///
/// # Errors
/// Why it could not be fetched or is not text, in words.
pub async fn fetch(file: Shipped) -> Result<Rc<str>, String> {
    if let Some(text) = kept(file) {
        return Ok(text);
    }
    let bytes = browser::fetch_bytes(&format!("./{}", file.file()))
        .await
        .map_err(|e| format!("{} could not be loaded: {e}", file.what()))?;
    let text: Rc<str> = String::from_utf8(bytes)
        .map_err(|_| format!("{} is not text", file.what()))?
        .into();
    keep(file, Rc::clone(&text));
    Ok(text)
}

#[cfg(test)]
mod tests {
    use crate::app::reference::shipped_files::*;

    #[test]
    fn each_file_is_kept_apart_and_named_as_index_html_copies_it() {
        keep(Shipped::ModelDoc, "the contract".into());
        assert_eq!(kept(Shipped::ModelDoc).as_deref(), Some("the contract"));
        assert!(kept(Shipped::MeasuredRuns).is_none());
        let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/index.html")).unwrap();
        let sources = [
            (Shipped::ModelDoc, "src/oracle/ORACLE-MODEL.md"),
            (Shipped::MeasuredRuns, "src/oracle/validation/measured-runs.csv"),
        ];
        for (file, source) in sources {
            assert!(source.ends_with(file.file()), "{source}");
            assert!(
                page.contains(&format!("rel=\"copy-file\" href=\"{source}\"")),
                "index.html copies {source}"
            );
        }
        let worker = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/static/sw.js")).unwrap();
        for file in Shipped::ALL {
            assert!(
                worker.contains(&format!("'{}'", file.file())),
                "sw.js keeps {}",
                file.file()
            );
        }
    }
}
