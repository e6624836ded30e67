//! The PROXY protocol, version 2 (the binary form HAProxy's `send-proxy-v2` writes) and version
//! 1 (the text line nginx's `stream` module writes): a TCP load balancer in front of several
//! instances prepends one header to each connection that says whose connection it relays, so
//! the per-address limits and the logs see the player's address instead of the balancer's.
//!
//! Only connections from configured trusted addresses ([`TrustedProxies`]) are read this way;
//! each must start with a valid header, read with a deadline and a size bound before any SSH
//! byte ([`read_header`], either version). Every other connection is plain SSH, and one that
//! starts with a PROXY signature anyway (v2, or v1's `PROXY `) is refused by [`Sniff`], never
//! believed.
//!
//! The header (facts from HAProxy's `proxy-protocol.txt`): a 12-byte signature; one byte of
//! version (high nibble, must be 2) and command (low nibble: 0 LOCAL, a connection the proxy
//! made itself, e.g. a health check; 1 PROXY, a relayed one); one byte of address family (high
//! nibble: 0 unspecified, 1 IPv4, 2 IPv6, 3 unix) and transport (low nibble: 0 unspecified, 1
//! stream, 2 datagram); a big-endian `u16`, the length of the rest. The rest starts with the
//! addresses (IPv4: source, destination, source port, destination port, 12 bytes; IPv6: 36
//! bytes; unix: 216 bytes) and may go on with TLVs, which are skipped.
//!
//! Version 1 is one US-ASCII line of at most 107 bytes, CRLF included: `PROXY`, then, each after
//! one space, `TCP4` or `TCP6`, the source and destination addresses, the source and
//! destination ports in decimal, then CRLF; or `PROXY UNKNOWN` and anything up to the CRLF (a
//! connection the proxy cannot describe: its own address is used).

use std::fmt;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::time::{Instant, timeout_at};

pub use crate::config::proxies::{Cidr, TrustedProxies};

/// The 12 bytes every version 2 header starts with.
pub const SIGNATURE: [u8; 12] = *b"\r\n\r\n\0\r\nQUIT\n";

/// What a version 1 (text) header starts with; refused from untrusted addresses too.
const V1_START: &[u8] = b"PROXY ";

/// The longest version 1 header, its CRLF included.
pub const V1_MAX_LEN: usize = 107;

/// The fixed part of a version 2 header: signature, version and command, family and
/// transport, length.
pub const FIXED_LEN: usize = 16;

/// The most bytes accepted after the fixed part (addresses and TLVs). The addresses take at
/// most 216 (unix); HAProxy's TLVs (ALPN, authority, TLS details, unique id) fit with room to
/// spare. A longer header is refused before any of it is read.
pub const MAX_BODY_LEN: usize = 1024;

/// Where a relayed connection came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    /// The proxy's own connection (LOCAL, e.g. a health check), or a relayed one whose address
    /// is not an IP address (unspecified or unix family): the proxy's address is used.
    Local,
    /// A relayed TCP connection from this client.
    Proxied { source: SocketAddr },
}

impl Header {
    /// The address to count and log for a connection the proxy at `proxy` relayed.
    pub fn client(self, proxy: SocketAddr) -> SocketAddr {
        match self {
            Header::Local => proxy,
            Header::Proxied { source } => source,
        }
    }
}

/// Why a header was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum ProxyError {
    /// The connection starts with neither version's signature.
    BadSignature,
    /// A version other than 2.
    BadVersion(u8),
    /// A command other than LOCAL (0) or PROXY (1).
    BadCommand(u8),
    /// An address family other than 0-3.
    UnknownFamily(u8),
    /// A transport other than 0-2, or a relayed IP connection that is not a stream.
    BadTransport(u8),
    /// More bytes after the fixed part than [`MAX_BODY_LEN`].
    TooLong(usize),
    /// The length leaves no room for the addresses of the family.
    AddressesCut { family: u8, len: usize },
    /// The header ends before its length says (the connection closed, or a table test).
    Truncated,
    /// A version 1 line that does not follow the grammar (which part is named).
    BadLine(&'static str),
    /// No whole header within the deadline.
    Timeout,
    /// Reading failed.
    Io(io::ErrorKind),
}

impl fmt::Display for ProxyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProxyError::BadSignature => write!(f, "no PROXY signature"),
            ProxyError::BadVersion(v) => write!(f, "PROXY protocol version {v}, not 2"),
            ProxyError::BadCommand(c) => write!(f, "unknown PROXY command {c}"),
            ProxyError::UnknownFamily(a) => write!(f, "unknown address family {a}"),
            ProxyError::BadTransport(t) => write!(f, "unsupported transport {t}"),
            ProxyError::TooLong(n) => write!(f, "header of {n} bytes, at most {MAX_BODY_LEN}"),
            ProxyError::AddressesCut { family, len } => {
                write!(
                    f,
                    "{len} bytes cannot hold the addresses of family {family}"
                )
            }
            ProxyError::Truncated => write!(f, "the header ends early"),
            ProxyError::BadLine(part) => write!(f, "PROXY v1 line: bad {part}"),
            ProxyError::Timeout => write!(f, "no whole header in time"),
            ProxyError::Io(kind) => write!(f, "reading the header: {kind}"),
        }
    }
}

