//! Turning a client away before any cryptography: the reason as a line and as an unencrypted
//! SSH_MSG_DISCONNECT, which OpenSSH prints.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// SSH_DISCONNECT_TOO_MANY_CONNECTIONS (RFC 4250 §4.2.2).
const TOO_MANY_CONNECTIONS: u32 = 12;

/// What a refused client receives: the message as a line before the SSH version (for `nc`),
/// then the version and an unencrypted SSH_MSG_DISCONNECT carrying the message, which OpenSSH
/// prints as "Received disconnect from ...: <message>".
pub fn refusal_bytes(message: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 * message.len() + 64);
    out.extend_from_slice(message.as_bytes());
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(crate::SERVER_ID.as_bytes());
    out.extend_from_slice(b"\r\n");

    let mut payload = vec![1u8]; // SSH_MSG_DISCONNECT
    payload.extend_from_slice(&TOO_MANY_CONNECTIONS.to_be_bytes());
    let text = message
        .as_bytes()
        .get(..message.len().min(1024))
        .unwrap_or_default();
    payload.extend_from_slice(&u32::try_from(text.len()).unwrap_or(0).to_be_bytes());
    payload.extend_from_slice(text);
    payload.extend_from_slice(&0u32.to_be_bytes()); // language tag
    // packet_length(4) + padding_length(1) + payload + padding is a multiple of 8, padding >= 4.
    let mut padding = 8 - (5 + payload.len()) % 8;
    if padding < 4 {
        padding += 8;
    }
    let packet_length = 1 + payload.len() + padding;
    out.extend_from_slice(&u32::try_from(packet_length).unwrap_or(0).to_be_bytes());
    out.push(u8::try_from(padding).unwrap_or(8));
    out.extend_from_slice(&payload);
    out.extend(std::iter::repeat_n(0u8, padding));
    out
}

/// Sends the refusal and closes gracefully: the client's own banner is read and discarded so
/// that closing does not reset the connection before the client has read the message. All of
/// it within [`REFUSAL_PATIENCE`]; the stream is dropped (closed) on return.
pub async fn refuse<S: AsyncRead + AsyncWrite + Unpin>(mut stream: S, message: &str) {
    let bytes = refusal_bytes(message);
    let exchange = async {
        stream.write_all(&bytes).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        let mut total = 0usize;
        while total < 64 * 1024 {
            let n = stream.read(&mut sink).await?;
            if n == 0 {
                break;
            }
            total += n;
        }
        Ok::<(), std::io::Error>(())
    };
    let _ = tokio::time::timeout(REFUSAL_PATIENCE, exchange).await;
}

/// How long a refused connection is kept to deliver its message.
pub const REFUSAL_PATIENCE: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disconnect_packet_is_well_formed() {
        let bytes = refusal_bytes("too many");
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.starts_with("too many\r\nSSH-2.0-"));
        let start = bytes.windows(2).rposition(|w| w == b"\r\n").unwrap() + 2;
        let packet = &bytes[start..];
        let len = u32::from_be_bytes(packet[..4].try_into().unwrap()) as usize;
        assert_eq!(packet.len(), 4 + len);
        assert_eq!(packet.len() % 8, 0);
        let padding = packet[4] as usize;
        assert!(padding >= 4);
        assert_eq!(packet[5], 1);
        assert_eq!(&packet[6..10], &12u32.to_be_bytes());
        assert_eq!(&packet[10..14], &8u32.to_be_bytes());
        assert_eq!(&packet[14..22], b"too many");
    }
}
