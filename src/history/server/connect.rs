//! Connecting to the team's `PostgreSQL` server.
//!
//! A team keeps its history on a server named by a URL such as
//! `postgres://alice@db.example.com:5432/tax?sslmode=verify-full`. This module reads that URL
//! ([`ServerUrl`]), finds the password, sets up TLS and opens a connection with the synchronous
//! `postgres` client ([`connect`]). That client runs a small async runtime of its own, so it
//! must be used on a thread of its own, never on an async task.
//!
//! **The URL.** `postgres://` or `postgresql://`, then `USER[:PASSWORD]@HOST[:PORT]/DATABASE`
//! and optionally `?sslmode=…&sslrootcert=…&connect_timeout=…&application_name=…`. The host
//! defaults to `localhost`, the port to 5432, the database to the user's name and the user to
//! the name of the OS user. `%`-escapes are decoded in every part. Other parameters are
//! refused, as are other schemes ([`scheme_of`] tells a URL from a file name). The URL is shown
//! (in messages, logs and `Debug`) with its password replaced by `***`.
//!
//! **TLS** follows libpq's `sslmode`:
//!
//! | sslmode | TLS | certificate check |
//! |---|---|---|
//! | `disable` | never | — |
//! | `allow`, `prefer` | if the server offers it, else plain | none; the chain against `sslrootcert` if it is a file |
//! | `require` | always | none; the chain against `sslrootcert` if it is a file (as libpq) |
//! | `verify-ca` | always | the chain, against `sslrootcert` or else the platform's roots; not the name |
//! | `verify-full` | always | the chain and the host name, against `sslrootcert` or else the platform's roots |
//!
//! Without `sslmode`, a server on this machine (`localhost`, `127.x.x.x`, `::1`, a socket
//! directory) gets `prefer` and any other server `require`; `sslrootcert=system` (the
//! platform's roots) implies `verify-full` and refuses weaker modes, as libpq does. A Unix
//! socket never uses TLS, whatever the mode (`PostgreSQL` does not offer it there). TLS is
//! rustls with the aws-lc-rs provider; OpenSSL is never used.
//!
//! **The password** is the first of: the one in the URL; `PGPASSWORD`; the OS keyring entry
//! with service `taxdash-history` and user `USER@HOST:PORT/DATABASE` ([`store_password`],
//! [`forget_password`]); the first matching line of the password file (`PGPASSFILE`, else
//! `~/.pgpass`, or `%APPDATA%\postgresql\pgpass.conf` on Windows). A password file that
//! others may read is ignored on Unix, as libpq does. A server that needs no password (trust
//! or peer authentication) is connected to without one. The password is never logged and never
//! put in an error message.

use std::fmt::{self, Write as _};
use std::io;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use postgres::error::SqlState;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use zeroize::{Zeroize, Zeroizing};

use crate::credentials::{CredentialError, Env, KeyStore};

/// The keyring service under which history-server passwords are kept (the user is
/// [`ServerUrl::keyring_user`]).
pub const KEYRING_SERVICE: &str = "taxdash-history";

/// The `application_name` the server shows for taxdash's sessions unless the URL names another.
pub const DEFAULT_APPLICATION_NAME: &str = "taxdash";

/// How long reaching the server may take unless the URL's `connect_timeout` says otherwise.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The port `PostgreSQL` listens on unless the URL names another.
pub const DEFAULT_PORT: u16 = 5432;

/// The environment variable holding a password (libpq's).
pub const ENV_PASSWORD: &str = "PGPASSWORD";

/// The environment variable naming the password file (libpq's).
pub const ENV_PASSFILE: &str = "PGPASSFILE";

/// The command that stores a password in the keyring, as messages suggest it.
const LOGIN_COMMAND: &str = "taxdash history login";

/// The query parameters a URL may carry.
const PARAMETERS: [&str; 4] = [
    "sslmode",
    "sslrootcert",
    "connect_timeout",
    "application_name",
];

/// After this long without traffic, the OS starts probing the connection, so a server that
/// went away is noticed in minutes rather than the two hours of the usual default.
const KEEPALIVE_IDLE: Duration = Duration::from_mins(1);

/// The scheme of `text` when it looks like a URL (`letters[letters digits + - .]*://`), such
/// as `postgres` or `mysql`; `None` for anything else, such as a file name. A single letter is
/// a Windows drive, not a scheme.
pub fn scheme_of(text: &str) -> Option<&str> {
    let (scheme, _) = text.split_once("://")?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic()
        && scheme.len() >= 2
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(scheme)
}

/// Whether `scheme` (as [`scheme_of`] returns it) names a `PostgreSQL` server.
pub fn is_postgres_scheme(scheme: &str) -> bool {
    scheme.eq_ignore_ascii_case("postgres") || scheme.eq_ignore_ascii_case("postgresql")
}

/// libpq's `sslmode`, from the weakest to the strictest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SslMode {
    /// Never TLS.
    Disable,
    /// libpq: plain first, TLS if the server insists. Treated as [`SslMode::Prefer`]: TLS
    /// first, plain if the server does not offer it (the client library has no plain-first
    /// mode, and trying TLS first never gives less protection).
    Allow,
    /// TLS if the server offers it, else plain; the certificate is not checked.
    Prefer,
    /// TLS always; the certificate is not checked (unless `sslrootcert` names a file).
    Require,
    /// TLS always; the certificate chain is checked, not the host name.
    VerifyCa,
    /// TLS always; the certificate chain and the host name are checked.
    VerifyFull,
}

impl SslMode {
    /// Every mode, in the order messages list them.
    pub const ALL: [SslMode; 6] = [
        SslMode::Disable,
        SslMode::Allow,
        SslMode::Prefer,
        SslMode::Require,
        SslMode::VerifyCa,
        SslMode::VerifyFull,
    ];

    /// The mode as a URL writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Disable => "disable",
            Self::Allow => "allow",
            Self::Prefer => "prefer",
            Self::Require => "require",
            Self::VerifyCa => "verify-ca",
            Self::VerifyFull => "verify-full",
        }
    }
}

impl fmt::Display for SslMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SslMode {
    type Err = UrlError;

    fn from_str(text: &str) -> Result<Self, UrlError> {
        Self::ALL
            .into_iter()
            .find(|mode| mode.as_str() == text)
            .ok_or_else(|| UrlError::BadSslMode {
                value: text.to_owned(),
            })
    }
}

/// The certificate authorities a server's certificate is checked against (`sslrootcert`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RootCert {
    /// `sslrootcert=system`: the platform's trusted roots (requires `verify-full`).
    System,
    /// A PEM file of CA certificates; only these are trusted.
    File(PathBuf),
}

/// What is wrong with a server URL. Messages name the rule broken and never contain the
/// password.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// Not a URL at all.
    #[error(
        "not a PostgreSQL URL: a history server is named as \
         postgres://USER@HOST:PORT/DATABASE (or postgresql://…)"
    )]
    NotAUrl,

    /// A URL of another kind.
    #[error(
        "`{scheme}://` URLs are not supported: a history is an SQLite file, or a PostgreSQL \
         server named by a postgres:// or postgresql:// URL"
    )]
    OtherScheme {
        /// The scheme given.
        scheme: String,
    },

    /// A `#` somewhere.
    #[error(
        "a PostgreSQL URL has no `#` part; write a `#` in the password or the database name \
         as %23"
    )]
    Fragment,

    /// An `@` after the host, most likely from a password with `/`, `?` or `#` in it.
    #[error(
        "the URL has an `@` after the host: if it ends the password, write any `/`, `?` or `#` \
         in the password as %2F, %3F and %23; an `@` in the database name or a parameter is \
         written %40"
    )]
    AtAfterHost,

    /// A comma-separated list of hosts.
    #[error("the URL names several hosts ({hosts}); taxdash connects to one host")]
    SeveralHosts {
        /// The hosts as written.
        hosts: String,
    },

    /// An IPv6 address without brackets, or brackets not closed.
    #[error("an IPv6 address is written in brackets, as in postgres://USER@[::1]:5432/DATABASE")]
    Ipv6,

    /// A port that is not a number from 1 to 65535 (not echoed: it could be part of a password
    /// written without its `@`).
    #[error("the port (after the `:` that follows the host) must be a number from 1 to 65535")]
    BadPort,

    /// A `%` not followed by two hex digits, or bytes that are not UTF-8 once decoded.
    #[error("the {part} in the URL {reason}")]
    BadEncoding {
        /// Which part: `user name`, `password`, `host`, `database name`, a parameter.
        part: &'static str,
        /// What is wrong.
        reason: &'static str,
    },

    /// No user in the URL and no OS user name to use instead.
    #[error(
        "the URL names no user and the OS user name cannot be read; \
         write it as postgres://USER@HOST/DATABASE"
    )]
    NoUser,

    /// A parameter without `=`.
    #[error("parameter `{name}` in the URL has no value; write {name}=VALUE")]
    NoValue {
        /// The parameter.
        name: String,
    },

    /// A parameter taxdash does not read.
    #[error(
        "unknown parameter `{name}` in the URL; taxdash reads only sslmode, sslrootcert, \
         connect_timeout and application_name"
    )]
    UnknownParameter {
        /// The parameter.
        name: String,
    },

    /// A parameter given twice.
    #[error("parameter `{name}` is given twice in the URL")]
    Repeated {
        /// The parameter.
        name: String,
    },

    /// An `sslmode` libpq does not know.
    #[error(
        "sslmode \"{value}\" is not one of disable, allow, prefer, require, verify-ca, verify-full"
    )]
    BadSslMode {
        /// The value given.
        value: String,
    },

    /// A `connect_timeout` that is not a whole number of seconds.
    #[error(
        "connect_timeout \"{value}\" is not a whole number of seconds (0 waits without a limit)"
    )]
    BadTimeout {
        /// The value given.
        value: String,
    },

    /// An empty `sslrootcert`.
    #[error(
        "sslrootcert is empty; give the path of a PEM file of CA certificates, or `system` for \
         the platform's trusted roots"
    )]
    EmptyRootCert,

    /// `sslrootcert=system` with a mode that would not check the host name.
    #[error(
        "sslrootcert=system needs sslmode=verify-full (sslmode \"{mode}\" would not check the \
         server's name), as libpq requires"
    )]
    WeakWithSystemRoots {
        /// The mode given.
        mode: SslMode,
    },
}

