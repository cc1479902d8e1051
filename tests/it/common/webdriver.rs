//! The few WebDriver commands the browser test (tests/it/browser.rs) sends to chromedriver, over
//! plain HTTP/1.1 on `std::net`, with the names and shapes of fantoccini's API (which the test
//! used before, issue 42, item 1): fantoccini's HTTP client (hyper's `client` feature, and
//! hyper-util's `client-legacy`) unified extra features into the hyper that `gamecert serve`
//! links, so `cargo test` compiled the server's crates and gamecert itself a second time beside
//! the release build (tests/it/build_once.rs holds the two builds equal now).
//!
//! The methods are `async` only so that the test reads as before: each is one blocking request
//! (a connection per command, closed by the driver after its answer), which is what a test
//! driving one browser step by step needs.

use serde_json::{json, Map, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A failed command: the driver's error, or a transport failure.
#[derive(Debug)]
pub struct CmdError(pub String);

impl std::fmt::Display for CmdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// How an element is found.
pub enum Locator<'a> {
    Css(&'a str),
}

/// A new WebDriver session's settings.
#[derive(Default)]
pub struct ClientBuilder {
    capabilities: Map<String, Value>,
}

impl ClientBuilder {
    pub fn new() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// The capabilities the session must match (`browserName`, `goog:chromeOptions`, ...).
    pub fn capabilities(&mut self, capabilities: Map<String, Value>) -> &mut ClientBuilder {
        self.capabilities = capabilities;
        self
    }

    /// Opens a session with the driver at `url` (`http://127.0.0.1:PORT`).
    pub async fn connect(&self, url: &str) -> Result<Client, CmdError> {
        let address = url.strip_prefix("http://").unwrap_or(url).trim_end_matches('/');
        let body = json!({"capabilities": {"alwaysMatch": self.capabilities}});
        let answer = request(address, "POST", "/session", Some(&body))?;
        let session = answer["sessionId"]
            .as_str()
            .ok_or_else(|| CmdError(format!("no session id in {answer}")))?;
        Ok(Client { address: address.to_string(), session: session.to_string() })
    }
}

/// A WebDriver session.
#[derive(Clone)]
pub struct Client {
    address: String,
    session: String,
}

/// The key under which WebDriver names an element.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Client {
    fn send(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, CmdError> {
        let path = format!("/session/{}{path}", self.session);
        request(&self.address, method, &path, body)
    }

    fn element(&self, value: &Value) -> Result<Element, CmdError> {
        let id =
            value[ELEMENT].as_str().ok_or_else(|| CmdError(format!("not an element: {value}")))?;
        Ok(Element { client: self.clone(), id: id.to_string() })
    }

    pub async fn goto(&self, url: &str) -> Result<(), CmdError> {
        self.send("POST", "/url", Some(&json!({ "url": url }))).map(drop)
    }

    pub async fn refresh(&self) -> Result<(), CmdError> {
        self.send("POST", "/refresh", Some(&json!({}))).map(drop)
    }

    pub async fn find(&self, locator: Locator<'_>) -> Result<Element, CmdError> {
        let Locator::Css(css) = locator;
        let found =
            self.send("POST", "/element", Some(&json!({"using": "css selector", "value": css})))?;
        self.element(&found)
    }

    pub async fn find_all(&self, locator: Locator<'_>) -> Result<Vec<Element>, CmdError> {
        let Locator::Css(css) = locator;
        let found =
            self.send("POST", "/elements", Some(&json!({"using": "css selector", "value": css})))?;
        let found = found.as_array().ok_or_else(|| CmdError(format!("not a list: {found}")))?;
        found.iter().map(|value| self.element(value)).collect()
    }

    /// The page's title.
    pub async fn title(&self) -> Result<String, CmdError> {
        let value = self.send("GET", "/title", None)?;
        Ok(value.as_str().unwrap_or_default().to_string())
    }

    /// Runs `script` in the page (WebDriver's synchronous execute) with `args`; its result.
    pub async fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value, CmdError> {
        self.send("POST", "/execute/sync", Some(&json!({ "script": script, "args": args })))
    }

    /// The page as a PNG image.
    pub async fn screenshot(&self) -> Result<Vec<u8>, CmdError> {
        let encoded = self.send("GET", "/screenshot", None)?;
        let text =
            encoded.as_str().ok_or_else(|| CmdError("the screenshot is no string".into()))?;
        base64(text)
    }

    /// Ends the session (the browser closes).
    pub async fn close(self) -> Result<(), CmdError> {
        request(&self.address, "DELETE", &format!("/session/{}", self.session), None).map(drop)
    }
}

/// An element of the page.
pub struct Element {
    client: Client,
    id: String,
}

impl Element {
    pub async fn attr(&self, name: &str) -> Result<Option<String>, CmdError> {
        let value =
            self.client.send("GET", &format!("/element/{}/attribute/{name}", self.id), None)?;
        Ok(value.as_str().map(str::to_string))
    }

    pub async fn text(&self) -> Result<String, CmdError> {
        let value = self.client.send("GET", &format!("/element/{}/text", self.id), None)?;
        Ok(value.as_str().unwrap_or_default().to_string())
    }

    pub async fn is_enabled(&self) -> Result<bool, CmdError> {
        let value = self.client.send("GET", &format!("/element/{}/enabled", self.id), None)?;
        value.as_bool().ok_or_else(|| CmdError(format!("not a boolean: {value}")))
    }

    pub async fn is_displayed(&self) -> Result<bool, CmdError> {
        let value = self.client.send("GET", &format!("/element/{}/displayed", self.id), None)?;
        value.as_bool().ok_or_else(|| CmdError(format!("not a boolean: {value}")))
    }

    pub async fn click(&self) -> Result<(), CmdError> {
        self.client.send("POST", &format!("/element/{}/click", self.id), Some(&json!({}))).map(drop)
    }

    pub async fn send_keys(&self, text: &str) -> Result<(), CmdError> {
        let body = json!({ "text": text });
        self.client.send("POST", &format!("/element/{}/value", self.id), Some(&body)).map(drop)
    }
}

/// One command: `method path` with a JSON body to the driver at `address` (`HOST:PORT`); the
/// answer's `value`, or the driver's error.
fn request(
    address: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<Value, CmdError> {
    let failed = |e: std::io::Error| CmdError(format!("{method} {path}: {e}"));
    let mut stream = TcpStream::connect(address).map_err(failed)?;
    stream.set_read_timeout(Some(Duration::from_secs(120))).map_err(failed)?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json; \
         charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).map_err(failed)?;
    stream.write_all(body.as_bytes()).map_err(failed)?;
    // Read the head, then exactly the body it announces: chromedriver may keep the connection
    // open after its answer, so reading to the end would wait for the read timeout.
    let mut answer = Vec::new();
    let mut chunk = [0u8; 65536];
    let split = loop {
        if let Some(at) = answer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let read = stream.read(&mut chunk).map_err(failed)?;
        if read == 0 {
            return Err(CmdError(format!("{method} {path}: no HTTP answer")));
        }
        answer.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8_lossy(&answer[..split]).to_lowercase();
    let length = head.lines().find_map(|l| l.strip_prefix("content-length:")?.trim().parse().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let body = &answer[split + 4..];
        let complete = match length {
            Some(length) => body.len() >= length,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if complete {
            break;
        }
        let read = stream.read(&mut chunk).map_err(failed)?;
        if read == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..read]);
    }
    let mut content = answer[split + 4..].to_vec();
    if let Some(length) = length {
        content.truncate(length);
    }
    if chunked {
        content = unchunk(&content)
            .ok_or_else(|| CmdError(format!("{method} {path}: a broken chunked answer")))?;
    }
    let status: u16 = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let json: Value = serde_json::from_slice(&content)
        .map_err(|e| CmdError(format!("{method} {path}: HTTP {status}, {e}")))?;
    if !(200..300).contains(&status) {
        return Err(CmdError(format!("{method} {path}: HTTP {status}: {}", json["value"])));
    }
    Ok(json["value"].clone())
}

/// The body of a chunked HTTP answer.
fn unchunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line = data.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&data[..line]).ok()?.split(';').next()?.trim();
        let size = usize::from_str_radix(size, 16).ok()?;
        data = &data[line + 2..];
        if size == 0 {
            return Some(body);
        }
        body.extend_from_slice(data.get(..size)?);
        data = data.get(size + 2..)?;
    }
}

/// Standard base64 (WebDriver's screenshots), padding and whitespace ignored.
fn base64(text: &str) -> Result<Vec<u8>, CmdError> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let (mut out, mut bits, mut held) = (Vec::new(), 0u32, 0u32);
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        let v = value(c).ok_or_else(|| CmdError(format!("{:?} in base64", c as char)))?;
        bits = bits << 6 | u32::from(v);
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
            bits &= (1 << held) - 1;
        }
    }
    Ok(out)
}

#[test]
fn base64_and_chunks_read_back() {
    assert_eq!(base64("aGVsbG8gd29ybGQ=").unwrap(), b"hello world");
    assert_eq!(base64("YQ==").unwrap(), b"a");
    assert_eq!(unchunk(b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n").unwrap(), b"hello world");
}
