//! HTTPS served by Quire itself, without a real CA: the acceptor with certificates made here
//! (rcgen), checked by a rustls client against their root and name; the ACME manager against
//! a fake CA on 127.0.0.1 that counts what it is sent; and the port-80 endpoint.
//! (tests/api/acme_pebble.rs does the real issuance against Debian's pebble.)

use std::net::{Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use quire::config::{AcmeConfig, HandshakeLimits, TlsConfig};
use quire::tls::acme::AcmeSettings;
use quire::tls::{CertificateState, Certificates, Manager, ManagerSettings, NamePolicy, Refused, TlsAcceptor};
use quire::{App, Config};
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use rustls::pki_types::ServerName;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A throwaway CA that signs leaf certificates.
pub struct TestCa {
    issuer: Issuer<'static, KeyPair>,
    /// Its certificate (PEM), the root clients trust.
    pub pem: String,
}

impl TestCa {
    pub fn new() -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let key = KeyPair::generate().unwrap();
        let cert = params.self_signed(&key).unwrap();
        TestCa { pem: cert.pem(), issuer: Issuer::new(params, key) }
    }

    /// A chain and key (PEM) for `names`, valid from `days_ago` days ago for `days_left` more.
    pub fn leaf(&self, names: &[&str], days_ago: i64, days_left: i64) -> (String, String) {
        let mut params = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
        let now = time::OffsetDateTime::now_utc();
        params.not_before = now - time::Duration::days(days_ago);
        params.not_after = now + time::Duration::days(days_left);
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    /// Writes a leaf for `name` where the ACME manager stores its certificates.
    pub fn plant(&self, certs_dir: &Path, name: &str, days_ago: i64, days_left: i64) {
        let (chain, key) = self.leaf(&[name], days_ago, days_left);
        std::fs::create_dir_all(certs_dir.join(name)).unwrap();
        std::fs::write(certs_dir.join(name).join("cert.pem"), chain).unwrap();
        std::fs::write(certs_dir.join(name).join("key.pem"), key).unwrap();
    }
}

/// Connects to 127.0.0.1:`port` with SNI `name` (none when it is an IP), trusting only
/// `root_pem`; `Ok` when the chain and name check out and the handshake finishes.
pub async fn handshake(port: u16, name: &str, root_pem: &str) -> Result<(), String> {
    handshake_from(Ipv4Addr::LOCALHOST, port, name, root_pem).await
}

/// [`handshake`] from the local address `from`: Linux routes all of 127.0.0.0/8 to loopback, so
/// a test can be two clients.
pub async fn handshake_from(from: Ipv4Addr, port: u16, name: &str, root_pem: &str) -> Result<(), String> {
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::CertificateDer::pem_slice_iter(root_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket.bind(SocketAddr::from((from, 0))).map_err(|e| e.to_string())?;
    let tcp = socket.connect(SocketAddr::from(([127, 0, 0, 1], port))).await.map_err(|e| e.to_string())?;
    let server_name = ServerName::try_from(name.to_owned()).map_err(|e| e.to_string())?;
    let connect = connector.connect(server_name, tcp);
    match tokio::time::timeout(Duration::from_secs(40), connect).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("timed out".to_owned()),
    }
}

/// A reqwest client trusting only `root_pem`, with `names` resolved to 127.0.0.1:`port`.
pub fn https_client(root_pem: &str, names: &[&str], port: u16) -> reqwest::Client {
    let mut builder = reqwest::Client::builder()
        .tls_built_in_root_certs(false)
        .add_root_certificate(reqwest::Certificate::from_pem(root_pem.as_bytes()).unwrap())
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy();
    for name in names {
        builder = builder.resolve(name, SocketAddr::from(([127, 0, 0, 1], port)));
    }
    builder.build().unwrap()
}

/// A fake ACME CA over https on 127.0.0.1 that answers every request with `status` (and a
/// `Retry-After: 120`) and a problem document `body`, and counts the requests.
struct FakeCa {
    port: u16,
    requests: Arc<AtomicU64>,
    root_file: tempfile::NamedTempFile,
}

impl FakeCa {
    async fn start(status: &'static str) -> FakeCa {
        FakeCa::start_with(status, "{}").await
    }

    async fn start_with(status: &'static str, body: &'static str) -> FakeCa {
        let ca = TestCa::new();
        let (chain, key) = ca.leaf(&["127.0.0.1"], 1, 30);
        use rustls::pki_types::pem::PemObject;
        let certs = rustls::pki_types::CertificateDer::pem_slice_iter(chain.as_bytes()).map(Result::unwrap).collect();
        let key = rustls::pki_types::PrivateKeyDer::from_pem_slice(key.as_bytes()).unwrap();
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(AtomicU64::new(0));
        let counted = requests.clone();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let (acceptor, counted) = (acceptor.clone(), counted.clone());
                tokio::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                    let mut seen = Vec::new();
                    let mut buf = [0u8; 4096];
                    while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                        match tls.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => seen.extend_from_slice(&buf[..n]),
                        }
                    }
                    counted.fetch_add(1, Ordering::SeqCst);
                    let answer = format!(
                        "HTTP/1.1 {status}\r\nRetry-After: 120\r\nContent-Type: application/problem+json\r\n\
                         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = tls.write_all(answer.as_bytes()).await;
                    let _ = tls.shutdown().await;
                });
            }
        });
        let root_file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(root_file.path(), &ca.pem).unwrap();
        FakeCa { port, requests, root_file }
    }

    fn directory(&self) -> String {
        format!("https://127.0.0.1:{}/dir", self.port)
    }
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A manager for `directory` serving exactly `names`, storing under `data`.
fn manager(
    data: &Path,
    directory: String,
    ca_root: Option<&Path>,
    names: &[&str],
    first_backoff: Duration,
) -> Arc<Manager> {
    manager_with(data, directory, ca_root, names, first_backoff, None)
}

