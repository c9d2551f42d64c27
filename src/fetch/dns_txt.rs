//! TXT lookups through the machine's recursive resolvers, with no DNS crate: one question over
//! UDP (a random id, 3 tries of 2 s per server), again over TCP when the answer is truncated.
//! The messages are `domain::dns_message`'s. Used for the custom-domain check
//! `_quire.{name} TXT "quire-verify={token}"`.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, UdpSocket};

use crate::domain::net::dns_message::{TxtAnswer, encode_txt_query, parse_txt_answer};

/// How long one UDP try waits for its answer.
const TRY_TIMEOUT: Duration = Duration::from_secs(2);
/// UDP tries per server.
const TRIES: usize = 3;
/// How long a TCP exchange may take.
const TCP_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest answer read over UDP.
const MAX_UDP: usize = 4096;

/// The resolvers to ask.
#[derive(Debug, Clone)]
pub struct DnsTxt {
    servers: Vec<SocketAddr>,
}

impl DnsTxt {
    /// The resolvers of `/etc/resolv.conf`, or `server` when given (tests only).
    pub fn new(server: Option<SocketAddr>) -> DnsTxt {
        let servers = match server {
            Some(server) => {
                tracing::warn!(%server, "test-only: custom domains' TXT records are asked of this server, not of /etc/resolv.conf's");
                vec![server]
            }
            None => std::fs::read_to_string("/etc/resolv.conf").map(|text| nameservers(&text)).unwrap_or_default(),
        };
        DnsTxt { servers }
    }

    /// Every TXT string of `name` (empty when it has none or does not exist); an error names
    /// what failed, for the owner.
    pub async fn lookup(&self, name: &str) -> Result<Vec<String>, String> {
        if self.servers.is_empty() {
            return Err("this server has no DNS resolver (none in /etc/resolv.conf)".to_owned());
        }
        let mut last_error = String::new();
        for server in &self.servers {
            match ask(*server, name).await {
                Ok(strings) => return Ok(strings),
                Err(err) => last_error = err,
            }
        }
        Err(last_error)
    }
}

/// The `nameserver` lines of a resolv.conf, on port 53 (IPv6 zone suffixes dropped).
fn nameservers(text: &str) -> Vec<SocketAddr> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("nameserver"))
        .filter_map(|rest| rest.trim().split('%').next()?.parse::<IpAddr>().ok())
        .map(|ip| SocketAddr::new(ip, 53))
        .collect()
}

/// One server's answer about `name`.
async fn ask(server: SocketAddr, name: &str) -> Result<Vec<String>, String> {
    let query = encode_txt_query(rand::random(), name).ok_or_else(|| format!("{name} is not a name DNS can carry"))?;
    let unreachable = |err: std::io::Error| format!("the DNS server {server} could not be reached: {err}");
    let local = if server.is_ipv4() { SocketAddr::from(([0, 0, 0, 0], 0)) } else { SocketAddr::from(([0u16; 8], 0)) };
    let socket = UdpSocket::bind(local).await.map_err(unreachable)?;
    socket.connect(server).await.map_err(unreachable)?;
    let mut buffer = vec![0u8; MAX_UDP];
    for _ in 0..TRIES {
        socket.send(&query).await.map_err(unreachable)?;
        let deadline = tokio::time::Instant::now() + TRY_TIMEOUT;
        // Answers that are not for this query (late, spoofed) are dropped; the try waits on.
        while let Ok(received) = tokio::time::timeout_at(deadline, socket.recv(&mut buffer)).await {
            let Ok(length) = received else { break };
            match parse_txt_answer(&buffer[..length], &query) {
                Ok(TxtAnswer::Records(strings)) => return Ok(strings),
                Ok(TxtAnswer::NoSuchName) => return Ok(Vec::new()),
                Ok(TxtAnswer::Truncated) => return over_tcp(server, &query).await,
                Err(crate::domain::net::dns_message::DnsError::Malformed(_)) => continue,
                Err(err) => return Err(err.to_string()),
            }
        }
    }
    Err(format!("the DNS server {server} did not answer"))
}

/// The same question over TCP (each message after its 2-byte length).
async fn over_tcp(server: SocketAddr, query: &[u8]) -> Result<Vec<String>, String> {
    let exchange = async {
        let mut stream = TcpStream::connect(server).await?;
        let mut framed = (query.len() as u16).to_be_bytes().to_vec();
        framed.extend_from_slice(query);
        stream.write_all(&framed).await?;
        let length = stream.read_u16().await? as usize;
        let mut answer = vec![0; length];
        stream.read_exact(&mut answer).await?;
        Ok::<_, std::io::Error>(answer)
    };
    let answer = match tokio::time::timeout(TCP_TIMEOUT, exchange).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(err)) => return Err(format!("the DNS server {server} failed over TCP: {err}")),
        Err(_) => return Err(format!("the DNS server {server} did not answer over TCP")),
    };
    match parse_txt_answer(&answer, query) {
        Ok(TxtAnswer::Records(strings)) => Ok(strings),
        Ok(TxtAnswer::NoSuchName) => Ok(Vec::new()),
        Ok(TxtAnswer::Truncated) => Err(format!("the DNS server {server} truncated its answer over TCP")),
        Err(err) => Err(err.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nameservers_are_read_from_resolv_conf() {
        let text = "# comment\nsearch example.org\nnameserver 10.0.0.2\nnameserver fe80::1%eth0\n  nameserver 2001:db8::53\noptions ndots:1\nnameserver bogus\n";
        let servers: Vec<String> = nameservers(text).iter().map(ToString::to_string).collect();
        assert_eq!(servers, ["10.0.0.2:53", "[fe80::1]:53", "[2001:db8::53]:53"]);
    }
}
