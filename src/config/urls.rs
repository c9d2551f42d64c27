//! The URLs the server writes into pages, ids and documents, built from its public host and
//! scheme; their paths come from [`crate::domain::paths`], which the route tables use too.

use crate::config::Config;
use crate::domain::blog::address::BlogAddress;
use crate::domain::paths;

impl Config {
    /// `http` or `https`.
    pub fn scheme(&self) -> &'static str {
        if self.https { "https" } else { "http" }
    }

    /// The owner app's origin, e.g. `http://localhost:8080`.
    pub fn app_url(&self) -> String {
        format!("{}://{}", self.scheme(), self.host)
    }

    /// What image block URLs must start with: the image host's, or this server's `/media/`.
    pub fn image_prefix(&self) -> String {
        match self.imgur_client_id {
            Some(_) => "https://i.imgur.com/".to_owned(),
            None => format!("{}{}", self.app_url(), paths::MEDIA_PREFIX),
        }
    }

    /// A blog's ActivityPub actor id, `http://alice.localhost:8080/_quire/ap/actor`: on its
    /// subdomain whatever its custom domain, so that adding or removing a domain changes no
    /// follower's record (docs/federation.md).
    pub fn actor_id(&self, subdomain: &str) -> String {
        format!("{}://{subdomain}.{}{}", self.scheme(), self.host, paths::AP_ACTOR)
    }

    /// The ActivityPub id of a blog's post, `http://alice.localhost:8080/_quire/ap/posts/{short_id}`:
    /// not its permalink, which a new title or domain changes (the permalink is its `url`).
    pub fn ap_post_id(&self, subdomain: &str, short_id: &str) -> String {
        format!("{}://{subdomain}.{}{}{short_id}", self.scheme(), self.host, paths::AP_POSTS_PREFIX)
    }

    /// The instance actor's id, on the app host (`http://localhost:8080/_quire/ap/instance`).
    pub fn instance_actor_id(&self) -> String {
        format!("{}{}", self.app_url(), paths::AP_INSTANCE)
    }

    /// The instance's shared inbox, on the app host.
    pub fn shared_inbox(&self) -> String {
        format!("{}{}", self.app_url(), paths::AP_INBOX)
    }

    /// A blog's public origin: `http://alice.localhost:8080`, or its verified custom domain's,
    /// `https://blog.example.org` (with the app host's port, if it has one).
    pub fn blog_origin(&self, address: &BlogAddress) -> String {
        match &address.domain {
            Some(domain) => match self.host.rsplit_once(':') {
                Some((_, port)) => format!("{}://{domain}:{port}", self.scheme()),
                None => format!("{}://{domain}", self.scheme()),
            },
            None => format!("{}://{}.{}", self.scheme(), address.subdomain, self.host),
        }
    }
}
