//! A name's certificate as Settings shows it, and who knows it: the ACME manager when Quire
//! serves HTTPS itself, nobody (a proxy's business) otherwise.

/// A certificate's state for a name, as the TLS manager (when Quire serves HTTPS itself) tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CertificateState {
    /// Verified, no certificate yet.
    Pending,
    /// Issued, valid until `not_after` (unix seconds).
    Issued {
        /// The end of its validity, unix seconds.
        not_after: i64,
    },
    /// The last order failed; the next is not before `retry_at` (unix seconds).
    Failed {
        /// The CA's or the manager's message.
        error: String,
        /// When the next order may start, unix seconds.
        retry_at: i64,
    },
}

/// Who knows the certificates of names (the TLS manager); the API asks it for a custom
/// domain's `certificate` field. `None` means Quire does not manage certificates (a proxy does).
pub trait CertificateStates: Send + Sync {
    /// The certificate state of `name`, or `None` when certificates are not managed here.
    fn state(&self, name: &str) -> Option<CertificateState>;
}

/// Certificates are a proxy's business: every state is `not_managed`.
pub struct NotManaged;

impl CertificateStates for NotManaged {
    fn state(&self, _name: &str) -> Option<CertificateState> {
        None
    }
}