/// A history server's URL, read by [`ServerUrl::parse`]. `Display` and `Debug` show it with the
/// password (if the URL has one) replaced by `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerUrl {
    /// `postgres` or `postgresql`, lowercase.
    scheme: String,
    user: String,
    password: Option<Zeroizing<String>>,
    /// Without brackets for IPv6; a directory for a Unix socket.
    host: String,
    port: u16,
    database: String,
    ssl_mode: Option<SslMode>,
    root_cert: Option<RootCert>,
    /// Seconds, as given.
    connect_timeout: Option<u64>,
    application_name: Option<String>,
}

impl ServerUrl {
    /// Reads a `postgres://` or `postgresql://` URL (see the module docs). A URL without a user
    /// takes the OS user's name, as libpq does.
    pub fn parse(text: &str) -> Result<ServerUrl, UrlError> {
        Self::parse_with(text, || whoami::username().ok())
    }

    /// [`ServerUrl::parse`] with the user to take when the URL names none.
    fn parse_with(
        text: &str,
        os_user: impl FnOnce() -> Option<String>,
    ) -> Result<ServerUrl, UrlError> {
        let text = text.trim();
        let scheme = scheme_of(text).ok_or(UrlError::NotAUrl)?;
        if !is_postgres_scheme(scheme) {
            return Err(UrlError::OtherScheme {
                scheme: scheme.to_ascii_lowercase(),
            });
        }
        let rest = &text[scheme.len() + 3..];
        if rest.contains('#') {
            return Err(UrlError::Fragment);
        }
        let (before_query, query) = match rest.split_once('?') {
            Some((before, query)) => (before, Some(query)),
            None => (rest, None),
        };
        let (authority, path) = match before_query.split_once('/') {
            Some((authority, path)) => (authority, Some(path)),
            None => (before_query, None),
        };
        // A password with an unescaped `/` or `?` moves its end, and the `@` after it, past the
        // authority; refusing any later `@` keeps pieces of such a password out of the host,
        // port, database name and parameters, and so out of messages.
        if path.is_some_and(|p| p.contains('@')) || query.is_some_and(|q| q.contains('@')) {
            return Err(UrlError::AtAfterHost);
        }

        let (userinfo, host_port) = match authority.rsplit_once('@') {
            Some((userinfo, host_port)) => (Some(userinfo), host_port),
            None => (None, authority),
        };
        let (user, password) = match userinfo {
            Some(userinfo) => match userinfo.split_once(':') {
                Some((user, password)) => (user, Some(password)),
                None => (userinfo, None),
            },
            None => ("", None),
        };
        let password = password.map(|p| decode_secret(p, "password")).transpose()?;
        let user = match decode(user, "user name")? {
            user if user.is_empty() => os_user()
                .filter(|u| !u.is_empty())
                .ok_or(UrlError::NoUser)?,
            user => user,
        };

        let (host, port) = split_host_port(host_port)?;
        let host = match decode(host, "host")? {
            host if host.is_empty() => "localhost".to_owned(),
            host => host,
        };
        let port = match port {
            None | Some("") => DEFAULT_PORT,
            Some(port) => parse_port(port)?,
        };
        let database = match path {
            Some(path) if !path.is_empty() => decode(path, "database name")?,
            _ => user.clone(),
        };

        let mut url = ServerUrl {
            scheme: scheme.to_ascii_lowercase(),
            user,
            password,
            host,
            port,
            database,
            ssl_mode: None,
            root_cert: None,
            connect_timeout: None,
            application_name: None,
        };
        let mut seen: Vec<&str> = Vec::new();
        for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').ok_or_else(|| UrlError::NoValue {
                name: pair.to_owned(),
            })?;
            let Some(&name) = PARAMETERS.iter().find(|known| **known == name) else {
                return Err(UrlError::UnknownParameter {
                    name: decode(name, "parameter name").unwrap_or_else(|_| name.to_owned()),
                });
            };
            if seen.contains(&name) {
                return Err(UrlError::Repeated {
                    name: name.to_owned(),
                });
            }
            seen.push(name);
            let value = decode(value, name)?;
            url.set_parameter(name, value)?;
        }
        if url.root_cert == Some(RootCert::System) {
            match url.ssl_mode {
                None | Some(SslMode::VerifyFull) => {}
                Some(mode) => return Err(UrlError::WeakWithSystemRoots { mode }),
            }
        }
        Ok(url)
    }

    fn set_parameter(&mut self, name: &str, value: String) -> Result<(), UrlError> {
        match name {
            "sslmode" => self.ssl_mode = Some(value.parse()?),
            "sslrootcert" => {
                self.root_cert = Some(match value.as_str() {
                    "" => return Err(UrlError::EmptyRootCert),
                    "system" => RootCert::System,
                    _ => RootCert::File(PathBuf::from(value)),
                });
            }
            "connect_timeout" => {
                let seconds = value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| UrlError::BadTimeout { value })?;
                self.connect_timeout = Some(seconds);
            }
            _ => self.application_name = Some(value),
        }
        Ok(())
    }

    /// The URL with the password, if any, replaced by `***` (the same as `Display`).
    pub fn redacted(&self) -> String {
        self.to_string()
    }

    /// Whether the URL carries a password.
    pub fn has_password(&self) -> bool {
        self.password.is_some()
    }

    /// The user to log in as.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// The host name or address (IPv6 without brackets), or a Unix-socket directory.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port (also the number in a Unix socket's file name).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The database.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// Whether the host is a Unix-socket directory (it starts with `/`).
    pub fn is_unix_socket(&self) -> bool {
        self.host.starts_with('/')
    }

    /// Whether the server is on this machine: `localhost`, an address in 127.0.0.0/8, `::1`,
    /// or a Unix-socket directory.
    pub fn is_loopback(&self) -> bool {
        let host = self.host.as_str();
        host.eq_ignore_ascii_case("localhost")
            || self.is_unix_socket()
            || host.parse::<Ipv4Addr>().is_ok_and(|ip| ip.is_loopback())
            || host.parse::<Ipv6Addr>().is_ok_and(|ip| {
                ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
            })
    }

    /// The `sslmode` the URL gives, if it gives one.
    pub fn ssl_mode_given(&self) -> Option<SslMode> {
        self.ssl_mode
    }

    /// The `sslmode` in force: the one given; else `verify-full` with `sslrootcert=system`;
    /// else `prefer` for a server on this machine and `require` for any other.
    pub fn ssl_mode(&self) -> SslMode {
        match (self.ssl_mode, &self.root_cert) {
            (Some(mode), _) => mode,
            (None, Some(RootCert::System)) => SslMode::VerifyFull,
            (None, _) if self.is_loopback() => SslMode::Prefer,
            (None, _) => SslMode::Require,
        }
    }

    /// The `sslrootcert` the URL gives.
    pub fn root_cert(&self) -> Option<&RootCert> {
        self.root_cert.as_ref()
    }

    /// How long reaching the server may take: `connect_timeout` (as libpq, 0 means no limit
    /// and 1 means 2 seconds), else [`DEFAULT_CONNECT_TIMEOUT`].
    pub fn connect_timeout(&self) -> Option<Duration> {
        match self.connect_timeout {
            None => Some(DEFAULT_CONNECT_TIMEOUT),
            Some(0) => None,
            Some(seconds) => Some(Duration::from_secs(seconds.max(2))),
        }
    }

    /// The `application_name` sessions show on the server.
    pub fn application_name(&self) -> &str {
        self.application_name
            .as_deref()
            .unwrap_or(DEFAULT_APPLICATION_NAME)
    }

    /// The user of the keyring entry that keeps this server's password:
    /// `USER@HOST:PORT/DATABASE` (an IPv6 host in brackets), unescaped.
    pub fn keyring_user(&self) -> String {
        format!(
            "{}@{}:{}/{}",
            self.user,
            self.host_for_display(),
            self.port,
            self.database
        )
    }

    fn host_for_display(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        }
    }

    /// A copy of this URL without its password: what `taxdash history login` is given.
    fn without_password(&self) -> ServerUrl {
        ServerUrl {
            password: None,
            ..self.clone()
        }
    }
}

impl FromStr for ServerUrl {
    type Err = UrlError;

    fn from_str(text: &str) -> Result<Self, UrlError> {
        Self::parse(text)
    }
}

impl fmt::Display for ServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, encode(&self.user))?;
        if self.password.is_some() {
            f.write_str(":***")?;
        }
        let host = if self.is_unix_socket() {
            encode(&self.host)
        } else {
            self.host_for_display()
        };
        write!(
            f,
            "@{host}:{}/{}",
            self.port,
            encode_keeping(&self.database, b"/:")
        )?;
        let mut separator = '?';
        let mut param = |f: &mut fmt::Formatter<'_>, name: &str, value: &str| {
            let written = write!(f, "{separator}{name}={}", encode_keeping(value, b"/:"));
            separator = '&';
            written
        };
        if let Some(mode) = self.ssl_mode {
            param(f, "sslmode", mode.as_str())?;
        }
        match &self.root_cert {
            Some(RootCert::System) => param(f, "sslrootcert", "system")?,
            Some(RootCert::File(path)) => param(f, "sslrootcert", &path.to_string_lossy())?,
            None => {}
        }
        if let Some(seconds) = self.connect_timeout {
            param(f, "connect_timeout", &seconds.to_string())?;
        }
        if let Some(name) = &self.application_name {
            param(f, "application_name", name)?;
        }
        Ok(())
    }
}

