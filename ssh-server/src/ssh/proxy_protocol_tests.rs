use super::*;

fn sock(s: &str) -> SocketAddr {
    s.parse().expect("a socket address")
}

/// A header from parts: version/command byte, family/transport byte, the length field, body.
fn raw(ver_cmd: u8, fam: u8, len: u16, body: &[u8]) -> Vec<u8> {
    let mut out = SIGNATURE.to_vec();
    out.extend_from_slice(&[ver_cmd, fam]);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// 12 address bytes of TCP4 203.0.113.7:5000 -> 10.0.0.1:22.
const TCP4_BODY: [u8; 12] = [203, 0, 113, 7, 10, 0, 0, 1, 0x13, 0x88, 0, 22];

#[test]
fn headers_parse_as_the_table_says() {
    let tcp6 = encode(
        Some((sock("[2001:db8::7]:40000"), sock("[2001:db8::1]:22"))),
        &[],
    );
    // A TLV (type 0x04 NOOP, 3 bytes) and a unique id (0x05) after the addresses.
    let tlvs = [0x04, 0, 3, 1, 2, 3, 0x05, 0, 2, 0xaa, 0xbb];
    let mut with_tlvs_body = TCP4_BODY.to_vec();
    with_tlvs_body.extend_from_slice(&tlvs);
    let tcp4 = raw(0x21, 0x11, 12, &TCP4_BODY);
    let proxied = |s: &str| Ok(Header::Proxied { source: sock(s) });
    let table: Vec<(&str, Vec<u8>, Result<Header, ProxyError>)> = vec![
        ("TCP4", tcp4.clone(), proxied("203.0.113.7:5000")),
        ("TCP6", tcp6.clone(), proxied("[2001:db8::7]:40000")),
        (
            "LOCAL, no addresses",
            raw(0x20, 0x00, 0, &[]),
            Ok(Header::Local),
        ),
        (
            "LOCAL with an address block (ignored)",
            raw(0x20, 0x11, 12, &TCP4_BODY),
            Ok(Header::Local),
        ),
        (
            "TLVs skipped",
            raw(0x21, 0x11, 23, &with_tlvs_body),
            proxied("203.0.113.7:5000"),
        ),
        (
            "PROXY, unspecified family",
            raw(0x21, 0x00, 0, &[]),
            Ok(Header::Local),
        ),
        (
            "PROXY, unix family",
            raw(0x21, 0x31, 216, &[0; 216]),
            Ok(Header::Local),
        ),
        (
            "truncated signature",
            SIGNATURE[..7].to_vec(),
            Err(ProxyError::Truncated),
        ),
        (
            "truncated fixed part",
            tcp4[..14].to_vec(),
            Err(ProxyError::Truncated),
        ),
        (
            "truncated addresses",
            tcp4[..20].to_vec(),
            Err(ProxyError::Truncated),
        ),
        (
            "plain SSH",
            b"SSH-2.0-OpenSSH_9.6\r\n".to_vec(),
            Err(ProxyError::BadSignature),
        ),
        (
            "v1 text",
            b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n".to_vec(),
            proxied("1.2.3.4:1"),
        ),
        (
            "wrong signature byte",
            {
                let mut h = tcp4.clone();
                h[8] = b'X';
                h
            },
            Err(ProxyError::BadSignature),
        ),
        (
            "version 1 nibble",
            raw(0x11, 0x11, 12, &TCP4_BODY),
            Err(ProxyError::BadVersion(1)),
        ),
        (
            "version 3",
            raw(0x31, 0x11, 12, &TCP4_BODY),
            Err(ProxyError::BadVersion(3)),
        ),
        (
            "command 2",
            raw(0x22, 0x11, 12, &TCP4_BODY),
            Err(ProxyError::BadCommand(2)),
        ),
        (
            "family 4",
            raw(0x21, 0x41, 12, &TCP4_BODY),
            Err(ProxyError::UnknownFamily(4)),
        ),
        (
            "family 15",
            raw(0x21, 0xf1, 12, &TCP4_BODY),
            Err(ProxyError::UnknownFamily(15)),
        ),
        (
            "transport 3",
            raw(0x21, 0x13, 12, &TCP4_BODY),
            Err(ProxyError::BadTransport(3)),
        ),
        (
            "UDP4",
            raw(0x21, 0x12, 12, &TCP4_BODY),
            Err(ProxyError::BadTransport(2)),
        ),
        (
            "huge length",
            raw(0x21, 0x11, 0xffff, &TCP4_BODY),
            Err(ProxyError::TooLong(0xffff)),
        ),
        (
            "one byte over the bound",
            raw(0x21, 0x11, 1025, &[0; 1025]),
            Err(ProxyError::TooLong(1025)),
        ),
        (
            "length too short for IPv4",
            raw(0x21, 0x11, 8, &TCP4_BODY[..8]),
            Err(ProxyError::AddressesCut { family: 1, len: 8 }),
        ),
        (
            "length too short for IPv6",
            raw(0x21, 0x21, 12, &TCP4_BODY),
            Err(ProxyError::AddressesCut { family: 2, len: 12 }),
        ),
    ];
    for (name, bytes, expected) in table {
        let got = parse(&bytes).map(|(header, _)| header);
        assert_eq!(got, expected, "{name}");
    }
    // The consumed length is the header's, whatever follows.
    let mut then_ssh = tcp4.clone();
    then_ssh.extend_from_slice(b"SSH-2.0-x\r\n");
    assert_eq!(parse(&then_ssh).map(|(_, n)| n), Ok(28));
    assert_eq!(parse(&tcp6).map(|(_, n)| n), Ok(52));
}

#[test]
fn version_1_lines_parse_as_the_table_says() {
    let proxied = |s: &str| Ok(Header::Proxied { source: sock(s) });
    let all_ones = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff";
    // The spec's worst case is UNKNOWN followed by two full IPv6 addresses and ports.
    let longest = format!("PROXY UNKNOWN {all_ones} {all_ones} 65535 65535\r\n");
    assert_eq!(longest.len(), V1_MAX_LEN);
    let longest_tcp6 = format!("PROXY TCP6 {all_ones} {all_ones} 65535 65535\r\n");
    let bad = |part| Err(ProxyError::BadLine(part));
    let table: Vec<(&str, String, Result<Header, ProxyError>)> = vec![
        (
            "TCP4",
            "PROXY TCP4 192.0.2.44 10.0.0.1 56324 22\r\n".into(),
            proxied("192.0.2.44:56324"),
        ),
        (
            "TCP6",
            "PROXY TCP6 2001:db8::9 2001:db8::1 40000 2222\r\n".into(),
            proxied("[2001:db8::9]:40000"),
        ),
        ("the longest line", longest, Ok(Header::Local)),
        (
            "the longest TCP6 line",
            longest_tcp6,
            proxied(&format!("[{all_ones}]:65535")),
        ),
        (
            "UNKNOWN alone",
            "PROXY UNKNOWN\r\n".into(),
            Ok(Header::Local),
        ),
        (
            "UNKNOWN with addresses (ignored)",
            "PROXY UNKNOWN ::1 ::1 1 2\r\n".into(),
            Ok(Header::Local),
        ),
        ("UNKNOWNX", "PROXY UNKNOWNX\r\n".into(), bad("protocol")),
        (
            "UDP4",
            "PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n".into(),
            bad("protocol"),
        ),
        (
            "lower case",
            "PROXY tcp4 1.2.3.4 5.6.7.8 1 2\r\n".into(),
            bad("protocol"),
        ),
        (
            "IPv6 in TCP4",
            "PROXY TCP4 ::1 5.6.7.8 1 2\r\n".into(),
            bad("source address"),
        ),
        (
            "IPv4 in TCP6",
            "PROXY TCP6 ::1 5.6.7.8 1 2\r\n".into(),
            bad("destination address"),
        ),
        (
            "port 65536",
            "PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n".into(),
            bad("source port"),
        ),
        (
            "signed port",
            "PROXY TCP4 1.2.3.4 5.6.7.8 +1 2\r\n".into(),
            bad("source port"),
        ),
        (
            "port missing",
            "PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n".into(),
            bad("destination port"),
        ),
        (
            "extra field",
            "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n".into(),
            bad("field count"),
        ),
        (
            "two spaces",
            "PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n".into(),
            bad("field count"),
        ),
        (
            "no CRLF yet",
            "PROXY TCP4 1.2.3.4 5.6.7.8 1 2".into(),
            Err(ProxyError::Truncated),
        ),
        (
            "a byte too long",
            format!("PROXY UNKNOWN {}\r\n", "x".repeat(92)),
            Err(ProxyError::TooLong(108)),
        ),
    ];
    for (name, line, expected) in table {
        let got = parse(line.as_bytes()).map(|(header, _)| header);
        assert_eq!(got, expected, "{name}");
    }
    let mut then_ssh = b"PROXY TCP4 192.0.2.44 10.0.0.1 56324 22\r\n".to_vec();
    let header_len = then_ssh.len();
    then_ssh.extend_from_slice(b"SSH-2.0-x\r\n");
    assert_eq!(parse(&then_ssh).map(|(_, n)| n), Ok(header_len));
}

#[test]
fn encode_round_trips() {
    for (src, dst) in [
        ("198.51.100.2:1", "10.1.2.3:2222"),
        ("[::1]:65535", "[::2]:22"),
    ] {
        let bytes = encode(Some((sock(src), sock(dst))), &[9, 0, 0]);
        assert_eq!(
            parse(&bytes),
            Ok((Header::Proxied { source: sock(src) }, bytes.len()))
        );
    }
    assert_eq!(parse(&encode(None, &[])), Ok((Header::Local, 16)));
    assert_eq!(Header::Local.client(sock("10.0.0.9:7")), sock("10.0.0.9:7"));
}

#[tokio::test(start_paused = true)]
async fn read_header_takes_exactly_the_header_and_has_a_deadline() {
    let mut bytes = raw(0x21, 0x11, 12, &TCP4_BODY);
    bytes.extend_from_slice(b"SSH-2.0-client\r\n");
    let mut reader = &bytes[..];
    let deadline = Instant::now() + std::time::Duration::from_secs(1);
    assert_eq!(
        read_header(&mut reader, deadline).await,
        Ok(Header::Proxied {
            source: sock("203.0.113.7:5000")
        })
    );
    assert_eq!(reader, b"SSH-2.0-client\r\n", "not a byte of SSH consumed");

    let mut short = &raw(0x21, 0x11, 12, &TCP4_BODY[..5])[..];
    assert_eq!(
        read_header(&mut short, deadline).await,
        Err(ProxyError::Truncated)
    );
    // A version 1 line is read up to its CRLF and no further.
    let mut v1 = b"PROXY TCP6 2001:db8::9 2001:db8::1 40000 22\r\nSSH-2.0-client\r\n".to_vec();
    let mut reader = &v1[..];
    assert_eq!(
        read_header(&mut reader, deadline).await,
        Ok(Header::Proxied {
            source: sock("[2001:db8::9]:40000")
        })
    );
    assert_eq!(reader, b"SSH-2.0-client\r\n", "not a byte of SSH consumed");
    // A line with no CRLF within 107 bytes is refused there, whatever follows.
    v1 = b"PROXY UNKNOWN ".to_vec();
    v1.resize(4096, b'x');
    let mut endless = &v1[..];
    assert_eq!(
        read_header(&mut endless, deadline).await,
        Err(ProxyError::TooLong(V1_MAX_LEN + 1))
    );
    assert_eq!(endless.len(), 4096 - V1_MAX_LEN, "stopped at the bound");
    // A huge length is refused from the fixed part, before its body is awaited.
    let mut huge = &raw(0x21, 0x11, 60_000, &[])[..];
    assert_eq!(
        read_header(&mut huge, deadline).await,
        Err(ProxyError::TooLong(60_000))
    );

    // A proxy that sends half a header and then nothing is given up on at the deadline.
    let (mut client, mut server) = tokio::io::duplex(64);
    tokio::io::AsyncWriteExt::write_all(&mut client, &SIGNATURE[..5])
        .await
        .expect("write");
    // On tokio's paused clock: given up exactly at the deadline, not before, not later.
    let started = Instant::now();
    let deadline = started + std::time::Duration::from_millis(200);
    assert_eq!(
        read_header(&mut server, deadline).await,
        Err(ProxyError::Timeout)
    );
    // (Timers fire on whole milliseconds: at most one late.)
    let late = Instant::now().saturating_duration_since(deadline);
    assert!(Instant::now() >= deadline && late <= std::time::Duration::from_millis(1));
}

#[tokio::test]
async fn sniff_passes_ssh_and_refuses_proxy_signatures() {
    async fn through(bytes: &[u8], chunk: usize) -> io::Result<Vec<u8>> {
        let (mut client, server) = tokio::io::duplex(4096);
        let owned = bytes.to_vec();
        let writer = tokio::spawn(async move {
            for part in owned.chunks(chunk) {
                tokio::io::AsyncWriteExt::write_all(&mut client, part).await?;
                tokio::task::yield_now().await;
            }
            Ok::<_, io::Error>(())
        });
        let mut sniff = Sniff::new(server);
        let mut out = Vec::new();
        let mut small = [0u8; 3];
        loop {
            // Tiny reads, so held-back bytes are handed on over several calls.
            let n = sniff.read(&mut small).await?;
            if n == 0 {
                break;
            }
            out.extend_from_slice(&small[..n]);
        }
        writer.await.expect("writer")?;
        Ok(out)
    }
    let ssh = b"SSH-2.0-OpenSSH_9.6\r\nrest of the stream";
    for chunk in [1, 2, 5, 64] {
        assert_eq!(through(ssh, chunk).await.expect("ssh passes"), ssh);
        let v2 = raw(0x21, 0x11, 12, &TCP4_BODY);
        let err = through(&v2, chunk).await.expect_err("v2 refused");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        let err = through(b"PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n", chunk)
            .await
            .expect_err("v1 refused");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        // Starting like the signature and then not is passed on whole.
        let almost = b"\r\n\r\n\0X";
        assert_eq!(through(almost, chunk).await.expect("passes"), almost);
        assert_eq!(through(b"PRO", chunk).await.expect("short"), b"PRO");
    }
    assert_eq!(through(b"", 1).await.expect("empty"), b"");
}

#[test]
fn trusted_networks_parse_and_match() {
    let trusted = TrustedProxies(
        [
            "10.0.0.0/8",
            "192.168.1.7",
            "fd00::/8",
            "::ffff:172.16.0.0/108",
        ]
        .iter()
        .map(|s| s.parse().expect("cidr"))
        .collect(),
    );
    let ip = |s: &str| s.parse::<IpAddr>().expect("ip");
    for (addr, expected) in [
        ("10.200.3.4", true),
        ("11.0.0.1", false),
        ("192.168.1.7", true),
        ("192.168.1.8", false),
        ("fd12::1", true),
        ("fe80::1", false),
        ("::ffff:10.1.1.1", true),
        ("172.16.9.9", true),
        ("172.31.0.1", true),
        ("172.32.0.1", false),
    ] {
        assert_eq!(trusted.trusts(ip(addr)), expected, "{addr}");
    }
    assert!(!TrustedProxies::default().trusts(ip("127.0.0.1")));
    assert!(
        "0.0.0.0/0"
            .parse::<Cidr>()
            .expect("all")
            .contains(ip("8.8.8.8"))
    );
    for bad in [
        "10.0.0.0/33",
        "fd00::/129",
        "nope",
        "10.0.0.0/",
        "10.0.0.0/x",
        "",
    ] {
        assert!(bad.parse::<Cidr>().is_err(), "{bad}");
    }
    assert_eq!(
        "::ffff:172.16.0.0/108"
            .parse::<Cidr>()
            .expect("mapped")
            .to_string(),
        "172.16.0.0/12"
    );
}