/// [`manager`], keeping new orders' pauses in `db`.
fn manager_with(
    data: &Path,
    directory: String,
    ca_root: Option<&Path>,
    names: &[&str],
    first_backoff: Duration,
    db: Option<quire::db::Db>,
) -> Arc<Manager> {
    let served: std::collections::HashSet<String> = names.iter().map(|n| n.to_string()).collect();
    let allows: NamePolicy = Arc::new(move |name: &str| served.contains(name));
    let settings = ManagerSettings {
        acme: AcmeSettings {
            directory,
            ca_root: ca_root.map(Path::to_path_buf),
            email: "admin@quire.test".to_owned(),
            account_file: data.join("acme/account.json"),
        },
        certs_dir: data.join("certs"),
        first_backoff,
        handshake_wait: Duration::from_secs(30),
        new_per_day: 100,
    };
    Manager::new(settings, allows, db).unwrap()
}

/// The acceptor in front of `manager`, on a free port; returns the port.
async fn acceptor(manager: &Arc<Manager>) -> (u16, Arc<quire::tls::acceptor::HandshakeStats>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let certificates = Certificates { fixed: None, acme: Some(manager.clone()), default_name: "quire.test".to_owned() };
    let acceptor = TlsAcceptor::start(listener, certificates, HandshakeLimits::default()).unwrap();
    let stats = acceptor.stats.clone();
    // poem's side: take finished streams and drop them (only the handshakes matter here).
    tokio::spawn(async move {
        use poem::listener::Acceptor;
        let mut acceptor = acceptor;
        while acceptor.accept().await.is_ok() {}
    });
    (port, stats)
}

#[tokio::test]
async fn an_sni_quire_does_not_serve_never_reaches_the_ca() {
    let fake = FakeCa::start("429 Too Many Requests").await;
    let data = tempfile::tempdir().unwrap();
    let manager =
        manager(data.path(), fake.directory(), Some(fake.root_file.path()), &["alice.quire.test"], Duration::ZERO);
    let (port, stats) = acceptor(&manager).await;
    let ca = TestCa::new();
    for name in ["evil.example", "bob.quire.test", "quire.test.evil.example", "ALICE.quire.test.x", "localhost"] {
        for _ in 0..4 {
            assert!(handshake(port, name, &ca.pem).await.is_err(), "{name} gets no certificate");
        }
    }
    // An IP literal has no SNI: it means the app host, which this policy does not serve either.
    assert!(handshake(port, "127.0.0.1", &ca.pem).await.is_err());
    assert_eq!(fake.requests.load(Ordering::SeqCst), 0, "no request reached the CA");
    assert_eq!(manager.ca_requests(), 0);
    assert_eq!(manager.stats.refused_unknown.load(Ordering::SeqCst), 21, "each refusal counted");
    assert_eq!(stats.refused.load(Ordering::SeqCst), 21);
    assert!(!data.path().join("acme").exists() && !data.path().join("certs").exists(), "nothing stored");
}

