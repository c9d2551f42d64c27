//! DNS messages for one question, `{name} IN TXT` (RFC 1035 §4): the query, and the answer
//! read back with every check a spoofed or broken answer fails (id and question echoed, sizes
//! inside the message, compression pointers bounded). The sockets are in `fetch::dns_txt`.

/// The TXT record type.
pub const TXT: u16 = 16;
/// The Internet class.
const IN: u16 = 1;
/// Most compression pointers or labels one name may take before it is refused.
const MAX_NAME_STEPS: usize = 128;

/// What an answer says about the name's TXT records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TxtAnswer {
    /// The TXT strings (each record's character-strings joined); empty when the name exists
    /// without TXT records.
    Records(Vec<String>),
    /// NXDOMAIN: no such name.
    NoSuchName,
    /// The answer did not fit in UDP: ask again over TCP.
    Truncated,
}

/// Why an answer is not one to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DnsError {
    /// The message is not a well-formed answer to our query (wrong id or question, cut short).
    Malformed(&'static str),
    /// The server answered with an error code (2 = server failure, 5 = refused, ...).
    Rcode(u8),
}

impl std::fmt::Display for DnsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DnsError::Malformed(what) => write!(f, "the DNS server's answer is malformed ({what})"),
            DnsError::Rcode(2) => f.write_str("the DNS server failed (SERVFAIL)"),
            DnsError::Rcode(5) => f.write_str("the DNS server refused the query"),
            DnsError::Rcode(code) => write!(f, "the DNS server answered with error code {code}"),
        }
    }
}

/// The query `{name} IN TXT` with `id`, recursion desired; `None` for a name DNS cannot carry
/// (an empty label, a label over 63 bytes, over 255 bytes in all).
pub fn encode_txt_query(id: u16, name: &str) -> Option<Vec<u8>> {
    let mut query = Vec::with_capacity(18 + name.len());
    query.extend_from_slice(&id.to_be_bytes());
    query.extend_from_slice(&[0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]); // RD; one question
    for label in name.strip_suffix('.').unwrap_or(name).split('.') {
        if label.is_empty() || label.len() > 63 {
            return None;
        }
        query.push(label.len() as u8);
        query.extend_from_slice(label.as_bytes());
    }
    query.push(0);
    if query.len() - 12 > 255 {
        return None;
    }
    query.extend_from_slice(&TXT.to_be_bytes());
    query.extend_from_slice(&IN.to_be_bytes());
    Some(query)
}

/// Reads the answer to `query` (as [`encode_txt_query`] made it): the id and the question
/// must be echoed (the question's case may differ); TXT records of any owner count, as a
/// resolver sends a CNAME chain's target's records with the CNAME.
pub fn parse_txt_answer(message: &[u8], query: &[u8]) -> Result<TxtAnswer, DnsError> {
    let malformed = DnsError::Malformed;
    if message.len() < 12 || query.len() < 12 {
        return Err(malformed("shorter than a header"));
    }
    if message[..2] != query[..2] {
        return Err(malformed("not the id of our query"));
    }
    if message[2] & 0x80 == 0 {
        return Err(malformed("a query, not an answer"));
    }
    if message[2] & 0x02 != 0 {
        return Ok(TxtAnswer::Truncated);
    }
    let question = &query[12..];
    let question_count = u16::from_be_bytes([message[4], message[5]]);
    if question_count != 1 || !message.get(12..12 + question.len()).is_some_and(|q| q.eq_ignore_ascii_case(question)) {
        return Err(malformed("not the question we asked"));
    }
    match message[3] & 0x0f {
        0 => {}
        3 => return Ok(TxtAnswer::NoSuchName),
        code => return Err(DnsError::Rcode(code)),
    }
    let answer_count = u16::from_be_bytes([message[6], message[7]]);
    let mut at = 12 + question.len();
    let mut strings = Vec::new();
    for _ in 0..answer_count {
        at = skip_name(message, at)?;
        let fixed = message.get(at..at + 10).ok_or(malformed("a record cut short"))?;
        let (kind, class) = (u16::from_be_bytes([fixed[0], fixed[1]]), u16::from_be_bytes([fixed[2], fixed[3]]));
        let length = u16::from_be_bytes([fixed[8], fixed[9]]) as usize;
        at += 10;
        let data = message.get(at..at + length).ok_or(malformed("record data cut short"))?;
        if kind == TXT && class == IN {
            strings.push(join_character_strings(data)?);
        }
        at += length;
    }
    Ok(TxtAnswer::Records(strings))
}

/// A TXT record's character-strings (each a length byte and that many bytes), joined.
fn join_character_strings(data: &[u8]) -> Result<String, DnsError> {
    let mut joined = Vec::with_capacity(data.len());
    let mut at = 0;
    while at < data.len() {
        let length = data[at] as usize;
        let part = data.get(at + 1..at + 1 + length).ok_or(DnsError::Malformed("a TXT string cut short"))?;
        joined.extend_from_slice(part);
        at += 1 + length;
    }
    Ok(String::from_utf8_lossy(&joined).into_owned())
}

