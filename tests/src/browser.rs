//! A real browser for the web pages' tests: the distribution's headless Chromium driven over
//! WebDriver (`chromedriver`, Debian's `chromium-driver`), with a small client of its own (one
//! HTTP/1.1 request per connection, JSON bodies). [`Browser::start`] starts the driver on a
//! free port and opens one session; dropping it closes the session and reaps the driver.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::autoplay::KittyKey;

/// `1` makes a missing Chromium or ChromeDriver fail the test instead of skipping it (CI).
pub const BROWSER_REQUIRED_VAR: &str = "MINOTTY_TEST_BROWSER_REQUIRED";
const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "chromedriver";
/// The key WebDriver names an element by.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Whether the browser can be run here; when not, prints that `test` is skipped, or panics
/// when [`BROWSER_REQUIRED_VAR`] requires it.
pub fn browser_available(test: &str) -> bool {
    let driver = Command::new(DRIVER)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let found = driver && Path::new(CHROMIUM).exists();
    if !found {
        if std::env::var(BROWSER_REQUIRED_VAR).is_ok_and(|v| v == "1") {
            panic!("{test}: Chromium is required ({BROWSER_REQUIRED_VAR}=1) but not installed");
        }
        eprintln!("skipped: {test} (no Chromium: apt-get install chromium chromium-driver)");
    }
    found
}

