//! Enums whose every name is written once: the variant, its machine name
//! (JSON, CSV, URLs, the command line) and its label for people, from which
//! `ALL`, `name`, `label`, `Display`, `FromStr`-style lookup and serde are
//! all derived.

/// Declares a fieldless enum with a name and a label per variant.
///
/// ```ignore
/// named_enum! {
///     /// Doc.
///     pub enum Colour { Red => ("red", "bright red"), Blue => ("blue", "deep blue") }
/// }
/// ```
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => ($text:literal, $label:literal) ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [$name; { [$(stringify!($variant)),+].len() }] = [$($name::$variant),+];

            /// The machine name (JSON, CSV, links, the command line).
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The name for people.
            pub const fn label(self) -> &'static str {
                match self {
                    $($name::$variant => $label),+
                }
            }

            /// The variant whose machine name is `text` (exactly).
            pub fn from_name(text: &str) -> Option<Self> {
                Self::ALL.into_iter().find(|v| v.name() == text)
            }

            /// The variant named `text` (case and surrounding blanks
            /// ignored), or an error at `field` saying which names a
            /// `what` may have.
            pub fn parse_named(
                text: &str,
                field: &'static str,
                what: &str,
            ) -> Result<Self, $crate::oracle::model::errors::InputError> {
                Self::from_name(&text.trim().to_ascii_lowercase()).ok_or_else(|| {
                    $crate::oracle::model::errors::InputError::new(
                        field,
                        $crate::oracle::model::errors::Rule::Unknown {
                            what: what.into(),
                            found: text.into(),
                            expected: Self::names(),
                        },
                    )
                })
            }

            /// Every machine name, comma-separated (for error messages).
            pub fn names() -> String {
                let names: Vec<&str> = Self::ALL.iter().map(|v| v.name()).collect();
                names.join(", ")
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.name())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(deserializer)?;
                Self::from_name(&text).ok_or_else(|| {
                    ::serde::de::Error::custom(format!(
                        "unknown {} '{}'; expected one of: {}",
                        stringify!($name),
                        text,
                        Self::names()
                    ))
                })
            }
        }
    };
}

pub(crate) use named_enum;

#[cfg(test)]
mod tests {
    named_enum! {
        /// A test enum.
        pub enum Colour {
            Red => ("red", "bright red"),
            Blue => ("blue", "deep blue"),
        }
    }

    #[test]
    fn one_definition_gives_every_name() {
        assert_eq!(Colour::ALL, [Colour::Red, Colour::Blue]);
        assert_eq!(Colour::Blue.name(), "blue");
        assert_eq!(Colour::Blue.label(), "deep blue");
        assert_eq!(Colour::from_name("red"), Some(Colour::Red));
        assert_eq!(Colour::Red.to_string(), "red");
        assert_eq!(Colour::parse_named(" Red ", "colour", "colour"), Ok(Colour::Red));
        let err = Colour::parse_named("green", "colour", "colour").unwrap_err();
        assert_eq!(err.field, "colour");
        assert!(err.to_string().contains("expected one of: red, blue"), "{err}");
        assert_eq!(serde_json::to_string(&Colour::Blue).unwrap(), "\"blue\"");
        assert_eq!(serde_json::from_str::<Colour>("\"red\"").unwrap(), Colour::Red);
        let err = serde_json::from_str::<Colour>("\"green\"").unwrap_err().to_string();
        assert!(err.contains("expected one of: red, blue"), "{err}");
    }
}
