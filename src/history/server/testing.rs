//! The `PostgreSQL` server tests run against.
//!
//! `bash .ci/run` starts two throwaway servers (with `.ci/pg`) before `cargo test` and names
//! them in the environment:
//!
//! | variable | what |
//! |---|---|
//! | `TAXDASH_TEST_POSTGRES` | the shared server's URL, `postgres://postgres@127.0.0.1:PORT/postgres` |
//! | `TAXDASH_TEST_POSTGRES_RESTARTABLE` | the URL of a second server, which a test may kill and start again |
//! | `TAXDASH_TEST_POSTGRES_RESTARTABLE_DIR` | that second server's directory |
//! | `TAXDASH_TEST_PG` | the absolute path of `.ci/pg`, which kills and restarts it |
//!
//! A test asks for a server with [`server`] (or [`restartable`]) and makes its own empty
//! database with [`fresh_database`], so tests never see each other's tables. Without a server
//! the test returns early and passes, after one line on stderr saying `PostgreSQL` tests did not
//! run; under CI (`CI=true`) a missing server fails the test instead. A server that is named
//! but does not answer always fails. The servers trust every connection from this machine, so
//! [`role_url`] logs in as any role without a password.
//!
//! The databases are not dropped: the servers are thrown away at the end of the run.
//!
//! This module is in the library (not only under `cfg(test)`) because the integration tests in
//! `tests/` use it too.

use std::collections::hash_map::RandomState;
use std::error::Error;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Once;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use postgres::NoTls;

/// The URL of the shared test server (`TAXDASH_TEST_POSTGRES`), or `None` (with one line on
/// stderr per process) when there is none and this is not CI.
///
/// # Panics
/// Under CI (`CI=true`) when `TAXDASH_TEST_POSTGRES` is not set.
pub fn server() -> Option<String> {
    static SKIPPED: Once = Once::new();
    if let Some(url) = env("TAXDASH_TEST_POSTGRES") {
        return Some(url);
    }
    assert!(
        !under_ci(),
        "TAXDASH_TEST_POSTGRES is not set, but this is CI (CI=true): CI must start a PostgreSQL \
         server for the tests (bash .ci/run does, with .ci/pg)"
    );
    SKIPPED.call_once(|| {
        say(
            "PostgreSQL tests did not run: no server (set TAXDASH_TEST_POSTGRES=postgres://…, \
             or run bash .ci/run, which starts one)",
        );
    });
    None
}

/// A new, empty database on the shared test server, by its URL; `None` when there is no server
/// (see [`server`]). `label` (the test's name, say) goes into the database's name.
///
/// Safe to call from async tests: the work is done on a thread of its own.
///
/// # Panics
/// As [`server`], and when the server does not answer or refuses to create the database.
pub fn fresh_database(label: &str) -> Option<String> {
    server().map(|url| create_database(&url, label))
}

/// The second test server, which a test may kill and start again to see how a write survives a
/// crash. Only one test may use it at a time.
#[derive(Clone, Debug)]
pub struct Restartable {
    /// The server's URL (its `postgres` database).
    pub url: String,
    dir: PathBuf,
    script: PathBuf,
}

/// The restartable test server (`TAXDASH_TEST_POSTGRES_RESTARTABLE`,
/// `TAXDASH_TEST_POSTGRES_RESTARTABLE_DIR`, `TAXDASH_TEST_PG`), or `None` (with one line on
/// stderr per process) when there is none and this is not CI.
///
/// # Panics
/// Under CI when the variables are not set, and whenever only some of them are.
pub fn restartable() -> Option<Restartable> {
    static SKIPPED: Once = Once::new();
    const NAMES: [&str; 3] = [
        "TAXDASH_TEST_POSTGRES_RESTARTABLE",
        "TAXDASH_TEST_POSTGRES_RESTARTABLE_DIR",
        "TAXDASH_TEST_PG",
    ];
    match NAMES.map(env) {
        [Some(url), Some(dir), Some(script)] => {
            return Some(Restartable {
                url,
                dir: dir.into(),
                script: script.into(),
            });
        }
        [None, None, None] => {}
        values => {
            let missing: Vec<&str> = NAMES
                .iter()
                .zip(&values)
                .filter(|(_, value)| value.is_none())
                .map(|(name, _)| *name)
                .collect();
            panic!(
                "the restartable PostgreSQL test server is named only in part: {} not set",
                missing.join(", ")
            );
        }
    }
    assert!(
        !under_ci(),
        "TAXDASH_TEST_POSTGRES_RESTARTABLE is not set, but this is CI (CI=true): CI must start \
         the restartable PostgreSQL server for the tests (bash .ci/run does, with .ci/pg)"
    );
    SKIPPED.call_once(|| {
        say(
            "PostgreSQL tests that restart the server did not run: no server to restart (set \
             TAXDASH_TEST_POSTGRES_RESTARTABLE, TAXDASH_TEST_POSTGRES_RESTARTABLE_DIR and \
             TAXDASH_TEST_PG, or run bash .ci/run, which starts one)",
        );
    });
    None
}

