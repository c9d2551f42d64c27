//! Who a person is at their sign-in provider.

/// Who a verified token names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The token's `iss`.
    pub issuer: String,
    /// The token's `sub`: the person's stable id at the issuer.
    pub subject: String,
    /// The e-mail address, when the token carries one.
    pub email: String,
    /// The display name, when the token carries one.
    pub name: String,
}
