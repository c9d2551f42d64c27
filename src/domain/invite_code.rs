//! Invite codes (`--signups invite`): 128 random bits from the operating system's
//! CSPRNG-seeded generator, as 32 lowercase hex characters. Only their SHA-256 is stored,
//! with their first [`PREFIX_LEN`] characters so a list can tell them apart.

/// Length of a code.
pub const CODE_LEN: usize = 32;
/// How many of a code's first characters a list shows.
pub const PREFIX_LEN: usize = 6;

/// A new random code.
pub fn new_code() -> String {
    // rand's thread generator is a CSPRNG (ChaCha) seeded from the operating system.
    let bytes: [u8; 16] = rand::random();
    hex::encode(bytes)
}

/// The code as typed or pasted (surrounding spaces dropped, any case), when it has the shape
/// of a code; anything else is refused without a lookup.
pub fn normalize(raw: &str) -> Option<String> {
    let code = raw.trim().to_ascii_lowercase();
    (code.len() == CODE_LEN && code.bytes().all(|b| b.is_ascii_hexdigit())).then_some(code)
}

/// The part of a code a list shows.
pub fn prefix(code: &str) -> &str {
    &code[..PREFIX_LEN.min(code.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_32_hex_characters_and_differ() {
        let (a, b) = (new_code(), new_code());
        assert_eq!(normalize(&a).as_deref(), Some(a.as_str()));
        assert_ne!(a, b);
        assert_eq!(normalize(&format!("  {}\n", a.to_uppercase())).as_deref(), Some(a.as_str()), "pasted, any case");
        assert_eq!(normalize(&a[1..]), None);
        assert_eq!(normalize(&format!("{a}0")), None);
        assert_eq!(normalize(&format!("{}g", &a[1..])), None);
        assert_eq!(normalize(""), None);
        assert_eq!(prefix(&a), &a[..6]);
    }
}