impl Restartable {
    /// Stops the server at once, as a crash would (`.ci/pg kill DIR`).
    ///
    /// # Panics
    /// When `.ci/pg` fails.
    pub fn kill(&self) {
        self.run("kill");
    }

    /// Starts the server again after [`kill`](Self::kill), on the same port, and returns once it
    /// takes connections (`.ci/pg restart DIR`).
    ///
    /// # Panics
    /// When `.ci/pg` fails.
    pub fn restart(&self) {
        self.run("restart");
    }

    /// A new, empty database on this server, by its URL (as [`fresh_database`]).
    ///
    /// # Panics
    /// When the server does not answer or refuses to create the database.
    pub fn fresh_database(&self, label: &str) -> String {
        create_database(&self.url, label)
    }

    fn run(&self, command: &str) {
        let shown = format!(
            "bash {} {command} {}",
            self.script.display(),
            self.dir.display()
        );
        let output = Command::new("bash")
            .arg(&self.script)
            .arg(command)
            .arg(&self.dir)
            .output()
            .unwrap_or_else(|e| panic!("{shown}: cannot run it: {e}"));
        assert!(
            output.status.success(),
            "{shown} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
}

/// `url` with `role` as its user name (and no password): the test servers trust every
/// connection from this machine, so tests of grants log in as other roles this way.
///
/// # Panics
/// When `url` is not a `postgres://` or `postgresql://` URL.
pub fn role_url(url: &str, role: &str) -> String {
    let (scheme, authority, path, rest) = split_url(url);
    let host = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    format!("{scheme}{}@{host}{path}{rest}", percent_encode(role))
}

/// Makes a database named after `label` on the server of `url` and returns its URL.
fn create_database(url: &str, label: &str) -> String {
    let name = database_name(label);
    // The synchronous client runs a runtime of its own, which panics inside another one (an
    // async test's): hence a thread of its own.
    let created = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let shown = redacted(url);
                let mut config: postgres::Config = url.parse().unwrap_or_else(|e| {
                    panic!(
                        "the test PostgreSQL server's URL {shown} is not valid: {}",
                        why(&e)
                    )
                });
                config.connect_timeout(Duration::from_secs(10));
                let mut client = config.connect(NoTls).unwrap_or_else(|e| {
                    panic!(
                        "cannot connect to the test PostgreSQL server at {shown}: {}",
                        why(&e)
                    )
                });
                // template0 takes no connections, so no other session can hold it up.
                client
                    .batch_execute(&format!("CREATE DATABASE \"{name}\" TEMPLATE template0"))
                    .unwrap_or_else(|e| {
                        panic!(
                            "cannot create the test database {name} on {shown}: {}",
                            why(&e)
                        )
                    });
            })
            .join()
    });
    if let Err(panic) = created {
        std::panic::resume_unwind(panic);
    }
    let (scheme, authority, _, rest) = split_url(url);
    format!("{scheme}{authority}/{name}{rest}")
}

/// A database name no other test has: the label in lower-case letters, digits and `_`, the
/// process id, a counter and a random number, at most 63 bytes (`PostgreSQL`'s limit).
fn database_name(label: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(n);
    if let Ok(since) = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH) {
        hasher.write_u128(since.as_nanos());
    }
    let suffix = format!("_{}_{n}_{:08x}", std::process::id(), hasher.finish() as u32);
    let mut label: String = label
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '_') => c,
            _ => '_',
        })
        .collect();
    if !label.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
        label.insert_str(0, "t_");
    }
    label.truncate(63 - suffix.len());
    label + &suffix
}

