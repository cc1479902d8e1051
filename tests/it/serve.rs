//! `gamecert serve` (issue 34, items 2 and 3), the real binary on loopback with `--port 0`: the
//! load test (200 concurrent verify requests and 50 concurrent games, every answer right, none
//! lost, time and memory bounded, p50 and p99 printed), and the refusals (400, 404, 413, 422,
//! garbage that must not kill the server); issue 40's limits on short flags (timeouts, the
//! connection cap, a chunked body too large) and the graceful stop on SIGTERM, and in
//! serve_attacks.rs the red team's attacks. The HTTP client is a few lines over `TcpStream`.

use crate::common::server::Server;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

/// Issue 40's attacks (idle sockets, slow headers, held uploads, view readers, a huge game),
/// in a file of their own; their tests are named `serve_attack_*`.
#[path = "serve_attacks.rs"]
mod attacks;

/// One request (`Connection: close`): the status and the body.
fn http(address: SocketAddr, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A server that refuses a body may answer and close before reading it all: the body is
    // written from a thread of its own while the answer is read.
    let mut writer = stream.try_clone().expect("a second handle");
    let body = body.to_vec();
    let writing = std::thread::spawn(move || {
        let _ = writer.write_all(&body);
    });
    let answer = read_answer(stream);
    let _ = writing.join();
    answer
}

fn read_answer(mut stream: TcpStream) -> (u16, String) {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

fn post(address: SocketAddr, path: &str, value: &serde_json::Value) -> (u16, serde_json::Value) {
    let (status, body) = http(address, "POST", path, value.to_string().as_bytes());
    (status, json(&body))
}

const KAYLES: &str = r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game",
 "game": "kayles", "heaps": [5, 7, 9]}"#;
const KAYLES_LABELS: &str = r#"{"format": "gamecert-certificate", "version": 1,
 "kind": "heap-labelling", "claim": "first-player-wins", "values": [0, 1, 2, 3, 1, 4, 3, 2, 1, 4],
 "winning_move": {"heap": 1, "take": 1, "leave": [3, 3]}}"#;

