//! Preview links' secret tokens: 256 random bits from the operating system's CSPRNG-seeded
//! generator, as 64 lowercase hex characters. Only their SHA-256 is stored.

/// Length of a token.
pub const TOKEN_LEN: usize = 64;

/// A new random token.
pub fn new_token() -> String {
    // rand's thread generator is a CSPRNG (ChaCha) seeded from the operating system.
    let bytes: [u8; 32] = rand::random();
    hex::encode(bytes)
}

/// Whether `s` has the shape of a token (so anything else is refused without a lookup).
pub fn is_token(s: &str) -> bool {
    s.len() == TOKEN_LEN && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_characters_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert!(is_token(&a) && is_token(&b) && a != b);
        assert!(!is_token(&a.to_uppercase()) && !is_token(&a[1..]) && !is_token(&format!("{a}0")));
    }
}