impl std::error::Error for ProxyError {}

const CMD_LOCAL: u8 = 0;
const CMD_PROXY: u8 = 1;
const FAMILY_UNSPEC: u8 = 0;
const FAMILY_INET: u8 = 1;
const FAMILY_INET6: u8 = 2;
const FAMILY_UNIX: u8 = 3;
const TRANSPORT_STREAM: u8 = 1;

/// The fixed part, checked: what the rest holds and how long it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed {
    command: u8,
    family: u8,
    transport: u8,
    /// Bytes after the fixed part.
    pub body_len: usize,
}

/// Checks the fixed 16 bytes.
pub fn parse_fixed(fixed: &[u8; FIXED_LEN]) -> Result<Fixed, ProxyError> {
    if fixed[..SIGNATURE.len()] != SIGNATURE {
        return Err(ProxyError::BadSignature);
    }
    let version = fixed[12] >> 4;
    let command = fixed[12] & 0x0f;
    if version != 2 {
        return Err(ProxyError::BadVersion(version));
    }
    if command != CMD_LOCAL && command != CMD_PROXY {
        return Err(ProxyError::BadCommand(command));
    }
    let family = fixed[13] >> 4;
    let transport = fixed[13] & 0x0f;
    if family > FAMILY_UNIX {
        return Err(ProxyError::UnknownFamily(family));
    }
    if transport > 2 {
        return Err(ProxyError::BadTransport(transport));
    }
    let body_len = usize::from(u16::from_be_bytes([fixed[14], fixed[15]]));
    if body_len > MAX_BODY_LEN {
        return Err(ProxyError::TooLong(body_len));
    }
    Ok(Fixed {
        command,
        family,
        transport,
        body_len,
    })
}

/// Reads the addresses from the rest of the header (`body`, exactly `fixed.body_len` bytes);
/// whatever follows them (TLVs) is skipped.
pub fn parse_body(fixed: Fixed, body: &[u8]) -> Result<Header, ProxyError> {
    if body.len() < fixed.body_len {
        return Err(ProxyError::Truncated);
    }
    // A LOCAL header's address block, if any, is to be ignored.
    if fixed.command == CMD_LOCAL {
        return Ok(Header::Local);
    }
    let needed = match fixed.family {
        FAMILY_INET => 12,
        FAMILY_INET6 => 36,
        FAMILY_UNIX => 216,
        _ => 0,
    };
    if fixed.body_len < needed {
        return Err(ProxyError::AddressesCut {
            family: fixed.family,
            len: fixed.body_len,
        });
    }
    if fixed.family == FAMILY_UNSPEC || fixed.family == FAMILY_UNIX {
        return Ok(Header::Local);
    }
    if fixed.transport != TRANSPORT_STREAM {
        return Err(ProxyError::BadTransport(fixed.transport));
    }
    let source = if fixed.family == FAMILY_INET {
        let ip = Ipv4Addr::new(body[0], body[1], body[2], body[3]);
        SocketAddr::new(IpAddr::V4(ip), u16::from_be_bytes([body[8], body[9]]))
    } else {
        let mut octets = [0u8; 16];
        octets.copy_from_slice(&body[..16]);
        let port = u16::from_be_bytes([body[32], body[33]]);
        SocketAddr::new(IpAddr::V6(Ipv6Addr::from(octets)), port)
    };
    Ok(Header::Proxied { source })
}

