//! The scrape endpoint: a thread answering HTTP/1.1 `GET` on any path, one connection at a
//! time (a scrape is short), with the body the `Accept` header asks for.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::Duration;

use picollo::prometheus::PROTOBUF_CONTENT_TYPE;

use crate::PicolloHandle;

/// The content type of the text exposition.
pub const OPENMETRICS_CONTENT_TYPE: &str =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The longest request head read (request line and headers).
const MAX_HEAD: usize = 16 * 1024;

/// Bind `addr` and answer scrapes from a thread of its own for as long as the process
/// runs; the address bound (port 0 picks a free one).
pub(crate) fn spawn(addr: impl ToSocketAddrs, handle: PicolloHandle) -> io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr)?;
    let bound = listener.local_addr()?;
    std::thread::Builder::new()
        .name("picollo-metrics-http".into())
        .spawn(move || {
            for stream in listener.incoming().flatten() {
                // A client that hangs up or sends garbage only loses its own answer.
                let _ = answer(stream, &handle);
            }
        })?;
    Ok(bound)
}

fn answer(mut stream: TcpStream, handle: &PicolloHandle) -> io::Result<()> {
    // A client that stalls holds the next scrape up for 5 s at most.
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.set_write_timeout(Some(Duration::from_secs(5)))?;
    let head = read_head(&mut stream)?;
    let mut lines = head.split("\r\n");
    let request = lines.next().unwrap_or("");
    let accept = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("accept"))
        .map_or("", |(_, value)| value.trim());
    let (status, content_type, body) = if !request.starts_with("GET ") {
        (
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n".to_vec(),
        )
    } else if wants_protobuf(accept) {
        ("200 OK", PROTOBUF_CONTENT_TYPE, handle.render_protobuf())
    } else {
        let text = handle.render().into_bytes();
        ("200 OK", OPENMETRICS_CONTENT_TYPE, text)
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nAllow: GET\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(&body)?;
    stream.flush()
}

/// The request line and headers, up to the blank line.
fn read_head(stream: &mut TcpStream) -> io::Result<String> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk)?;
        if n == 0 || head.len() + n > MAX_HEAD {
            return Err(io::ErrorKind::InvalidData.into());
        }
        head.extend_from_slice(&chunk[..n]);
    }
    Ok(String::from_utf8_lossy(&head).into_owned())
}

/// Whether an `Accept` header prefers the delimited `MetricFamily` protobuf: its weight
/// (`q`, default 1) is positive and at least that of every text type it lists
/// (`application/openmetrics-text`, `text/plain`, `text/*`, `*/*`).
pub fn wants_protobuf(accept: &str) -> bool {
    let (mut protobuf, mut text) = (0.0f64, 0.0f64);
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or("").to_ascii_lowercase();
        let (mut q, mut proto_ok, mut encoding_ok) = (1.0, false, true);
        for p in parts {
            let Some((k, v)) = p.split_once('=') else {
                continue;
            };
            let v = v.trim().trim_matches('"');
            match k.trim().to_ascii_lowercase().as_str() {
                "q" => q = v.parse().unwrap_or(0.0),
                "proto" => proto_ok = v == "io.prometheus.client.MetricFamily",
                "encoding" => encoding_ok = v == "delimited",
                _ => {}
            }
        }
        match media.as_str() {
            "application/vnd.google.protobuf" if proto_ok && encoding_ok => {
                protobuf = protobuf.max(q)
            }
            "application/openmetrics-text" | "text/plain" | "text/*" | "*/*" => text = text.max(q),
            _ => {}
        }
    }
    protobuf > 0.0 && protobuf >= text
}

#[cfg(test)]
mod tests {
    use super::wants_protobuf;

    #[test]
    fn protobuf_only_when_asked_for_at_the_highest_weight() {
        // Prometheus 2.42 with native histograms on.
        let prometheus = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3,*/*;q=0.2";
        assert!(wants_protobuf(prometheus));
        // Prometheus without them.
        let text = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert!(!wants_protobuf(text));
        assert!(!wants_protobuf(""));
        assert!(!wants_protobuf("*/*"));
        // Another message type, or the text form of it, is not this protobuf.
        assert!(!wants_protobuf(
            "application/vnd.google.protobuf;proto=other.Message;encoding=delimited"
        ));
        assert!(!wants_protobuf(
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text"
        ));
        assert!(!wants_protobuf("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.2,text/plain;q=0.5"));
    }
}
