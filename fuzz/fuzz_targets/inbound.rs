//! A remote server's activity, actor or key document (issue 16): `domain::inbound` answers any
//! bytes with a value or a refusal, an accepted activity's ids are http(s) URLs, and a Note's
//! HTML becomes bounded text (`domain::remote_html`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::federation::inbound::{Inbound, actor, host_of, key_document, parse};
use quire::domain::federation::remote_html::to_text;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    assert!(to_text(&text, 100).chars().count() <= 100);
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(activity) = parse(&value) {
        if let Some(id) = activity.actor() {
            assert!(id.starts_with("http://") || id.starts_with("https://"), "{text:?}");
        }
        // Reactions and notes are the actor's server's own (issue 28, finding 9).
        let own = |id: &str| host_of(id) == activity.actor().and_then(host_of);
        match &activity {
            Inbound::Create { id, note, .. } => {
                assert!(own(id) && own(&note.id), "{text:?}");
                let _ = to_text(&note.content, 5000);
            }
            Inbound::Like { id, .. } | Inbound::Announce { id, .. } => assert!(own(id), "{text:?}"),
            _ => {}
        }
    }
    let _ = actor(&value);
    let _ = key_document(&value, "https://peer.example/users/bob#main-key");
});