/// The position after the name at `at`, which may end in a compression pointer.
fn skip_name(message: &[u8], mut at: usize) -> Result<usize, DnsError> {
    for _ in 0..MAX_NAME_STEPS {
        let length = *message.get(at).ok_or(DnsError::Malformed("a name runs off the end"))?;
        match length {
            0 => return Ok(at + 1),
            l if l & 0xc0 == 0xc0 => {
                return if at + 2 <= message.len() {
                    Ok(at + 2)
                } else {
                    Err(DnsError::Malformed("a name runs off the end"))
                };
            }
            l if l & 0xc0 == 0 => at += 1 + l as usize,
            _ => return Err(DnsError::Malformed("an unknown label type")),
        }
    }
    Err(DnsError::Malformed("a name too long"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer to `query` with `records` (owner names compressed to the question), flags and rcode.
    pub(crate) fn answer(query: &[u8], flags: u8, rcode: u8, records: &[&[&str]]) -> Vec<u8> {
        let mut message = query[..2].to_vec();
        message.extend_from_slice(&[0x80 | flags, 0x80 | rcode, 0, 1, 0, records.len() as u8, 0, 0, 0, 0]);
        message.extend_from_slice(&query[12..]);
        for strings in records {
            let data: Vec<u8> = strings.iter().flat_map(|s| [&[s.len() as u8][..], s.as_bytes()].concat()).collect();
            message.extend_from_slice(&[0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60]);
            message.extend_from_slice(&(data.len() as u16).to_be_bytes());
            message.extend_from_slice(&data);
        }
        message
    }

    #[test]
    fn a_query_names_its_labels_and_asks_for_txt() {
        let query = encode_txt_query(0xabcd, "_quire.blog.example.org.").unwrap();
        assert_eq!(&query[..4], &[0xab, 0xcd, 0x01, 0x00]);
        assert_eq!(&query[12..19], b"\x06_quire");
        assert_eq!(&query[query.len() - 4..], &[0, 16, 0, 1]);
        assert_eq!(encode_txt_query(1, "a..b"), None);
        assert_eq!(encode_txt_query(1, &format!("{}.org", "a".repeat(64))), None);
        assert_eq!(encode_txt_query(1, &"abcdefghi.".repeat(30)), None);
    }

    #[test]
    fn txt_strings_are_joined_per_record() {
        let query = encode_txt_query(7, "_quire.blog.example.org").unwrap();
        let message = answer(&query, 0, 0, &[&["quire-verify=", "abc"], &["v=spf1 -all"]]);
        assert_eq!(
            parse_txt_answer(&message, &query),
            Ok(TxtAnswer::Records(vec!["quire-verify=abc".into(), "v=spf1 -all".into()]))
        );
    }

    #[test]
    fn spoofed_broken_and_failed_answers_are_told_apart() {
        let query = encode_txt_query(7, "_quire.example.org").unwrap();
        let other = encode_txt_query(8, "_quire.example.org").unwrap();
        assert!(matches!(parse_txt_answer(&answer(&other, 0, 0, &[]), &query), Err(DnsError::Malformed(_))));
        let elsewhere = encode_txt_query(7, "_quire.evil.org").unwrap();
        assert!(matches!(parse_txt_answer(&answer(&elsewhere, 0, 0, &[]), &query), Err(DnsError::Malformed(_))));
        assert_eq!(parse_txt_answer(&answer(&query, 0, 3, &[]), &query), Ok(TxtAnswer::NoSuchName));
        assert_eq!(parse_txt_answer(&answer(&query, 0, 2, &[]), &query), Err(DnsError::Rcode(2)));
        assert_eq!(parse_txt_answer(&answer(&query, 0x02, 0, &[]), &query), Ok(TxtAnswer::Truncated));
        let full = answer(&query, 0, 0, &[&["quire-verify=abc"]]);
        assert!(matches!(parse_txt_answer(&full[..full.len() - 2], &query), Err(DnsError::Malformed(_))));
        let mut upper = full.clone();
        upper[13] = b'_';
        upper[14] = b'Q';
        assert!(parse_txt_answer(&upper, &query).is_ok(), "0x20 case changes are echoes too");
    }
}

#[cfg(test)]
mod proptests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn any_bytes_are_answered_without_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..600), cut in 0usize..600) {
            let query = encode_txt_query(7, "_quire.example.org").unwrap();
            let _ = parse_txt_answer(&bytes, &query);
            // An answer that starts right and goes wrong later.
            let mut message = tests::answer(&query, 0, 0, &[&["quire-verify=abc"]]);
            message.extend_from_slice(&bytes);
            message[7] = bytes.first().copied().unwrap_or(3);
            let _ = parse_txt_answer(&message[..cut.min(message.len())], &query);
            let _ = parse_txt_answer(&message, &query);
        }

        #[test]
        fn any_name_either_encodes_or_is_refused(name in any::<String>()) {
            if let Some(query) = encode_txt_query(1, &name) {
                prop_assert!(query.len() <= 12 + 256 + 4);
            }
        }
    }
}