/// The three kinds of upload: a good certificate, a tampered one (a label changed), one that is
/// not a certificate; with what `gamecert verify` prints and exits with on files of the same
/// names.
fn uploads() -> Vec<(serde_json::Value, String, u8)> {
    let dir = tempfile::tempdir().unwrap();
    let tampered = KAYLES_LABELS.replace("1, 4],", "1, 5],");
    assert_ne!(tampered, KAYLES_LABELS);
    let variants = [
        ("good.cert.json", KAYLES_LABELS.to_string()),
        ("tampered.cert.json", tampered),
        ("garbage.cert.json", "{\"format\": \"gamecert-certificate\", \"kind\": 7".to_string()),
    ];
    std::fs::write(dir.path().join("kayles.json"), KAYLES).unwrap();
    variants
        .into_iter()
        .map(|(name, text)| {
            std::fs::write(dir.path().join(name), &text).unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
                .args(["verify", "kayles.json", name])
                .current_dir(dir.path())
                .output()
                .unwrap();
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let code = out.status.code().expect("an exit code") as u8;
            let request = serde_json::json!({
                "instance_name": "kayles.json", "instance": KAYLES,
                "certificate_name": name, "certificate": text,
            });
            (request, printed, code)
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

/// Cases of the gallery whose games end in a few moves.
const GAMES: [&str; 8] = [
    "kayles",
    "triangle-8",
    "fan-nimstring",
    "mono-triangle",
    "mono-flipping",
    "vertexnim",
    "first-wins",
    "path-12",
];

/// Plays `case` to the end through the API, the person always taking the first legal move
/// (the certified side answers from the certificate); the number of requests made.
fn play_to_the_end(address: SocketAddr, case: &str) -> (usize, serde_json::Value) {
    let (status, mut view) = post(address, "/api/games", &serde_json::json!({ "case": case }));
    assert_eq!(status, 200, "{case}: {view}");
    let id = view["id"].as_str().expect("an id").to_string();
    let mut requests = 1;
    while view["over"] != true {
        assert!(requests < 400, "{case}: the game does not end");
        let first = view["moves"][0].as_str().expect("a legal move").to_string();
        let (status, next) =
            post(address, &format!("/api/games/{id}/move"), &serde_json::json!({ "move": first }));
        assert_eq!(status, 200, "{case}: {next}");
        view = next;
        requests += 1;
    }
    (requests, view)
}

/// Issue 34, item 3: 200 concurrent verify requests (good, tampered and garbage certificates,
/// each answered as `gamecert verify` answers) and 50 concurrent games played to the end, all
/// within a bounded time and memory.
#[test]
fn serve_holds_under_load() {
    let started = Instant::now();
    let mut server = Server::start(&[]);
    let address = server.address;
    let boot = started.elapsed();
    let uploads = std::sync::Arc::new(uploads());
    assert_eq!(uploads.iter().map(|u| u.2).collect::<Vec<_>>(), [0, 1, 2]);

    let load = Instant::now();
    let verifies: Vec<_> = (0..200)
        .map(|i| {
            let uploads = uploads.clone();
            std::thread::spawn(move || {
                let (request, printed, code) = &uploads[i % 3];
                let sent = Instant::now();
                let (status, answer) = post(address, "/api/verify", request);
                let took = sent.elapsed();
                let expected_status = if *code == 2 { 400 } else { 200 };
                assert_eq!(status, expected_status, "{answer}");
                assert_eq!(answer["text"], printed.as_str(), "{answer}");
                assert_eq!(answer["exit"], *code, "{answer}");
                assert_eq!(answer["accepted"], *code == 0, "{answer}");
                took
            })
        })
        .collect();
    let games: Vec<_> = (0..50)
        .map(|i| {
            std::thread::spawn(move || {
                let case = GAMES[i % GAMES.len()];
                let sent = Instant::now();
                let (requests, view) = play_to_the_end(address, case);
                let result = view["result"].as_str().expect("a result at the end");
                assert!(result.starts_with("Result: "), "{case}: {result}");
                // The certified side followed its certificate: its claim is never missed.
                assert_ne!(view["claim_met"], "false", "{case}: {view}");
                (requests, sent.elapsed())
            })
        })
        .collect();
    let mut latencies: Vec<Duration> =
        verifies.into_iter().map(|t| t.join().expect("a verify request answered")).collect();
    let mut game_requests = 0;
    let mut game_times = Vec::new();
    for game in games {
        let (requests, took) = game.join().expect("a game played to the end");
        game_requests += requests;
        game_times.push(took);
    }
    let elapsed = load.elapsed();
    latencies.sort();
    game_times.sort();
    let peak = server.peak_kb();
    println!(
        "serve load: listening after {:.2} s, the gallery ready after {:.1} s; 200 concurrent verify requests and 50 concurrent games \
         ({game_requests} game requests) in {:.2} s; verify latency p50 {:.1} ms, p99 {:.1} ms, \
         max {:.1} ms; a whole game p50 {:.1} ms, p99 {:.1} ms; peak memory (VmHWM) {} MB",
        server.listening_after.as_secs_f64(),
        boot.as_secs_f64(),
        elapsed.as_secs_f64(),
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
        percentile(&game_times, 0.5).as_secs_f64() * 1e3,
        percentile(&game_times, 0.99).as_secs_f64() * 1e3,
        peak.map_or("?".into(), |kb| (kb / 1024).to_string()),
    );
    assert!(server.alive(), "the server died under load");
    assert!(elapsed < Duration::from_secs(40), "the load took {elapsed:?}");
    if let Some(kb) = peak {
        assert!(kb < 400 * 1024, "the server's peak memory is {kb} kB");
    }
}

/// A path without `.` and `..` pieces.
fn normalise(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for piece in path.split('/') {
        match piece {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            piece => parts.push(piece),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Issue 34, item 3: malformed requests get 400 with the message, an unknown case 404, a body
/// over `--max-upload-mb` 413, a rejected certificate 422 when a game is asked of it; garbage
/// does not kill the server. Also a game from uploaded files, with hint, undo and new game.
#[test]
fn serve_refuses_bad_requests_and_survives_garbage() {
    let mut server = Server::start(&["--max-upload-mb", "1"]);
    let address = server.address;
    let (status, page) = http(address, "GET", "/", b"");
    assert_eq!(status, 200);
    let ids = ["nav-gallery", "nav-verify", "nav-results", "gallery", "board", "moves", "verdict"];
    for id in ids.into_iter().chain(["result"]) {
        assert!(page.contains(&format!("id=\"{id}\"")), "the page has no #{id}");
    }
    for asset in ["/page.js", "/page.css"] {
        assert_eq!(http(address, "GET", asset, b"").0, 200, "{asset}");
    }
    // The header's link to the open questions (docs/results.md, issue 42 item 7), a page in the
    // page's frame since issue 48 (item 3); its old address leads there.
    assert!(page.contains("href=\"/docs/results.html\""));
    assert_eq!(http(address, "GET", "/results.md", b"").0, 308);
    let (status, results) = http(address, "GET", "/docs/results.html", b"");
    assert_eq!(status, 200);
    assert!(results.contains(">Results: the papers' open questions</h1>"), "{results:.400}");
    assert!(results.contains("<header>") && results.contains("href=\"/page.css\""));
    // Every link of the results and of what they link to answers 200 (one level deep).
    let mut pages = vec!["/docs/results.html".to_string()];
    let mut seen = std::collections::HashSet::new();
    while let Some(at) = pages.pop() {
        let (status, html) = http(address, "GET", &at, b"");
        assert_eq!(status, 200, "{at}");
        for link in html.split("href=\"").skip(1).filter_map(|p| p.split('"').next()) {
            let link = link.split('#').next().unwrap_or_default();
            if link.is_empty() || link.contains("://") {
                continue;
            }
            let target = match link.starts_with('/') {
                true => link.to_string(),
                false => format!("{}{link}", &at[..=at.rfind('/').unwrap()]),
            };
            let target = normalise(&target);
            if seen.insert(target.clone()) {
                let (status, _) = http(address, "GET", &target, b"");
                assert_eq!(status, 200, "{at} links to {target}");
                if at == "/docs/results.html" && target.ends_with(".html") {
                    pages.push(target);
                }
            }
        }
    }
    assert!(seen.len() > 10, "{seen:?}");
    let (status, gallery) = http(address, "GET", "/api/gallery", b"");
    assert_eq!(status, 200);
    let gallery = json(&gallery);
    let cases = gallery["cases"].as_array().expect("cases");
    assert!(cases.iter().any(|c| c["name"] == "kayles" && c["playable"] == true), "{gallery}");
    assert!(cases.iter().all(|c| c["picture"].as_str().is_some_and(|p| p.contains("<svg"))));
    // The card states the name and claim itself; every picture marks its own title lines
    // `caption`, which page.css hides in the card (unreadable at thumbnail size).
    for case in cases {
        let picture = case["picture"].as_str().unwrap_or_default();
        let first_text = picture.find("<text").map(|at| &picture[at..]).unwrap_or_default();
        assert!(
            first_text.starts_with("<text class=\"caption\""),
            "{}: {first_text:.80}",
            case["name"]
        );
    }

    // 400: not JSON, a wrong field, bad input (verify's message and exit code 2).
    let (status, body) = http(address, "POST", "/api/verify", b"{not json");
    assert_eq!(status, 400, "{body}");
    assert!(json(&body)["error"].as_str().is_some_and(|e| e.contains("not valid")), "{body}");
    let (status, body) =
        post(address, "/api/verify", &serde_json::json!({ "path": "/etc/passwd" }));
    assert_eq!(status, 400, "{body}");
    let bad = serde_json::json!({
        "instance_name": "k.json", "instance": KAYLES,
        "certificate_name": "c.json", "certificate": "[1, 2",
    });
    let (status, body) = post(address, "/api/verify", &bad);
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["exit"], 2, "{body}");
    assert!(body["error"].as_str().is_some_and(|e| e.starts_with("error: c.json:")), "{body}");
    let (status, body) =
        post(address, "/api/games", &serde_json::json!({ "case": "kayles", "side": "both" }));
    assert_eq!(status, 400, "{body}");
    let (status, body) = post(address, "/api/games", &serde_json::json!({ "case": "figure3-p1" }));
    assert_eq!(status, 400, "a witness is not played: {body}");

    // 404: an unknown case, an unknown game, an unknown page.
    let (status, body) = post(address, "/api/games", &serde_json::json!({ "case": "../../etc" }));
    assert_eq!(status, 404, "{body}");
    assert_eq!(http(address, "GET", "/api/games/0123abcd", b"").0, 404);
    assert_eq!(http(address, "GET", "/etc/passwd", b"").0, 404);

    // 413: a body over --max-upload-mb 1.
    let big = serde_json::json!({
        "instance_name": "k.json", "instance": " ".repeat(2 << 20),
        "certificate_name": "c.json", "certificate": KAYLES_LABELS,
    });
    let (status, _) = http(address, "POST", "/api/verify", big.to_string().as_bytes());
    assert_eq!(status, 413);

    // Garbage: not HTTP at all, binary bodies, a broken base64, a huge move.
    let mut raw = TcpStream::connect(address).unwrap();
    raw.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = raw.write_all(b"\x00\xff\xfeGARBAGE \r\n\r\n\x01\x02");
    let _ = read_answer(raw);
    let noise: Vec<u8> =
        (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    for path in ["/api/verify", "/api/games", "/api/games/zz/move", "/api/games/1/new"] {
        let (status, _) = http(address, "POST", path, &noise);
        assert!((400..500).contains(&status), "{path}: {status}");
    }
    let broken = serde_json::json!({
        "instance_name": "k", "instance_base64": "%%%", "certificate_name": "c", "certificate": "",
    });
    assert_eq!(post(address, "/api/verify", &broken).0, 400);

    // A game from uploaded files: a tampered certificate is refused, a good one played.
    let tampered = KAYLES_LABELS.replace("1, 4],", "1, 5],");
    let files = |certificate: &str| {
        serde_json::json!({
            "instance_name": "kayles.json", "instance": KAYLES,
            "certificate_name": "kayles.cert.json", "certificate": certificate, "side": "second",
        })
    };
    let (status, body) = post(address, "/api/games", &files(&tampered));
    assert_eq!(status, 422, "{body}");
    assert!(body["error"].as_str().is_some_and(|e| e.starts_with("REJECTED")), "{body}");
    let (status, view) = post(address, "/api/games", &files(KAYLES_LABELS));
    assert_eq!(status, 200, "{view}");
    let id = view["id"].as_str().unwrap().to_string();
    assert_eq!(view["side"], "second");
    assert!(view["last_move"].as_str().unwrap().contains("plays"), "{view}");
    let (status, hint) = post(address, &format!("/api/games/{id}/hint"), &serde_json::json!({}));
    assert_eq!(status, 200);
    assert!(hint["hint"].as_str().is_some(), "{hint}");
    let (status, body) =
        post(address, &format!("/api/games/{id}/move"), &serde_json::json!({ "move": "9:9" }));
    assert_eq!(status, 400, "an illegal move: {body}");
    assert!(body["error"].as_str().unwrap().starts_with("illegal move '9:9'"), "{body}");
    let first = view["moves"][0].as_str().unwrap().to_string();
    let (_, moved) =
        post(address, &format!("/api/games/{id}/move"), &serde_json::json!({ "move": first }));
    assert_eq!(moved["can_undo"], true, "{moved}");
    let (_, undone) = post(address, &format!("/api/games/{id}/undo"), &serde_json::json!({}));
    assert_eq!(undone["position"], view["position"], "{undone}");
    let (_, fresh) =
        post(address, &format!("/api/games/{id}/new"), &serde_json::json!({ "side": "first" }));
    assert_eq!(fresh["side"], "first");
    assert_eq!(fresh["last_move"], "none yet");

    assert!(server.alive(), "the server died");
    assert_eq!(http(address, "GET", "/api/gallery", b"").0, 200, "the server still answers");
}

/// Issue 40's limits, each on a short flag: a silent socket and a slow header are closed after
/// `--header-timeout`; a body that pauses longer than `--idle-timeout` gets 408; at
/// `--max-connections`, a connection whose body waits on its client is closed to make room
/// like an idle one (issue 46), and with every connection at work a new one gets 503 with
/// Retry-After; a chunked body (no Content-Length) over `--max-upload-mb` gets 413 as its
/// pieces come.
#[test]
fn serve_times_out_slow_clients_and_caps_connections() {
    let dir = tempfile::tempdir().unwrap();
    let kayles = dir.path().join("kayles.json");
    let labels = dir.path().join("kayles.cert.json");
    let heap = r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game",
                   "game": "kayles", "heaps": [44000]}"#;
    std::fs::write(&kayles, heap).unwrap();
    let solved = crate::common::gamecert(&[
        "solve",
        kayles.to_str().unwrap(),
        "-o",
        labels.to_str().unwrap(),
    ]);
    assert_eq!(solved.status.code(), Some(0), "{}", crate::common::stderr(&solved));
    let server = Server::start(&[
        "--header-timeout",
        "1",
        "--idle-timeout",
        "5",
        "--max-connections",
        "2",
        "--max-upload-mb",
        "1",
        "--checks",
        "1",
    ]);
    let address = server.address;
    let closed_after = |sent: &[u8]| {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.write_all(sent).unwrap();
        let opened = Instant::now();
        let mut answer = Vec::new();
        let read = stream.read_to_end(&mut answer);
        assert!(
            read.is_ok()
                || read.as_ref().is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionReset),
            "{read:?}"
        );
        opened.elapsed()
    };
    let silent = closed_after(b"");
    assert!(silent > Duration::from_millis(800) && silent < Duration::from_secs(5), "{silent:?}");
    let slow = closed_after(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    assert!(slow > Duration::from_millis(800) && slow < Duration::from_secs(5), "{slow:?}");

    // Two connections whose bodies paused half way wait on their clients: at the cap, a third
    // closes the one idle the longest (the first: it gets no answer) and is answered; the
    // second body gets 408 once its pause passes --idle-timeout.
    let paused: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut stream = TcpStream::connect(address).unwrap();
            stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            let head = "POST /api/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                        Content-Length: 100\r\n\r\n{\"instance\": ";
            stream.write_all(head.as_bytes()).unwrap();
            std::thread::sleep(Duration::from_millis(100));
            stream
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(http(address, "GET", "/api/gallery", b"").0, 200, "a request at the cap");
    let mut paused = paused.into_iter();
    let mut first = paused.next().unwrap();
    let mut nothing = Vec::new();
    let _ = first.read_to_end(&mut nothing);
    assert!(nothing.is_empty(), "{:?}", String::from_utf8_lossy(&nothing));
    let (status, body) = read_answer(paused.next().unwrap());
    assert_eq!(status, 408, "{body}");
    let error = json(&body)["error"].as_str().unwrap_or("").to_string();
    assert!(error.contains("in time") || error.contains("too slowly"), "{body}");

    // Two connections at work (a check running, and one waiting for the only --checks
    // permit): a third is refused with 503 and Retry-After, and the two are answered.
    let files = serde_json::json!({
        "instance_name": "kayles.json", "instance": heap,
        "certificate_name": "kayles.cert.json",
        "certificate": std::fs::read_to_string(&labels).unwrap(),
    })
    .to_string();
    let working: Vec<_> = (0..2)
        .map(|_| {
            let files = files.clone();
            std::thread::spawn(move || http(address, "POST", "/api/verify", files.as_bytes()).0)
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut third = TcpStream::connect(address).unwrap();
    third.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let _ = third.write_all(b"GET /api/gallery HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut refusal = String::new();
    let _ = third.read_to_string(&mut refusal);
    assert!(refusal.starts_with("HTTP/1.1 503 "), "{refusal:?}");
    assert!(refusal.contains("Retry-After: "), "{refusal:?}");
    for work in working {
        assert_eq!(work.join().unwrap(), 200);
    }

    // A chunked body past 1 MB: 413 (the JSON error) as its pieces come.
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let head = "POST /api/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                Transfer-Encoding: chunked\r\n\r\n";
    stream.write_all(head.as_bytes()).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let writing = std::thread::spawn(move || {
        let chunk = [b' '; 64 << 10];
        for _ in 0..40 {
            let sent = write!(writer, "{:x}\r\n", chunk.len())
                .and_then(|()| writer.write_all(&chunk))
                .and_then(|()| writer.write_all(b"\r\n"));
            if sent.is_err() {
                break;
            }
        }
        let _ = writer.write_all(b"0\r\n\r\n");
    });
    let (status, body) = read_answer(stream);
    let _ = writing.join();
    assert_eq!(status, 413, "{body}");
    assert!(json(&body)["error"].as_str().is_some_and(|e| e.contains("--max-upload-mb")), "{body}");
    assert_eq!(http(address, "GET", "/api/gallery", b"").0, 200, "the server still answers");
}

/// Issue 40: SIGTERM stops the server gracefully: it takes no new connection, answers the
/// request in flight (here a verify whose body is still arriving), and exits 0.
#[test]
fn serve_stops_gracefully_on_sigterm() {
    let mut server = Server::start(&[]);
    let address = server.address;
    let request = serde_json::json!({
        "instance_name": "kayles.json", "instance": KAYLES,
        "certificate_name": "kayles.cert.json", "certificate": KAYLES_LABELS,
    })
    .to_string();
    let (first, rest) = request.as_bytes().split_at(request.len() / 2);
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /api/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        request.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(first).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    server.terminate();
    // The listener is closed as soon as the signal is handled (a few milliseconds when idle).
    let signalled = Instant::now();
    while TcpStream::connect(address).is_ok() {
        assert!(signalled.elapsed() < Duration::from_secs(5), "new connections still taken");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(server.alive(), "the server waits for the request in flight");
    stream.write_all(rest).unwrap();
    let (status, body) = read_answer(stream);
    assert_eq!(status, 200, "{body}");
    assert_eq!(json(&body)["accepted"], true, "{body}");
    let status = server.exit_status(Duration::from_secs(15)).expect("the server stops");
    assert!(status.success(), "{status:?}");
}

/// Issue 40: every limit is range-checked (exit 2 naming the flag and its range), and a pair of
/// limits that cannot work together is refused before the server starts.
#[test]
fn serve_refuses_limits_out_of_range() {
    let cases = [
        ("--max-upload-mb", "0", "from 1 to 4096"),
        ("--max-uploads-mb", "1", "from 2 to 65536"),
        ("--max-connections", "0", "from 1 to 10^6"),
        ("--header-timeout", "0", "from 1 to 3600"),
        ("--idle-timeout", "3601", "from 1 to 3600"),
        ("--upload-timeout", "0", "from 1 to 86400"),
        ("--max-game-mb", "4097", "from 1 to 4096"),
        ("--max-games-mb", "0", "from 1 to 65536"),
        ("--max-games", "0", "from 1 to 10^6"),
        ("--max-uploaded-games", "1000001", "from 1 to 10^6"),
        ("--max-game-positions", "1", "from 2 to 10^6"),
        ("--checks", "0", "from 1 to 1024"),
        ("--busy-wait", "0", "from 1 to 3600"),
        ("--grace", "3601", "from 1 to 3600"),
    ];
    for (flag, value, range) in cases {
        let out = crate::common::gamecert(&["serve", flag, value]);
        let stderr = crate::common::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(stderr.contains(flag) && stderr.contains(range), "{flag} {value}: {stderr}");
    }
    crate::common::bad_input(
        &["serve", "--max-uploads-mb", "100"],
        "--max-uploads-mb 100 is less than twice --max-upload-mb 64",
    );
    crate::common::bad_input(
        &["serve", "--max-games-mb", "8"],
        "--max-games-mb 8 is less than --max-game-mb 16",
    );
    crate::common::bad_input(
        &["serve", "--max-games", "10"],
        "--max-uploaded-games 64 is more than --max-games 10",
    );
}

/// One request's status, its headers (lower-cased names) and its body.
fn http_full(
    address: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> (u16, Vec<(String, String)>, String) {
    let mut stream = TcpStream::connect(address).expect("connects");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// Issue 42, item 5: the server listens at once and prepares its gallery beside it. Until the
/// gallery is ready, the page is served, the gallery and a gallery game answer 503 with
/// Retry-After and how far the preparation has got, and a verify of uploaded files is answered
/// as usual; then the gallery is offered. (Solving the demo's 28 cases takes seconds on a quiet
/// machine and 35 s under load: the first request, sent as soon as the address is printed, is
/// always answered while the gallery is being prepared.)
#[test]
fn serve_listens_at_once_and_says_it_is_preparing() {
    let server = Server::start_preparing(&[], None);
    let address = server.address;
    let started = Instant::now();
    let (status, headers, body) = http_full(address, "GET", "/api/gallery", b"");
    assert_eq!(status, 503, "the gallery is not ready yet: {body}");
    assert_eq!(header(&headers, "retry-after"), Some("1"), "{headers:?}");
    let answer = json(&body);
    let error = answer["error"].as_str().expect("an error");
    assert!(error.starts_with("the server is preparing the gallery ("), "{error}");
    let mut total = answer["preparing"]["total"].as_u64().expect("a total");
    let done = answer["preparing"]["done"].as_u64().expect("a count");
    assert!(done <= total, "{answer}");
    // Asked in the first microseconds, before the preparing thread has said anything, the
    // total may still be 0; it is the demo's count from the thread's first report on.
    while total == 0 && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
        let (status, _, body) = http_full(address, "GET", "/api/gallery", b"");
        assert_eq!(status, 503, "the gallery cannot be ready before the count is: {body}");
        total = json(&body)["preparing"]["total"].as_u64().expect("a total");
    }
    assert!(answer["preparing"]["stage"].as_str().is_some_and(|s| !s.is_empty()), "{answer}");

    let (status, headers, body) =
        http_full(address, "POST", "/api/games", br#"{"case": "kayles"}"#);
    assert_eq!(status, 503, "a gallery game waits for the gallery: {body}");
    assert_eq!(header(&headers, "retry-after"), Some("1"), "{headers:?}");
    assert!(json(&body)["preparing"].is_object(), "{body}");

    // The page itself, and a verify of uploaded files, do not wait.
    let (status, _, page) = http_full(address, "GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.contains("id=\"preparing\""), "the page has its preparing note");
    let upload = serde_json::json!({
        "instance_name": "kayles.json", "instance": KAYLES,
        "certificate_name": "kayles.cert.json", "certificate": KAYLES_LABELS,
    });
    let (status, verdict) = post(address, "/api/verify", &upload);
    assert_eq!((status, &verdict["accepted"]), (200, &serde_json::json!(true)), "{verdict}");
    let answered_while_preparing = started.elapsed();

    server.wait_for_gallery();
    let ready = started.elapsed();
    println!(
        "serve start-up: listening after {:.2} s, the gallery ready {:.1} s later (the first \
         answers within {:.2} s)",
        server.listening_after.as_secs_f64(),
        ready.as_secs_f64(),
        answered_while_preparing.as_secs_f64()
    );
    let (status, gallery) = http(address, "GET", "/api/gallery", b"");
    assert_eq!(status, 200);
    let cases = json(&gallery)["cases"].as_array().expect("cases").len() as u64;
    assert_eq!(cases, total, "every demo case is offered once ready");
    let (status, view) = post(address, "/api/games", &serde_json::json!({ "case": "kayles" }));
    assert_eq!(status, 200, "{view}");
}

/// Issue 42, item 3: the page keeps the strategy secret as `gamecert play` does (no Grundy
/// value, no nim sum, no "the player to move loses" on a heap or coin board, in the gallery or
/// in a game); a game's view is titled by its case and says when the game is over; a move the
/// page cannot take says what the page offers (not the terminal's `moves`); only a certificate
/// that holds a strategy is offered to play, in the gallery and after a verify.
#[test]
fn serve_keeps_the_strategy_secret_and_speaks_of_the_page() {
    let server = Server::start(&[]);
    let address = server.address;
    let secrets = ["g = ", "nim sum", "Grundy value", "to move loses", "to move wins", "labels"];
    let (_, gallery) = http(address, "GET", "/api/gallery", b"");
    let gallery = json(&gallery);
    for name in ["kayles", "coins"] {
        let case = gallery["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("the gallery offers {name}"));
        let picture = case["picture"].as_str().unwrap();
        for secret in secrets {
            assert!(!picture.contains(secret), "{name}'s gallery picture says '{secret}'");
        }
        let (status, view) = post(address, "/api/games", &serde_json::json!({ "case": name }));
        assert_eq!(status, 200, "{view}");
        assert_eq!(view["title"], name, "{view}");
        let board = view["board"].as_str().unwrap();
        for secret in secrets {
            assert!(!board.contains(secret), "{name}'s board says '{secret}': {board}");
        }
        // (The note may be wrapped over two lines of the picture.)
        assert!(board.contains("second player to"), "{name}: the board says whose turn it is");
    }
    // A whole game: at its end, nobody is to move and the view says so.
    let (_, end) = play_to_the_end(address, "kayles");
    assert_eq!(end["to_move"], "nobody: the game is over", "{end}");
    assert_eq!(end["title"], "kayles");
    let id = end["id"].as_str().unwrap();
    let (status, refused) =
        post(address, &format!("/api/games/{id}/move"), &serde_json::json!({ "move": "1:1" }));
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().contains("New game"), "{refused}");

    // An illegal move: explained in the page's words.
    let (_, view) = post(address, "/api/games", &serde_json::json!({ "case": "median-tree" }));
    let id = view["id"].as_str().unwrap();
    let (status, refused) = post(
        address,
        &format!("/api/games/{id}/move"),
        &serde_json::json!({ "move": "no-such-vertex" }),
    );
    assert_eq!(status, 400, "{refused}");
    let error = refused["error"].as_str().unwrap();
    assert!(error.starts_with("illegal move 'no-such-vertex': there is no vertex"), "{error}");
    assert!(!error.contains("`moves`"), "the page has no `moves` command: {error}");
    assert!(error.contains("Your moves"), "{error}");

    // Play is offered only where there is a strategy: a witness is not, and says why.
    let witness = gallery["cases"].as_array().unwrap().iter().find(|c| c["kind"] == "witness");
    let witness = witness.expect("the gallery has a witness");
    assert_eq!(witness["playable"], false);
    let (status, refused) =
        post(address, "/api/games", &serde_json::json!({ "case": witness["name"] }));
    assert_eq!(status, 400);
    assert!(refused["error"].as_str().unwrap().contains("no strategy"), "{refused}");
    let fixture = |name: &str| {
        let path =
            format!("{}/certificates/tests/fixtures/witness/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let files = |instance: String, certificate: String| {
        serde_json::json!({
            "instance_name": "i.json", "instance": instance,
            "certificate_name": "c.json", "certificate": certificate,
        })
    };
    let (status, verdict) =
        post(address, "/api/verify", &files(fixture("instance.json"), fixture("accept.json")));
    assert_eq!(status, 200, "{verdict}");
    assert_eq!((&verdict["accepted"], &verdict["playable"]), (&true.into(), &false.into()));
    let why = verdict["unplayable"].as_str().expect("why it cannot be played");
    assert!(why.starts_with("a witness certificate holds no strategy"), "{why}");
    let (_, verdict) = post(address, "/api/verify", &files(KAYLES.into(), KAYLES_LABELS.into()));
    assert_eq!((&verdict["accepted"], &verdict["playable"]), (&true.into(), &true.into()));
    assert!(verdict["unplayable"].is_null(), "{verdict}");
    let tampered = KAYLES_LABELS.replace("1, 4],", "1, 5],");
    let (_, verdict) = post(address, "/api/verify", &files(KAYLES.into(), tampered));
    assert_eq!((&verdict["accepted"], &verdict["playable"]), (&false.into(), &false.into()));
}

/// Issue 48, items 4 and 5: every card of the demo's gallery is a picture. No card shows an
/// error where its picture belongs (a certificate "with no play to draw", "points more than a
/// picture draws", a picture too large to send, a text drawing in place of one); each is an
/// `<svg>` with drawn shapes. A case too large to draw whole says what it leaves out; a large
/// tree carries its collapsed overview, whose wedges' counts sum to the vertices it hides.
#[test]
fn serve_gallery_draws_every_card() {
    use gamecert::serve::gallery::{CaseFiles, Gallery, MAX_PICTURE_BYTES};
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(["demo", "-q", "--out", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(case) = name.strip_suffix(".instance.json") else { continue };
        let text =
            |suffix: &str| std::fs::read_to_string(dir.path().join(format!("{case}.{suffix}")));
        files.push(CaseFiles {
            name: case.to_string(),
            description: case.to_string(),
            instance: text("instance.json").unwrap(),
            certificate: text("cert.json").unwrap(),
        });
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    let total = files.len();
    assert!(total >= 25, "the demo's cases: {total}");
    let (gallery, dropped) = Gallery::load(files, None, &|_| {});
    assert!(dropped.is_empty(), "{dropped:?}");
    assert_eq!(gallery.cases.len(), total);
    let errors = [
        "no play to draw",
        "a picture draws",
        "too large to send",
        "has no picture",
        "xml:space=\"preserve\"",
    ];
    for case in &gallery.cases {
        let (name, picture) = (&case.name, &case.picture);
        assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"), "{name}");
        assert!(picture.len() <= MAX_PICTURE_BYTES, "{name}: {} bytes", picture.len());
        for error in errors {
            assert!(!picture.contains(error), "{name}'s card says '{error}'");
        }
        let shapes: usize = ["<circle", "<line", "<path", "<polygon", "<polyline"]
            .iter()
            .map(|tag| picture.matches(tag).count())
            .sum();
        assert!(shapes >= 2, "{name}: {shapes} shapes drawn");
    }
    let card = |name: &str| &gallery.case(name).unwrap_or_else(|| panic!("{name}")).picture;
    // The words a card shows beside an overview (its lines joined).
    let words = |picture: &str| -> String {
        let lines = picture.split("<text class=\"left-out\"").skip(1);
        let text = lines.map(|l| l.split_once('>').unwrap().1.split_once("</text>").unwrap().0);
        text.collect::<Vec<_>>().join(" ")
    };
    // Too large to draw whole: an overview that says what it leaves out.
    let flips = card("all-green");
    assert!(flips.contains("class=\"hull\""));
    let said = words(flips);
    assert!(said.starts_with("10,000 points drawn without their numbers"), "{said}");
    assert!(said.contains("The triangulation's 19,997 edges and the certificate's"), "{said}");
    let heaps = words(card("kayles-coloring"));
    assert!(heaps.contains("the game is Kayles on 8,285 heaps"), "{heaps}");
    assert!(heaps.ends_with("The points and the triangulation are left out."), "{heaps}");
    // The k-ary trees: the top two levels drawn, the rest in counted wedges.
    for (name, vertices, wedges, count) in
        [("kary-6-3", 259, 36, 6), ("kary-5-4", 781, 25, 30), ("kary-4-4", 341, 16, 20)]
    {
        let picture = card(name);
        assert!(picture.contains("class=\"tree-picture\" data-detail-at="), "{name}");
        assert!(picture.contains("<g class=\"tree-overview\">"), "{name}");
        assert_eq!(picture.matches("<g class=\"wedge\"").count(), wedges, "{name}");
        let counted = format!("data-count=\"{count}\"");
        assert_eq!(picture.matches(&counted).count(), wedges, "{name}");
        let shown = vertices - wedges * count;
        assert!(shown <= 48, "{name}: {shown} vertices drawn in the overview");
        assert!(picture.contains(&format!("{} vertices in {wedges} collapsed", wedges * count)));
        // Every vertex of the detail keeps its name as a tooltip.
        assert!(picture.matches("<circle data-vertex=").count() == vertices, "{name}");
    }
    // A tree of 60 vertices reads whole: no overview.
    assert!(!card("median-tree").contains("tree-overview"));
}
