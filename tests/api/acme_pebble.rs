//! Real issuance over ACME HTTP-01 against Debian's pebble, with pebble-challtestsrv as the DNS
//! that points every test name at 127.0.0.1. Ignored by a plain `cargo test` (it needs the
//! `pebble` package); scripts/test.sh installs pebble and runs these with `--ignored`:
//!
//!     cargo test --test api acme_pebble -- --ignored
//!
//! A Rust test rather than a shell script: each test starts its own pebble on free ports (so
//! runs never collide), drives the real `App` built from the same `Config` `quire serve` makes,
//! creates blogs through the real API first, and reads the manager's own count of requests to
//! the CA, next to pebble's log of orders.

use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use quire::config::{AcmeConfig, HandshakeLimits, TlsConfig};
use quire::tls::{CertificateState, Manager};
use quire::{App, Config};
use tempfile::TempDir;

use crate::helpers::TestApp;
use crate::tls::{TestCa, handshake, https_client};

/// pebble and pebble-challtestsrv on free ports, killed when dropped.
struct Pebble {
    children: Vec<Child>,
    dir: TempDir,
    directory: String,
    /// The port pebble validates HTTP-01 on: Quire's `--http-listen`.
    http_port: u16,
    /// The port pebble validates TLS-ALPN-01 on (Caddy's `https_port`).
    tls_port: u16,
    /// pebble-challtestsrv's DNS (Quire's `--test-only-dns-server` in the custom-domain test).
    dns: SocketAddr,
    /// pebble-challtestsrv's management API (`/set-txt`, `/add-a`, `/clear-a`).
    dns_management: u16,
    /// pebble's root (it signs the certificates it issues).
    root: String,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Pebble {
    async fn start() -> Pebble {
        let dir = tempfile::tempdir().unwrap();
        let wfe = TestCa::new();
        let (chain, key) = wfe.leaf(&["localhost", "127.0.0.1"], 1, 30);
        std::fs::write(dir.path().join("wfe.pem"), chain).unwrap();
        std::fs::write(dir.path().join("wfe.key"), key).unwrap();
        std::fs::write(dir.path().join("wfe-ca.pem"), &wfe.pem).unwrap();
        let [acme, management, http_port, tls_port, dns, dns_management] = [(); 6].map(|_| free_port());
        let config = serde_json::json!({ "pebble": {
            "listenAddress": format!("127.0.0.1:{acme}"), "managementListenAddress": format!("127.0.0.1:{management}"),
            "certificate": "wfe.pem", "privateKey": "wfe.key", "httpPort": http_port, "tlsPort": tls_port,
            "ocspResponderURL": "", "externalAccountBindingRequired": false,
        }});
        std::fs::write(dir.path().join("pebble-config.json"), config.to_string()).unwrap();
        let log = |name: &str| std::fs::File::create(dir.path().join(name)).unwrap();
        let challtestsrv = Command::new("pebble-challtestsrv")
            .args(["-defaultIPv4", "127.0.0.1", "-defaultIPv6", "", "-dns01", &format!("127.0.0.1:{dns}")])
            .args([
                "-management",
                &format!("127.0.0.1:{dns_management}"),
                "-http01",
                "",
                "-https01",
                "",
                "-tlsalpn01",
                "",
            ])
            .stdout(log("challtestsrv.log"))
            .stderr(Stdio::null())
            .spawn()
            .expect("pebble-challtestsrv runs (apt-get install pebble)");
        let pebble = Command::new("pebble")
            .args(["-config", "pebble-config.json", "-dnsserver", &format!("127.0.0.1:{dns}"), "-strict=false"])
            .current_dir(dir.path())
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            .env("PEBBLE_AUTHZREUSE", "0")
            .stdout(log("pebble.log"))
            .stderr(Stdio::null())
            .spawn()
            .expect("pebble runs (apt-get install pebble)");
        let client = reqwest::Client::builder()
            .add_root_certificate(reqwest::Certificate::from_pem(wfe.pem.as_bytes()).unwrap())
            .no_proxy()
            .build()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let root = loop {
            let answer = client.get(format!("https://127.0.0.1:{management}/roots/0")).send().await;
            if let Some(resp) = answer.ok().filter(|resp| resp.status() == 200) {
                break resp.text().await.unwrap();
            }
            assert!(
                Instant::now() < deadline,
                "pebble did not start: {}",
                std::fs::read_to_string(dir.path().join("pebble.log")).unwrap()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let directory = format!("https://127.0.0.1:{acme}/dir");
        let dns = SocketAddr::from(([127, 0, 0, 1], dns));
        Pebble { children: vec![challtestsrv, pebble], dir, directory, http_port, tls_port, dns, dns_management, root }
    }

    /// Orders pebble has received so far, from its log.
    fn orders(&self) -> usize {
        std::fs::read_to_string(self.dir.path().join("pebble.log")).unwrap().matches("POST /order-plz").count()
    }

    /// Tells pebble-challtestsrv's DNS something (`/set-txt`, `/add-a`, `/clear-a`).
    async fn dns_set(&self, what: &str, body: serde_json::Value) {
        let url = format!("http://127.0.0.1:{}/{what}", self.dns_management);
        let resp = reqwest::Client::builder().no_proxy().build().unwrap().post(url).json(&body).send().await.unwrap();
        assert!(resp.status().is_success(), "challtestsrv {what}: {}", resp.status());
    }

    /// Quire's config for `data`: ACME from this pebble, app host quire.test.
    fn config(&self, data: &Path) -> Config {
        let mut config = Config::local(data, SocketAddr::from(([127, 0, 0, 1], 0)), "quire.test:0");
        config.https = true;
        config.tls = Some(TlsConfig {
            acme: Some(AcmeConfig {
                email: "admin@quire.test".to_owned(),
                directory: self.directory.clone(),
                ca_root: Some(self.dir.path().join("wfe-ca.pem")),
                new_certificates_per_day: 20,
            }),
            cert: None,
            https_listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            http_listen: SocketAddr::from(([127, 0, 0, 1], self.http_port)),
            first_backoff: Duration::from_secs(600),
            handshakes: HandshakeLimits::default(),
        });
        config
    }
}

impl Drop for Pebble {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A running ACME app: its HTTPS port, its manager, and how to stop it.
struct Running {
    port: u16,
    manager: Arc<Manager>,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

async fn start(config: Config) -> Running {
    let app = App::build(config).await.expect("the ACME app builds");
    let port = app.port();
    let manager = app.tls().and_then(|tls| tls.manager()).expect("an ACME manager").clone();
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(app.run(async {
        let _ = rx.await;
    }));
    Running { port, manager, stop, task }
}

impl Running {
    async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap().expect("the server stops cleanly");
    }
}

/// A data directory with the blog `alice`, made through the API of a plain server.
async fn data_with_blog() -> Arc<TempDir> {
    let plain = TestApp::spawn().await;
    plain.browser.sign_up_with_blog("alice@example.com", "alice").await;
    plain.stop().await
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
#[ignore = "needs Debian's pebble (scripts/test.sh runs it)"]
async fn the_app_host_and_a_blog_get_real_certificates_unknown_names_none_and_a_restart_orders_nothing() {
    let pebble = Pebble::start().await;
    let data = data_with_blog().await;
    let app = start(pebble.config(data.path())).await;
    let client = https_client(&pebble.root, &["quire.test", "alice.quire.test", "www.quire.test"], app.port);
    let resp =
        client.get(format!("https://quire.test:{}/healthz", app.port)).send().await.expect("a certificate from pebble");
    assert_eq!(resp.status(), 200);
    let resp =
        client.get(format!("https://alice.quire.test:{}/", app.port)).send().await.expect("the blog's certificate");
    assert_eq!(resp.status(), 200, "alice's blog over https");
    assert_eq!(pebble.orders(), 2, "one order per name");
    assert!(matches!(app.manager.certificate_state("alice.quire.test"), CertificateState::Issued { .. }));

    let certs: PathBuf = data.path().join("certs");
    for file in ["quire.test/cert.pem", "quire.test/key.pem", "alice.quire.test/key.pem", "../acme/account.json"] {
        assert_eq!(mode(&certs.join(file)), 0o600, "{file}");
    }
    assert_eq!((mode(&certs), mode(&certs.join("quire.test")), mode(&data.path().join("acme"))), (0o700, 0o700, 0o700));

    let sent = app.manager.ca_requests();
    for name in ["bob.quire.test", "evil.example", "quire.test.evil.example", "a.alice.quire.test"] {
        for _ in 0..3 {
            assert!(handshake(app.port, name, &pebble.root).await.is_err(), "{name}");
        }
    }
    assert_eq!(app.manager.ca_requests(), sent, "no CA request for names Quire does not serve");
    assert_eq!(app.manager.stats.refused_unknown.load(std::sync::atomic::Ordering::SeqCst), 12);
    assert_eq!(pebble.orders(), 2);
    assert!(!certs.join("bob.quire.test").exists());
    app.stop().await;

    let again = start(pebble.config(data.path())).await;
    let client = https_client(&pebble.root, &["quire.test", "alice.quire.test"], again.port);
    for url in
        [format!("https://quire.test:{}/healthz", again.port), format!("https://alice.quire.test:{}/", again.port)]
    {
        assert_eq!(client.get(&url).send().await.expect("served from disk").status(), 200, "{url}");
    }
    assert_eq!(again.manager.ca_requests(), 0, "a restart sends nothing to the CA");
    assert_eq!(pebble.orders(), 2, "and orders nothing");
    again.stop().await;
}

/// Waits (20 s at most) until `name`'s certificate state passes `done`, and returns it.
async fn state_until(manager: &Manager, name: &str, done: impl Fn(&CertificateState) -> bool) -> CertificateState {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let state = manager.certificate_state(name);
        if done(&state) {
            return state;
        }
        assert!(Instant::now() < deadline, "{name}: still {state:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
#[ignore = "needs Debian's pebble (scripts/test.sh runs it)"]
async fn a_verified_custom_domain_gets_a_certificate_once_it_points_here_and_the_subdomain_redirects_to_it() {
    let pebble = Pebble::start().await;
    let data = data_with_blog().await;
    let mut config = pebble.config(data.path());
    config.dns_server = Some(pebble.dns);
    if let Some(tls) = config.tls.as_mut() {
        tls.first_backoff = Duration::from_secs(1);
    }
    let app = App::build(config).await.expect("the ACME app builds");
    let (blogs, fetcher) = (app.state().blogs.clone(), app.state().fetcher.clone());
    let port = app.port();
    let manager = app.tls().and_then(|tls| tls.manager()).expect("an ACME manager").clone();
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(app.run(async {
        let _ = rx.await;
    }));
    let app = Running { port, manager, stop, task };

    // Not verified yet: not served, so no certificate is asked for.
    let alice = blogs.owned(1, "1").await.unwrap();
    let domain = blogs.set_domain(&alice, "Blog.Example.org.").await.unwrap();
    assert!(handshake(app.port, "blog.example.org", &pebble.root).await.is_err());
    assert_eq!(app.manager.ca_requests(), 0, "no CA request for a name not verified");

    // Verified while its A record points elsewhere: pebble cannot reach it, the state says why.
    pebble.dns_set("add-a", serde_json::json!({"host": "blog.example.org", "addresses": ["127.0.0.2"]})).await;
    let txt =
        serde_json::json!({"host": "_quire.blog.example.org.", "value": format!("quire-verify={}", domain.token)});
    pebble.dns_set("set-txt", txt).await;
    let checked = blogs.check_domain(&alice, &fetcher).await.unwrap();
    assert_eq!(checked.state.as_str(), "verified");
    let failed =
        state_until(&app.manager, "blog.example.org", |state| matches!(state, CertificateState::Failed { .. })).await;
    let CertificateState::Failed { error, .. } = failed else { unreachable!() };
    assert!(error.contains("127.0.0.2"), "the CA's reason: {error}");
    assert_eq!(pebble.orders(), 1, "ordered ahead once, on verification");

    // Pointed here: after the backoff, the first reader's handshake gets a real certificate.
    pebble.dns_set("clear-a", serde_json::json!({"host": "blog.example.org"})).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let client = https_client(&pebble.root, &["blog.example.org", "alice.quire.test"], app.port);
    let page = client
        .get(format!("https://blog.example.org:{}/", app.port))
        .send()
        .await
        .expect("a certificate for the domain");
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains(&format!("<link rel=\"canonical\" href=\"https://blog.example.org:{}/\"", app.port)),
        "{html}"
    );
    assert!(matches!(app.manager.certificate_state("blog.example.org"), CertificateState::Issued { .. }));
    assert!(data.path().join("certs/blog.example.org/key.pem").is_file());
    let old = client
        .get(format!("https://alice.quire.test:{}/a?b=c", app.port))
        .send()
        .await
        .expect("the subdomain's certificate");
    let location = old.headers().get("location").map(|l| l.to_str().unwrap().to_owned());
    assert_eq!((old.status().as_u16(), location), (301, Some(format!("https://blog.example.org:{}/a?b=c", app.port))));

    // Removed: not served any more, its certificate forgotten, and no new order for it.
    blogs.remove_domain(&alice).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while data.path().join("certs/blog.example.org").exists() {
        assert!(Instant::now() < deadline, "the removed domain's certificate stays on disk");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let orders = pebble.orders();
    assert!(handshake(app.port, "blog.example.org", &pebble.root).await.is_err());
    assert_eq!(pebble.orders(), orders);
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Debian's pebble and caddy (scripts/test.sh runs it)"]
async fn caddy_with_on_demand_tls_gets_certificates_only_for_names_quires_ask_endpoint_allows() {
    let pebble = Pebble::start().await;
    let data = data_with_blog().await;
    // Quire behind Caddy: plain HTTP on loopback, its public address Caddy's https port.
    let https = pebble.tls_port;
    let mut config = Config::local(data.path(), SocketAddr::from(([127, 0, 0, 1], 0)), &format!("quire.test:{https}"));
    config.https = true;
    let app = App::build(config).await.expect("the plain app builds");
    let quire = app.port();
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(app.run(async {
        let _ = rx.await;
    }));

    let caddyfile = format!(
        "{{\n\tadmin off\n\thttp_port {http}\n\thttps_port {https}\n\tacme_ca {dir}\n\tacme_ca_root {root}\n\temail admin@quire.test\n\
         \tstorage file_system {storage}\n\tskip_install_trust\n\ton_demand_tls {{\n\t\task http://127.0.0.1:{quire}/_quire/tls-ask\n\t}}\n}}\n\n\
         https:// {{\n\ttls {{\n\t\ton_demand\n\t}}\n\treverse_proxy 127.0.0.1:{quire}\n}}\n",
        http = pebble.http_port,
        dir = pebble.directory,
        root = pebble.dir.path().join("wfe-ca.pem").display(),
        storage = pebble.dir.path().join("caddy").display(),
    );
    std::fs::write(pebble.dir.path().join("Caddyfile"), caddyfile).unwrap();
    let mut caddy = Command::new("caddy")
        .args(["run", "--config", "Caddyfile", "--adapter", "caddyfile"])
        .current_dir(pebble.dir.path())
        .env("XDG_DATA_HOME", pebble.dir.path().join("xdg"))
        .env("XDG_CONFIG_HOME", pebble.dir.path().join("xdg"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(pebble.dir.path().join("caddy.log")).unwrap())
        .spawn()
        .expect("caddy runs (apt-get install caddy)");
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", https)).is_err() {
        assert!(
            Instant::now() < deadline,
            "caddy did not start: {}",
            std::fs::read_to_string(pebble.dir.path().join("caddy.log")).unwrap()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let client = https_client(&pebble.root, &["alice.quire.test"], https);
    let page = client
        .get(format!("https://alice.quire.test:{https}/"))
        .send()
        .await
        .expect("caddy got a certificate for alice");
    assert_eq!(page.status(), 200);
    assert!(
        page.text().await.unwrap().contains(&format!("https://alice.quire.test:{https}/")),
        "alice's blog, through caddy"
    );
    let orders = pebble.orders();
    for name in ["bob.quire.test", "evil.example"] {
        assert!(handshake(https, name, &pebble.root).await.is_err(), "{name}: Quire's endpoint said no");
    }
    assert_eq!(pebble.orders(), orders, "no order for names Quire does not serve");
    let _ = caddy.kill();
    let _ = caddy.wait();
    let _ = stop.send(());
    task.await.unwrap().unwrap();
}

#[tokio::test]
#[ignore = "needs Debian's pebble (scripts/test.sh runs it)"]
async fn a_certificate_near_expiry_is_renewed_at_start_and_one_far_from_it_is_not() {
    let pebble = Pebble::start().await;
    let data = tempfile::tempdir().unwrap();
    let planted = TestCa::new();
    // 10 days left of 90: due. 40 days left of 90: not due (renewal comes 30 days before).
    planted.plant(&data.path().join("certs"), "quire.test", 80, 10);
    planted.plant(&data.path().join("certs"), "www.quire.test", 50, 40);
    let app = start(pebble.config(data.path())).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    let year = time::OffsetDateTime::now_utc().unix_timestamp() + 365 * 86400;
    loop {
        match app.manager.certificate_state("quire.test") {
            CertificateState::Issued { not_after } if not_after > year => break,
            state => assert!(Instant::now() < deadline, "not renewed: {state:?}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    handshake(app.port, "quire.test", &pebble.root).await.expect("the renewed certificate, from pebble");
    assert!(handshake(app.port, "quire.test", &planted.pem).await.is_err(), "the planted one is gone");
    handshake(app.port, "www.quire.test", &planted.pem).await.expect("the one not due is kept");
    assert_eq!(pebble.orders(), 1, "one renewal");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Debian's pebble (scripts/test.sh runs it)"]
async fn one_quire_serve_line_serves_the_app_a_blog_and_its_custom_domain_over_https_redirects_port_80_and_stops_on_sigterm()
 {
    use std::io::{BufRead, BufReader};
    let pebble = Pebble::start().await;
    // The blog alice, with blog.example.org verified as its custom domain.
    let data = data_with_blog().await;
    rusqlite::Connection::open(data.path().join("quire.db"))
        .unwrap()
        .execute(
            "INSERT INTO custom_domains (blog_id, name, token, state, verified_at)
             VALUES (1, 'blog.example.org', '0123456789abcdef0123456789abcdef', 'verified', '2026-11-24T08:00:00.000Z')",
            [],
        )
        .unwrap();
    let https = free_port();
    let (host, https_listen, http_listen) =
        (format!("quire.test:{https}"), format!("127.0.0.1:{https}"), format!("127.0.0.1:{}", pebble.http_port));
    let root = pebble.dir.path().join("wfe-ca.pem");
    let mut child = crate::helpers::quire_command(&["serve", "--data-dir", crate::helpers::s(data.path())])
        .args(["--host", &host, "--oidc-client-id", "test-client", "--acme-email", "admin@quire.test"])
        .args(["--acme-directory", &pebble.directory, "--acme-ca-root", crate::helpers::s(&root)])
        .args(["--https-listen", &https_listen, "--http-listen", &http_listen])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quire serve runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert_eq!(line.trim(), format!("Quire is running at https://{host}/"));
    let client = https_client(&pebble.root, &["quire.test", "alice.quire.test", "blog.example.org"], https);
    let resp = client.get(format!("https://{host}/healthz")).send().await.expect("a certificate from pebble");
    assert_eq!((resp.status().as_u16(), resp.version()), (200, reqwest::Version::HTTP_2));
    // Read to its end: a response still being read is a request in flight, which a stopping
    // server waits for (10 s at most).
    assert_eq!(resp.text().await.unwrap(), "ok");
    // The blog on its custom domain, with its own certificate; its subdomain (with its own) redirects there.
    let resp =
        client.get(format!("https://blog.example.org:{https}/")).send().await.expect("the custom domain's certificate");
    assert_eq!(resp.status(), 200);
    let html = resp.text().await.unwrap();
    assert!(html.contains(&format!("<link rel=\"canonical\" href=\"https://blog.example.org:{https}/\"")), "{html}");
    let resp =
        client.get(format!("https://alice.quire.test:{https}/")).send().await.expect("the subdomain's certificate");
    assert_eq!(
        (resp.status().as_u16(), resp.headers()["location"].to_str().unwrap()),
        (301, format!("https://blog.example.org:{https}/").as_str())
    );
    drop(resp);
    assert_eq!(pebble.orders(), 3, "one order per name: the app host, the subdomain, the custom domain");
    let plain = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).no_proxy().build().unwrap();
    let resp = plain.get(format!("http://{http_listen}/a?b=c")).header("host", "quire.test").send().await.unwrap();
    assert_eq!(
        (resp.status().as_u16(), resp.headers()["location"].to_str().unwrap()),
        (301, format!("https://{host}/a?b=c").as_str())
    );
    // (An idle HTTP/2 connection holds the graceful shutdown up to its 10 s limit: poem and
    // hyper wait for the client to close it, with plain h2c too. So this test takes ~11 s.)
    drop((resp, client, plain));
    // SIGTERM by the child's own pid: both listeners close and the process ends cleanly.
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let status = child.wait().unwrap();
    let mut log = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut log).unwrap();
    assert!(status.success(), "{log}");
    let issued = log.lines().find(|line| line.contains("certificate issued")).unwrap_or_else(|| panic!("{log}"));
    assert!(
        issued.contains("name=\"quire.test\"") && issued.contains("not_after=\"20"),
        "the issuance is logged: {issued}"
    );
}
