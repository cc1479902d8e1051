//! `gamecert serve`'s page in a real browser (issue 34, item 4): headless Chromium (Debian's
//! `chromium` and `chromium-driver`) driven through WebDriver (common/webdriver.rs). The test opens the
//! gallery, plays whole games in three families by clicking the board (a move's button when the
//! board's element cannot take the click), reads the summary and the result from the page, and
//! uploads a good and a tampered certificate on the verify page, whose verdicts must be the text
//! `gamecert verify` prints for the same files. It also zooms and pans a board (issue 42: its
//! zoom button, the wheel, a drag that plays no move, Reset), checks that a board keeps the
//! strategy secret and names its case, and that a witness is not offered to play.
//!
//! `.ci/run` installs the two packages when they are missing, so CI always runs this test
//! (with `CI` set, missing tools fail it); a local run without them says that the test was
//! skipped and why. Screenshots go to `$GAMECERT_SCREENSHOTS` (docs/screenshots/ is refreshed
//! with `GAMECERT_SCREENSHOTS=docs/screenshots cargo test --release --test it browser`), else
//! to a temporary folder.

use crate::common::server::Server;
use crate::common::webdriver::{Client, ClientBuilder, Locator};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The games played by clicking, from the gallery (the demo's cases): heaps, triangle
/// avoidance, and the Voronoi game twice (values on a path, a strategy on a tree).
const GAMES: [&str; 4] = ["kayles", "triangle-8", "path-12", "median-tree"];

/// How long any one thing on the page may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(20);

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `chromedriver` and the Chromium binary, or why the test cannot run.
fn browser_tools() -> Result<(PathBuf, PathBuf), String> {
    let on_path = |name: &str| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths).map(|dir| dir.join(name)).find(|p| p.is_file())
        })
    };
    let driver = on_path("chromedriver")
        .ok_or("chromedriver is not on PATH (Debian: apt-get install chromium-driver)")?;
    let browser = ["chromium", "chromium-browser"]
        .iter()
        .find_map(|name| on_path(name))
        .ok_or("chromium is not on PATH (Debian: apt-get install chromium)")?;
    Ok((driver, browser))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// chromedriver on a free port, once it answers.
fn start_driver(driver: &Path) -> (Killed, String) {
    let port = free_port();
    let child = Command::new(driver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    until_listening(port, "chromedriver");
    (Killed(child), format!("http://127.0.0.1:{port}"))
}

/// Waits until `what` listens on `port`.
fn until_listening(port: u16, what: &str) {
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < PATIENCE, "{what} did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

async fn connect(driver_url: &str, browser: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".into(), "chrome".into());
    capabilities.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": browser,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1280,1000"],
        }),
    );
    ClientBuilder::new()
        .capabilities(capabilities)
        .connect(driver_url)
        .await
        .expect("WebDriver session with headless Chromium")
}

