//! A DNS server's answer to a TXT query: `parse_txt_answer` reads any bytes without a panic,
//! and bytes that do not echo the query's id are never taken for an answer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::net::dns_message::{encode_txt_query, parse_txt_answer};

fuzz_target!(|message: &[u8]| {
    let query = encode_txt_query(0x5151, "_quire.blog.example.org").expect("a valid name");
    let answer = parse_txt_answer(message, &query);
    if message.get(..2) != Some(&[0x51, 0x51][..]) {
        assert!(answer.is_err(), "{message:?}");
    }
});
