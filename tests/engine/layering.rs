//! The project's layering, read from its sources: every path a file of
//! `src/` names (`use` declarations and paths in code, comments and test
//! modules left out) is resolved to the file that defines it, through the
//! `pub use` re-exports of `mod.rs` files. No two files may import each
//! other, however indirectly, and each layer imports only the layers
//! below it: in the engine units, model, the file formats (which read and
//! write the model's documents only), cost, report, scenario (which writes
//! projections as CSV), presets, validation;
//! the command line and the app on top;
//! in the app its ground `input`, then what builds on it (the results, the
//! charts, the lessons, the planner and reader in the worker, the page's
//! glue and link, the reference texts), then the reducer `state`, the
//! page's boot, and the components.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Files by module path (`["app", "state", "mod"]` is `app/state/mod.rs`,
/// module `app::state`).
struct Source {
    files: BTreeMap<Vec<String>, String>,
}

/// The module path of a file below `src/`: `app/state/mod.rs` is
/// `app::state`, `lib.rs` the crate.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

fn read(dir: &Path, root: &Path, files: &mut BTreeMap<Vec<String>, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read(&path, root, files);
        } else if path.extension().is_some_and(|e| e == "rs")
            && let Ok(relative) = path.strip_prefix(root)
            && !relative.starts_with("bin")
            && relative != Path::new("main.rs")
        {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            files.insert(module_of(relative), code_of(&text));
        }
    }
}

/// The code of a file: comment lines and its test module left out.
fn code_of(text: &str) -> String {
    let body = text.split("#[cfg(test)]\nmod ").next().unwrap_or(text);
    body.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of a `use` tree, braces expanded: `a::{b, c::{d}}` gives
/// `a::b` and `a::c::d`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(&tree);
        return vec![path.replace(' ', "")];
    };
    let prefix = &tree[..open];
    let inner = tree[open + 1..].strip_suffix('}').unwrap_or(&tree[open + 1..]);
    let (mut parts, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{}{p}", prefix.replace(' ', ""))))
        .map(|p| p.trim_end_matches("::self").to_string())
        .collect()
}

/// Every path a file names: its `use` trees and its inline paths from
/// `crate`, `super` or `self`.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for statement in code.split("use ").skip(1) {
        if let Some(tree) = statement.split(';').next() {
            out.extend(
                expand(tree)
                    .into_iter()
                    .filter(|p| p.starts_with("crate::") || p.starts_with("super::") || p.starts_with("self::")),
            );
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            out.push(path);
        }
    }
    out
}

impl Source {
    fn load() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = BTreeMap::new();
        read(&root, &root, &mut files);
        Self { files }
    }

    /// The absolute module path of `path` named in module `from`.
    fn absolute(&self, from: &[String], path: &str) -> Vec<String> {
        let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let mut base: Vec<String> = match segments.first() {
            Some(&"crate") => Vec::new(),
            _ => from.to_vec(),
        };
        if segments.first() == Some(&"crate") || segments.first() == Some(&"self") {
            segments.remove(0);
        }
        while segments.first() == Some(&"super") {
            segments.remove(0);
            base.pop();
        }
        base.extend(segments.iter().map(|s| s.to_string()));
        base
    }

    /// The file that defines what `path` names: the longest module prefix,
    /// followed through a `pub use` of a name re-exported there.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Vec<String>> {
        let n = (0..=path.len()).rev().find(|&n| self.files.contains_key(&path[..n]))?;
        let module = path[..n].to_vec();
        if let (Some(name), true) = (path.get(n), depth < 8) {
            let code = &self.files[&module];
            for statement in code.split("pub use ").skip(1) {
                let Some(tree) = statement.split(';').next() else {
                    continue;
                };
                for exported in expand(tree) {
                    if exported.rsplit("::").next() == Some(name.as_str()) {
                        let target = self.absolute(&module, &exported);
                        if let Some(found) = self.resolve(&target, depth + 1) {
                            return Some(found);
                        }
                    }
                }
            }
        }
        Some(module)
    }

    /// Each file and the files it imports.
    fn imports(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        self.files
            .iter()
            .map(|(module, code)| {
                let targets = paths(code)
                    .iter()
                    .filter_map(|p| self.resolve(&self.absolute(module, p), 0))
                    .filter(|t| t != module && !module.starts_with(t))
                    .collect();
                (module.clone(), targets)
            })
            .collect()
    }
}