/// Waits until `probe` answers `Some`, polling the page.
async fn until<T, F, Fut>(what: &str, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(found) = probe().await {
            return found;
        }
        assert!(start.elapsed() < PATIENCE, "waited {PATIENCE:?} for {what}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn attribute(client: &Client, css: &str, name: &str) -> Option<String> {
    client.find(Locator::Css(css)).await.ok()?.attr(name).await.ok()?
}

async fn text(client: &Client, css: &str) -> String {
    match client.find(Locator::Css(css)).await {
        Ok(element) => element.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// Opens `route` and waits until the view says it has loaded.
async fn open(client: &Client, base: &str, route: &str) {
    client.goto(&format!("{base}{route}")).await.unwrap();
    // A hash route on the same page does not reload it: wait for the view to change.
    client.refresh().await.unwrap();
    until(&format!("{route} to load"), || async {
        (attribute(client, "body", "data-ready").await.as_deref() == Some("true")).then_some(())
    })
    .await;
}

async fn idle(client: &Client) {
    until("the board to be idle", || async {
        (attribute(client, "#board", "data-busy").await.as_deref() == Some("false")).then_some(())
    })
    .await;
}

async fn screenshot(client: &Client, folder: &Path, name: &str) {
    let png = client.screenshot().await.unwrap();
    std::fs::write(folder.join(name), png).unwrap();
}

/// Plays `case` to the end by clicking; returns (board clicks, button clicks).
async fn play_by_clicks(client: &Client, base: &str, case: &str, shots: &Path) -> (usize, usize) {
    open(client, base, &format!("#/play/{case}")).await;
    idle(client).await;
    let claim = text(client, "#claim").await;
    assert!(claim.starts_with("Certified: "), "{case}: the page shows the certified claim");
    // The heading and the tab's title name the case.
    assert_eq!(text(client, "#play-title").await, format!("Play: {case}"));
    let title = client.title().await.unwrap();
    assert!(title.starts_with(case), "{case}: the tab is titled '{title}'");
    // The board keeps the strategy secret, as `gamecert play` does.
    let board = text(client, "#board").await;
    for secret in ["g = ", "nim sum", "to move loses", "Grundy"] {
        assert!(!board.contains(secret), "{case}: the board says '{secret}': {board}");
    }
    // Hint: the strategy's move for the person, or a sentence saying there is none.
    client.find(Locator::Css("#hint")).await.unwrap().click().await.unwrap();
    until(&format!("{case}: a hint"), || async {
        Some(text(client, "#hint-text").await).filter(|t| !t.is_empty())
    })
    .await;
    let (mut on_board, mut on_buttons) = (0, 0);
    let mut undone = false;
    for _ in 0..200 {
        if !text(client, "#result").await.is_empty() {
            break;
        }
        let before = text(client, "#last-move").await;
        let clickable = client.find_all(Locator::Css("#board [data-move]")).await.unwrap();
        let mut clicked = false;
        if let Some(element) = clickable.first() {
            clicked = element.click().await.is_ok();
            on_board += usize::from(clicked);
        }
        if !clicked {
            let button = client
                .find(Locator::Css("#moves button[data-move]"))
                .await
                .unwrap_or_else(|_| panic!("{case}: neither the board nor #moves offers a move"));
            button.click().await.unwrap();
            on_buttons += 1;
        }
        until(&format!("{case}: the answer to a move"), || async {
            let now = text(client, "#last-move").await;
            (now != before || !text(client, "#result").await.is_empty()).then_some(())
        })
        .await;
        idle(client).await;
        if !undone && text(client, "#result").await.is_empty() {
            // Undo once: back to the person's previous turn, then play on.
            let after = text(client, "#last-move").await;
            client.find(Locator::Css("#undo")).await.unwrap().click().await.unwrap();
            until(&format!("{case}: undo"), || async {
                (text(client, "#last-move").await != after).then_some(())
            })
            .await;
            idle(client).await;
            undone = true;
        }
        if on_board + on_buttons == 2 {
            screenshot(client, shots, &format!("play-{case}.png")).await;
        }
    }
    let result = text(client, "#result").await;
    assert!(!result.is_empty(), "{case}: the game ended within 200 moves");
    // Over: nobody is to move, and the move box is closed.
    assert_eq!(text(client, "#to-move").await, "nobody: the game is over", "{case}");
    let typing = client.find(Locator::Css("#move-text")).await.unwrap();
    assert!(!typing.is_enabled().await.unwrap(), "{case}: the move box is closed at the end");
    let met = attribute(client, "#result", "data-claim-met").await;
    // The person plays the side the certificate proves cannot win: the certified side meets
    // its claim whatever the clicks were.
    assert_eq!(met.as_deref(), Some("true"), "{case}: {result}");
    assert!(result.contains(&claim) || result.contains("claim"), "{case}: {result}");
    let summary = text(client, "#summary").await;
    eprintln!("{case}: {on_board} board clicks, {on_buttons} button clicks; {summary}; {result}");
    screenshot(client, shots, &format!("end-{case}.png")).await;
    (on_board, on_buttons)
}

/// Uploads `instance` and `certificate` on the verify page; the verdict's text, whether it was
/// accepted and the exit code the page reports.
async fn verify_upload(
    client: &Client,
    base: &str,
    instance: &Path,
    certificate: &Path,
) -> (String, String, String) {
    open(client, base, "#/verify").await;
    let path = |p: &Path| p.canonicalize().unwrap().to_string_lossy().into_owned();
    client
        .find(Locator::Css("#instance-file"))
        .await
        .unwrap()
        .send_keys(&path(instance))
        .await
        .unwrap();
    let certificate_input = client.find(Locator::Css("#certificate-file")).await.unwrap();
    certificate_input.send_keys(&path(certificate)).await.unwrap();
    client.find(Locator::Css("#verify-run")).await.unwrap().click().await.unwrap();
    let accepted =
        until("a verdict", || async { attribute(client, "#verdict", "data-accepted").await }).await;
    let exit = attribute(client, "#verdict", "data-exit").await.unwrap_or_default();
    (text(client, "#verdict").await, accepted, exit)
}

/// What `gamecert verify` prints for the files named as the browser names them (no folder).
fn cli_verdict(dir: &Path, instance: &str, certificate: &str) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .current_dir(dir)
        .args(["verify", instance, certificate])
        .output()
        .unwrap();
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (text, out.status.code().unwrap_or(-1))
}

/// Lines with their spacing evened out: the page's text as a browser reports it.
fn even(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_page_plays_and_verifies_in_a_real_browser() {
    let (driver, browser) = match browser_tools() {
        Ok(tools) => tools,
        Err(why) if std::env::var_os("CI").is_some() => {
            panic!("CI runs the browser test, and {why}: .ci/run installs it")
        }
        Err(why) => {
            eprintln!("browser test skipped: {why}");
            return;
        }
    };
    let scratch = tempfile::tempdir().unwrap();
    let shots = match std::env::var_os("GAMECERT_SCREENSHOTS") {
        Some(folder) => PathBuf::from(folder),
        None => scratch.path().join("screenshots"),
    };
    std::fs::create_dir_all(&shots).unwrap();
    let demo = scratch.path().join("demo");
    let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(["demo", "-q", "--out", demo.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tampered = demo.join("kayles.tampered.json");
    let good = std::fs::read_to_string(demo.join("kayles.cert.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&good).unwrap();
    tamper(&mut json);
    std::fs::write(&tampered, serde_json::to_string_pretty(&json).unwrap()).unwrap();

    let server = Server::start(&[]);
    let base = server.url();
    let (_driver, driver_url) = start_driver(&driver);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = connect(&driver_url, &browser).await;
        open(&client, &base, "#/").await;
        let cases = client.find_all(Locator::Css("#gallery .case[data-case]")).await.unwrap();
        assert!(cases.len() >= 20, "the gallery shows the demo's cases: {}", cases.len());
        screenshot(&client, &shots, "gallery.png").await;
        large_tree(&client, &base, &shots).await;

        zoom_and_pan(&client, &base).await;

        let mut board_clicks = 0;
        for case in GAMES {
            let (on_board, _) = play_by_clicks(&client, &base, case, &shots).await;
            board_clicks += on_board;
        }
        assert!(board_clicks > 0, "some moves were made by clicking the board itself");

        let (text, accepted, exit) = verify_upload(
            &client,
            &base,
            &demo.join("kayles.instance.json"),
            &demo.join("kayles.cert.json"),
        )
        .await;
        let (expected, code) = cli_verdict(&demo, "kayles.instance.json", "kayles.cert.json");
        assert_eq!((accepted.as_str(), exit.as_str(), code), ("true", "0", 0), "{text}");
        assert_eq!(even(&text), even(&expected));
        // A strategy: the page offers to play against it.
        let play = client.find(Locator::Css("#verify-play")).await.unwrap();
        assert!(play.is_displayed().await.unwrap(), "Play against it is offered for Kayles");
        screenshot(&client, &shots, "verify-accepted.png").await;

        // A witness holds no strategy: no offer to play, and the page says why.
        let (verdict, accepted, _) = verify_upload(
            &client,
            &base,
            &demo.join("figure3-p1.instance.json"),
            &demo.join("figure3-p1.cert.json"),
        )
        .await;
        assert_eq!(accepted, "true", "{verdict}");
        assert!(verdict.contains("B wins the one-round game"), "the claim in words: {verdict}");
        let play = client.find(Locator::Css("#verify-play")).await.unwrap();
        assert!(!play.is_displayed().await.unwrap(), "a witness is not offered to play");
        let note = client.find(Locator::Css("#play-note")).await.unwrap().text().await.unwrap();
        assert!(note.starts_with("a witness certificate holds no strategy"), "{note}");

        let (text, accepted, exit) =
            verify_upload(&client, &base, &demo.join("kayles.instance.json"), &tampered).await;
        let (expected, code) = cli_verdict(&demo, "kayles.instance.json", "kayles.tampered.json");
        assert_eq!((accepted.as_str(), exit.as_str(), code), ("false", "1", 1), "{text}");
        assert_eq!(even(&text), even(&expected));
        screenshot(&client, &shots, "verify-rejected.png").await;
        client.close().await.unwrap();
    });
}

/// The board's viewBox now.
async fn view_box(client: &Client) -> String {
    attribute(client, "#board svg", "viewBox").await.unwrap_or_default()
}

/// Issue 48, item 5: a large tree's card shows its collapsed overview (the class that shows it
/// is on); its board opens zoomed in on where the moves are, in detail, and Reset shows the
/// whole tree collapsed again.
async fn large_tree(client: &Client, base: &str, shots: &Path) {
    let collapsed = |selector: &str| {
        format!(
            "return document.querySelector('{selector}').classList.contains('tree-zoomed-out');"
        )
    };
    let card = collapsed("#gallery .case[data-case=kary-5-4] svg");
    assert_eq!(client.execute(&card, vec![]).await.unwrap(), true, "the card shows the overview");
    open(client, base, "#/play/kary-5-4").await;
    idle(client).await;
    let board = collapsed("#board svg");
    assert_eq!(client.execute(&board, vec![]).await.unwrap(), false, "the board opens in detail");
    let zoomed = attribute(client, "#board", "data-zoomed").await;
    assert_eq!(zoomed.as_deref(), Some("true"), "the board opens zoomed in");
    screenshot(client, shots, "play-kary-5-4.png").await;
    client.find(Locator::Css("#board .zoom-reset")).await.unwrap().click().await.unwrap();
    assert_eq!(client.execute(&board, vec![]).await.unwrap(), true, "the whole tree collapsed");
}

/// Zoom and pan on a game's board: the + button and the wheel zoom in (a smaller viewBox), a
/// drag pans (the viewBox moves, its size stays) and plays no move, Reset shows the whole
/// picture again, and the zoom stays after a move.
async fn zoom_and_pan(client: &Client, base: &str) {
    open(client, base, "#/play/median-tree").await;
    idle(client).await;
    let whole = view_box(client).await;
    let numbers = |b: &str| -> Vec<f64> { b.split(' ').map(|x| x.parse().unwrap()).collect() };
    assert_eq!(numbers(&whole).len(), 4, "{whole}");
    client.find(Locator::Css("#board .zoom-tools button")).await.unwrap().click().await.unwrap();
    let zoomed = numbers(&view_box(client).await);
    assert!(zoomed[2] < numbers(&whole)[2] * 0.7, "+ zooms in: {zoomed:?} from {whole}");
    // The wheel, over the board: a notch toward the reader zooms in further.
    client
        .execute(
            "const svg = document.querySelector('#board svg'); const r = svg.getBoundingClientRect();
             svg.dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: r.left + r.width / 2,
               clientY: r.top + r.height / 2, bubbles: true, cancelable: true}));",
            vec![],
        )
        .await
        .unwrap();
    let wheeled = numbers(&view_box(client).await);
    assert!(wheeled[2] < zoomed[2], "the wheel zooms in: {wheeled:?} from {zoomed:?}");
    // A drag: pointer events as a mouse sends them.
    let before = text(client, "#last-move").await;
    client
        .execute(
            "const svg = document.querySelector('#board svg'); const r = svg.getBoundingClientRect();
             const x = r.left + r.width / 2, y = r.top + r.height / 2;
             const at = (type, dx) => svg.dispatchEvent(new PointerEvent(type, {pointerId: 7,
               button: 0, clientX: x + dx, clientY: y, bubbles: true}));
             at('pointerdown', 0); at('pointermove', 20); at('pointermove', 60); at('pointerup', 60);
             svg.dispatchEvent(new MouseEvent('click', {clientX: x + 60, clientY: y, bubbles: true}));",
            vec![],
        )
        .await
        .unwrap();
    let panned = numbers(&view_box(client).await);
    assert!(panned[0] < wheeled[0], "a drag to the right pans left: {panned:?} from {wheeled:?}");
    assert_eq!(panned[2], wheeled[2], "a drag keeps the zoom");
    assert_eq!(text(client, "#last-move").await, before, "a drag plays no move");
    // A move: the zoom stays.
    client.find(Locator::Css("#moves button[data-move]")).await.unwrap().click().await.unwrap();
    until("the answer to a move", || async {
        (text(client, "#last-move").await != before).then_some(())
    })
    .await;
    idle(client).await;
    // The same part of the picture (as a fraction of it: the picture may change size a little).
    let full = numbers(&attribute(client, "#board svg", "data-full-box").await.unwrap());
    let shown = numbers(&view_box(client).await)[2] / full[2];
    let before = panned[2] / numbers(&whole)[2];
    assert!((shown - before).abs() < 0.01, "the zoom stays after a move: {shown} from {before}");
    client.find(Locator::Css("#board .zoom-reset")).await.unwrap().click().await.unwrap();
    assert_eq!(view_box(client).await, whole, "Reset shows the whole picture");
}

/// A heap labelling with one Grundy value changed: the checker must reject it.
fn tamper(certificate: &mut serde_json::Value) {
    fn first_number(value: &mut serde_json::Value) -> Option<&mut serde_json::Value> {
        match value {
            serde_json::Value::Number(_) => Some(value),
            serde_json::Value::Array(items) => items.iter_mut().rev().find_map(first_number),
            serde_json::Value::Object(fields) => fields.values_mut().find_map(first_number),
            _ => None,
        }
    }
    let values = certificate.get_mut("values");
    let number = values.and_then(first_number).expect("a heap labelling holds its values");
    let old = number.as_u64().unwrap();
    *number = serde_json::json!(old + 1);
}

/// The checker compiled to WebAssembly (scripts/build-wasm), or why the static site's test
/// cannot run.
fn built_wasm() -> Result<PathBuf, String> {
    let wasm = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wasm/gamecert-checker.wasm");
    match wasm.is_file() {
        true => Ok(wasm),
        false => Err(format!("{} is not built (scripts/build-wasm)", wasm.display())),
    }
}

/// A plain static file server (Python's http.server) on a free port, serving `folder`: no
/// gamecert process answers the page.
fn static_server(folder: &Path) -> (Killed, String) {
    let port = free_port();
    let child = Command::new("python3")
        .args(["-m", "http.server", "--bind", "127.0.0.1", &port.to_string(), "--directory"])
        .arg(folder)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 -m http.server starts");
    until_listening(port, "the static server");
    (Killed(child), format!("http://127.0.0.1:{port}/"))
}

/// Opens `address` and waits for the page's verdict: (its text, its verdict token, its
/// milliseconds).
async fn verdict_at(client: &Client, address: &str) -> (String, String, f64) {
    client.goto(address).await.unwrap();
    let verdict = until(&format!("a verdict at {address}"), || async {
        attribute(client, "#verdict", "data-verdict").await
    })
    .await;
    let ms = attribute(client, "#verdict", "data-ms").await.unwrap_or_default();
    (text(client, "#verdict").await, verdict, ms.parse().unwrap_or(f64::NAN))
}

/// Issue 48, items 1 to 3: `gamecert page`'s static site, served by a plain static server,
/// checks pairs in the browser with the WebAssembly checker: the verdict of the command line,
/// word for word, for a true pair, a false pair and a budget too small (not checked); every
/// gallery case is accepted (their times are printed); the docs' links answer; and a page
/// opened from disk checks dropped files on its own thread.
#[test]
fn the_static_site_checks_in_the_browser() {
    let tools = browser_tools().and_then(|tools| Ok((tools, built_wasm()?)));
    let ((driver, browser), wasm) = match tools {
        Ok(found) => found,
        Err(why) if std::env::var_os("CI").is_some() => {
            panic!("CI runs the static site's browser test, and {why}: .ci/run builds it")
        }
        Err(why) => {
            eprintln!("static site test skipped: {why}");
            return;
        }
    };
    let scratch = tempfile::tempdir().unwrap();
    let site = scratch.path().join("site");
    let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(["page", "-q", "--out", site.to_str().unwrap(), "--wasm", wasm.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A false pair beside the true ones: Kayles with one Grundy value changed.
    let kayles = site.join("cases/kayles");
    let good = std::fs::read_to_string(kayles.join("certificate.json")).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&good).unwrap();
    tamper(&mut json);
    std::fs::write(kayles.join("tampered.json"), serde_json::to_string(&json).unwrap()).unwrap();

    let (_server, base) = static_server(&site);
    let (_driver, driver_url) = start_driver(&driver);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = connect(&driver_url, &browser).await;
        let pair = |certificate: &str| {
            format!(
                "{base}index.html?instance=cases/kayles/instance.json&certificate=cases/kayles/{certificate}"
            )
        };
        // The command line's verdict for the same files, named as the page names them.
        let cli = |args: &[&str]| {
            let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
                .current_dir(&kayles)
                .arg("verify")
                .args(args)
                .output()
                .unwrap();
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            (text, out.status.code().unwrap_or(-1))
        };
        let expect = |page: &str, word: &str, native: (String, i32), code: i32| {
            assert!(page.starts_with(word), "the verdict begins with {word}: {page}");
            assert_eq!(native.1, code, "{}", native.0);
            let page_lines = even(page);
            let native_lines = even(&native.0);
            // The page may put the verdict's word on a line of its own before the checker's text.
            let shown = match page_lines.first().map(String::as_str) == Some(word) {
                true => &page_lines[1..],
                false => &page_lines[..],
            };
            assert_eq!(shown, &native_lines[..]);
        };
        let (page, verdict, _) = verdict_at(&client, &pair("certificate.json")).await;
        assert_eq!(verdict, "accepted", "{page}");
        expect(&page, "ACCEPTED", cli(&["instance.json", "certificate.json"]), 0);
        let (page, verdict, _) = verdict_at(&client, &pair("tampered.json")).await;
        assert_eq!(verdict, "rejected", "{page}");
        expect(&page, "REJECTED", cli(&["instance.json", "tampered.json"]), 1);
        let small = format!("{}&max-work=1000", pair("certificate.json"));
        let (page, verdict, _) = verdict_at(&client, &small).await;
        assert_eq!(verdict, "not-checked", "{page}");
        let native = cli(&["--max-work", "1000", "instance.json", "certificate.json"]);
        expect(&page, "NOT CHECKED", native, 3);

        // The gallery: every card drawn, and every case's link accepted in the browser.
        client.goto(&format!("{base}index.html")).await.unwrap();
        let links: Vec<String> = client
            .execute(
                "return [...document.querySelectorAll('#gallery .case a.check')].map(a => a.href);",
                vec![],
            )
            .await
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert!(links.len() >= 20, "the gallery's cases: {}", links.len());
        // A large tree's card shows its collapsed overview (issue 48, item 5).
        let overview = "return document.querySelectorAll('.case svg.tree-zoomed-out').length;";
        let trees = client.execute(overview, vec![]).await.unwrap();
        assert!(trees.as_u64().is_some_and(|n| n >= 3), "tree cards with overviews: {trees}");
        let mut total = 0.0;
        for link in &links {
            let (page, verdict, ms) = verdict_at(&client, link).await;
            assert_eq!(verdict, "accepted", "{link}: {page}");
            let case = link.split("cases/").nth(1).and_then(|c| c.split('/').next());
            eprintln!("in the browser: {:<28} {ms:>9.1} ms", case.unwrap_or("?"));
            total += ms;
        }
        eprintln!("in the browser: {} cases in {total:.0} ms", links.len());

        // The docs: the results page in the page's frame, and every link of it answers.
        client.goto(&format!("{base}docs/results.html")).await.unwrap();
        let heading = text(&client, "main h1").await;
        assert!(heading.starts_with("Results"), "{heading}");
        let broken = client
            .execute(
                "const links = [...document.querySelectorAll('a[href]')].map(a => a.href)
                   .filter(h => h.startsWith(location.origin));
                 return Promise.all(links.map(h => fetch(h).then(r => [h, r.status])))
                   .then(answers => answers.filter(([h, s]) => s !== 200));",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(broken, serde_json::json!([]), "links of results.html that do not answer");

        // From disk: no server, no worker; dropped files are checked on the page's thread.
        let page = site.join("index.html");
        client.goto(&format!("file://{}#/verify", page.display())).await.unwrap();
        let input = client.find(Locator::Css("#instance-file")).await.unwrap();
        input.send_keys(&kayles.join("instance.json").display().to_string()).await.unwrap();
        let input = client.find(Locator::Css("#certificate-file")).await.unwrap();
        input.send_keys(&kayles.join("tampered.json").display().to_string()).await.unwrap();
        client.find(Locator::Css("#verify-run")).await.unwrap().click().await.unwrap();
        let verdict = until("a verdict from disk", || async {
            attribute(&client, "#verdict", "data-verdict").await
        })
        .await;
        let page = text(&client, "#verdict").await;
        assert_eq!(verdict, "rejected", "{page}");
        expect(&page, "REJECTED", cli(&["instance.json", "tampered.json"]), 1);
        client.close().await.unwrap();
    });
}