/// Parses one version 1 line, `PROXY ` through its CRLF (both included).
pub fn parse_v1(line: &[u8]) -> Result<Header, ProxyError> {
    if line.len() > V1_MAX_LEN {
        return Err(ProxyError::TooLong(line.len()));
    }
    let text = line
        .strip_prefix(V1_START)
        .ok_or(ProxyError::BadSignature)?
        .strip_suffix(b"\r\n")
        .ok_or(ProxyError::Truncated)?;
    let text = std::str::from_utf8(text).map_err(|_| ProxyError::BadLine("characters"))?;
    if let Some(rest) = text.strip_prefix("UNKNOWN") {
        // Whatever follows UNKNOWN is to be ignored, but it is still one line.
        return if rest.is_empty() || rest.starts_with(' ') && !rest.contains(['\r', '\n']) {
            Ok(Header::Local)
        } else {
            Err(ProxyError::BadLine("protocol"))
        };
    }
    let mut fields = text.split(' ');
    let mut next = |part| fields.next().ok_or(ProxyError::BadLine(part));
    let family = next("protocol")?;
    let (source, destination) = (next("source address")?, next("destination address")?);
    let (source_port, destination_port) = (next("source port")?, next("destination port")?);
    if fields.next().is_some() {
        return Err(ProxyError::BadLine("field count"));
    }
    let address = |text: &str, part| {
        match family {
            "TCP4" => text.parse::<Ipv4Addr>().map(IpAddr::V4).ok(),
            "TCP6" => text.parse::<Ipv6Addr>().map(IpAddr::V6).ok(),
            _ => return Err(ProxyError::BadLine("protocol")),
        }
        .ok_or(ProxyError::BadLine(part))
    };
    let ip = address(source, "source address")?;
    address(destination, "destination address")?;
    let port = v1_port(source_port).ok_or(ProxyError::BadLine("source port"))?;
    v1_port(destination_port).ok_or(ProxyError::BadLine("destination port"))?;
    Ok(Header::Proxied {
        source: SocketAddr::new(ip, port),
    })
}

/// A version 1 port: 1 to 5 decimal digits, at most 65535.
fn v1_port(text: &str) -> Option<u16> {
    if text.is_empty() || text.len() > 5 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Parses a whole header at the start of `bytes`: the header and how many bytes it took.
pub fn parse(bytes: &[u8]) -> Result<(Header, usize), ProxyError> {
    if bytes.starts_with(V1_START) {
        let window = &bytes[..bytes.len().min(V1_MAX_LEN)];
        let Some(end) = window.windows(2).position(|w| w == b"\r\n") else {
            return Err(if bytes.len() >= V1_MAX_LEN {
                ProxyError::TooLong(bytes.len())
            } else {
                ProxyError::Truncated
            });
        };
        return Ok((parse_v1(&bytes[..end + 2])?, end + 2));
    }
    let Some(fixed) = bytes.first_chunk::<FIXED_LEN>() else {
        // A prefix of the signature is only short; anything else is not a header at all.
        let n = bytes.len().min(SIGNATURE.len());
        return Err(if bytes[..n] == SIGNATURE[..n] {
            ProxyError::Truncated
        } else {
            ProxyError::BadSignature
        });
    };
    let fixed = parse_fixed(fixed)?;
    let body = bytes
        .get(FIXED_LEN..FIXED_LEN + fixed.body_len)
        .ok_or(ProxyError::Truncated)?;
    Ok((parse_body(fixed, body)?, FIXED_LEN + fixed.body_len))
}

/// Reads one header (either version) from the start of `stream` by `deadline`, exactly: not a
/// byte of what follows (the client's SSH) is consumed. At most [`FIXED_LEN`] +
/// [`MAX_BODY_LEN`] bytes, or [`V1_MAX_LEN`] for a version 1 line.
pub async fn read_header<R: AsyncRead + Unpin>(
    stream: &mut R,
    deadline: Instant,
) -> Result<Header, ProxyError> {
    let read = async {
        // Both versions' starts are six bytes long, and no header is shorter.
        let mut fixed = [0u8; FIXED_LEN];
        let start = &mut fixed[..V1_START.len()];
        stream.read_exact(start).await.map_err(io_error)?;
        if start == V1_START {
            return read_v1(stream).await;
        }
        stream
            .read_exact(&mut fixed[V1_START.len()..])
            .await
            .map_err(io_error)?;
        let fixed = parse_fixed(&fixed)?;
        let mut body = [0u8; MAX_BODY_LEN];
        let body = &mut body[..fixed.body_len];
        stream.read_exact(body).await.map_err(io_error)?;
        parse_body(fixed, body)
    };
    timeout_at(deadline, read)
        .await
        .unwrap_or(Err(ProxyError::Timeout))
}

/// The rest of a version 1 line after its `PROXY `, a byte at a time: the line has no length
/// field, and a byte past its CRLF would be the client's.
async fn read_v1<R: AsyncRead + Unpin>(stream: &mut R) -> Result<Header, ProxyError> {
    let mut line = [0u8; V1_MAX_LEN];
    line[..V1_START.len()].copy_from_slice(V1_START);
    let mut len = V1_START.len();
    while !line[..len].ends_with(b"\r\n") {
        if len == V1_MAX_LEN {
            return Err(ProxyError::TooLong(len + 1));
        }
        line[len] = stream.read_u8().await.map_err(io_error)?;
        len += 1;
    }
    parse_v1(&line[..len])
}

fn io_error(e: io::Error) -> ProxyError {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        ProxyError::Truncated
    } else {
        ProxyError::Io(e.kind())
    }
}

/// What the first bytes of an untrusted connection look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// Could still be a PROXY header.
    Undecided,
    /// Not a PROXY header: SSH (or garbage, which the SSH layer refuses).
    Other,
    /// A PROXY header's signature.
    Proxy,
}

