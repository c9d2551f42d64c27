//! Which IP addresses are public: the rule every request to a URL someone else chose obeys
//! (`fetch::Fetcher` applies it after DNS resolution and on every redirect).
//!
//! An address is public unless one of the tables below names it. IPv6 addresses that carry an
//! IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) are judged by what they carry, since
//! a request to them may well end at that IPv4 address. Outside those, only global unicast
//! (2000::/3) is public in IPv6.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is not public.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonPublic {
    /// 127.0.0.0/8, ::1.
    Loopback,
    /// 0.0.0.0, ::.
    Unspecified,
    /// 0.0.0.0/8 ("this network").
    ThisNetwork,
    /// 10/8, 172.16/12, 192.168/16, and IPv6's local-use NAT64 prefix.
    Private,
    /// 100.64.0.0/10, carrier-grade NAT.
    SharedNat,
    /// 169.254/16, fe80::/10.
    LinkLocal,
    /// 224/4, ff00::/8.
    Multicast,
    /// 255.255.255.255.
    Broadcast,
    /// 198.18.0.0/15, 2001:2::/48.
    Benchmarking,
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    Documentation,
    /// fc00::/7.
    UniqueLocal,
    /// fec0::/10 (deprecated).
    SiteLocal,
    /// Reserved or special-purpose: 240/4, 192.0.0/24, IPv6 outside global unicast, ...
    Reserved,
}

impl NonPublic {
    /// What kind of address it is, in words: "a loopback address".
    pub fn describe(self) -> &'static str {
        match self {
            NonPublic::Loopback => "a loopback address",
            NonPublic::Unspecified => "an unspecified address",
            NonPublic::ThisNetwork => "a \"this network\" address",
            NonPublic::Private => "a private address",
            NonPublic::SharedNat => "a shared (carrier-grade NAT) address",
            NonPublic::LinkLocal => "a link-local address",
            NonPublic::Multicast => "a multicast address",
            NonPublic::Broadcast => "a broadcast address",
            NonPublic::Benchmarking => "a benchmarking address",
            NonPublic::Documentation => "a documentation address",
            NonPublic::UniqueLocal => "a unique local address",
            NonPublic::SiteLocal => "a site-local address",
            NonPublic::Reserved => "a reserved address",
        }
    }
}

impl fmt::Display for NonPublic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// IPv4 networks that are not public, first match wins: (network, prefix length, kind).
const V4: &[(Ipv4Addr, u8, NonPublic)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 32, NonPublic::Unspecified),
    (Ipv4Addr::new(0, 0, 0, 0), 8, NonPublic::ThisNetwork),
    (Ipv4Addr::new(10, 0, 0, 0), 8, NonPublic::Private),
    (Ipv4Addr::new(100, 64, 0, 0), 10, NonPublic::SharedNat),
    (Ipv4Addr::new(127, 0, 0, 0), 8, NonPublic::Loopback),
    (Ipv4Addr::new(169, 254, 0, 0), 16, NonPublic::LinkLocal),
    (Ipv4Addr::new(172, 16, 0, 0), 12, NonPublic::Private),
    (Ipv4Addr::new(192, 0, 0, 0), 24, NonPublic::Reserved),
    (Ipv4Addr::new(192, 0, 2, 0), 24, NonPublic::Documentation),
    (Ipv4Addr::new(192, 88, 99, 0), 24, NonPublic::Reserved),
    (Ipv4Addr::new(192, 168, 0, 0), 16, NonPublic::Private),
    (Ipv4Addr::new(198, 18, 0, 0), 15, NonPublic::Benchmarking),
    (Ipv4Addr::new(198, 51, 100, 0), 24, NonPublic::Documentation),
    (Ipv4Addr::new(203, 0, 113, 0), 24, NonPublic::Documentation),
    (Ipv4Addr::new(224, 0, 0, 0), 4, NonPublic::Multicast),
    (Ipv4Addr::new(255, 255, 255, 255), 32, NonPublic::Broadcast),
    (Ipv4Addr::new(240, 0, 0, 0), 4, NonPublic::Reserved),
];

