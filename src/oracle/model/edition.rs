//! The two editions of the model: ParaDL's published (ideal) one and the
//! realistic one that adds what real clusters cost (contract, section 7).

use super::names::named_enum;

named_enum! {
    /// Which edition of the model a projection follows.
    pub enum Edition {
        /// Sections 1 to 6 exactly: ParaDL's published model.
        Ideal => ("ideal", "ideal (ParaDL's published model)"),
        /// The ideal model plus the terms of section 7, each driven by a
        /// fact of the cluster or the network (a fact left out turns its
        /// term off).
        Realistic => ("realistic", "realistic (section 7 terms)"),
    }
}

impl Default for Edition {
    /// The realistic edition is the default everywhere.
    fn default() -> Self {
        Self::Realistic
    }
}

impl std::str::FromStr for Edition {
    type Err = super::errors::InputError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse_named(text, "fidelity", "edition")
    }
}

impl Edition {
    /// The other edition.
    pub fn other(self) -> Self {
        match self {
            Self::Ideal => Self::Realistic,
            Self::Realistic => Self::Ideal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn realistic_by_default_and_names_parse() {
        assert_eq!(Edition::default(), Edition::Realistic);
        assert_eq!(" Ideal ".parse::<Edition>().unwrap(), Edition::Ideal);
        assert_eq!(Edition::Ideal.other(), Edition::Realistic);
        assert_eq!("exact".parse::<Edition>().unwrap_err().field, "fidelity");
    }
}