#[tokio::test]
async fn a_ca_that_is_down_gives_a_clear_state_a_backoff_and_no_crash() {
    let data = tempfile::tempdir().unwrap();
    let directory = format!("https://127.0.0.1:{}/dir", closed_port());
    let manager = manager(data.path(), directory, None, &["alice.quire.test", "quire.test"], Duration::from_secs(600));
    let (port, _) = acceptor(&manager).await;
    let ca = TestCa::new();
    let started = Instant::now();
    assert!(handshake(port, "alice.quire.test", &ca.pem).await.is_err());
    assert!(started.elapsed() < Duration::from_secs(10), "refused quickly, not after the handshake wait");
    let sent = manager.ca_requests();
    assert_eq!(sent, 1, "one attempt to reach the directory");
    match manager.certificate_state("alice.quire.test") {
        CertificateState::Failed { error, retry_at } => {
            assert!(error.contains("127.0.0.1") || error.to_lowercase().contains("connect"), "{error}");
            let now = time::OffsetDateTime::now_utc().unix_timestamp();
            assert!((now + 590..=now + 610).contains(&retry_at), "retry in 10 minutes: {retry_at} vs {now}");
        }
        other => panic!("{other:?}"),
    }
    for _ in 0..10 {
        assert!(handshake(port, "alice.quire.test", &ca.pem).await.is_err());
    }
    assert_eq!(manager.ca_requests(), sent, "the backing-off name sends nothing more");
    assert_eq!(manager.stats.refused_backing_off.load(Ordering::SeqCst), 10);
    // Other names wait a minute (the CA is unreachable for all), without a request meanwhile.
    match manager.certificate_state("quire.test") {
        CertificateState::Failed { error, .. } => assert!(error.contains("could not be reached"), "{error}"),
        other => panic!("{other:?}"),
    }
    assert!(handshake(port, "quire.test", &ca.pem).await.is_err());
    assert_eq!(manager.ca_requests(), sent, "no storm across names either");
}

