//! End-to-end plumbing: a static file server for `dist/`, ChromeDriver, and
//! fantoccini sessions in headless Chromium, each with a fresh profile.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};

/// The built app (`trunk build --release`), served from the crate root, or
/// from `$PARADL_DIST` (the app benchmark measures an older build that way).
pub fn dist() -> PathBuf {
    let dir = std::env::var_os("PARADL_DIST")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("dist"), PathBuf::from);
    assert!(
        dir.join("index.html").is_file(),
        "dist/index.html is missing: build the app first (scripts/dev test does it)"
    );
    dir
}

/// Serves `root` on 127.0.0.1 on a free port, one thread per request.
pub fn serve(root: PathBuf) -> u16 {
    serve_at(root, "/").0
}

/// Whether a site answers: off, its connections are closed unanswered, as
/// when the browser is offline.
pub type Online = std::sync::Arc<std::sync::atomic::AtomicBool>;

/// Serves `root` under the path `prefix` (such as `/course/paradl/`;
/// anything outside it is a 404): its port and its switch.
pub fn serve_at(root: PathBuf, prefix: &'static str) -> (u16, Online) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().expect("an address").port();
    let online = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let answering = std::sync::Arc::clone(&online);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            if !answering.load(std::sync::atomic::Ordering::SeqCst) {
                drop(stream);
                continue;
            }
            let root = root.clone();
            std::thread::spawn(move || respond(stream, &root, prefix));
        }
    });
    (port, online)
}

/// Answers one request as a static host that serves precompressed files
/// does (nginx's `gzip_static`): `NAME.gz` with `Content-Encoding: gzip`
/// when the browser accepts gzip and the build wrote one.
fn respond(mut stream: TcpStream, root: &Path, prefix: &str) {
    let mut reader = BufReader::new(&stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut gzip_accepted = false;
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        let lower = header.to_ascii_lowercase();
        if lower.starts_with("accept-encoding:") && lower.contains("gzip") {
            gzip_accepted = true;
        }
        header.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let file = match path.strip_prefix(prefix) {
        Some(rest) if rest.is_empty() || rest.contains("..") => root.join("index.html"),
        Some(rest) => root.join(rest),
        None => root.join("not here"),
    };
    let gzipped = gzip_accepted
        .then(|| std::fs::read(format!("{}.gz", file.display())).ok())
        .flatten();
    let (status, body, kind, encoding) = match (gzipped, std::fs::read(&file)) {
        (Some(body), Ok(_)) => ("200 OK", body, content_type(&file), "Content-Encoding: gzip\r\n"),
        (_, Ok(body)) => ("200 OK", body, content_type(&file), ""),
        (_, Err(_)) => ("404 Not Found", b"not found".to_vec(), "text/plain", ""),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\n{encoding}Content-Length: {}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css",
        Some("svg") => "image/svg+xml",
        Some("webmanifest") => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// A running ChromeDriver, stopped on drop.
pub struct Driver {
    child: Child,
    /// Its WebDriver address.
    pub url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts ChromeDriver (`$CHROMEDRIVER` or `chromedriver`) on a free port.
pub fn driver() -> Driver {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let child = Command::new(&program)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e} (scripts/dev installs chromium-driver)"));
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

/// A new browser session with its own empty profile (a fresh context:
/// no history, no storage).
///
/// The profile's name holds a counter: two sessions started at once must
/// never share one (a clock too coarse gave two tests one profile, and
/// Chromium then opens the second session's window in the first's
/// browser, so both tests drove one page).
pub async fn browser(driver: &Driver) -> Client {
    static SESSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let profile = std::env::temp_dir().join(format!(
        "paradl-e2e-{}-{}-{}",
        std::process::id(),
        SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1400,1800", format!("--user-data-dir={}", profile.display()),
            ]
        }
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    // a driver that has just opened its port may still reset the first
    // connection: try a few times before failing
    let mut last = None;
    for _ in 0..5 {
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities.clone())
            .connect(&driver.url)
            .await
        {
            Ok(client) => return client,
            Err(e) => last = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    panic!("a browser session: {last:?}")
}

/// Polls `check` until it gives `Some`, or fails after 20 s naming `what`.
pub async fn eventually<T, F, Fut>(what: &str, check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    eventually_within(what, 20, check).await
}

/// Polls `check` until it gives `Some`, or fails after `seconds` naming
/// `what`.
pub async fn eventually_within<T, F, Fut>(what: &str, seconds: u64, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let started = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            started.elapsed() < Duration::from_secs(seconds),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Sends a DevTools command to a session's browser through ChromeDriver
/// (`POST /session/ID/goog/cdp/execute`).
#[allow(dead_code)] // not every test file drives DevTools
pub async fn devtools(driver: &Driver, client: &Client, cmd: &str, params: Value) {
    use std::io::Read;
    let session = client.session_id().await.ok().flatten().expect("a session");
    let address = driver.url.trim_start_matches("http://").to_string();
    let body = serde_json::json!({ "cmd": cmd, "params": params }).to_string();
    let request = format!(
        "POST /session/{session}/goog/cdp/execute HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(&address).expect("chromedriver");
    stream.write_all(request.as_bytes()).expect("sent");
    // the answer's head, then as many bytes as its Content-Length says (the
    // driver may keep the connection open, so reading to the end would wait)
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(30)));
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&answer).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if answer.len() >= end + 4 + length {
                break;
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&chunk[..n]),
        }
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{cmd}: {answer}");
}