impl fmt::Debug for ServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerUrl")
            .field("scheme", &self.scheme)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("host", &self.host)
            .field("port", &self.port)
            .field("database", &self.database)
            .field("ssl_mode", &self.ssl_mode)
            .field("root_cert", &self.root_cert)
            .field("connect_timeout", &self.connect_timeout)
            .field("application_name", &self.application_name)
            .finish()
    }
}

/// Splits `HOST[:PORT]` or `[V6]:PORT`.
fn split_host_port(text: &str) -> Result<(&str, Option<&str>), UrlError> {
    if let Some(inside) = text.strip_prefix('[') {
        let (host, after) = inside.split_once(']').ok_or(UrlError::Ipv6)?;
        return match after {
            "" => Ok((host, None)),
            _ => after
                .strip_prefix(':')
                .map(|port| (host, Some(port)))
                .ok_or(UrlError::BadPort),
        };
    }
    if text.contains(',') {
        return Err(UrlError::SeveralHosts {
            hosts: text.to_owned(),
        });
    }
    match text.split_once(':') {
        Some((_, port)) if port.contains(':') => Err(UrlError::Ipv6),
        Some((host, port)) => Ok((host, Some(port))),
        None => Ok((text, None)),
    }
}

fn parse_port(text: &str) -> Result<u16, UrlError> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(UrlError::BadPort);
    }
    match text.parse::<u16>() {
        Ok(port) if port > 0 => Ok(port),
        _ => Err(UrlError::BadPort),
    }
}

/// Decodes `%XX` escapes into bytes; `+` stays `+` (libpq does not read it as a space).
fn decode_bytes(text: &str, part: &'static str) -> Result<Zeroizing<Vec<u8>>, UrlError> {
    let bad = UrlError::BadEncoding {
        part,
        reason: "has a `%` that is not followed by two hexadecimal digits",
    };
    let bytes = text.as_bytes();
    let mut out = Zeroizing::new(Vec::with_capacity(bytes.len()));
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).ok_or_else(|| bad.clone())?;
            let high = hex_value(hex[0]).ok_or_else(|| bad.clone())?;
            let low = hex_value(hex[1]).ok_or_else(|| bad.clone())?;
            out.push(high << 4 | low);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn hex_value(byte: u8) -> Option<u8> {
    (byte as char).to_digit(16).map(|d| d as u8)
}

const NOT_UTF8: &str = "is not valid UTF-8 once its %-escapes are decoded";

/// Decodes the `%`-escapes of a part of the URL that is not secret.
fn decode(text: &str, part: &'static str) -> Result<String, UrlError> {
    decode_secret(text, part).map(|decoded| decoded.as_str().to_owned())
}

/// Decodes the `%`-escapes of a password: no copy of it outlives this call unzeroed.
fn decode_secret(text: &str, part: &'static str) -> Result<Zeroizing<String>, UrlError> {
    let mut bytes = decode_bytes(text, part)?;
    match String::from_utf8(std::mem::take(&mut *bytes)) {
        Ok(decoded) => Ok(Zeroizing::new(decoded)),
        Err(err) => {
            err.into_bytes().zeroize();
            Err(UrlError::BadEncoding {
                part,
                reason: NOT_UTF8,
            })
        }
    }
}

/// `%`-escapes everything but the unreserved characters of RFC 3986.
fn encode(text: &str) -> String {
    encode_keeping(text, b"")
}

/// [`encode`], leaving the bytes of `keep` as they are too (`/` and `:` are plain in a path
/// or a parameter).
fn encode_keeping(text: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) || keep.contains(&byte) {
            out.push(byte as char);
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

// ------------------------------------------------------------------------------------------
// Passwords
// ------------------------------------------------------------------------------------------

/// Where a password was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PasswordSource {
    /// Written in the URL.
    Url,
    /// The `PGPASSWORD` environment variable.
    EnvVar,
    /// The OS keyring entry of the server.
    Keyring,
    /// A line of this password file.
    PassFile(PathBuf),
}

impl fmt::Display for PasswordSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Url => f.write_str("the URL"),
            Self::EnvVar => write!(f, "{ENV_PASSWORD}"),
            Self::Keyring => write!(f, "the keyring entry `{KEYRING_SERVICE}`"),
            Self::PassFile(path) => write!(f, "the password file {}", path.display()),
        }
    }
}

/// A password and where it came from. `Debug` does not show the password; its memory is
/// zeroed when it is dropped.
pub struct FoundPassword {
    secret: Zeroizing<String>,
    source: PasswordSource,
}

impl FoundPassword {
    /// Where the password came from.
    pub fn source(&self) -> &PasswordSource {
        &self.source
    }

    /// The password itself, for the one place that needs it: the connection.
    pub fn expose(&self) -> &str {
        &self.secret
    }
}

impl fmt::Debug for FoundPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FoundPassword")
            .field("secret", &"***")
            .field("source", &self.source)
            .finish()
    }
}

/// What [`find_password`] found, and the places it looked in, in words (for a message when the
/// server asks for a password and there is none).
#[derive(Debug)]
pub struct PasswordSearch {
    /// The password, if one was found.
    pub found: Option<FoundPassword>,
    /// The places looked in before it was found (all of them when it was not), each with a
    /// note on why it gave nothing where there is something to say.
    pub looked: Vec<String>,
}

/// Finds the password for `url`: the URL's, else `PGPASSWORD`, else the keyring entry, else the
/// password file (see the module docs). Keyring failures are not errors: they are logged and
/// noted in [`PasswordSearch::looked`].
pub fn find_password(url: &ServerUrl, keys: &KeyStore, env: &dyn Env) -> PasswordSearch {
    let mut looked = Vec::new();
    let found = |secret: Zeroizing<String>, source: PasswordSource, looked: Vec<String>| {
        tracing::debug!(server = %url, %source, "found a password");
        PasswordSearch {
            found: Some(FoundPassword { secret, source }),
            looked,
        }
    };

    if let Some(password) = &url.password {
        return found(password.clone(), PasswordSource::Url, looked);
    }

    // Not trimmed: spaces may be part of a password. Empty counts as unset, as in libpq.
    if let Some(password) = env.var(ENV_PASSWORD).map(Zeroizing::new)
        && !password.is_empty()
    {
        return found(password, PasswordSource::EnvVar, looked);
    }
    looked.push(ENV_PASSWORD.to_owned());

    let entry = format!(
        "the keyring entry `{KEYRING_SERVICE}` / `{}`",
        url.keyring_user()
    );
    match keys.get_secret(KEYRING_SERVICE, &url.keyring_user()) {
        Ok(Some(password)) if !password.is_empty() => {
            return found(password, PasswordSource::Keyring, looked);
        }
        Ok(_) => looked.push(entry),
        Err(err) => {
            tracing::debug!(server = %url, error = %err, "the keyring could not be read");
            looked.push(format!("{entry} (the keyring could not be read: {err})"));
        }
    }

    match pass_file_path(env) {
        Some(path) => match read_pass_file(&path, url) {
            Ok(Some(password)) => {
                return found(password, PasswordSource::PassFile(path), looked);
            }
            Ok(None) => looked.push(format!(
                "the password file {} (no line for this server)",
                path.display()
            )),
            Err(why) => looked.push(format!("the password file {} ({why})", path.display())),
        },
        None => looked.push("the password file ~/.pgpass (no home directory)".to_owned()),
    }
    PasswordSearch {
        found: None,
        looked,
    }
}

/// `PGPASSFILE`, else libpq's default: `~/.pgpass`, or `%APPDATA%\postgresql\pgpass.conf` on
/// Windows.
fn pass_file_path(env: &dyn Env) -> Option<PathBuf> {
    if let Some(path) = env.non_empty(ENV_PASSFILE) {
        return Some(PathBuf::from(path));
    }
    if cfg!(windows) {
        let appdata = env
            .non_empty("APPDATA")
            .map(PathBuf::from)
            .or_else(|| directories::BaseDirs::new().map(|d| d.config_dir().to_owned()))?;
        Some(appdata.join("postgresql").join("pgpass.conf"))
    } else {
        let home = env
            .non_empty("HOME")
            .map(PathBuf::from)
            .or_else(|| directories::BaseDirs::new().map(|d| d.home_dir().to_owned()))?;
        Some(home.join(".pgpass"))
    }
}

/// The password of the first line of the password file at `path` that matches `url`;
/// `Err` says, in words, why the file was not read (it is also logged).
fn read_pass_file(path: &Path, url: &ServerUrl) -> Result<Option<Zeroizing<String>>, String> {
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Err("not found".to_owned()),
        Err(err) => {
            tracing::warn!(path = %path.display(), error = %err, "cannot read the password file");
            return Err(format!("cannot be read: {err}"));
        }
    };
    if !metadata.is_file() {
        tracing::warn!(path = %path.display(), "the password file is not a plain file; ignored");
        return Err("ignored: not a plain file".to_owned());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if metadata.permissions().mode() & 0o077 != 0 {
            tracing::warn!(
                path = %path.display(),
                "the password file may be read by group or others, so it is ignored, as libpq \
                 does; make it private with chmod 600"
            );
            return Err(
                "ignored: its group or others have access; make it private with chmod 600"
                    .to_owned(),
            );
        }
    }
    let content = match std::fs::read(path) {
        Ok(bytes) => Zeroizing::new(bytes),
        Err(err) => {
            tracing::warn!(path = %path.display(), error = %err, "cannot read the password file");
            return Err(format!("cannot be read: {err}"));
        }
    };
    let Ok(text) = std::str::from_utf8(&content) else {
        tracing::warn!(path = %path.display(), "the password file is not UTF-8; ignored");
        return Err("ignored: not UTF-8 text".to_owned());
    };
    Ok(match_pass_file(text, url))
}