/// A Chromium session.
#[derive(Debug)]
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts the driver and a headless Chromium of `width` x `height` CSS pixels.
    pub async fn start(width: u32, height: u32) -> anyhow::Result<Browser> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let driver = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting chromedriver")?;
        let profile = tempfile::tempdir()?;
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            if tokio::time::Instant::now() >= deadline {
                bail!("chromedriver does not accept connections");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // As root, without the sandbox; no background traffic to a network that is not there.
        let args = [
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-quic".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", browser._profile.path().display()),
        ];
        let mut options = json!({"binary": CHROMIUM, "args": args});
        if width < 500 {
            // A window is 500 pixels wide at least: a phone's width is emulated.
            options["mobileEmulation"] = json!({"deviceMetrics": {
                "width": width, "height": height, "pixelRatio": 2.0, "touch": true,
            }});
        }
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
        }}});
        let value = browser.call("POST", "/session", Some(caps)).await?;
        browser.session = value["sessionId"]
            .as_str()
            .ok_or_else(|| anyhow!("no session in {value}"))?
            .to_owned();
        Ok(browser)
    }

    /// Opens `url` and waits for it to load.
    pub async fn open(&self, url: &str) -> anyhow::Result<()> {
        self.session_call("POST", "/url", Some(json!({ "url": url })))
            .await
            .map(drop)
    }

    /// Runs `script` (a function body: `return ...`) in the page and returns its value.
    pub async fn eval(&self, script: &str) -> anyhow::Result<Value> {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
        .await
    }

    /// Clicks the element `css` selects.
    pub async fn click(&self, css: &str) -> anyhow::Result<()> {
        let found = self
            .session_call(
                "POST",
                "/element",
                Some(json!({ "using": "css selector", "value": css })),
            )
            .await?;
        let id = found[ELEMENT]
            .as_str()
            .ok_or_else(|| anyhow!("no element {css}: {found}"))?
            .to_owned();
        self.session_call("POST", &format!("/element/{id}/click"), Some(json!({})))
            .await
            .map(drop)
    }

    /// Types `text` into the element `css` selects (WebDriver's key codes for special keys:
    /// `\u{E007}` Enter, `\u{E015}` down, `\u{E00D}` space).
    pub async fn type_into(&self, css: &str, text: &str) -> anyhow::Result<()> {
        let found = self
            .session_call(
                "POST",
                "/element",
                Some(json!({ "using": "css selector", "value": css })),
            )
            .await?;
        let id = found[ELEMENT]
            .as_str()
            .ok_or_else(|| anyhow!("no element {css}: {found}"))?
            .to_owned();
        self.session_call(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        )
        .await
        .map(drop)
    }

    /// Waits up to `within` for `script` (as [`Browser::eval`]) to return `true`.
    pub async fn wait_for(&self, script: &str, within: Duration) -> anyhow::Result<()> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if self.eval(script).await? == Value::Bool(true) {
                return Ok(());
            }
            if tokio::time::Instant::now() >= deadline {
                bail!("still not true after {within:?}: {script}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The browser terminal of `/play` (the page's `window.minottyTerm`) as a screen, read
    /// from its buffer: what a player sees, for [`crate::autoplay::next_move`]. `None` before
    /// the terminal is up.
    pub async fn terminal_screen(&self) -> anyhow::Result<Option<vt100::Parser>> {
        let seen = self
            .eval(
                "const t = window.minottyTerm; if (!t) return null; \
                 const b = t.buffer.active; const lines = []; \
                 for (let y = 0; y < t.rows; y++) { const l = b.getLine(b.viewportY + y); \
                 lines.push(l ? l.translateToString(true) : ''); } \
                 return { cols: t.cols, rows: t.rows, lines };",
            )
            .await?;
        if seen.is_null() {
            return Ok(None);
        }
        let size = |k: &str| {
            seen[k]
                .as_u64()
                .and_then(|v| u16::try_from(v).ok())
                .and_then(std::num::NonZeroU16::new)
                .ok_or_else(|| anyhow!("no terminal {k}: {seen}"))
        };
        let mut parser = vt100::Parser::new(size("rows")?, size("cols")?, 0);
        for (y, line) in seen["lines"].as_array().into_iter().flatten().enumerate() {
            let text = line.as_str().unwrap_or_default();
            parser.process(format!("\x1b[{};1H{text}", y + 1).as_bytes());
        }
        Ok(Some(parser))
    }

    /// Taps `keys` (each a press and a release, as a player's fingers) into the terminal of
    /// `/play`.
    pub async fn tap(&self, keys: &[KittyKey]) -> anyhow::Result<()> {
        let text: String = keys
            .iter()
            .map(|k| match *k {
                KittyKey::Char('\r') => '\u{E007}',
                KittyKey::Char('\u{1b}') => '\u{E00C}',
                KittyKey::Char('\t') => '\u{E004}',
                KittyKey::Char('\u{7f}') => '\u{E003}',
                KittyKey::Char(c) => c,
                KittyKey::Arrow('A') => '\u{E013}',
                KittyKey::Arrow('B') => '\u{E015}',
                KittyKey::Arrow('C') => '\u{E014}',
                KittyKey::Arrow(_) => '\u{E012}',
            })
            .collect();
        self.type_into(".xterm-helper-textarea", &text).await
    }

    /// A PNG of the window, written to `path`.
    pub async fn screenshot(&self, path: &Path) -> anyhow::Result<()> {
        let value = self.session_call("GET", "/screenshot", None).await?;
        let png = decode_base64(value.as_str().ok_or_else(|| anyhow!("no screenshot"))?)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, png)?;
        Ok(())
    }

    async fn session_call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Value> {
        let path = format!("/session/{}{path}", self.session);
        self.call(method, &path, body).await
    }

    /// One WebDriver command: its `value`, or its error.
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> anyhow::Result<Value> {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        );
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await?;
        stream.write_all(request.as_bytes()).await?;
        // The driver keeps the connection open whatever it is asked: read what its length says.
        let (head, body) = tokio::time::timeout(Duration::from_secs(60), read_answer(&mut stream))
            .await
            .context("a WebDriver answer")??;
        let value: Value = serde_json::from_str(&body)
            .with_context(|| format!("{method} {path}: {}", head.lines().next().unwrap_or("")))?;
        let value = value["value"].clone();
        if let Some(error) = value.get("error") {
            bail!("{method} {path}: {error}: {}", value["message"]);
        }
        Ok(value)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The session's end quits the browser (a killed driver would leave it running); then the
        // driver goes.
        if !self.session.is_empty() {
            use std::io::{Read, Write};
            if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", self.port)) {
                let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
                let request = format!(
                    "DELETE /session/{} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n",
                    self.session
                );
                let mut answer = [0u8; 512];
                let _ = s
                    .write_all(request.as_bytes())
                    .and_then(|()| s.read(&mut answer));
            }
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// An answer's head and its body of `Content-Length` bytes.
async fn read_answer(stream: &mut tokio::net::TcpStream) -> anyhow::Result<(String, String)> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..at]).into_owned();
            let length = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse::<usize>().ok())?
                })
                .ok_or_else(|| anyhow!("no Content-Length: {head}"))?;
            while buf.len() < at + 4 + length {
                let n = stream.read(&mut chunk).await?;
                if n == 0 {
                    bail!("the driver closed the connection mid-answer");
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            let body = String::from_utf8_lossy(&buf[at + 4..at + 4 + length]).into_owned();
            return Ok((head, body));
        }
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            bail!(
                "the driver closed the connection: {}",
                String::from_utf8_lossy(&buf)
            );
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

fn decode_base64(s: &str) -> anyhow::Result<Vec<u8>> {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0);
    for b in s.bytes().filter(|&b| b != b'=' && !b.is_ascii_whitespace()) {
        let v = TABLE
            .iter()
            .position(|&t| t == b)
            .ok_or_else(|| anyhow!("not base64"))?;
        acc = ((acc << 6) | v as u32) & 0xff_ffff;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}