/// `url` cut into its scheme (with `://`), authority (`[USER[:PASSWORD]@]HOST[:PORT]`), path
/// (`/DATABASE` or empty) and the rest (`?…` or empty).
fn split_url(url: &str) -> (&str, &str, &str, &str) {
    let Some(after) = ["postgres://", "postgresql://"]
        .iter()
        .find_map(|scheme| url.strip_prefix(scheme))
    else {
        panic!("the test PostgreSQL server must be named by a postgres:// URL, not {url:?}");
    };
    let scheme = &url[..url.len() - after.len()];
    let authority_end = after.find(['/', '?']).unwrap_or(after.len());
    let (authority, after) = after.split_at(authority_end);
    let path_end = after.find('?').unwrap_or(after.len());
    let (path, rest) = after.split_at(path_end);
    (scheme, authority, path, rest)
}

/// `url` with its password, if any, shown as `***`.
fn redacted(url: &str) -> String {
    let (scheme, authority, path, rest) = split_url(url);
    match authority.rsplit_once('@') {
        Some((user_info, host)) if user_info.contains(':') => {
            let user = user_info.split(':').next().unwrap_or_default();
            format!("{scheme}{user}:***@{host}{path}{rest}")
        }
        _ => url.to_owned(),
    }
}

fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// An error with its causes, `a: b: c` (the client's own message often leaves out the cause).
fn why(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text = format!("{text}: {cause_text}");
        }
        source = cause.source();
    }
    text
}

/// Writes a line to the process's stderr itself, past the test harness's capture (which takes
/// `eprintln!` of passing tests), so that skipped tests are seen.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The variable's value, if it is set and not empty.
fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|value| !value.is_empty())
}

fn under_ci() -> bool {
    env("CI").is_some_and(|value| value.eq_ignore_ascii_case("true") || value == "1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_databases_are_distinct_and_reachable() {
        let Some(_) = server() else { return };
        let first = fresh_database("fresh databases: first").unwrap();
        let second = fresh_database("fresh databases: first").unwrap();
        assert_ne!(first, second);
        for url in [&first, &second] {
            let mut client = postgres::Client::connect(url, NoTls).unwrap();
            let row = client
                .query_one("SELECT 1, current_database()", &[])
                .unwrap();
            assert_eq!(row.get::<_, i32>(0), 1);
            let name: String = row.get(1);
            assert!(url.ends_with(&format!("/{name}")), "{url} is not {name}");
            assert!(name.starts_with("fresh_databases__first_"), "{name}");
        }
    }

    #[tokio::test]
    async fn fresh_database_works_inside_a_runtime() {
        let Some(url) = fresh_database("inside a runtime") else {
            return;
        };
        assert!(url.contains("/inside_a_runtime_"), "{url}");
    }

    #[test]
    fn database_names_are_short_plain_and_unique() {
        let long = "A Test With A Very Long Name That Goes On And On, Well Past Sixty-Three";
        for label in [long, "", "1st", "plain"] {
            let name = database_name(label);
            assert!(name.len() <= 63, "{name}");
            assert!(name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_'));
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{name}"
            );
            assert_ne!(database_name(label), name);
        }
        assert!(database_name(long).starts_with("a_test_with_a_very_long_name"));
        assert!(database_name("1st").starts_with("t_1st_"));
    }

    #[test]
    fn urls_get_another_role_or_database() {
        assert_eq!(
            role_url("postgres://postgres@127.0.0.1:5432/postgres", "auditor"),
            "postgres://auditor@127.0.0.1:5432/postgres"
        );
        assert_eq!(
            role_url("postgresql://a:secret@[::1]:5/db?sslmode=disable", "x y"),
            "postgresql://x%20y@[::1]:5/db?sslmode=disable"
        );
        assert_eq!(role_url("postgres://h", "r"), "postgres://r@h");
        assert_eq!(
            redacted("postgres://a:secret@h/db"),
            "postgres://a:***@h/db"
        );
        assert_eq!(
            split_url("postgres://u@h:1/db?x=1"),
            ("postgres://", "u@h:1", "/db", "?x=1")
        );
        assert_eq!(
            split_url("postgres://h?x=1"),
            ("postgres://", "h", "", "?x=1")
        );
    }
}