/// A layer's rank: a file may import only files of its own rank or below.
fn rank(module: &[String]) -> Option<u32> {
    let at = |i: usize| module.get(i).map(String::as_str);
    Some(match (at(0), at(1)) {
        (Some("oracle"), Some("units")) => 0,
        (Some("oracle"), Some("model")) => 1,
        (Some("oracle"), Some("formats")) => 2,
        (Some("oracle"), Some("cost")) => 3,
        (Some("oracle"), Some("report")) => 4,
        (Some("oracle"), Some("scenario")) => 5,
        (Some("oracle"), Some("presets")) => 6,
        (Some("oracle"), Some("validation")) => 7,
        (Some("cli"), _) => 10,
        (Some("app"), Some("input")) => 20,
        (Some("app"), Some("page")) if at(2) == Some("boot") => 23,
        (Some("app"), Some("page")) if at(2) == Some("prerender") => return None,
        (
            Some("app"),
            Some("url" | "results" | "charts" | "lessons" | "planner" | "reader" | "worker" | "page" | "reference"),
        ) => 21,
        (Some("app"), Some("state")) => 22,
        (Some("app"), Some("components")) => 24,
        _ => return None,
    })
}

#[test]
fn imports_run_down_the_layers_and_no_files_import_each_other() {
    let source = Source::load();
    assert!(source.files.len() > 150, "{} files read", source.files.len());
    let imports = source.imports();
    // the engine's facade re-exports, the app's reducer is imported by its components
    let components = ["app".to_string(), "components".into(), "page".into(), "app".into()];
    assert!(
        imports[&components[..]]
            .iter()
            .any(|t| t.starts_with(&["app".to_string(), "state".into()]))
    );
    let mut broken = Vec::new();
    for (file, targets) in &imports {
        let Some(own) = rank(file) else { continue };
        for target in targets {
            if rank(target).is_some_and(|theirs| theirs > own) {
                broken.push(format!("{} imports {}", file.join("::"), target.join("::")));
            }
        }
    }
    assert!(broken.is_empty(), "imports that run up:\n{}", broken.join("\n"));
    // no circle of files (Tarjan's strongly connected components)
    let cycles = circles(&imports);
    assert!(cycles.is_empty(), "files that import each other: {cycles:?}");
}

fn circles(imports: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let Some((w, _)) = s.graph.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                component.push(w.join("::"));
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph: imports,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in imports.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn the_reader_finds_what_it_should() {
    assert_eq!(
        expand("crate::a::{b, c::{d, e as f}, self}"),
        ["crate::a::b", "crate::a::c::d", "crate::a::c::e", "crate::a"]
    );
    let source = Source::load();
    let from = vec!["app".to_string(), "state".into(), "run_editor".into()];
    // through the engine's facade to the file that defines the name
    assert_eq!(
        source.resolve(&source.absolute(&from, "crate::oracle::RunSpec"), 0),
        Some(vec!["oracle".to_string(), "model".into(), "run".into()])
    );
    assert_eq!(
        source.resolve(&source.absolute(&from, "super::editor::Editor"), 0),
        Some(vec!["app".to_string(), "state".into(), "editor".into()])
    );
    // a circle is found
    let a = vec!["a".to_string()];
    let b = vec!["b".to_string()];
    let graph = BTreeMap::from([(a.clone(), BTreeSet::from([b.clone()])), (b, BTreeSet::from([a]))]);
    assert_eq!(circles(&graph).len(), 1);
}
