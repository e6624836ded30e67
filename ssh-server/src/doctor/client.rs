//! What the server knows about the client's terminal before asking anything.

use minotty_ui::doctor::DoctorReport;

use crate::terminal::TermEnv;

/// What the server knows about the client before asking anything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientInfo {
    pub pty: bool,
    /// `TERM` from the PTY request (printable ASCII, bounded).
    pub term: Option<String>,
    pub env: TermEnv,
    /// The client's SSH version string.
    pub ssh_client: Option<String>,
}

impl ClientInfo {
    /// A report with only what the server knows (nothing asked yet).
    pub fn report(&self) -> DoctorReport {
        DoctorReport {
            pty: self.pty,
            term: self.term.clone(),
            colorterm: self.env.colorterm.clone(),
            term_program: self.env.term_program.clone(),
            lang: self.env.lang.clone(),
            ssh_client: self.ssh_client.clone(),
            ..DoctorReport::default()
        }
    }
}