/// The password of the first line of a password file's `text` that matches `url`, as libpq
/// reads it: `hostname:port:database:username:password`, a field of just `*` matches
/// anything, `\:` and `\\` stand for `:` and `\`, lines starting with `#` are comments. A
/// server on this machine also matches lines for `localhost`.
fn match_pass_file(text: &str, url: &ServerUrl) -> Option<Zeroizing<String>> {
    let port = url.port.to_string();
    let wanted: [&str; 4] = [&url.host, &port, &url.database, &url.user];
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = split_pass_line(line);
        if fields.len() < 5 {
            continue;
        }
        let matches = fields[..4]
            .iter()
            .zip(wanted)
            .enumerate()
            .all(|(i, (field, want))| {
                field.wildcard
                    || *field.text == *want
                    || (i == 0 && url.is_loopback() && *field.text == *"localhost")
            });
        if matches {
            let password = std::mem::take(&mut fields[4].text);
            return (!password.is_empty()).then_some(password);
        }
    }
    None
}

/// One field of a password-file line, unescaped.
struct PassField {
    text: Zeroizing<String>,
    /// Whether the field was exactly an unescaped `*`.
    wildcard: bool,
}

fn split_pass_line(line: &str) -> Vec<PassField> {
    // Fields are built in buffers that never grow, so no copy of a password is left behind in
    // memory that was given back unzeroed.
    let buffer = || Zeroizing::new(String::with_capacity(line.len()));
    let mut fields = Vec::new();
    let mut text = buffer();
    let mut raw_star = true;
    let mut chars = line.chars();
    let mut finish = |text: &mut Zeroizing<String>, raw_star: &mut bool| {
        let wildcard = *raw_star && text.as_str() == "*";
        fields.push(PassField {
            text: std::mem::replace(text, buffer()),
            wildcard,
        });
        *raw_star = true;
    };
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                raw_star = false;
                if let Some(next) = chars.next() {
                    text.push(next);
                }
            }
            ':' => finish(&mut text, &mut raw_star),
            _ => text.push(c),
        }
    }
    finish(&mut text, &mut raw_star);
    fields
}

/// Keeps `password` for `url` in the OS keyring (service [`KEYRING_SERVICE`], user
/// [`ServerUrl::keyring_user`]), replacing any password kept there. An empty password is
/// refused.
pub fn store_password(
    keys: &KeyStore,
    url: &ServerUrl,
    password: &str,
) -> Result<(), CredentialError> {
    if password.is_empty() {
        return Err(CredentialError::InvalidKey {
            reason: "the password is empty",
        });
    }
    let user = url.keyring_user();
    let label = format!("taxdash history server password ({user})");
    keys.store_secret(KEYRING_SERVICE, &user, password, &label)
}

/// Deletes the password kept for `url` in the OS keyring. Returns whether there was one.
pub fn forget_password(keys: &KeyStore, url: &ServerUrl) -> Result<bool, CredentialError> {
    keys.delete_secret(KEYRING_SERVICE, &url.keyring_user())
}

// ------------------------------------------------------------------------------------------
// TLS
// ------------------------------------------------------------------------------------------

/// Whose roots a certificate chain is checked against.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Roots {
    /// The platform's (rustls-platform-verifier).
    Platform,
    /// Those of a PEM file.
    File(PathBuf),
}

/// How the server's certificate is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Check {
    /// Not at all (the handshake signatures still are).
    Nothing,
    /// The chain, not the name.
    Chain(Roots),
    /// The chain and the name.
    Full(Roots),
}

/// What a connection does about TLS.
#[derive(Debug, Clone, PartialEq, Eq)]
enum TlsPlan {
    /// Plain.
    Off,
    /// TLS if the server offers it, else plain.
    Prefer(Check),
    /// TLS or no connection.
    Require(Check),
}

/// The TLS plan for `url` (the table in the module docs).
fn tls_plan(url: &ServerUrl) -> TlsPlan {
    if url.is_unix_socket() {
        return TlsPlan::Off;
    }
    let file = match &url.root_cert {
        Some(RootCert::File(path)) => Some(Roots::File(path.clone())),
        _ => None,
    };
    let roots = || file.clone().unwrap_or(Roots::Platform);
    match url.ssl_mode() {
        SslMode::Disable => TlsPlan::Off,
        // `allow` is taken as `prefer` (see `SslMode::Allow`).
        SslMode::Allow | SslMode::Prefer => {
            TlsPlan::Prefer(file.clone().map_or(Check::Nothing, Check::Chain))
        }
        // As libpq: `require` with a CA file is `verify-ca`.
        SslMode::Require => TlsPlan::Require(file.clone().map_or(Check::Nothing, Check::Chain)),
        SslMode::VerifyCa => TlsPlan::Require(Check::Chain(roots())),
        SslMode::VerifyFull => TlsPlan::Require(Check::Full(roots())),
    }
}

fn crypto_provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::aws_lc_rs::default_provider())
}

/// A rustls client configuration that checks the server's certificate as `check` says.
fn client_config(check: &Check, url: &ServerUrl) -> Result<rustls::ClientConfig, ConnectError> {
    let server = url.redacted();
    let tls_error = |err: rustls::Error| ConnectError::Tls {
        server: server.clone(),
        reason: err.to_string(),
    };
    let provider = crypto_provider();
    let verifier: Arc<dyn ServerCertVerifier> = match check {
        Check::Nothing => Arc::new(NoCertificateCheck {
            algorithms: provider.signature_verification_algorithms,
        }),
        Check::Chain(roots) => Arc::new(ChainOnly {
            inner: roots_verifier(roots, &provider, url)?,
        }),
        Check::Full(roots) => roots_verifier(roots, &provider, url)?,
    };
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(tls_error)?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

/// A verifier of chain and name against `roots`.
fn roots_verifier(
    roots: &Roots,
    provider: &Arc<CryptoProvider>,
    url: &ServerUrl,
) -> Result<Arc<dyn ServerCertVerifier>, ConnectError> {
    match roots {
        Roots::Platform => rustls_platform_verifier::Verifier::new(Arc::clone(provider))
            .map(|v| Arc::new(v) as Arc<dyn ServerCertVerifier>)
            .map_err(|err| ConnectError::Tls {
                server: url.redacted(),
                reason: format!("the platform's certificate check cannot be set up: {err}"),
            }),
        Roots::File(path) => {
            let bad = |reason: String| ConnectError::RootCert {
                server: url.redacted(),
                path: path.clone(),
                reason,
            };
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|err| bad(pem_reason(&err)))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|err| bad(pem_reason(&err)))?;
            if certs.is_empty() {
                return Err(bad("it holds no PEM certificate".to_owned()));
            }
            let mut store = rustls::RootCertStore::empty();
            for cert in certs {
                store
                    .add(cert)
                    .map_err(|err| bad(format!("a certificate in it is not usable: {err}")))?;
            }
            WebPkiServerVerifier::builder_with_provider(Arc::new(store), Arc::clone(provider))
                .build()
                .map(|v| v as Arc<dyn ServerCertVerifier>)
                .map_err(|err| bad(err.to_string()))
        }
    }
}

fn pem_reason(err: &rustls::pki_types::pem::Error) -> String {
    match err {
        rustls::pki_types::pem::Error::Io(err) => format!("it cannot be read: {err}"),
        other => format!("it is not a PEM file of certificates: {other}"),
    }
}

/// `sslmode=require` (and `prefer`) without a CA file: any certificate is taken, as libpq
/// does. The handshake's signatures are still checked, so the server must hold the key of the
/// certificate it shows; what is not checked is who that certificate belongs to.
#[derive(Debug)]
struct NoCertificateCheck {
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for NoCertificateCheck {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// `sslmode=verify-ca`: the chain is checked by `inner`, and a certificate valid for another
/// name than the host's is taken. rustls's `WebPKI` verifier (also the platform verifier on
/// Linux and the BSDs) checks the name last, after the chain, dates and revocation, so a name
/// mismatch means everything else passed. On macOS and Windows the OS reports one error for
/// the whole evaluation; a name mismatch there is the error for a chain that is otherwise
/// trusted.
#[derive(Debug)]
struct ChainOnly {
    inner: Arc<dyn ServerCertVerifier>,
}

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.inner.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }

    fn requires_raw_public_keys(&self) -> bool {
        self.inner.requires_raw_public_keys()
    }

    fn root_hint_subjects(&self) -> Option<&[rustls::DistinguishedName]> {
        self.inner.root_hint_subjects()
    }
}

// ------------------------------------------------------------------------------------------
// Connecting
// ------------------------------------------------------------------------------------------

