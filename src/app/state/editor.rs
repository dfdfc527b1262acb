//! The one pattern of every editor (the network, the cluster, the run): a
//! base value, exact (a preset, a file, a view), and the cells the user
//! typed over it, by typed key. A cell shows what was typed, else the
//! base's value; building reads every typed cell into a copy of the base,
//! so an untouched base is itself bit for bit, and a cell that does not
//! read is an error next to it, its text kept.

use std::collections::BTreeMap;

use crate::app::input::keys::{Errors, Key};

/// A base and the cells typed over it.
#[derive(Debug, Clone, PartialEq)]
pub struct Editor<B, K: Ord> {
    /// The exact value underneath.
    pub base: B,
    /// What the user typed, by cell.
    pub edits: BTreeMap<K, String>,
}

impl<B: Clone, K: Ord + Copy> Editor<B, K> {
    /// An editor over `base`, nothing typed.
    pub fn new(base: B) -> Self {
        Self {
            base,
            edits: BTreeMap::new(),
        }
    }

    /// The text of a cell: what was typed, else `shown` of the base.
    pub fn text(&self, key: K, shown: impl FnOnce(&B) -> String) -> String {
        self.edits.get(&key).cloned().unwrap_or_else(|| shown(&self.base))
    }

    /// Records what the user typed in a cell.
    pub fn edit(&mut self, key: K, text: String) {
        self.edits.insert(key, text);
    }

    /// The base with every typed cell read into it by `read` (in key
    /// order), and the cells that did not read, keyed by `key`.
    pub fn read(
        &self,
        mut read: impl FnMut(&mut B, K, &str) -> Result<(), String>,
        key: impl Fn(K) -> Key,
    ) -> (B, Errors) {
        let mut value = self.base.clone();
        let mut errors = Errors::new();
        for (&k, text) in &self.edits {
            if let Err(message) = read(&mut value, k, text) {
                errors.insert(key(k), message);
            }
        }
        (value, errors)
    }

    /// Folds the cells that read into the base and forgets what was typed
    /// (before the structure under the keys changes).
    pub fn bake(&mut self, read: impl FnMut(&mut B, K, &str) -> Result<(), String>) {
        let (value, _) = self.read(read, |_| Key::Network);
        self.base = value;
        self.edits.clear();
    }

    /// Moves typed cells to new keys (rows inserted, removed or swapped):
    /// `None` forgets a cell.
    pub fn rekey(&mut self, new_key: impl Fn(K) -> Option<K>) {
        let edits = std::mem::take(&mut self.edits);
        self.edits = edits
            .into_iter()
            .filter_map(|(k, text)| new_key(k).map(|k| (k, text)))
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use crate::app::state::editor::*;

    #[test]
    fn typed_cells_read_over_the_base_and_bad_ones_are_kept_as_errors() {
        let mut editor: Editor<Vec<u64>, usize> = Editor::new(vec![1, 2, 3]);
        assert_eq!(editor.text(1, |b| b[1].to_string()), "2");
        editor.edit(1, "20".into());
        editor.edit(2, "x".into());
        let read = |v: &mut Vec<u64>, k: usize, t: &str| {
            v[k] = t.parse().map_err(|_| "not a number".to_string())?;
            Ok(())
        };
        let (value, errors) = editor.read(read, |_| Key::Samples);
        assert_eq!(value, [1, 20, 3]);
        assert_eq!(errors.get(&Key::Samples).map(String::as_str), Some("not a number"));
        assert_eq!(editor.text(2, |_| String::new()), "x", "the text is kept");
        editor.rekey(|k| (k != 2).then_some(k + 1));
        assert_eq!(editor.edits.keys().copied().collect::<Vec<_>>(), [2]);
        editor.bake(|v: &mut Vec<u64>, k, t| {
            v[k] = t.parse().map_err(|_| String::new())?;
            Ok(())
        });
        assert_eq!(editor.base, [1, 2, 20]);
        assert!(editor.edits.is_empty());
    }
}