#[tokio::test]
async fn a_ca_that_rate_limits_gets_a_couple_of_requests_for_twenty_handshakes() {
    let fake = FakeCa::start("429 Too Many Requests").await;
    let data = tempfile::tempdir().unwrap();
    let names = ["a.quire.test", "b.quire.test", "c.quire.test", "d.quire.test"];
    // No per-name backoff: only the CA-wide pause holds the requests back.
    let manager = manager(data.path(), fake.directory(), Some(fake.root_file.path()), &names, Duration::ZERO);
    let (port, _) = acceptor(&manager).await;
    let ca = TestCa::new();
    for round in 0..5 {
        for name in names {
            assert!(handshake(port, name, &ca.pem).await.is_err(), "{name}, round {round}");
        }
    }
    let requests = fake.requests.load(Ordering::SeqCst);
    assert!((1..=3).contains(&requests), "{requests} requests reached the CA");
    match manager.certificate_state("d.quire.test") {
        CertificateState::Failed { error, retry_at } => {
            assert!(error.contains("asked Quire to wait (HTTP 429)"), "{error}");
            let now = time::OffsetDateTime::now_utc().unix_timestamp();
            assert!((now + 100..=now + 121).contains(&retry_at), "Retry-After 120 s: {retry_at} vs {now}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn stored_certificates_are_served_after_a_restart_without_asking_the_ca() {
    let data = tempfile::tempdir().unwrap();
    let ca = TestCa::new();
    ca.plant(&data.path().join("certs"), "alice.quire.test", 10, 80);
    ca.plant(&data.path().join("certs"), "old.quire.test", 80, 10);
    // A key that does not match its chain (a crash between the two renames) is not served.
    ca.plant(&data.path().join("certs"), "torn.quire.test", 10, 80);
    let (_, other_key) = ca.leaf(&["torn.quire.test"], 10, 80);
    std::fs::write(data.path().join("certs/torn.quire.test/key.pem"), other_key).unwrap();
    let names = ["alice.quire.test", "old.quire.test", "torn.quire.test"];
    let directory = format!("https://127.0.0.1:{}/dir", closed_port());
    let manager = manager(data.path(), directory, None, &names, Duration::from_secs(600));
    let (port, _) = acceptor(&manager).await;
    handshake(port, "alice.quire.test", &ca.pem).await.expect("served from disk");
    assert_eq!(manager.ca_requests(), 0, "a restart sends nothing to the CA");
    assert!(matches!(manager.certificate_state("alice.quire.test"), CertificateState::Issued { .. }));
    // 10 days left of 90: served while its renewal is tried in the background (the CA is down).
    handshake(port, "old.quire.test", &ca.pem).await.expect("the old certificate is served meanwhile");
    let deadline = Instant::now() + Duration::from_secs(10);
    while manager.stats.failed.load(Ordering::SeqCst) == 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(manager.stats.orders.load(Ordering::SeqCst), 1, "one renewal attempted");
    assert!(handshake(port, "torn.quire.test", &ca.pem).await.is_err(), "a torn pair is issued again, not served");
}

/// An app serving HTTPS itself with a certificate the admin brings, on free ports.
async fn static_app(data: &Path, ca: &TestCa) -> (App, u16, u16) {
    let (chain, key) = ca.leaf(&["quire.localhost", "*.quire.localhost"], 1, 60);
    std::fs::write(data.join("tls.pem"), chain).unwrap();
    std::fs::write(data.join("tls.key"), key).unwrap();
    let mut config = Config::local(data, SocketAddr::from(([127, 0, 0, 1], 0)), "quire.localhost:0");
    config.https = true;
    config.tls = Some(TlsConfig {
        acme: None::<AcmeConfig>,
        cert: Some((data.join("tls.pem"), data.join("tls.key"))),
        https_listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        http_listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        first_backoff: Duration::from_secs(600),
        handshakes: HandshakeLimits::default(),
    });
    let app = App::build(config).await.expect("app builds");
    let (https, http) = (app.port(), app.http_port().expect("a port-80 listener"));
    (app, https, http)
}

#[tokio::test]
async fn a_certificate_the_admin_brings_is_served_with_hsts_and_port_80_redirects_or_answers_404() {
    let data = tempfile::tempdir().unwrap();
    let ca = TestCa::new();
    let (app, https, http) = static_app(data.path(), &ca).await;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(app.run(async {
        let _ = rx.await;
    }));
    let client = https_client(&ca.pem, &["quire.localhost", "alice.quire.localhost"], https);
    let resp = client.get(format!("https://quire.localhost:{https}/healthz")).send().await.expect("TLS checks out");
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["strict-transport-security"], "max-age=31536000");
    let resp =
        client.get(format!("https://alice.quire.localhost:{https}/")).send().await.expect("the wildcard covers it");
    assert_eq!(resp.status(), 404, "no such blog, but a good certificate");
    assert!(handshake(https, "evil.example", &ca.pem).await.is_err(), "a name the certificate does not cover");
    handshake(https, "127.0.0.1", &ca.pem)
        .await
        .expect_err("no SNI means the app host, a name this client does not ask for");

    let plain = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).no_proxy().build().unwrap();
    let get = |host: &'static str, path: &'static str| {
        plain.get(format!("http://127.0.0.1:{http}{path}")).header("host", host).send()
    };
    let resp = get("Quire.LocalHost.:80", "/p/x?q=1").await.unwrap();
    assert_eq!(resp.status(), 301);
    assert_eq!(resp.headers()["location"], format!("https://quire.localhost:{https}/p/x?q=1").as_str());
    assert_eq!(get("evil.example", "/").await.unwrap().status(), 404, "no redirect for names Quire does not serve");
    assert_eq!(get("bob.quire.localhost", "/").await.unwrap().status(), 404, "nor for a blog that does not exist");
    assert_eq!(
        get("quire.localhost", "/.well-known/acme-challenge/nope").await.unwrap().status(),
        404,
        "unknown token"
    );
    let _ = tx.send(());
    running.await.unwrap().expect("both servers stop cleanly");
    for port in [http, https] {
        assert!(std::net::TcpListener::bind(("127.0.0.1", port)).is_ok(), "listener {port} released at shutdown");
    }
}

#[tokio::test]
async fn a_certificate_the_admin_brings_is_read_again_when_its_files_change_and_a_bad_pair_is_not_taken() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new();
    let (cert, key) = (dir.path().join("tls.pem"), dir.path().join("tls.key"));
    let write = |names: &[&str]| {
        let (chain, private) = ca.leaf(names, 1, 60);
        std::fs::write(&cert, chain).unwrap();
        std::fs::write(&key, private).unwrap();
    };
    write(&["*.example.com"]);
    let fixed = quire::tls::StaticCert::load(cert.clone(), key.clone()).unwrap();
    assert!(fixed.for_name("alice.example.com").is_some() && fixed.for_name("example.org").is_none());
    // certbot renews: new files, a later modification time.
    std::thread::sleep(Duration::from_millis(20));
    write(&["example.org", "*.example.org"]);
    fixed.reload_if_changed();
    assert!(fixed.for_name("blog.example.org").is_some(), "the new certificate is served");
    assert!(fixed.for_name("alice.example.com").is_none());
    // A key that does not match (a copy half done): the old pair stays.
    std::thread::sleep(Duration::from_millis(20));
    let (_, other_key) = ca.leaf(&["example.org"], 1, 60);
    std::fs::write(&key, other_key).unwrap();
    fixed.reload_if_changed();
    assert_eq!(fixed.names(), ["example.org", "*.example.org"]);
    let err = quire::tls::StaticCert::load(cert, key).err().expect("a mismatched pair is refused at start");
    assert!(format!("{err:#}").contains("does not match"), "{err:#}");
}

