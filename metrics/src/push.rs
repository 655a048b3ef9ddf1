//! The OTLP push: every interval, a thread POSTs the registry as an OTLP/HTTP protobuf
//! request (`application/x-protobuf`) to an `http://` endpoint, with a small HTTP/1.1 client
//! over `TcpStream` (plain HTTP only: no TLS). Failures are counted and kept, never raised.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::layout::BuildError;
use crate::otlp::{self, Times};
use crate::recorder::PicolloHandle;
use crate::registry::{FamilyCopy, Registry};

/// The content type of an OTLP/HTTP protobuf body.
pub const OTLP_PROTOBUF_CONTENT_TYPE: &str = "application/x-protobuf";

/// How long a connection, a write or a read of the answer may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Where and how often to push: an OTLP/HTTP endpoint (`http://HOST:PORT/v1/metrics`,
/// the path as given: nothing is appended), the interval, and headers sent with each
/// request (an `Authorization`, say), as OpenTelemetry's exporters are configured.
#[derive(Clone, Debug, PartialEq)]
pub struct OtlpPush {
    host: String,
    port: u16,
    path: String,
    interval: Duration,
    headers: Vec<(String, String)>,
    resource: Vec<(String, String)>,
}

impl OtlpPush {
    /// A push to `endpoint` every `interval`.
    ///
    /// # Errors
    /// [`BuildError::InvalidEndpoint`] unless `endpoint` is `http://HOST[:PORT][/PATH]`
    /// (port 80 when left out; `https` is refused: there is no TLS here) and `interval`
    /// is above 0.
    pub fn new(endpoint: &str, interval: Duration) -> Result<Self, BuildError> {
        let bad = |why: &str| BuildError::InvalidEndpoint(format!("{endpoint:?}: {why}"));
        if interval.is_zero() {
            return Err(bad("the interval is 0"));
        }
        let rest = endpoint
            .strip_prefix("http://")
            .ok_or_else(|| bad("only http:// endpoints are pushed to (no TLS)"))?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        // An IPv6 address is bracketed (`[::1]:4318`); the port follows the host's end.
        let host_end = match authority.strip_prefix('[') {
            Some(v6) => v6.find(']').map_or(authority.len(), |k| k + 2),
            None => authority.find(':').unwrap_or(authority.len()),
        };
        let (host, port) = authority.split_at(host_end);
        let port = match port.strip_prefix(':') {
            Some(p) => p.parse().map_err(|_| bad("the port is not a number"))?,
            None if port.is_empty() => 80,
            None => return Err(bad("the host is not followed by a port")),
        };
        let host = host.trim_start_matches('[').trim_end_matches(']');
        if host.is_empty() || path.chars().any(|c| c.is_ascii_control() || c == ' ') {
            return Err(bad("no host, or a path with spaces or control characters"));
        }
        Ok(OtlpPush {
            host: host.into(),
            port,
            path: if path.is_empty() {
                "/".into()
            } else {
                path.into()
            },
            interval,
            headers: Vec::new(),
            resource: vec![("service.name".into(), "unknown_service".into())],
        })
    }

    /// A header sent with every request.
    ///
    /// # Errors
    /// [`BuildError::InvalidEndpoint`] for a name that is not an HTTP token or a value
    /// with a line break or another control character.
    pub fn with_header(mut self, name: &str, value: &str) -> Result<Self, BuildError> {
        let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if name.is_empty() || !name.chars().all(token) || value.chars().any(|c| c.is_control()) {
            return Err(BuildError::InvalidEndpoint(format!(
                "header {name:?} cannot be sent"
            )));
        }
        self.headers.push((name.into(), value.into()));
        Ok(self)
    }

    /// The resource's `service.name` (OpenTelemetry's default is `unknown_service`).
    pub fn with_service_name(mut self, name: &str) -> Self {
        self.resource[0].1 = name.into();
        self
    }

    /// The interval between pushes.
    pub fn interval(&self) -> Duration {
        self.interval
    }
}

/// A push set up: where to, since when, and what the pushes have done so far (shared by
/// the thread and the handles).
#[derive(Debug)]
pub(crate) struct PushState {
    pub(crate) to: OtlpPush,
    /// When counting started (the recorder's push was set up), ns since the epoch.
    pub(crate) start: u64,
    pub(crate) pushes: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) last_error: Mutex<Option<String>>,
}

impl PushState {
    pub(crate) fn new(to: OtlpPush) -> Self {
        PushState {
            to,
            start: now_ns(),
            pushes: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            last_error: Mutex::new(None),
        }
    }

    /// Push `families` once; counted either way.
    pub(crate) fn push(&self, families: &[FamilyCopy]) -> io::Result<()> {
        let resource: Vec<(&str, &str)> = (self.to.resource.iter())
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let times = Times {
            start: self.start,
            now: now_ns().max(self.start),
        };
        let result = post(&self.to, &otlp::request(families, &resource, times));
        match &result {
            Ok(()) => self.pushes.fetch_add(1, Ordering::Relaxed),
            Err(e) => {
                let mut last = self.last_error.lock().unwrap_or_else(|p| p.into_inner());
                *last = Some(e.to_string());
                self.errors.fetch_add(1, Ordering::Relaxed)
            }
        };
        result
    }
}

/// Nanoseconds since the Unix epoch (0 before it).
pub(crate) fn now_ns() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH);
    since.map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// POST `body` and read the status line: a 2xx answer is success.
fn post(to: &OtlpPush, body: &[u8]) -> io::Result<()> {
    let addr = (to.host.as_str(), to.port)
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "the host has no address"))?;
    let mut stream = TcpStream::connect_timeout(&addr, TIMEOUT)?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    stream.set_read_timeout(Some(TIMEOUT))?;
    let mut head = format!(
        "POST {} HTTP/1.1\r\nHost: {}:{}\r\nContent-Type: {OTLP_PROTOBUF_CONTENT_TYPE}\r\nContent-Length: {}\r\nConnection: close\r\n",
        to.path,
        if to.host.contains(':') { format!("[{}]", to.host) } else { to.host.clone() },
        to.port,
        body.len()
    );
    for (name, value) in &to.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    stream.flush()?;
    let status = read_status(&mut stream)?;
    if (200..300).contains(&status) {
        Ok(())
    } else {
        Err(io::Error::other(format!("the endpoint answered {status}")))
    }
}

/// The status code of the answer's first line (`HTTP/1.1 200 OK`).
fn read_status(stream: &mut TcpStream) -> io::Result<u16> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while !line.ends_with(b"\r\n") && line.len() < 1024 {
        if stream.read(&mut byte)? == 0 {
            break;
        }
        line.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&line);
    let mut words = line.split_whitespace();
    match (words.next(), words.next().and_then(|c| c.parse().ok())) {
        (Some(v), Some(code)) if v.starts_with("HTTP/") => Ok(code),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not an HTTP answer: {line:?}"),
        )),
    }
}

/// Push every interval from a thread of its own, until every handle of the registry is
/// gone (the thread holds it weakly).
pub(crate) fn spawn(registry: Weak<Registry>, state: Arc<PushState>) -> io::Result<()> {
    std::thread::Builder::new()
        .name("picollo-metrics-otlp".into())
        .spawn(move || loop {
            std::thread::sleep(state.to.interval);
            let Some(registry) = registry.upgrade() else {
                return;
            };
            let families = PicolloHandle::families_of(&registry);
            drop(registry);
            // Counted in `state`; the thread goes on either way.
            let _ = state.push(&families);
        })?;
    Ok(())
}