/// IPv6 networks that are not public, checked after the ones carrying IPv4 addresses.
const V6: &[(Ipv6Addr, u8, NonPublic)] = &[
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48, NonPublic::Private),
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64, NonPublic::Reserved),
    (Ipv6Addr::new(0x2001, 2, 0, 0, 0, 0, 0, 0), 48, NonPublic::Benchmarking),
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32, NonPublic::Documentation),
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23, NonPublic::Reserved),
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20, NonPublic::Documentation),
    (Ipv6Addr::new(0x5f00, 0, 0, 0, 0, 0, 0, 0), 16, NonPublic::Reserved),
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7, NonPublic::UniqueLocal),
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10, NonPublic::LinkLocal),
    (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10, NonPublic::SiteLocal),
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8, NonPublic::Multicast),
];

/// Why `ip` is not public, or `None` when it is.
pub fn classify(ip: IpAddr) -> Option<NonPublic> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// Whether `ip` is public.
pub fn is_public(ip: IpAddr) -> bool {
    classify(ip).is_none()
}

fn classify_v4(ip: Ipv4Addr) -> Option<NonPublic> {
    let bits = u32::from(ip);
    V4.iter().find(|(net, len, _)| prefix_v4(bits, *len) == prefix_v4(u32::from(*net), *len)).map(|(_, _, kind)| *kind)
}

fn classify_v6(ip: Ipv6Addr) -> Option<NonPublic> {
    if ip == Ipv6Addr::UNSPECIFIED {
        return Some(NonPublic::Unspecified);
    }
    if ip == Ipv6Addr::LOCALHOST {
        return Some(NonPublic::Loopback);
    }
    let carried = embedded_ipv4(ip);
    if !carried.is_empty() {
        return carried.into_iter().find_map(classify_v4);
    }
    let bits = u128::from(ip);
    let listed = V6.iter().find(|(net, len, _)| prefix_v6(bits, *len) == prefix_v6(u128::from(*net), *len));
    match listed {
        Some((_, _, kind)) => Some(*kind),
        None if prefix_v6(bits, 3) != prefix_v6(0x2000 << 112, 3) => Some(NonPublic::Reserved),
        None => None,
    }
}

/// The IPv4 addresses an IPv6 address carries: ::ffff:a.b.c.d (mapped), ::a.b.c.d
/// (compatible), 64:ff9b::a.b.c.d (NAT64), 2002:aabb:ccdd::/48 (6to4), and for Teredo
/// (2001::/32) both its server and its (inverted) client address. Empty for any other.
pub fn embedded_ipv4(ip: Ipv6Addr) -> Vec<Ipv4Addr> {
    let bits = u128::from(ip);
    let low = Ipv4Addr::from(bits as u32);
    let within = |net: u128, len: u8| prefix_v6(bits, len) == prefix_v6(net, len);
    let mapped = within(0xffff << 32, 96);
    let compatible = within(0, 96) && ip != Ipv6Addr::UNSPECIFIED && ip != Ipv6Addr::LOCALHOST;
    let nat64 = within(0x64_ff9b << 96, 96);
    if mapped || compatible || nat64 {
        vec![low]
    } else if within(0x2002 << 112, 16) {
        vec![Ipv4Addr::from((bits >> 80) as u32)]
    } else if within(0x2001 << 112, 32) {
        vec![Ipv4Addr::from((bits >> 64) as u32), Ipv4Addr::from(!(bits as u32))]
    } else {
        Vec::new()
    }
}

fn prefix_v4(bits: u32, len: u8) -> u32 {
    bits.checked_shr(32 - u32::from(len)).unwrap_or(0)
}