/// How many of `streams` the server has closed (a read at once sees the end, or a reset).
fn closed(streams: &[tokio::net::TcpStream]) -> usize {
    let mut buf = [0u8; 16];
    streams
        .iter()
        .filter(|stream| match stream.try_read(&mut buf) {
            Ok(_) => true,
            Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
        })
        .count()
}

#[tokio::test]
async fn idle_connections_from_one_address_do_not_hold_up_another_visitors_handshake() {
    let data = tempfile::tempdir().unwrap();
    let ca = TestCa::new();
    let (app, https, _) = static_app(data.path(), &ca).await;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(app.run(async {
        let _ = rx.await;
    }));
    // One client opens 300 connections and sends nothing on them.
    let mut idle = Vec::new();
    for _ in 0..300 {
        idle.push(tokio::net::TcpStream::connect(("127.0.0.1", https)).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;

    // Another client, from another address, gets its certificate at once.
    let started = Instant::now();
    let visitor = tokio::time::timeout(
        Duration::from_secs(2),
        handshake_from(Ipv4Addr::new(127, 0, 0, 2), https, "quire.localhost", &ca.pem),
    )
    .await;
    assert!(matches!(visitor, Ok(Ok(()))), "the visitor's handshake: {visitor:?} after {:?}", started.elapsed());
    let limits = HandshakeLimits::default();
    assert!(
        closed(&idle) >= 300 - limits.per_address,
        "past its address's {} handshakes in progress, the idle client's connections are closed at once: {} of 300",
        limits.per_address,
        closed(&idle)
    );
    // The rest are closed at the ClientHello deadline, and the address may connect again.
    let deadline = Instant::now() + limits.hello_timeout + Duration::from_secs(2);
    while closed(&idle) < idle.len() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(closed(&idle), idle.len(), "every idle connection closed by the ClientHello deadline");
    drop(idle);
    handshake(https, "quire.localhost", &ca.pem).await.expect("the first address is served again");
    let _ = tx.send(());
    running.await.unwrap().expect("the servers stop cleanly");
}

#[tokio::test]
async fn a_failed_new_order_pauses_its_registered_domain_even_after_forget_and_a_restart() {
    let fake = FakeCa::start("400 Bad Request").await;
    let data = tempfile::tempdir().unwrap();
    let db = quire::db::Db::open_and_migrate(&quire::data_dir::DataDir::new(data.path())).unwrap();
    let names = ["a.example.com", "b.example.com", "c.example.net"];
    let root = Some(fake.root_file.path());
    let first = manager_with(data.path(), fake.directory(), root, &names, Duration::from_secs(600), Some(db.clone()));
    assert!(matches!(first.ensure("a.example.com").await, Err(Refused::Failed(_))));
    let sent = fake.requests.load(Ordering::SeqCst);
    assert!(sent >= 1, "the order reached the CA");
    // The owner removes the custom domain and adds it again.
    first.forget("a.example.com");
    let again = first.ensure("a.example.com").await;
    assert!(matches!(again, Err(Refused::BackingOff(_))), "forgetting the name keeps its domain's pause: {again:?}");
    let sibling = first.ensure("b.example.com").await;
    assert!(matches!(sibling, Err(Refused::BackingOff(_))), "a name under the same domain waits too: {sibling:?}");
    assert_eq!(fake.requests.load(Ordering::SeqCst), sent, "nothing more reached the CA");
    assert!(matches!(first.ensure("c.example.net").await, Err(Refused::Failed(_))), "another domain orders");
    let sent = fake.requests.load(Ordering::SeqCst);
    // The pauses are in the database: a restart keeps them.
    let deadline = Instant::now() + Duration::from_secs(5);
    let stored = || {
        let conn = rusqlite::Connection::open(db.path()).unwrap();
        conn.query_row("SELECT count(*) FROM acme_backoffs", [], |r| r.get::<_, i64>(0)).unwrap()
    };
    while stored() < 2 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let restarted = manager_with(data.path(), fake.directory(), root, &names, Duration::from_secs(600), Some(db));
    assert!(matches!(restarted.ensure("a.example.com").await, Err(Refused::BackingOff(_))));
    assert!(matches!(restarted.certificate_state("b.example.com"), CertificateState::Failed { .. }));
    assert_eq!(fake.requests.load(Ordering::SeqCst), sent, "nothing reached the CA after the restart");
}

#[tokio::test]
async fn a_rate_limit_naming_one_domain_pauses_neither_another_domains_order_nor_a_renewal() {
    let fake = FakeCa::start_with(
        "429 Too Many Requests",
        r#"{"type":"urn:ietf:params:acme:error:rateLimited","detail":"too many certificates (50) already issued for \"evil.example\" in the last 168h0m0s"}"#,
    )
    .await;
    let data = tempfile::tempdir().unwrap();
    let ca = TestCa::new();
    ca.plant(&data.path().join("certs"), "c.good.example", 80, 10);
    let names = ["a.evil.example", "b.good.example", "c.good.example"];
    let manager = manager(data.path(), fake.directory(), Some(fake.root_file.path()), &names, Duration::from_secs(600));
    assert!(manager.ensure("a.evil.example").await.is_err());
    let after_evil = fake.requests.load(Ordering::SeqCst);
    assert!(after_evil >= 1);
    assert_eq!(manager.certificate_state("b.good.example"), CertificateState::Pending, "another domain is not paused");
    assert!(manager.ensure("b.good.example").await.is_err());
    let after_good = fake.requests.load(Ordering::SeqCst);
    assert!(after_good > after_evil, "another domain's new order went to the CA");
    // That 429 did not name good.example, so every new order now waits; a renewal does not.
    assert!(matches!(manager.certificate_state("d.good.example"), CertificateState::Failed { .. }));
    let failed = manager.stats.failed.load(Ordering::SeqCst);
    manager.renew_due();
    let deadline = Instant::now() + Duration::from_secs(10);
    while manager.stats.failed.load(Ordering::SeqCst) == failed && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(fake.requests.load(Ordering::SeqCst) > after_good, "the renewal went to the CA");
}
