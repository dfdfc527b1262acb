//! Typed field paths: where in an input a value sits, from the engine's
//! errors to the editor cell that shows them, without formatting a path to
//! text and parsing it back.

use std::fmt;

use super::text::quoted;

/// One step of a [`Field`] path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A named member: `intra_node`, `latency_s`.
    Key(&'static str),
    /// A position in a list or shape: `[3]`.
    Index(usize),
    /// A layer of a network, by position and name (the name is the user's
    /// and may hold anything, dots included).
    Layer {
        /// Position in the network, from 0.
        index: usize,
        /// The layer's name, trimmed.
        name: String,
    },
}

/// The path of an input field: `layers[3] CONV2.w[0]`,
/// `switch_levels[1].span_nodes`, `gpus`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Field(Vec<Segment>);

impl Field {
    /// The empty path (the value itself).
    pub fn root() -> Self {
        Self(Vec::new())
    }

    /// The path of layer `index` called `name`.
    pub fn layer(index: usize, name: &str) -> Self {
        Self(vec![Segment::Layer {
            index,
            name: name.trim().to_string(),
        }])
    }

    /// This path followed by the member `key`.
    #[must_use]
    pub fn key(mut self, key: &'static str) -> Self {
        self.0.push(Segment::Key(key));
        self
    }

    /// This path followed by position `index`.
    #[must_use]
    pub fn index(mut self, index: usize) -> Self {
        self.0.push(Segment::Index(index));
        self
    }

    /// `prefix` followed by this path.
    #[must_use]
    pub fn within(self, prefix: &Field) -> Self {
        let mut segments = prefix.0.clone();
        segments.extend(self.0);
        Self(segments)
    }

    /// The steps.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// The layer this path is in, and the rest of the path within it.
    pub fn in_layer(&self) -> Option<(usize, &[Segment])> {
        self.0.iter().enumerate().find_map(|(at, segment)| match segment {
            Segment::Layer { index, .. } => Some((*index, self.0.get(at + 1..).unwrap_or(&[]))),
            _ => None,
        })
    }

    /// The first named member of `segments`, if it starts with one.
    pub fn first_key(segments: &[Segment]) -> Option<&'static str> {
        match segments.first() {
            Some(Segment::Key(key)) => Some(key),
            _ => None,
        }
    }

    /// Whether the path is exactly these named members (`["nic", "latency_s"]`).
    pub fn is(&self, keys: &[&str]) -> bool {
        self.0.len() == keys.len()
            && self
                .0
                .iter()
                .zip(keys)
                .all(|(segment, key)| matches!(segment, Segment::Key(k) if k == key))
    }

    /// Whether the path starts with these named members.
    pub fn starts_with(&self, keys: &[&str]) -> bool {
        self.0.len() >= keys.len()
            && self
                .0
                .iter()
                .zip(keys)
                .all(|(segment, key)| matches!(segment, Segment::Key(k) if k == key))
    }
}

impl From<&'static str> for Field {
    /// A path written in the code, dot-separated (`"nic.latency_s"`); the
    /// names of the program's own fields never hold a dot of their own.
    fn from(path: &'static str) -> Self {
        Self(path.split('.').filter(|k| !k.is_empty()).map(Segment::Key).collect())
    }
}

impl fmt::Display for Field {
    /// `layers[3] CONV2.w[0]`: members joined by dots, positions in brackets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(&quoted(key))?;
                }
                Segment::Index(index) => write!(f, "[{index}]")?,
                Segment::Layer { index, name } => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    write!(f, "layers[{index}] {}", quoted(name))?;
                }
            }
        }
        Ok(())
    }
}

impl PartialEq<str> for Field {
    /// Compares the printed path (for tests and messages).
    fn eq(&self, other: &str) -> bool {
        let printed = self.to_string();
        printed.as_str() == other
    }
}

impl PartialEq<&str> for Field {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_as_before() {
        let f = Field::from("w").index(0).within(&Field::layer(3, "CONV2"));
        assert_eq!(f.to_string(), "layers[3] CONV2.w[0]");
        assert_eq!(
            Field::from("switch_levels").index(1).key("span_nodes").to_string(),
            "switch_levels[1].span_nodes"
        );
        assert_eq!(Field::from("nic.latency_s").to_string(), "nic.latency_s");
        assert!(Field::from("nic.latency_s").is(&["nic", "latency_s"]));
    }

    #[test]
    fn a_dotted_layer_name_keeps_its_layer_and_field() {
        let f = Field::from("w").index(0).within(&Field::layer(7, "layer1.0.conv1"));
        let (index, rest) = f.in_layer().unwrap();
        assert_eq!(index, 7);
        assert_eq!(Field::first_key(rest), Some("w"));
        assert_eq!(f.to_string(), "layers[7] layer1.0.conv1.w[0]");
    }
}
