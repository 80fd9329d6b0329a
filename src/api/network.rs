//! Transport failures in words: what went wrong between taxdash and the service, said the way
//! a user can act on ("could not connect to 127.0.0.1:8080: connection refused") instead of the
//! HTTP stack's chain of errors, which goes to the log.

use std::error::Error;
use std::io;
use std::time::Duration;

use url::Url;

use super::error::seconds;

/// What a transport error says about itself, gathered from its chain of causes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Symptoms {
    /// The connection never opened.
    pub connect: bool,
    /// A timer ran out.
    pub timeout: bool,
    /// The answer's body broke off.
    pub body: bool,
    /// The operating system's reason, when one is in the chain.
    pub io: Option<io::ErrorKind>,
    /// Each cause's text, outermost first.
    pub chain: Vec<String>,
}

impl Symptoms {
    pub fn of(e: &reqwest::Error) -> Self {
        let mut symptoms = Symptoms {
            connect: e.is_connect(),
            timeout: e.is_timeout(),
            body: e.is_body() || e.is_decode(),
            io: None,
            chain: vec![e.to_string()],
        };
        let mut source = e.source();
        while let Some(cause) = source {
            if symptoms.io.is_none()
                && let Some(io) = cause.downcast_ref::<io::Error>()
            {
                symptoms.io = Some(io.kind());
            }
            symptoms.chain.push(cause.to_string());
            source = cause.source();
        }
        symptoms
    }

    fn mentions(&self, words: &[&str]) -> bool {
        self.chain.iter().any(|text| {
            let text = text.to_lowercase();
            words.iter().any(|w| text.contains(w))
        })
    }

    /// The innermost cause's text: the most specific one.
    fn innermost(&self) -> &str {
        self.chain.last().map_or("", String::as_str)
    }

    /// The failure in words, for `url`'s host and port; `connect_timeout` is the wait for a
    /// connection to open.
    pub fn words(&self, url: &Url, connect_timeout: Duration) -> String {
        let host = url.host_str().unwrap_or("the service");
        let target = match url.port_or_known_default() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        let tls = url.scheme() == "https";
        if self.mentions(&[
            "dns error",
            "failed to lookup address",
            "name or service not known",
        ]) {
            return format!("could not find the host {host} (the name does not resolve)");
        }
        if self.connect && self.timeout {
            return format!(
                "could not connect to {target}: no answer within {}",
                seconds(connect_timeout)
            );
        }
        // Over https, a connection that failed after the TCP connection opened failed in the
        // TLS handshake.
        if tls
            && (self.mentions(&["certificate", "tls", "handshake"])
                || (self.connect && !self.mentions(&["tcp connect error", "tcp open error"])))
        {
            return format!(
                "could not set up a secure connection to {target}: {}",
                self.innermost()
            );
        }
        match self.io {
            Some(io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted) => {
                return format!("the connection to {target} was reset before an answer came");
            }
            Some(io::ErrorKind::BrokenPipe) => {
                return format!("the connection to {target} broke before an answer came");
            }
            Some(io::ErrorKind::UnexpectedEof) => return closed(&target),
            Some(kind) if self.connect => return format!("could not connect to {target}: {kind}"),
            _ => {}
        }
        if self.mentions(&["connection closed before message completed", "incomplete"]) {
            return closed(&target);
        }
        if self.connect {
            return format!("could not connect to {target}: {}", self.innermost());
        }
        if self.body {
            return format!("the answer from {target} broke off: {}", self.innermost());
        }
        format!("the request to {target} failed: {}", self.innermost())
    }

    /// The whole chain on one line, for the log.
    pub fn chain(&self) -> String {
        self.chain.join(": ")
    }
}

fn closed(target: &str) -> String {
    format!("the service at {target} closed the connection without answering")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symptoms(connect: bool, io: Option<io::ErrorKind>, chain: &[&str]) -> Symptoms {
        Symptoms {
            connect,
            io,
            chain: chain.iter().map(|s| (*s).to_owned()).collect(),
            ..Symptoms::default()
        }
    }

    fn words(s: &Symptoms, url: &str) -> String {
        s.words(&Url::parse(url).unwrap(), Duration::from_secs(10))
    }

    #[test]
    fn each_failure_is_said_in_words() {
        let refused = symptoms(
            true,
            Some(io::ErrorKind::ConnectionRefused),
            &[
                "error sending request",
                "client error (Connect)",
                "tcp connect error",
                "Connection refused (os error 111)",
            ],
        );
        assert_eq!(
            words(&refused, "http://127.0.0.1:8080"),
            "could not connect to 127.0.0.1:8080: connection refused"
        );
        let dns = symptoms(
            true,
            None,
            &[
                "error sending request",
                "client error (Connect)",
                "dns error",
                "failed to lookup address information: Name or service not known",
            ],
        );
        assert_eq!(
            words(&dns, "https://api.example.invalid"),
            "could not find the host api.example.invalid (the name does not resolve)"
        );
        let tls = symptoms(
            true,
            Some(io::ErrorKind::InvalidData),
            &[
                "error sending request",
                "client error (Connect)",
                "invalid peer certificate: UnknownIssuer",
            ],
        );
        assert_eq!(
            words(&tls, "https://api.example.com"),
            "could not set up a secure connection to api.example.com:443: invalid peer \
             certificate: UnknownIssuer"
        );
        let slow = Symptoms {
            timeout: true,
            ..symptoms(
                true,
                Some(io::ErrorKind::TimedOut),
                &["operation timed out"],
            )
        };
        assert_eq!(
            words(&slow, "https://api.example.com"),
            "could not connect to api.example.com:443: no answer within 10 s"
        );
        let reset = symptoms(
            false,
            Some(io::ErrorKind::ConnectionReset),
            &["error sending request", "connection reset by peer"],
        );
        assert_eq!(
            words(&reset, "http://127.0.0.1:9"),
            "the connection to 127.0.0.1:9 was reset before an answer came"
        );
        let closed = symptoms(
            false,
            None,
            &[
                "error sending request",
                "client error (SendRequest)",
                "connection closed before message completed",
            ],
        );
        assert_eq!(
            words(&closed, "http://127.0.0.1:9"),
            "the service at 127.0.0.1:9 closed the connection without answering"
        );
        assert!(!words(&refused, "http://127.0.0.1:8080").contains("error sending request"));
        assert_eq!(
            refused.chain(),
            "error sending request: client error (Connect): tcp connect error: Connection \
             refused (os error 111)"
        );
    }
}
