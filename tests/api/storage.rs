use std::net::SocketAddr;

use quire::db::migrate;
use quire::{App, Config};
use rusqlite::Connection;

use crate::helpers::TestApp;

fn local_config(dir: &std::path::Path) -> Config {
    let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
    Config::local(dir, listen, "localhost:0")
}

async fn build_error(dir: &std::path::Path) -> String {
    match App::build(local_config(dir)).await {
        Ok(_) => panic!("the server should refuse to start"),
        Err(err) => format!("{err:#}"),
    }
}

#[tokio::test]
async fn a_new_data_dir_gets_the_latest_schema_in_wal_mode_with_reference_data() {
    let app = TestApp::spawn().await;
    let conn = Connection::open(app.db_path()).unwrap();
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, migrate::latest_version());
    let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    let count =
        |table: &str| -> i64 { conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap() };
    assert!(count("themes") >= 4);
    assert_eq!(count("addons"), 7);
    assert!(count("favicons") > 3000);
    for table in
        ["users", "social_accounts", "sessions", "blogs", "retired_subdomains", "posts", "installations", "images"]
    {
        assert_eq!(count(table), 0, "{table} exists and starts empty");
    }
    assert!(app.dir.path().join("uploads").is_dir());
}

#[tokio::test]
async fn starting_again_on_the_same_data_keeps_it_and_migrates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    drop(App::build(local_config(dir.path())).await.unwrap());
    let conn = Connection::open(dir.path().join("quire.db")).unwrap();
    conn.execute("INSERT INTO users (email) VALUES ('kept@example.com')", []).unwrap();
    drop(conn);
    drop(App::build(local_config(dir.path())).await.unwrap());
    let conn = Connection::open(dir.path().join("quire.db")).unwrap();
    let emails: i64 =
        conn.query_row("SELECT count(*) FROM users WHERE email = 'kept@example.com'", [], |r| r.get(0)).unwrap();
    assert_eq!(emails, 1);
    let favicons: i64 = conn.query_row("SELECT count(*) FROM favicons WHERE code = '1f600'", [], |r| r.get(0)).unwrap();
    assert_eq!(favicons, 1, "seed data is not inserted twice");
}

#[tokio::test]
async fn a_database_from_a_newer_quire_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    drop(App::build(local_config(dir.path())).await.unwrap());
    let conn = Connection::open(dir.path().join("quire.db")).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let err = build_error(dir.path()).await;
    assert!(err.contains("newer"), "{err}");
    let conn = Connection::open(dir.path().join("quire.db")).unwrap();
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
    assert_eq!(version, 99);
}

#[tokio::test]
async fn another_programs_sqlite_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let conn = Connection::open(dir.path().join("quire.db")).unwrap();
    conn.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');").unwrap();
    drop(conn);
    let err = build_error(dir.path()).await;
    assert!(err.contains("not a Quire database"), "{err}");
    let conn = Connection::open(dir.path().join("quire.db")).unwrap();
    let body: String = conn.query_row("SELECT body FROM notes", [], |r| r.get(0)).unwrap();
    assert_eq!(body, "mine");
}

#[tokio::test]
async fn a_corrupt_database_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let junk = b"this is not a database, just some bytes that happen to be here".repeat(100);
    std::fs::write(dir.path().join("quire.db"), &junk).unwrap();
    let err = build_error(dir.path()).await;
    assert!(err.contains("not a usable SQLite database"), "{err}");
    assert_eq!(std::fs::read(dir.path().join("quire.db")).unwrap(), junk);
}

#[tokio::test]
async fn two_servers_cannot_share_a_data_dir() {
    let app = TestApp::spawn().await;
    let err = build_error(app.dir.path()).await;
    assert!(err.contains("another quire process is using data directory"), "{err}");
}
