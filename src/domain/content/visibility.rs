//! A post's visibility (issue 32, docs/unlisted.md): `public` (listed, fed, federated, mailed)
//! or `unlisted` (reachable by its permalink only, `noindex`).

/// Who finds a published post: everyone, or those given its link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Visibility {
    /// In every public list, feed and search; federated and mailed.
    #[default]
    Public,
    /// Reachable by its permalink only.
    Unlisted,
}

impl Visibility {
    /// The visibility the API names `raw`; the refusal names the values it takes.
    pub fn parse(raw: &str) -> Result<Visibility, String> {
        match raw {
            "public" => Ok(Visibility::Public),
            "unlisted" => Ok(Visibility::Unlisted),
            _ => Err("Visibility is public or unlisted".to_owned()),
        }
    }

    /// The API's name of it.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Unlisted => "unlisted",
        }
    }

    /// The visibility of a post stored as `unlisted` or not.
    pub fn of(unlisted: bool) -> Visibility {
        if unlisted { Visibility::Unlisted } else { Visibility::Public }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_names_parse_and_anything_else_is_refused() {
        assert_eq!(Visibility::parse("public"), Ok(Visibility::Public));
        assert_eq!(Visibility::parse("unlisted"), Ok(Visibility::Unlisted));
        for bad in ["", "Unlisted", "private", "public "] {
            assert!(Visibility::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(Visibility::of(true).as_str(), "unlisted");
        assert_eq!(Visibility::of(false).as_str(), "public");
    }
}