/// Why a connection to the history server failed. Messages name the server by its URL without
/// the password, and never contain a password.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// No connection could be made (no route, refused, timed out, name not found).
    #[error("cannot reach the history server {server}: {reason}")]
    Unreachable {
        /// The URL, without password.
        server: String,
        /// What happened, in words.
        reason: String,
    },

    /// The server asks for a password and none was found.
    #[error(
        "the history server {server} asks for a password for user `{user}` and none was \
         found (looked in {looked}); store one with `{LOGIN_COMMAND} {login_url}`, or set \
         {ENV_PASSWORD}"
    )]
    NoPassword {
        /// The URL, without password.
        server: String,
        /// The user.
        user: String,
        /// The places looked in, in words.
        looked: String,
        /// The URL to give `taxdash history login`.
        login_url: String,
    },

    /// The server refused the password.
    #[error(
        "the history server {server} refused the password for user `{user}` (the password \
         came from {origin}); {hint}"
    )]
    PasswordRefused {
        /// The URL, without password.
        server: String,
        /// The user.
        user: String,
        /// Where the refused password came from.
        origin: PasswordSource,
        /// How to give the right one.
        hint: String,
    },

    /// The server refused the connection before any password (`pg_hba.conf`, or the user
    /// does not exist).
    #[error("the history server {server} refused the connection: {reason}")]
    Refused {
        /// The URL, without password.
        server: String,
        /// The server's words.
        reason: String,
    },

    /// The TLS handshake failed, or the server does not offer TLS where it is required.
    #[error("TLS with the history server {server} failed: {reason}")]
    Tls {
        /// The URL, without password.
        server: String,
        /// What went wrong, in words.
        reason: String,
    },

    /// The `sslrootcert` file cannot be used.
    #[error("the CA certificate file {} (sslrootcert of {server}) cannot be used: {reason}", path.display())]
    RootCert {
        /// The URL, without password.
        server: String,
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// The database does not exist on the server.
    #[error(
        "the database `{database}` does not exist on the history server {server}; create it \
         (createdb {database}) or name another one in the URL"
    )]
    NoDatabase {
        /// The URL, without password.
        server: String,
        /// The database.
        database: String,
    },

    /// The server answered with another error (too many connections, starting up, ...).
    #[error("the history server {server} refused the connection: {reason}")]
    Server {
        /// The URL, without password.
        server: String,
        /// The server's words and SQLSTATE.
        reason: String,
    },

    /// Anything else: the exchange with the server went wrong.
    #[error("connecting to the history server {server} failed: {reason}")]
    Other {
        /// The URL, without password.
        server: String,
        /// What went wrong.
        reason: String,
    },

    /// [`connect`] was called on an async task, where the synchronous client would panic.
    #[error(
        "internal error: the connection to the history server {server} was opened on an async \
         task; it needs a thread of its own"
    )]
    OnAsyncTask {
        /// The URL, without password.
        server: String,
    },
}

/// Connects to the history server `url` names, with the password found as the module docs say
/// and TLS as `sslmode` says. Blocks (up to `connect_timeout` to reach the server); call it on
/// a thread of its own, never on an async task.
pub fn connect(
    url: &ServerUrl,
    keys: &KeyStore,
    env: &dyn Env,
) -> Result<postgres::Client, ConnectError> {
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(ConnectError::OnAsyncTask {
            server: url.redacted(),
        });
    }
    let plan = tls_plan(url);
    // Before the password search: a bad CA file is reported without touching the keyring.
    let tls = match &plan {
        TlsPlan::Off => None,
        TlsPlan::Prefer(check) | TlsPlan::Require(check) => Some(client_config(check, url)?),
    };
    let search = find_password(url, keys, env);

    let mut config = postgres::Config::new();
    config
        .host(url.host())
        .port(url.port())
        .user(url.user())
        .dbname(url.database())
        .application_name(url.application_name())
        .keepalives(true)
        .keepalives_idle(KEEPALIVE_IDLE);
    if let Some(timeout) = url.connect_timeout() {
        config.connect_timeout(timeout);
    }
    if let Some(found) = &search.found {
        // The client keeps its own copy, which is not zeroed; `config` is dropped on return.
        config.password(found.expose());
    }
    tracing::debug!(
        server = %url,
        sslmode = %url.ssl_mode(),
        tls = ?plan,
        password = search.found.as_ref().map_or("none".to_owned(), |f| f.source().to_string()),
        "connecting to the history server"
    );
    let result = match (&plan, tls) {
        (TlsPlan::Prefer(_), Some(tls)) => config
            .ssl_mode(postgres::config::SslMode::Prefer)
            .connect(tokio_postgres_rustls::MakeRustlsConnect::new(tls)),
        (TlsPlan::Require(_), Some(tls)) => config
            .ssl_mode(postgres::config::SslMode::Require)
            .connect(tokio_postgres_rustls::MakeRustlsConnect::new(tls)),
        _ => config
            .ssl_mode(postgres::config::SslMode::Disable)
            .connect(postgres::NoTls),
    };
    drop(config);
    result.map_err(|err| describe_failure(&err, url, search))
}

/// The error of a failed connection, in words.
fn describe_failure(
    err: &postgres::Error,
    url: &ServerUrl,
    search: PasswordSearch,
) -> ConnectError {
    let server = url.redacted();
    if let Some(db) = err.as_db_error() {
        let code = db.code();
        return if *code == SqlState::INVALID_PASSWORD {
            let source = search
                .found
                .map_or(PasswordSource::Url, |found| found.source);
            let login_url = url.without_password();
            let hint = match &source {
                PasswordSource::Url => "correct the password in the URL".to_owned(),
                PasswordSource::EnvVar => format!("correct or unset {ENV_PASSWORD}"),
                PasswordSource::Keyring => {
                    format!("store the right one with `{LOGIN_COMMAND} {login_url}`")
                }
                PasswordSource::PassFile(_) => format!(
                    "correct that line, or store the right password with \
                     `{LOGIN_COMMAND} {login_url}`"
                ),
            };
            ConnectError::PasswordRefused {
                server,
                user: url.user.clone(),
                origin: source,
                hint,
            }
        } else if *code == SqlState::INVALID_CATALOG_NAME {
            ConnectError::NoDatabase {
                server,
                database: url.database.clone(),
            }
        } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
            ConnectError::Refused {
                server,
                reason: db.message().to_owned(),
            }
        } else {
            ConnectError::Server {
                server,
                reason: format!("{} (SQLSTATE {})", db.message(), code.code()),
            }
        };
    }
    let kind = err.to_string();
    let cause = chain_text(err);
    match kind.as_str() {
        "invalid configuration" if cause == "password missing" => ConnectError::NoPassword {
            server,
            user: url.user.clone(),
            looked: list_in_words(&search.looked),
            login_url: url.without_password().to_string(),
        },
        "error performing TLS handshake" => ConnectError::Tls {
            server,
            reason: tls_reason(err, url),
        },
        "error connecting to server" => ConnectError::Unreachable {
            server,
            reason: if cause.is_empty() { kind } else { cause },
        },
        "timeout waiting for server" => ConnectError::Unreachable {
            server,
            reason: format!(
                "no answer within {} seconds",
                url.connect_timeout().unwrap_or_default().as_secs()
            ),
        },
        _ => ConnectError::Other {
            server,
            reason: if cause.is_empty() {
                kind
            } else {
                format!("{kind}: {cause}")
            },
        },
    }
}

/// The causes under `err`, joined with `: ` (empty when there are none).
fn chain_text(err: &dyn std::error::Error) -> String {
    let mut parts = Vec::new();
    let mut next = err.source();
    while let Some(cause) = next {
        parts.push(cause.to_string());
        next = cause.source();
    }
    parts.dedup();
    parts.join(": ")
}

/// `a`, `a and b`, `a, b and c`.
fn list_in_words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [first @ .., last] => format!("{} and {last}", first.join(", ")),
    }
}

/// Finds the rustls error under a TLS failure.
fn rustls_error(err: &postgres::Error) -> Option<&rustls::Error> {
    let mut next: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(err);
    while let Some(cause) = next {
        if let Some(tls) = cause.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        if let Some(tls) = cause
            .downcast_ref::<io::Error>()
            .and_then(io::Error::get_ref)
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            return Some(tls);
        }
        next = cause.source();
    }
    None
}

fn tls_reason(err: &postgres::Error, url: &ServerUrl) -> String {
    let cause = chain_text(err);
    if cause == "server does not support TLS" {
        return format!(
            "the server does not offer TLS, and sslmode={} requires it",
            url.ssl_mode()
        );
    }
    let Some(tls) = rustls_error(err) else {
        return if cause.is_empty() {
            "the handshake failed".to_owned()
        } else {
            cause
        };
    };
    let host = &url.host;
    match tls {
        rustls::Error::InvalidCertificate(
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
        ) => format!(
            "the server's certificate is not valid for the name {host} (sslmode=verify-ca \
             checks the certificate without its name)"
        ),
        rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer) => {
            let roots = match &url.root_cert {
                Some(RootCert::File(path)) => format!("the CA file {}", path.display()),
                _ => "the platform's trusted roots; give the CA's certificate with \
                      sslrootcert=FILE"
                    .to_owned(),
            };
            format!("the server's certificate is not signed by an authority in {roots}")
        }
        rustls::Error::InvalidCertificate(
            CertificateError::Expired | CertificateError::ExpiredContext { .. },
        ) => "the server's certificate has expired".to_owned(),
        rustls::Error::InvalidCertificate(
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. },
        ) => "the server's certificate is not valid yet".to_owned(),
        other => other.to_string(),
    }
}

