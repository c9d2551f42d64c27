//! ActivityPub documents Quire sends (issue 16, docs/federation.md). Ids come from
//! `Config::actor_id` and `Config::ap_post_id`.

use serde_json::{Value, json};

/// The ActivityStreams context.
pub const AS_CONTEXT: &str = "https://www.w3.org/ns/activitystreams";

/// The public collection (`to` of a public post).
pub const PUBLIC: &str = "https://www.w3.org/ns/activitystreams#Public";

/// The `Accept` of a Follow by `actor_id` (ours), repeating the whole Follow as received (Mastodon
/// and Fedify match it by its id). `follower_row` makes the Accept's id unique.
pub fn accept(actor_id: &str, follow: &Value, follower_row: i64) -> Value {
    json!({
        "@context": AS_CONTEXT,
        "id": format!("{actor_id}#accepts/{follower_row}"),
        "type": "Accept",
        "actor": actor_id,
        "object": follow,
    })
}

/// The `Reject` of a Follow by `actor_id` (ours): the owner refused or removed the follower, so
/// its server stops showing it as following. `follower_row` and `at_ms` (unix ms) make its id
/// unique.
pub fn reject(actor_id: &str, follow: &Value, follower_row: i64, at_ms: i64) -> Value {
    json!({
        "@context": AS_CONTEXT,
        "id": format!("{actor_id}#rejects/{follower_row}-{at_ms}"),
        "type": "Reject",
        "actor": actor_id,
        "object": follow,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accept_repeats_the_follow_whole() {
        let follow = json!({"id": "https://b.example/f/1", "type": "Follow", "actor": "https://b.example/u/bob",
            "object": "http://alice.localhost/_quire/ap/actor"});
        let accept = accept("http://alice.localhost/_quire/ap/actor", &follow, 3);
        assert_eq!(accept["type"], "Accept");
        assert_eq!(accept["id"], "http://alice.localhost/_quire/ap/actor#accepts/3");
        assert_eq!(accept["object"], follow);
        let reject = reject("http://alice.localhost/_quire/ap/actor", &follow, 3, 1700000000000);
        assert_eq!(reject["type"], "Reject");
        assert_eq!(reject["id"], "http://alice.localhost/_quire/ap/actor#rejects/3-1700000000000");
        assert_eq!(reject["object"], follow);
    }
}