fn classify(seen: &[u8]) -> Start {
    let v2 = seen.len().min(SIGNATURE.len());
    let v1 = seen.len().min(V1_START.len());
    if seen[..v2] == SIGNATURE[..v2] {
        if seen.len() >= SIGNATURE.len() {
            Start::Proxy
        } else {
            Start::Undecided
        }
    } else if seen[..v1] == V1_START[..v1] {
        if seen.len() >= V1_START.len() {
            Start::Proxy
        } else {
            Start::Undecided
        }
    } else {
        Start::Other
    }
}

/// A connection that must not start with a PROXY header: its first bytes are held back until
/// they are known not to be a PROXY signature (an SSH client's first byte, `S`, already
/// tells), then passed on; a signature fails the read, which ends the connection.
#[derive(Debug)]
pub struct Sniff<S> {
    inner: S,
    seen: [u8; SIGNATURE.len()],
    len: usize,
    state: SniffState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SniffState {
    Looking,
    /// Handing the held-back bytes on, from this index.
    Releasing(usize),
    Passing,
}

impl<S> Sniff<S> {
    pub fn new(inner: S) -> Sniff<S> {
        Sniff {
            inner,
            seen: [0; SIGNATURE.len()],
            len: 0,
            state: SniffState::Looking,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Sniff<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            match this.state {
                SniffState::Passing => return Pin::new(&mut this.inner).poll_read(cx, buf),
                SniffState::Releasing(from) => {
                    let held = &this.seen[from..this.len];
                    let n = held.len().min(buf.remaining());
                    buf.put_slice(&held[..n]);
                    this.state = if from + n >= this.len {
                        SniffState::Passing
                    } else {
                        SniffState::Releasing(from + n)
                    };
                    return Poll::Ready(Ok(()));
                }
                SniffState::Looking => {
                    let mut more = [0u8; SIGNATURE.len()];
                    let mut more = ReadBuf::new(&mut more[..SIGNATURE.len() - this.len]);
                    match Pin::new(&mut this.inner).poll_read(cx, &mut more) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                        Poll::Ready(Ok(())) => {}
                    }
                    let got = more.filled();
                    if got.is_empty() {
                        // The end of the stream: hand on what there is, then the end.
                        this.state = if this.len == 0 {
                            SniffState::Passing
                        } else {
                            SniffState::Releasing(0)
                        };
                        if this.len == 0 {
                            return Poll::Ready(Ok(()));
                        }
                        continue;
                    }
                    this.seen[this.len..this.len + got.len()].copy_from_slice(got);
                    this.len += got.len();
                    match classify(&this.seen[..this.len]) {
                        Start::Undecided => {}
                        Start::Other => this.state = SniffState::Releasing(0),
                        Start::Proxy => {
                            tracing::warn!(
                                "a PROXY protocol header from an address not trusted to send \
                                 one; closing"
                            );
                            return Poll::Ready(Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                "PROXY protocol header from an untrusted address",
                            )));
                        }
                    }
                }
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Sniff<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Builds a version 2 header (for tests and tools): PROXY over TCP from `source`
/// to `destination` (the same family), or LOCAL when `source` is `None`; `tlv` bytes appended.
pub fn encode(source: Option<(SocketAddr, SocketAddr)>, tlv: &[u8]) -> Vec<u8> {
    let mut out = SIGNATURE.to_vec();
    let mut body = Vec::new();
    match source {
        None => {
            out.push(0x20 | CMD_LOCAL);
            out.push(0x00);
        }
        Some((src, dst)) => {
            out.push(0x20 | CMD_PROXY);
            match (src.ip(), dst.ip()) {
                (IpAddr::V4(s), IpAddr::V4(d)) => {
                    out.push(FAMILY_INET << 4 | TRANSPORT_STREAM);
                    body.extend_from_slice(&s.octets());
                    body.extend_from_slice(&d.octets());
                }
                (s, d) => {
                    let v6 = |ip: IpAddr| match ip {
                        IpAddr::V4(v4) => v4.to_ipv6_mapped(),
                        IpAddr::V6(v6) => v6,
                    };
                    out.push(FAMILY_INET6 << 4 | TRANSPORT_STREAM);
                    body.extend_from_slice(&v6(s).octets());
                    body.extend_from_slice(&v6(d).octets());
                }
            }
            body.extend_from_slice(&src.port().to_be_bytes());
            body.extend_from_slice(&dst.port().to_be_bytes());
        }
    }
    body.extend_from_slice(tlv);
    let len = u16::try_from(body.len()).unwrap_or(u16::MAX);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(&body);
    out
}

#[cfg(test)]
#[path = "proxy_protocol_tests.rs"]
mod tests;