/// Whether `err` means the connection is gone (closed, an I/O error, the server shutting
/// down), rather than an SQL error on a connection that still works.
pub fn is_connection_lost(err: &postgres::Error) -> bool {
    if err.is_closed() {
        return true;
    }
    if let Some(code) = err.code() {
        let code = code.code();
        // Class 08 is "connection exception"; 57P01..57P03 are the server shutting down or
        // not taking connections.
        return code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03");
    }
    matches!(
        err.to_string().as_str(),
        "error communicating with the server"
            | "error connecting to server"
            | "timeout waiting for server"
            | "error performing TLS handshake"
    )
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};

    use super::*;

    /// A distinctive password: no message, Display or Debug output may contain it.
    const SECRET: &str = "Zq8x-UNIQUE-pg-secret";

    fn url(text: &str) -> ServerUrl {
        ServerUrl::parse_with(text, || Some("osuser".to_owned())).unwrap()
    }

    fn refusal(text: &str) -> UrlError {
        ServerUrl::parse_with(text, || Some("osuser".to_owned())).unwrap_err()
    }

    fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |name: &str| vars.get(name).cloned()
    }

    #[test]
    fn a_full_url_is_read() {
        let u = url(
            "postgresql://alice:pw@db.example.com:6543/tax?sslmode=verify-full\
             &sslrootcert=/etc/ca.pem&connect_timeout=10&application_name=nightly",
        );
        assert_eq!(u.user(), "alice");
        assert!(u.has_password());
        assert_eq!(u.host(), "db.example.com");
        assert_eq!(u.port(), 6543);
        assert_eq!(u.database(), "tax");
        assert_eq!(u.ssl_mode(), SslMode::VerifyFull);
        assert_eq!(
            u.root_cert(),
            Some(&RootCert::File(PathBuf::from("/etc/ca.pem")))
        );
        assert_eq!(u.connect_timeout(), Some(Duration::from_secs(10)));
        assert_eq!(u.application_name(), "nightly");
        assert_eq!(u.keyring_user(), "alice@db.example.com:6543/tax");
        assert!(!u.is_loopback());
    }

    #[test]
    fn defaults_fill_what_the_url_leaves_out() {
        let u = url("postgres://");
        assert_eq!(u.user(), "osuser");
        assert_eq!(u.host(), "localhost");
        assert_eq!(u.port(), 5432);
        assert_eq!(u.database(), "osuser");
        assert!(!u.has_password());
        assert_eq!(u.application_name(), "taxdash");
        assert_eq!(u.connect_timeout(), Some(DEFAULT_CONNECT_TIMEOUT));
        assert_eq!(u.to_string(), "postgres://osuser@localhost:5432/osuser");

        let u = url("postgres://bob@db/");
        assert_eq!((u.host(), u.database()), ("db", "bob"));
        let u = url("postgres://:pw@db:5433");
        assert_eq!(
            (u.user(), u.port(), u.database()),
            ("osuser", 5433, "osuser")
        );
        assert!(u.has_password());
        assert_eq!(url("POSTGRES://a@b/c").to_string(), "postgres://a@b:5432/c");
        assert_eq!(url("postgres://a@b:/c").port(), 5432);

        assert_eq!(
            url("postgres://a@h/d?connect_timeout=0").connect_timeout(),
            None
        );
        assert_eq!(
            url("postgres://a@h/d?connect_timeout=1").connect_timeout(),
            Some(Duration::from_secs(2)),
            "libpq's minimum"
        );
        assert_eq!(
            ServerUrl::parse_with("postgres://h/d", || None).unwrap_err(),
            UrlError::NoUser
        );
    }

    #[test]
    fn percent_escapes_are_decoded() {
        let u = url("postgres://al%40ce:p%3Aw%2F%25@h/t%C3%A4x%20db?application_name=a%26b");
        assert_eq!(u.user(), "al@ce");
        assert_eq!(u.password.as_deref().map(String::as_str), Some("p:w/%"));
        assert_eq!(u.database(), "täx db");
        assert_eq!(u.application_name(), "a&b");
        // `+` is not a space; a password may hold `:` unescaped after the first.
        let u = url("postgres://u:a+b:c@h/d");
        assert_eq!(u.password.as_deref().map(String::as_str), Some("a+b:c"));
        // Escapes round-trip through Display.
        assert_eq!(u.to_string(), "postgres://u:***@h:5432/d");
        let shown = url("postgres://al%40ce@h/t%C3%A4x%20db").to_string();
        assert_eq!(shown, "postgres://al%40ce@h:5432/t%C3%A4x%20db");
        assert_eq!(url(&shown).database(), "täx db");
        let shown = url(
            "postgres://u@h/a/b:c%3F?sslrootcert=/etc/ssl/ca%20x.pem&application_name=a%26b%3Dc",
        )
        .to_string();
        assert_eq!(
            shown,
            "postgres://u@h:5432/a/b:c%3F?sslrootcert=/etc/ssl/ca%20x.pem&application_name=a%26b%3Dc"
        );
        let again = url(&shown);
        assert_eq!(again.database(), "a/b:c?");
        assert_eq!(again.application_name(), "a&b=c");
    }

    #[test]
    fn hosts_in_every_form() {
        let u = url("postgres://u@[::1]:5433/d");
        assert_eq!(u.host(), "::1");
        assert_eq!(u.port(), 5433);
        assert_eq!(u.keyring_user(), "u@[::1]:5433/d");
        assert_eq!(u.to_string(), "postgres://u@[::1]:5433/d");
        assert!(u.is_loopback());
        assert_eq!(url("postgres://u@[2001:db8::1]/d").host(), "2001:db8::1");

        let u = url("postgres://u@%2Fvar%2Frun%2Fpostgresql/d");
        assert_eq!(u.host(), "/var/run/postgresql");
        assert!(u.is_unix_socket() && u.is_loopback());
        assert_eq!(
            u.to_string(),
            "postgres://u@%2Fvar%2Frun%2Fpostgresql:5432/d"
        );
        assert_eq!(tls_plan(&u), TlsPlan::Off, "no TLS on a Unix socket");

        for host in ["localhost", "LocalHost", "127.0.0.1", "127.8.9.10", "[::1]"] {
            assert!(
                url(&format!("postgres://u@{host}/d")).is_loopback(),
                "{host}"
            );
        }
        for host in [
            "db.example.com",
            "10.0.0.1",
            "128.0.0.1",
            "[::2]",
            "localhost.example",
        ] {
            assert!(
                !url(&format!("postgres://u@{host}/d")).is_loopback(),
                "{host}"
            );
        }
    }

    #[test]
    fn bad_urls_are_refused_in_words() {
        let cases: [(&str, &str); 17] = [
            ("db.sqlite", "not a PostgreSQL URL"),
            ("mysql://u@h/d", "`mysql://` URLs are not supported"),
            ("postgres://u@h/d#x", "no `#` part"),
            (
                "postgres://u@h/d?sslmode=foo",
                "sslmode \"foo\" is not one of disable, allow, prefer, require, verify-ca, verify-full",
            ),
            ("postgres://u@h/d?sslmode=", "sslmode \"\" is not one of"),
            ("postgres://u@h/d?sslcert=x", "unknown parameter `sslcert`"),
            (
                "postgres://u@h/d?sslmode",
                "parameter `sslmode` in the URL has no value",
            ),
            (
                "postgres://u@h/d?sslmode=require&sslmode=disable",
                "`sslmode` is given twice",
            ),
            (
                "postgres://u@h/d?connect_timeout=-1",
                "connect_timeout \"-1\" is not a whole number",
            ),
            ("postgres://u@h:99999/d", "must be a number from 1 to 65535"),
            ("postgres://u@h:0/d", "must be a number from 1 to 65535"),
            ("postgres://u@h:x/d", "must be a number from 1 to 65535"),
            ("postgres://u@a,b/d", "several hosts (a,b)"),
            ("postgres://u@::1/d", "written in brackets"),
            ("postgres://u@[::1/d", "written in brackets"),
            (
                "postgres://u@h/d%zz",
                "database name in the URL has a `%` that is not followed",
            ),
            (
                "postgres://u@h/d?sslrootcert=system&sslmode=require",
                "sslrootcert=system needs sslmode=verify-full",
            ),
        ];
        for (text, expected) in cases {
            let message = refusal(text).to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
        assert!(
            refusal("postgres://u@h/d%FF")
                .to_string()
                .contains("not valid UTF-8")
        );
        assert!(
            refusal("postgres://u@h/d?sslrootcert=")
                .to_string()
                .contains("sslrootcert is empty")
        );
    }

    #[test]
    fn refusals_never_show_the_password() {
        for text in [
            format!("postgres://u:{SECRET}%ZZ@h/d"),
            format!("postgres://u:{SECRET}%FF@h/d"),
            // Unescaped `/`, `?`, `#` in the password move the `@` past the host.
            format!("postgres://u:ab/{SECRET}@h/d"),
            format!("postgres://u:ab?{SECRET}@h/d"),
            format!("postgres://u:ab#{SECRET}@h/d"),
            format!("postgres://u:12/{SECRET}@h/d"),
            // No `@` at all: the password reads as a port.
            format!("postgres://u:{SECRET}"),
        ] {
            let err = refusal(&text);
            assert!(!err.to_string().contains(SECRET), "{err}");
            assert!(!format!("{err:?}").contains(SECRET), "{err:?}");
        }
    }

    #[test]
    fn the_password_is_never_shown() {
        let u = url(&format!("postgres://alice:{SECRET}@db/tax?sslmode=require"));
        assert_eq!(
            u.to_string(),
            "postgres://alice:***@db:5432/tax?sslmode=require"
        );
        assert_eq!(u.redacted(), u.to_string());
        let debug = format!("{u:?}");
        assert!(!debug.contains(SECRET), "{debug}");
        assert!(debug.contains("\"***\""), "{debug}");
        assert!(!u.keyring_user().contains(SECRET));
        assert_eq!(
            u.without_password().to_string(),
            "postgres://alice@db:5432/tax?sslmode=require"
        );
        let found = FoundPassword {
            secret: Zeroizing::new(SECRET.to_owned()),
            source: PasswordSource::Url,
        };
        assert!(!format!("{found:?}").contains(SECRET));
    }

    #[test]
    fn schemes_are_told_from_file_names() {
        assert_eq!(scheme_of("postgres://u@h/d"), Some("postgres"));
        assert_eq!(scheme_of("postgresql://"), Some("postgresql"));
        assert_eq!(scheme_of("mysql://x"), Some("mysql"));
        assert_eq!(scheme_of("sqlite:///tmp/x.db"), Some("sqlite"));
        assert_eq!(scheme_of("HTTPS://example.com"), Some("HTTPS"));
        assert_eq!(scheme_of("git+ssh://host/x"), Some("git+ssh"));
        assert_eq!(scheme_of("x-y.z://"), Some("x-y.z"));
        for text in [
            "history.db",
            "/var/lib/taxdash/history.db",
            "./a://b",
            "C:\\Users\\me\\history.db",
            "C://Users/me/history.db",
            "1abc://x",
            "://x",
            "my db://x",
            "",
        ] {
            assert_eq!(scheme_of(text), None, "{text}");
        }
        assert!(is_postgres_scheme("PostgreSQL"));
        assert!(!is_postgres_scheme("postgis"));
    }

    #[test]
    fn sslmode_defaults_by_host() {
        assert_eq!(url("postgres://u@localhost/d").ssl_mode(), SslMode::Prefer);
        assert_eq!(url("postgres://u@127.0.0.1/d").ssl_mode(), SslMode::Prefer);
        assert_eq!(url("postgres://u@[::1]/d").ssl_mode(), SslMode::Prefer);
        assert_eq!(
            url("postgres://u@db.example.com/d").ssl_mode(),
            SslMode::Require
        );
        assert_eq!(url("postgres://u@10.1.2.3/d").ssl_mode(), SslMode::Require);
        assert_eq!(
            url("postgres://u@db.example.com/d?sslrootcert=system").ssl_mode(),
            SslMode::VerifyFull
        );
        assert_eq!(
            url("postgres://u@db.example.com/d?sslmode=disable").ssl_mode(),
            SslMode::Disable,
            "a mode given is a mode kept"
        );
        assert_eq!(url("postgres://u@db/d").ssl_mode_given(), None);
    }

    #[test]
    fn the_tls_plan_follows_libpq() {
        let plan = |q: &str| tls_plan(&url(&format!("postgres://u@db.example.com/d{q}")));
        let ca = || Roots::File(PathBuf::from("/ca.pem"));
        assert_eq!(plan("?sslmode=disable"), TlsPlan::Off);
        assert_eq!(plan("?sslmode=allow"), TlsPlan::Prefer(Check::Nothing));
        assert_eq!(plan("?sslmode=prefer"), TlsPlan::Prefer(Check::Nothing));
        assert_eq!(
            plan("?sslmode=prefer&sslrootcert=/ca.pem"),
            TlsPlan::Prefer(Check::Chain(ca()))
        );
        assert_eq!(plan(""), TlsPlan::Require(Check::Nothing));
        assert_eq!(plan("?sslmode=require"), TlsPlan::Require(Check::Nothing));
        assert_eq!(
            plan("?sslmode=require&sslrootcert=/ca.pem"),
            TlsPlan::Require(Check::Chain(ca()))
        );
        assert_eq!(
            plan("?sslmode=verify-ca"),
            TlsPlan::Require(Check::Chain(Roots::Platform))
        );
        assert_eq!(
            plan("?sslmode=verify-ca&sslrootcert=/ca.pem"),
            TlsPlan::Require(Check::Chain(ca()))
        );
        assert_eq!(
            plan("?sslmode=verify-full"),
            TlsPlan::Require(Check::Full(Roots::Platform))
        );
        assert_eq!(
            plan("?sslrootcert=system"),
            TlsPlan::Require(Check::Full(Roots::Platform))
        );
        assert_eq!(
            plan("?sslmode=verify-full&sslrootcert=/ca.pem"),
            TlsPlan::Require(Check::Full(ca()))
        );
    }

    #[test]
    fn every_tls_configuration_can_be_built() {
        let u = url("postgres://u@db/d");
        for check in [
            Check::Nothing,
            Check::Chain(Roots::Platform),
            Check::Full(Roots::Platform),
        ] {
            client_config(&check, &u).unwrap();
        }
        let missing = Check::Full(Roots::File(PathBuf::from("/nonexistent/ca.pem")));
        let err = client_config(&missing, &u).unwrap_err().to_string();
        assert!(
            err.contains("/nonexistent/ca.pem") && err.contains("cannot be read"),
            "{err}"
        );
        let dir = tempfile::tempdir().unwrap();
        let junk = dir.path().join("junk.pem");
        std::fs::write(&junk, "not a certificate\n").unwrap();
        let err = client_config(&Check::Chain(Roots::File(junk)), &u)
            .unwrap_err()
            .to_string();
        assert!(err.contains("holds no PEM certificate"), "{err}");
    }

    const LINE_URL: &str = "postgres://alice@db.example.com:5432/tax";

    #[test]
    fn pass_file_lines_match_as_in_libpq() {
        let u = url(LINE_URL);
        let find = |text: &str| match_pass_file(text, &u).map(|p| p.to_string());
        assert_eq!(
            find("db.example.com:5432:tax:alice:one\n"),
            Some("one".into())
        );
        assert_eq!(find("*:*:*:*:any"), Some("any".into()));
        assert_eq!(
            find(
                "# comment\n\nother:5432:tax:alice:no\ndb.example.com:5433:tax:alice:no\n\
                  db.example.com:5432:tax:alice:first\n*:*:*:*:second\n"
            ),
            Some("first".into()),
            "the first matching line wins"
        );
        assert_eq!(find("db.example.com:5432:tax:bob:no\n"), None);
        assert_eq!(
            find("db.example.com:5432:tax:alice\n"),
            None,
            "too few fields"
        );
        assert_eq!(
            find("db.example.com:5432:tax:alice:\n"),
            None,
            "empty password"
        );
        assert_eq!(
            find("db.example.com:5432:tax:alice:crlf\r\n"),
            Some("crlf".into())
        );
        // Escapes: `\:` and `\\` in the password; `\*` is a literal star, not a wildcard.
        assert_eq!(find("*:*:*:*:a\\:b\\\\c"), Some("a:b\\c".into()));
        assert_eq!(find("\\*:*:*:*:no\n*:*:*:*:yes"), Some("yes".into()));
        // Extra fields after the password are ignored.
        assert_eq!(find("*:*:*:*:pw:extra"), Some("pw".into()));

        let v6 = url("postgres://alice@[::1]:5432/tax");
        assert_eq!(
            match_pass_file("\\:\\:1:5432:tax:alice:six", &v6).map(|p| p.to_string()),
            Some("six".into())
        );
        // A server on this machine matches `localhost` lines.
        assert_eq!(
            match_pass_file("localhost:5432:tax:alice:local", &v6).map(|p| p.to_string()),
            Some("local".into())
        );
        assert_eq!(
            match_pass_file(
                "localhost:5432:tax:alice:sock",
                &url("postgres://alice@%2Ftmp/tax")
            )
            .map(|p| p.to_string()),
            Some("sock".into())
        );
        assert_eq!(
            find("localhost:5432:tax:alice:no"),
            None,
            "not for a remote host"
        );
    }

    fn write_private(path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
    }

    #[test]
    fn a_pass_file_others_can_read_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pgpass");
        write_private(&path, "*:*:*:*:filepw\n");
        let u = url(LINE_URL);
        assert_eq!(
            read_pass_file(&path, &u).unwrap().map(|p| p.to_string()),
            Some("filepw".into())
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for mode in [0o640, 0o604, 0o620, 0o644] {
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
                let why = read_pass_file(&path, &u).unwrap_err();
                assert!(why.contains("chmod 600"), "{mode:o}: {why}");
            }
        }
        assert_eq!(
            read_pass_file(&dir.path().join("none"), &u).unwrap_err(),
            "not found"
        );
        assert!(
            read_pass_file(dir.path(), &u)
                .unwrap_err()
                .contains("not a plain file")
        );
    }

    #[test]
    fn passwords_are_looked_for_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let pass_file = dir.path().join("pgpass");
        write_private(&pass_file, "*:*:*:*:from-file\n");
        let pass_file_text = pass_file.to_str().unwrap();
        let keys = KeyStore::mock();
        let plain = url(LINE_URL);
        let with_password = url("postgres://alice:from-url@db.example.com:5432/tax");
        let source = |u: &ServerUrl, keys: &KeyStore, env: &[(&str, &str)]| {
            let search = find_password(u, keys, &env_of(env));
            search
                .found
                .map(|f| (f.expose().to_owned(), f.source().clone()))
        };

        let all = [(ENV_PASSWORD, "from-env"), (ENV_PASSFILE, pass_file_text)];
        store_password(&keys, &plain, "from-keyring").unwrap();
        assert_eq!(
            source(&with_password, &keys, &all),
            Some(("from-url".into(), PasswordSource::Url))
        );
        assert_eq!(
            source(&plain, &keys, &all),
            Some(("from-env".into(), PasswordSource::EnvVar))
        );
        let no_env = [(ENV_PASSWORD, ""), (ENV_PASSFILE, pass_file_text)];
        assert_eq!(
            source(&plain, &keys, &no_env),
            Some(("from-keyring".into(), PasswordSource::Keyring)),
            "an empty PGPASSWORD counts as unset"
        );
        assert!(forget_password(&keys, &plain).unwrap());
        assert!(!forget_password(&keys, &plain).unwrap());
        assert_eq!(
            source(&plain, &keys, &no_env),
            Some((
                "from-file".into(),
                PasswordSource::PassFile(pass_file.clone())
            ))
        );
        // A keyring that does not work is passed over.
        let broken = KeyStore::unavailable("no D-Bus here");
        assert_eq!(
            source(&plain, &broken, &no_env),
            Some((
                "from-file".into(),
                PasswordSource::PassFile(pass_file.clone())
            ))
        );
        // The entry is per server: another database does not see it.
        store_password(&keys, &plain, "from-keyring").unwrap();
        let other_db = url("postgres://alice@db.example.com:5432/other");
        assert_eq!(
            source(&other_db, &keys, &no_env).map(|(_, s)| s),
            Some(PasswordSource::PassFile(pass_file.clone()))
        );

        // Nothing anywhere: the places looked in are listed.
        let empty = dir.path().join("empty");
        write_private(&empty, "# nothing\n");
        let search = find_password(
            &plain,
            &broken,
            &env_of(&[(ENV_PASSFILE, empty.to_str().unwrap())]),
        );
        assert!(search.found.is_none());
        let looked = search.looked.join(" | ");
        assert!(looked.starts_with("PGPASSWORD | the keyring entry `taxdash-history` / `alice@db.example.com:5432/tax` (the keyring could not be read"), "{looked}");
        assert!(
            looked.ends_with(&format!(
                "the password file {} (no line for this server)",
                empty.display()
            )),
            "{looked}"
        );

        // HOME gives the default file.
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        write_private(&home.join(".pgpass"), "*:*:*:*:home-file\n");
        if !cfg!(windows) {
            assert_eq!(
                source(&plain, &broken, &[("HOME", home.to_str().unwrap())]).map(|(p, _)| p),
                Some("home-file".into())
            );
        }

        assert!(matches!(
            store_password(&keys, &plain, ""),
            Err(CredentialError::InvalidKey { .. })
        ));
    }

    // -------------------------------------------------------------------------------------
    // A scripted fake server: enough of the protocol to reach each failure.
    // -------------------------------------------------------------------------------------

    /// What the fake server does after the startup message.
    #[derive(Clone, Copy)]
    enum Script {
        /// Ask for a cleartext password, record it, refuse it.
        RefusePassword,
        /// Accept without a password, then say the database does not exist.
        NoDatabase,
    }

    fn read_message(stream: &mut TcpStream) -> Option<Vec<u8>> {
        let mut len = [0u8; 4];
        stream.read_exact(&mut len).ok()?;
        let mut body = vec![0u8; (u32::from_be_bytes(len) as usize).checked_sub(4)?];
        stream.read_exact(&mut body).ok()?;
        Some(body)
    }

    fn error_response(code: &str, message: &str) -> Vec<u8> {
        let mut fields = Vec::new();
        for (tag, value) in [
            (b'S', "FATAL"),
            (b'V', "FATAL"),
            (b'C', code),
            (b'M', message),
        ] {
            fields.push(tag);
            fields.extend_from_slice(value.as_bytes());
            fields.push(0);
        }
        fields.push(0);
        let mut out = vec![b'E'];
        out.extend_from_slice(&(fields.len() as u32 + 4).to_be_bytes());
        out.extend_from_slice(&fields);
        out
    }

    /// Starts a one-connection fake server; returns its port and, once it is done, the
    /// password it was sent (if any).
    fn fake_server(script: Script) -> (u16, std::thread::JoinHandle<Option<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let handle = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().ok()?;
            let mut startup = read_message(&mut stream)?;
            if startup == [0x04, 0xd2, 0x16, 0x2f] {
                // SSLRequest: no TLS here.
                stream.write_all(b"N").ok()?;
                startup = read_message(&mut stream)?;
            }
            assert_eq!(&startup[..4], &[0, 3, 0, 0], "protocol 3.0");
            match script {
                Script::RefusePassword => {
                    // AuthenticationCleartextPassword.
                    stream.write_all(&[b'R', 0, 0, 0, 8, 0, 0, 0, 3]).ok()?;
                    let mut tag = [0u8; 1];
                    // Nothing comes when the client has no password to send.
                    stream.read_exact(&mut tag).ok()?;
                    assert_eq!(tag[0], b'p');
                    let mut body = read_message(&mut stream)?;
                    body.pop(); // The NUL.
                    stream
                        .write_all(&error_response(
                            "28P01",
                            "password authentication failed for user \"alice\"",
                        ))
                        .ok()?;
                    Some(String::from_utf8(body).unwrap())
                }
                Script::NoDatabase => {
                    // AuthenticationOk, then the refusal.
                    stream.write_all(&[b'R', 0, 0, 0, 8, 0, 0, 0, 0]).ok()?;
                    stream
                        .write_all(&error_response("3D000", "database \"tax\" does not exist"))
                        .ok()?;
                    None
                }
            }
        });
        (port, handle)
    }

    fn failure(result: Result<postgres::Client, ConnectError>) -> ConnectError {
        match result {
            Ok(_) => panic!("connected, where a failure was expected"),
            Err(err) => err,
        }
    }

    fn no_pass_file(dir: &Path) -> impl Fn(&str) -> Option<String> + use<> {
        env_of(&[(ENV_PASSFILE, dir.join("none").to_str().unwrap())])
    }

    #[test]
    fn a_refused_password_is_named_by_its_source_not_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let keys = KeyStore::mock();
        let (port, server) = fake_server(Script::RefusePassword);
        let u = url(&format!(
            "postgres://alice@127.0.0.1:{port}/tax?sslmode=disable"
        ));
        store_password(&keys, &u, SECRET).unwrap();
        let err = failure(connect(&u, &keys, &no_pass_file(dir.path())));
        assert_eq!(
            server.join().unwrap().as_deref(),
            Some(SECRET),
            "the keyring's was sent"
        );
        let message = err.to_string();
        assert!(matches!(
            err,
            ConnectError::PasswordRefused {
                origin: PasswordSource::Keyring,
                ..
            }
        ));
        assert!(!message.contains(SECRET) && !format!("{err:?}").contains(SECRET));
        assert!(
            message.contains(&format!("postgres://alice@127.0.0.1:{port}/tax")),
            "{message}"
        );
        assert!(
            message.contains("taxdash history login postgres://alice@127.0.0.1"),
            "{message}"
        );

        // The URL's own password, over `prefer` (the fake server answers the TLS request `N`).
        let (port, server) = fake_server(Script::RefusePassword);
        let u = url(&format!("postgres://alice:{SECRET}@localhost:{port}/tax"));
        let err = failure(connect(&u, &keys, &no_pass_file(dir.path())));
        assert_eq!(server.join().unwrap().as_deref(), Some(SECRET));
        let message = err.to_string();
        assert!(!message.contains(SECRET), "{message}");
        assert!(message.contains("alice:***@localhost"), "{message}");
        assert!(
            message.contains("correct the password in the URL"),
            "{message}"
        );
    }

    #[test]
    fn a_missing_password_lists_where_it_was_looked_for() {
        let dir = tempfile::tempdir().unwrap();
        let (port, server) = fake_server(Script::RefusePassword);
        let u = url(&format!(
            "postgres://alice@127.0.0.1:{port}/tax?sslmode=disable"
        ));
        let err = failure(connect(&u, &KeyStore::mock(), &no_pass_file(dir.path())));
        assert_eq!(server.join().unwrap(), None, "no password was sent");
        let message = err.to_string();
        assert!(matches!(err, ConnectError::NoPassword { .. }), "{err:?}");
        for part in [
            "asks for a password for user `alice`",
            "PGPASSWORD, the keyring entry `taxdash-history`",
            "the password file",
            &format!("taxdash history login postgres://alice@127.0.0.1:{port}/tax?sslmode=disable"),
        ] {
            assert!(message.contains(part), "{part}: {message}");
        }
    }

    #[test]
    fn a_missing_database_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let (port, server) = fake_server(Script::NoDatabase);
        let u = url(&format!(
            "postgres://alice@127.0.0.1:{port}/tax?sslmode=disable"
        ));
        let err = failure(connect(&u, &KeyStore::mock(), &no_pass_file(dir.path())));
        server.join().unwrap();
        assert!(
            err.to_string().starts_with(
                "the database `tax` does not exist on the history server postgres://alice@127.0.0.1"
            ),
            "{err}"
        );
    }

    #[test]
    fn an_unreachable_server_is_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let port = {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let u = url(&format!(
            "postgres://alice:{SECRET}@127.0.0.1:{port}/tax?sslmode=require"
        ));
        let err = failure(connect(&u, &KeyStore::mock(), &no_pass_file(dir.path())));
        let message = err.to_string();
        assert!(matches!(err, ConnectError::Unreachable { .. }), "{err:?}");
        assert!(
            message.starts_with(&format!(
                "cannot reach the history server postgres://alice:***@127.0.0.1:{port}/tax"
            )),
            "{message}"
        );
        assert!(!message.contains(SECRET));
    }

    #[test]
    fn a_server_without_tls_fails_where_tls_is_required() {
        let dir = tempfile::tempdir().unwrap();
        let (port, server) = fake_server(Script::NoDatabase);
        let u = url(&format!(
            "postgres://alice@127.0.0.1:{port}/tax?sslmode=require"
        ));
        let err = failure(connect(&u, &KeyStore::mock(), &no_pass_file(dir.path())));
        assert_eq!(server.join().unwrap(), None, "the client hung up");
        assert!(
            err.to_string()
                .contains("the server does not offer TLS, and sslmode=require requires it"),
            "{err}"
        );
    }

    #[test]
    fn connecting_from_an_async_task_is_refused_not_a_panic() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let u = url("postgres://alice@127.0.0.1:1/tax");
        let err = runtime.block_on(async { failure(connect(&u, &KeyStore::mock(), &env_of(&[]))) });
        assert!(matches!(err, ConnectError::OnAsyncTask { .. }));
    }

    /// Runs against the server `TAXDASH_TEST_POSTGRES` names (a loopback server with trust
    /// authentication), when it is set.
    #[test]
    fn connects_to_the_test_server() {
        let Some(text) = std::env::var("TAXDASH_TEST_POSTGRES")
            .ok()
            .filter(|v| !v.trim().is_empty())
        else {
            return;
        };
        let base = ServerUrl::parse(&text).unwrap();
        for mode in [SslMode::Disable, SslMode::Prefer] {
            let mut u = base.clone();
            u.ssl_mode = Some(mode);
            let shown = u.to_string();
            let one = std::thread::spawn(move || {
                let dir = tempfile::tempdir().unwrap();
                let mut client = connect(&u, &KeyStore::mock(), &no_pass_file(dir.path()))?;
                let row = client
                    .query_one("SELECT 1", &[])
                    .map_err(|err| ConnectError::Other {
                        server: u.redacted(),
                        reason: err.to_string(),
                    })?;
                Ok::<i32, ConnectError>(row.get(0))
            })
            .join()
            .unwrap();
            assert_eq!(one.unwrap_or_else(|err| panic!("{shown}: {err}")), 1);
        }
    }
}
