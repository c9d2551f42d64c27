//! The rules of a post's history (issue 32, docs/revisions.md): what kind of write recorded a
//! revision, how many are kept, when autosaves merge and how long the trash keeps a post;
//! the shapes in which revisions and trashed posts travel (the trash's rows, the Quire archive).

use serde::{Deserialize, Serialize};

/// Revisions kept whole per post; older ones are thinned to one a day.
pub const KEEP_NEWEST: u32 = 100;
/// An autosave within this many minutes of the same user's last autosave revision adds none.
pub const AUTOSAVE_MERGE_MINUTES: u32 = 5;
/// Days a deleted post stays in the trash before the sweep removes it for good.
pub const TRASH_DAYS: u32 = 30;

/// The write that replaced a version and so recorded it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevisionKind {
    /// A save by the owner.
    Save,
    /// The editor's automatic save (merged with the same user's autosaves a few minutes apart).
    Autosave,
    /// A restore of an older revision.
    Restore,
}

impl RevisionKind {
    /// The stored and API name.
    pub fn as_str(self) -> &'static str {
        match self {
            RevisionKind::Save => "save",
            RevisionKind::Autosave => "autosave",
            RevisionKind::Restore => "restore",
        }
    }

    /// The kind stored as `raw` (a save for anything unknown, as an archive may hold).
    pub fn parse(raw: &str) -> RevisionKind {
        match raw {
            "autosave" => RevisionKind::Autosave,
            "restore" => RevisionKind::Restore,
            _ => RevisionKind::Save,
        }
    }
}

/// A post's words and state, as a revision keeps them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Version {
    /// Its title.
    pub title: String,
    /// Its slug.
    pub slug: String,
    /// Its body as stored JSON (`{"type":"root","children":[...]}`, as a string).
    pub body: String,
    /// Its tags, in order.
    #[serde(default)]
    pub tags: Vec<String>,
    /// When it was published; `None` for a draft or a scheduled post.
    #[serde(default)]
    pub published_at: Option<String>,
    /// When it was to be published, for a scheduled post.
    #[serde(default)]
    pub scheduled_at: Option<String>,
    /// Whether it was unlisted.
    #[serde(default)]
    pub unlisted: bool,
    /// Whether it was a page.
    #[serde(default)]
    pub page: bool,
}

/// A revision as it travels with its post (the trash, the Quire archive).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Kept {
    /// `save`, `autosave` or `restore`.
    pub kind: String,
    /// When it was recorded.
    pub created_at: String,
    /// Who replaced the version, on this instance (absent in an archive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<i64>,
    /// The version.
    #[serde(flatten)]
    pub version: Version,
}

/// What the trash keeps of a post beside its revisions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrashedPost {
    /// Its public id (its address), taken again on restore when still free.
    pub short_id: String,
    /// When it was created.
    pub created_at: String,
    /// Its last change.
    pub updated_at: String,
    /// Whether its comments were closed.
    #[serde(default)]
    pub comments_closed: bool,
    /// Its words and state.
    #[serde(flatten)]
    pub version: Version,
}

/// A trash entry with everything it keeps (the trash's row, the Quire archive's `trash.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trashed {
    /// When it was deleted.
    pub deleted_at: String,
    /// The post.
    pub post: TrashedPost,
    /// Its revisions, oldest first.
    #[serde(default)]
    pub revisions: Vec<Kept>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_reads_back_and_an_unknown_one_is_a_save() {
        for kind in [RevisionKind::Save, RevisionKind::Autosave, RevisionKind::Restore] {
            assert_eq!(RevisionKind::parse(kind.as_str()), kind);
        }
        assert_eq!(RevisionKind::parse("edit"), RevisionKind::Save);
    }
}
