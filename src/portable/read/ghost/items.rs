//! The posts of a Ghost export as an iterator: the second pass of the walk ([`Walk::posts`])
//! runs on a thread of its own, started by the first `next`, and hands each post over, converted,
//! through a channel of one, so at most a post or two is held at a time. Dropping the iterator
//! stops the thread at its next post.

use std::collections::HashMap;
use std::io::Read;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use serde_json::Value;
use url::Url;

use super::id;
use super::post::convert;
use super::stream::Walk;
use super::types::GhostPost;
use crate::domain::limits::ImportLimits;
use crate::portable::model::Post;
use crate::portable::{Problem, Unreadable};

/// One post as read, or why not.
type Item = Result<Post, Problem>;

/// The posts still to read.
pub(super) struct Posts {
    pending: Option<Pending>,
    receiver: Option<Receiver<Item>>,
}

/// What the second pass needs: the file (at its start) and what the first pass kept.
pub(super) struct Pending {
    pub(super) input: Box<dyn Read + Send>,
    pub(super) limits: ImportLimits,
    /// The positions of the posts over the item cap.
    pub(super) too_big: Vec<u64>,
    /// Each post's tags: their order, name and whether they are internal.
    pub(super) tags: HashMap<String, Vec<(i64, String, bool)>>,
    /// Each post's feature image alt text and caption.
    pub(super) meta: HashMap<String, (String, String)>,
    /// The old site's address.
    pub(super) site: Option<Url>,
}

impl Posts {
    /// The posts of the export `pending` describes, not read until asked for.
    pub(super) fn new(pending: Pending) -> Posts {
        Posts { pending: Some(pending), receiver: None }
    }
}

impl Iterator for Posts {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        if let Some(pending) = self.pending.take() {
            let (sender, receiver) = sync_channel(1);
            let started =
                std::thread::Builder::new().name("ghost-reader".to_owned()).spawn(move || pending.run(sender));
            if let Err(err) = started {
                return Some(Err(Problem::File(Unreadable::new(format!("The export could not be read: {err}")))));
            }
            self.receiver = Some(receiver);
        }
        self.receiver.as_ref()?.recv().ok()
    }
}

impl Pending {
    fn run(self, sender: SyncSender<Item>) {
        let Pending { input, limits, too_big, tags, meta, site } = self;
        let mut on_post = |index: u64, value: Option<Value>| {
            let position = index + 1;
            let item = match value {
                None => Err(Problem::item(
                    "",
                    "",
                    format!(
                        "The post or page at position {position} is larger than {} MB: not imported",
                        limits.max_item_mb()
                    ),
                )),
                Some(value) => {
                    let source_id = value.get("id").map(id).unwrap_or_default();
                    match serde_json::from_value::<GhostPost>(value) {
                        Ok(post) => convert(post, &tags, &meta, site.as_ref()),
                        Err(err) => Err(Problem::item(
                            source_id,
                            "",
                            format!(
                                "The post or page at position {position} is not shaped like a Ghost post ({err}): not imported"
                            ),
                        )),
                    }
                }
            };
            sender.send(item).is_ok()
        };
        if let Err(err) = Walk::posts(input, limits, &too_big, &mut on_post) {
            let _ = sender.send(Err(Problem::File(err)));
        }
    }
}