fn prefix_v6(bits: u128, len: u8) -> u128 {
    bits.checked_shr(128 - u32::from(len)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Option<NonPublic> {
        classify(text.parse().expect("an address"))
    }

    #[test]
    fn ipv4_special_ranges_are_not_public() {
        use NonPublic::*;
        let cases = [
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", ThisNetwork),
            ("10.0.0.1", Private),
            ("10.255.255.255", Private),
            ("100.64.0.1", SharedNat),
            ("100.127.255.254", SharedNat),
            ("127.0.0.1", Loopback),
            ("127.255.255.254", Loopback),
            ("169.254.169.254", LinkLocal),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("192.0.0.8", Reserved),
            ("192.0.2.10", Documentation),
            ("192.88.99.1", Reserved),
            ("192.168.1.1", Private),
            ("198.18.0.1", Benchmarking),
            ("198.19.255.255", Benchmarking),
            ("198.51.100.7", Documentation),
            ("203.0.113.9", Documentation),
            ("224.0.0.1", Multicast),
            ("239.255.255.250", Multicast),
            ("240.0.0.1", Reserved),
            ("254.1.2.3", Reserved),
            ("255.255.255.255", Broadcast),
        ];
        for (ip, expected) in cases {
            assert_eq!(kind(ip), Some(expected), "{ip}");
        }
    }

    #[test]
    fn ipv4_addresses_next_to_the_special_ranges_are_public() {
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "169.253.255.255",
            "169.255.0.0",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.1.255",
            "192.0.3.0",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "203.0.114.0",
            "223.255.255.255",
        ] {
            assert_eq!(kind(ip), None, "{ip}");
        }
    }

    #[test]
    fn ipv6_special_ranges_are_not_public() {
        use NonPublic::*;
        let cases = [
            ("::", Unspecified),
            ("::1", Loopback),
            ("fe80::1", LinkLocal),
            ("febf:ffff::1", LinkLocal),
            ("fc00::1", UniqueLocal),
            ("fd12:3456::1", UniqueLocal),
            ("fec0::1", SiteLocal),
            ("ff02::1", Multicast),
            ("2001:db8::1", Documentation),
            ("3fff::1", Documentation),
            ("2001:2::1", Benchmarking),
            ("2001:10::1", Reserved),
            ("100::1", Reserved),
            ("64:ff9b:1::1", Private),
            ("5f00::1", Reserved),
            ("4000::1", Reserved),
            ("1::1", Reserved),
        ];
        for (ip, expected) in cases {
            assert_eq!(kind(ip), Some(expected), "{ip}");
        }
    }

    #[test]
    fn ipv6_global_unicast_is_public() {
        for ip in ["2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "2001:4860:4860::8888", "2c0f:fb50::1"] {
            assert_eq!(kind(ip), None, "{ip}");
        }
    }

    #[test]
    fn ipv6_addresses_carrying_ipv4_are_judged_by_it() {
        use NonPublic::*;
        let cases = [
            ("::ffff:127.0.0.1", Some(Loopback)),
            ("::ffff:169.254.169.254", Some(LinkLocal)),
            ("::ffff:10.0.0.1", Some(Private)),
            ("::ffff:8.8.8.8", None),
            ("::127.0.0.1", Some(Loopback)),
            ("::192.168.0.1", Some(Private)),
            ("::8.8.8.8", None),
            ("64:ff9b::127.0.0.1", Some(Loopback)),
            ("64:ff9b::a9fe:a9fe", Some(LinkLocal)),
            ("64:ff9b::8.8.8.8", None),
            ("2002:7f00:1::1", Some(Loopback)),
            ("2002:a00:1::", Some(Private)),
            ("2002:808:808::1", None),
            // Teredo: server 65.54.227.120, client 127.0.0.1 inverted (80ff:fffe).
            ("2001:0:4136:e378:8000:63bf:80ff:fffe", Some(Loopback)),
            // Teredo with a private server.
            ("2001:0:a00:1:8000:63bf:f7f7:f7f7", Some(Private)),
            // Teredo with public server and client (8.8.8.8 inverted is f7f7:f7f7).
            ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", None),
        ];
        for (ip, expected) in cases {
            assert_eq!(kind(ip), expected, "{ip}");
        }
    }

    #[test]
    fn the_embedded_address_is_found_in_each_form() {
        let v6 = |text: &str| text.parse::<Ipv6Addr>().unwrap();
        let v4 = |text: &str| text.parse::<Ipv4Addr>().unwrap();
        assert_eq!(embedded_ipv4(v6("::ffff:1.2.3.4")), [v4("1.2.3.4")]);
        assert_eq!(embedded_ipv4(v6("::1.2.3.4")), [v4("1.2.3.4")]);
        assert_eq!(embedded_ipv4(v6("64:ff9b::1.2.3.4")), [v4("1.2.3.4")]);
        assert_eq!(embedded_ipv4(v6("2002:102:304::")), [v4("1.2.3.4")]);
        assert_eq!(embedded_ipv4(v6("2001:0:102:304::fefd:fcfb")), [v4("1.2.3.4"), v4("1.2.3.4")]);
        assert!(embedded_ipv4(v6("::1")).is_empty());
        assert!(embedded_ipv4(v6("2606:4700::1")).is_empty());
    }

    #[test]
    fn descriptions_read_as_plain_words() {
        assert_eq!(NonPublic::Loopback.to_string(), "a loopback address");
        assert_eq!(NonPublic::LinkLocal.describe(), "a link-local address");
        assert!(is_public("93.184.215.14".parse().unwrap()));
        assert!(!is_public("127.0.0.1".parse().unwrap()));
    }
}
