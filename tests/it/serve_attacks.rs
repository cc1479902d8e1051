//! `gamecert serve` under the red team's attacks (issue 40, item 3), each on the real binary on
//! loopback and each a class of abuse rather than one request:
//!
//! - 1,100 silent sockets held against a server limited to 1,024 open files, its header timeout
//!   set to an hour so that only the connection cap can help: a normal request is answered
//!   within 60 s (the idle sockets are closed oldest first);
//! - 2,100 slow partial headers, each reopened as soon as the server closes it, against 2,048
//!   files: likewise;
//! - 40 uploads of 64 MiB, each sent but for its last byte and held: the server stays under
//!   1 GB, then answers the ones it took and refused the others politely;
//! - 64 clients re-reading the largest game view and the slowest to draw for 30 s (and asking
//!   for a fresh one every few reads): a gallery request stays under 5 s, the server under 1 GB;
//! - one uploaded game on 20,000 heaps played for 60 s: the server grows by under 300 MB.
//!
//! Round 6 (issue 46: the server shares fairly, and no declared size is believed):
//!
//! - 1,000 bodies trickled a byte every 20 s against 1,024 open files: every gallery request
//!   answered within 5 s (the bodies are cut at the minimum pace, and a connection waiting on
//!   its body gives its slot up like an idle one);
//! - four bodies declaring 64 MiB each and trickling: they hold what they sent, and ten honest
//!   uploads are answered meanwhile;
//! - four clients looping on a 1 s check: a player's moves and views each answered within 1 s;
//! - checks looping against a memory budget that holds one: never two at work, never more
//!   reserved than the budget, a budget larger than all of it lowered and said so;
//! - sixteen uploaded games: the bytes counted are the bytes the server grew by, within 10%.
//!
//! Bounded in count and in time: every socket count above is fixed, every phase has its
//! deadline (the 30 s and 60 s phases are the issue's), and each test takes its phase plus the
//! server's start-up: under 4 minutes for the nine serve tests in parallel on 2 cores. The
//! figures are printed (`--nocapture`) and recorded in docs/benchmarks.md.

use crate::common::server::{raise_open_file_limit, Server};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

const MB: u64 = 1024;

/// One request and its answer on a connection of its own, waiting at most `within`: the
/// status (0 when no answer came) and the body.
fn request(
    address: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
    within: Duration,
) -> (u16, Vec<u8>) {
    let Ok(mut stream) = TcpStream::connect_timeout(&address, within) else {
        return (0, Vec::new());
    };
    stream.set_read_timeout(Some(within)).unwrap();
    stream.set_write_timeout(Some(within)).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body)).is_err() {
        return (0, Vec::new());
    }
    let mut reader = BufReader::new(stream);
    read_answer(&mut reader).unwrap_or((0, Vec::new()))
}

/// An HTTP/1.1 answer read from `reader`: its status and its body (by its Content-Length).
fn read_answer(reader: &mut impl BufRead) -> std::io::Result<(u16, Vec<u8>)> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut length = None;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse::<usize>().ok();
            }
        }
    }
    let mut body = Vec::new();
    match length {
        Some(length) => {
            body.resize(length, 0);
            reader.read_exact(&mut body)?;
        }
        None => {
            reader.read_to_end(&mut body)?;
        }
    }
    Ok((status, body))
}

/// A client keeping its connection alive between requests, as a browser does (reconnecting
/// when the server closes it).
struct Client {
    address: SocketAddr,
    connection: Option<(TcpStream, BufReader<TcpStream>)>,
}

impl Client {
    fn new(address: SocketAddr) -> Client {
        Client { address, connection: None }
    }

    fn send(&mut self, method: &str, path: &str, body: &[u8]) -> std::io::Result<(u16, Vec<u8>)> {
        if self.connection.is_none() {
            let stream = TcpStream::connect_timeout(&self.address, Duration::from_secs(10))?;
            stream.set_read_timeout(Some(Duration::from_secs(60)))?;
            let reader = BufReader::new(stream.try_clone()?);
            self.connection = Some((stream, reader));
        }
        let (stream, reader) = self.connection.as_mut().expect("connected");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n",
            self.address,
            body.len()
        );
        let answer = stream
            .write_all(head.as_bytes())
            .and_then(|()| stream.write_all(body))
            .and_then(|()| read_answer(reader));
        if answer.is_err() {
            self.connection = None;
        }
        answer
    }

    /// `send`, once more on a new connection if the kept one had been closed by the server
    /// (its idle timeout, or the cap making room).
    fn call(&mut self, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
        let kept = self.connection.is_some();
        match self.send(method, path, body) {
            Ok(answer) => answer,
            Err(_) if kept => self.send(method, path, body).unwrap_or((0, Vec::new())),
            Err(_) => (0, Vec::new()),
        }
    }
}

fn json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&body[..body.len().min(500)]))
    })
}

/// The server's memory now and at its peak, in MB, for the printed figures.
fn memory(server: &Server) -> (u64, u64) {
    (server.rss_kb().unwrap_or(0) / MB, server.peak_kb().unwrap_or(0) / MB)
}

/// 1,100 silent sockets against a server limited to 1,024 open files (its cap then 960), with
/// a header timeout of an hour: only the cap frees a place, by closing the connection idle
/// the longest, so a normal request is answered at once and the first sockets are the ones
/// closed.
#[test]
fn serve_attack_idle_sockets_lock_no_one_out() {
    raise_open_file_limit(1_100 + 200);
    let server = Server::start_limited(&["--header-timeout", "3600"], Some(1024));
    let address = server.address;
    let started = Instant::now();
    let idle: Vec<TcpStream> = (0..1_100)
        .map(|_| TcpStream::connect_timeout(&address, Duration::from_secs(10)).expect("connects"))
        .collect();
    let opened = started.elapsed();
    std::thread::sleep(Duration::from_secs(1));
    let asked = Instant::now();
    let (status, body) = request(address, "GET", "/api/gallery", b"", Duration::from_secs(60));
    let answered = asked.elapsed();
    assert_eq!(status, 200, "a normal request among 1,100 idle sockets");
    assert!(json(&body)["cases"].as_array().is_some_and(|c| !c.is_empty()));
    assert!(answered < Duration::from_secs(60), "answered after {answered:?}");
    // The oldest idle sockets were closed to make room, the newest kept (the server sends
    // nothing on them: a read that would block is an open socket).
    let closed = |stream: &TcpStream| {
        stream.set_nonblocking(true).unwrap();
        match (&*stream).read(&mut [0u8; 16]) {
            Ok(0) => true,
            Ok(read) => panic!("the server sent {read} bytes on a socket that sent nothing"),
            Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
        }
    };
    assert!(closed(&idle[0]), "the oldest idle socket is closed");
    assert!(!closed(&idle[idle.len() - 1]), "the newest idle socket is kept");
    let still_open = idle.iter().filter(|s| !closed(s)).count();
    let (rss, peak) = memory(&server);
    println!(
        "serve attack, idle sockets: 1,100 opened in {:.1} s against 1,024 open files; a gallery \
         request answered in {:.1} ms; {still_open} of the 1,100 still open; the server {} open \
         files, {rss} MB resident, {peak} MB at its peak",
        opened.as_secs_f64(),
        answered.as_secs_f64() * 1e3,
        server.open_files().unwrap_or(0),
    );
    assert!(still_open <= 1_024 - 64, "{still_open} idle sockets kept past the cap");
}

/// 2,100 slow partial headers against a server limited to 2,048 open files, each sending a
/// byte a second and reopened whenever the server closes it, for 25 s (past the 10 s header
/// timeout): normal requests made meanwhile are each answered within 60 s.
#[test]
fn serve_attack_slow_headers_lock_no_one_out() {
    raise_open_file_limit(2_100 + 300);
    let server = Server::start_limited(&[], Some(2048));
    let address = server.address;
    let stop = Arc::new(AtomicBool::new(false));
    let reopened = Arc::new(AtomicUsize::new(0));
    let (stop_flag, reopened_count) = (stop.clone(), reopened.clone());
    let attacker = std::thread::spawn(move || {
        let mut sockets: Vec<Option<TcpStream>> = (0..2_100).map(|_| None).collect();
        while !stop_flag.load(Ordering::Relaxed) {
            let round = Instant::now();
            for socket in sockets.iter_mut() {
                if stop_flag.load(Ordering::Relaxed) {
                    break;
                }
                let alive = socket.as_mut().is_some_and(|s| s.write(b"x").is_ok());
                if !alive {
                    *socket = TcpStream::connect_timeout(&address, Duration::from_secs(1))
                        .ok()
                        .filter(|s| {
                            s.set_nonblocking(true).is_ok()
                                && (&*s).write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ").is_ok()
                        });
                    if socket.is_some() {
                        reopened_count.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            std::thread::sleep(Duration::from_secs(1).saturating_sub(round.elapsed()));
        }
    });
    let started = Instant::now();
    let mut latencies = Vec::new();
    while started.elapsed() < Duration::from_secs(25) {
        std::thread::sleep(Duration::from_secs(4));
        let asked = Instant::now();
        let (status, _) = request(address, "GET", "/api/gallery", b"", Duration::from_secs(60));
        let answered = asked.elapsed();
        assert_eq!(status, 200, "a normal request among 2,100 slow headers");
        assert!(answered < Duration::from_secs(60), "answered after {answered:?}");
        latencies.push(answered);
    }
    stop.store(true, Ordering::Relaxed);
    attacker.join().expect("the attacker");
    let (rss, peak) = memory(&server);
    let slowest = latencies.iter().max().copied().unwrap_or_default();
    println!(
        "serve attack, slow headers: 2,100 held for 25 s against 2,048 open files ({} opened in \
         all); {} gallery requests meanwhile, the slowest answered in {:.1} ms; the server {rss} \
         MB resident, {peak} MB at its peak",
        reopened.load(Ordering::Relaxed),
        latencies.len(),
        slowest.as_secs_f64() * 1e3,
    );
    assert!(peak < 500 * MB, "the server peaked at {peak} MB");
}

/// 40 uploads of 64 MiB (the largest allowed), each sent but for its last byte and held, then
/// finished: the server buffers only what its upload budget allows (512 MB, each counted
/// twice) and refuses the others with 503, so it stays under 1 GB; the uploads it took are
/// answered (400: their instance is 64 MiB of `x`).
#[test]
fn serve_attack_held_uploads_stay_under_a_gigabyte() {
    let server = Server::start(&[]);
    let address = server.address;
    let length = 64 << 20;
    let mut body = br#"{"instance_name": "held.json", "certificate_name": "c.json", "certificate": "{}", "instance": ""#.to_vec();
    body.resize(length - 2, b'x');
    body.extend_from_slice(b"\"}");
    let body = Arc::new(body);
    let (sent_tx, sent_rx) = mpsc::channel();
    let finish = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let uploads: Vec<_> = (0..40)
        .map(|_| {
            let (body, sent_tx, finish) = (body.clone(), sent_tx.clone(), finish.clone());
            std::thread::spawn(move || -> u16 {
                let Ok(mut stream) = TcpStream::connect(address) else { return 0 };
                stream.set_write_timeout(Some(Duration::from_secs(40))).unwrap();
                stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                let head = format!(
                    "POST /api/verify HTTP/1.1\r\nHost: {address}\r\nContent-Type: \
                     application/json\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                let held = stream
                    .write_all(head.as_bytes())
                    .and_then(|()| stream.write_all(&body[..body.len() - 1]))
                    .is_ok();
                let _ = sent_tx.send(held);
                while held && !finish.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                if held {
                    let _ = stream.write_all(&body[body.len() - 1..]);
                }
                read_answer(&mut BufReader::new(stream)).map_or(0, |(status, _)| status)
            })
        })
        .collect();
    drop(sent_tx);
    let held = sent_rx.iter().take(40).filter(|&held| held).count();
    let sent = started.elapsed();
    std::thread::sleep(Duration::from_secs(3));
    let (rss_held, peak_held) = memory(&server);
    finish.store(true, Ordering::Relaxed);
    let statuses: Vec<u16> = uploads.into_iter().map(|u| u.join().expect("an upload")).collect();
    let (rss, peak) = memory(&server);
    let count = |wanted: u16| statuses.iter().filter(|&&s| s == wanted).count();
    println!(
        "serve attack, held uploads: 40 of 64 MiB, {held} sent but for their last byte and held \
         ({:.1} s), the others refused while sending; held: the server {rss_held} MB resident, \
         {peak_held} MB at its peak; finished: {} answered 400 (read and checked), {} refused \
         503, {} closed unanswered; the server {rss} MB resident, {peak} MB at its peak",
        sent.as_secs_f64(),
        count(400),
        count(503),
        count(0),
    );
    assert!(peak < 1024 * MB, "the server peaked at {peak} MB");
    assert!(count(400) >= 1, "no upload was taken: {statuses:?}");
    assert!(count(400) <= 4, "more uploads taken at once than the budget holds: {statuses:?}");
    assert!(count(503) >= 1, "no upload was refused: {statuses:?}");
    assert!(statuses.iter().all(|s| [0, 400, 503].contains(s)), "{statuses:?}");
    assert_eq!(request(address, "GET", "/api/gallery", b"", Duration::from_secs(10)).0, 200);
}

/// 64 clients re-reading for 30 s the largest game view (half of them) and the slowest to draw
/// (the other half), each also asking for a fresh game (a view drawn anew, behind a permit)
/// every eighth read, while a gallery request is made every second: each answered under 5 s,
/// the server under 1 GB, every view answer 200 or 503.
#[test]
fn serve_attack_view_readers_leave_the_gallery_fast() {
    let server = Server::start(&[]);
    let address = server.address;
    // The largest view and the slowest to draw: a game of each playable case, timed.
    let (status, gallery) = request(address, "GET", "/api/gallery", b"", Duration::from_secs(30));
    assert_eq!(status, 200);
    let gallery = json(&gallery);
    let cases = gallery["cases"].as_array().expect("cases");
    let (mut largest, mut slowest) = ((0, String::new()), (Duration::ZERO, String::new()));
    for case in cases.iter().filter(|c| c["playable"] == true) {
        let name = case["name"].as_str().unwrap().to_string();
        let new = serde_json::json!({ "case": name }).to_string();
        let drawn = Instant::now();
        let (status, view) =
            request(address, "POST", "/api/games", new.as_bytes(), Duration::from_secs(30));
        let drawn = drawn.elapsed();
        assert_eq!(status, 200, "{name}");
        largest = largest.max((view.len(), name.clone()));
        slowest = slowest.max((drawn, name));
    }
    let (view_bytes, case) = largest.clone();
    // Even readers on the largest view, odd ones on the slowest to draw (the coin board's, 0.5 s
    // before issue 40).
    let targets = [largest.1, slowest.1.clone()];
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..64)
        .map(|i| {
            let (stop, case) = (stop.clone(), targets[i % 2].clone());
            std::thread::spawn(move || -> (usize, usize) {
                let mut client = Client::new(address);
                let new = serde_json::json!({ "case": case }).to_string();
                let (mut ok, mut busy) = (0, 0);
                let mut id = None;
                let mut reads = 0;
                while !stop.load(Ordering::Relaxed) {
                    let (status, body) = match &id {
                        None => client.call("POST", "/api/games", new.as_bytes()),
                        Some(id) if reads % 8 == 7 => {
                            client.call("POST", &format!("/api/games/{id}/new"), b"{}")
                        }
                        Some(id) => client.call("GET", &format!("/api/games/{id}"), b""),
                    };
                    reads += 1;
                    match status {
                        200 => {
                            ok += 1;
                            if id.is_none() {
                                id = json(&body)["id"].as_str().map(str::to_string);
                            }
                        }
                        503 => {
                            busy += 1;
                            std::thread::sleep(Duration::from_millis(200));
                        }
                        other => panic!("a view answered {other}"),
                    }
                }
                (ok, busy)
            })
        })
        .collect();
    let started = Instant::now();
    let mut gallery_times = Vec::new();
    while started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_secs(1));
        let asked = Instant::now();
        let (status, _) = request(address, "GET", "/api/gallery", b"", Duration::from_secs(60));
        let took = asked.elapsed();
        assert_eq!(status, 200, "the gallery under 64 view readers");
        gallery_times.push(took);
    }
    stop.store(true, Ordering::Relaxed);
    let (mut ok, mut busy) = (0, 0);
    for reader in readers {
        let (o, b) = reader.join().expect("a reader");
        ok += o;
        busy += b;
    }
    let (rss, peak) = memory(&server);
    let slowest_gallery = gallery_times.iter().max().copied().unwrap_or_default();
    println!(
        "serve attack, view readers: 64 clients for 30 s, half on the largest view ({case}, \
         {view_bytes} bytes), half on the slowest to draw ({}, {:.0} ms): {ok} views answered, \
         {busy} refused 503 (every permit busy); {} gallery requests, the slowest {:.1} ms; the \
         server {rss} MB resident, {peak} MB at its peak",
        slowest.1,
        slowest.0.as_secs_f64() * 1e3,
        gallery_times.len(),
        slowest_gallery.as_secs_f64() * 1e3,
    );
    assert!(slowest_gallery < Duration::from_secs(5), "a gallery request took {slowest_gallery:?}");
    assert!(peak < 1024 * MB, "the server peaked at {peak} MB");
    assert!(ok > 64, "only {ok} views answered");
}

/// One game uploaded on 20,000 heaps (Kayles, solved by `gamecert solve`), played for 60 s as
/// fast as the server answers (the first legal move each time, a new game when one ends or is
/// full): the server grows by under 300 MB (it keeps a game's moves, not every position).
#[test]
fn serve_attack_a_huge_uploaded_game_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    // Heaps of one token: each move is cheap to answer, so the minute makes as many positions
    // as it can (each of 20,000 heaps, about 160 KB when a game kept them all).
    let heaps = vec![1; 20_000];
    let instance = serde_json::json!({
        "format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "kayles",
        "heaps": heaps,
    })
    .to_string();
    let (instance, certificate) = solved(dir.path(), "heaps", instance);

    let server = Server::start(&[]);
    let before = server.rss_kb().expect("the server's memory");
    let mut client = Client::new(server.address);
    let upload = serde_json::json!({
        "instance_name": "heaps.json", "instance": instance,
        "certificate_name": "heaps.cert.json", "certificate": certificate, "side": "second",
    })
    .to_string();
    let (status, view) = client.call("POST", "/api/games", upload.as_bytes());
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&view));
    let mut view = json(&view);
    let id = view["id"].as_str().expect("an id").to_string();
    let started = Instant::now();
    let (mut moves, mut games) = (0, 1);
    let mut full = false;
    while started.elapsed() < Duration::from_secs(60) {
        let (status, next) = if view["over"] == true || full {
            games += 1;
            client.call("POST", &format!("/api/games/{id}/new"), b"{}")
        } else {
            moves += 1;
            let first = view["moves"][0].as_str().expect("a legal move");
            let body = serde_json::json!({ "move": first }).to_string();
            client.call("POST", &format!("/api/games/{id}/move"), body.as_bytes())
        };
        // A game at its length or bytes bound refuses further moves: a player starts anew.
        full =
            status == 400 && json(&next)["error"].as_str().is_some_and(|e| e.contains("new game"));
        if !full {
            assert_eq!(status, 200, "{}", String::from_utf8_lossy(&next));
            view = json(&next);
        }
    }
    let (rss, peak) = memory(&server);
    let grown = (peak * MB).saturating_sub(before) / MB;
    println!(
        "serve attack, a huge game: 20,000 heaps uploaded and played for 60 s ({moves} moves of \
         yours, each answered; {games} games); the server from {} MB resident to {rss} MB ({peak} \
         MB at its peak): grown by at most {grown} MB",
        before / MB
    );
    assert!(moves > 0);
    assert!(grown < 300, "the server grew by {grown} MB");
}

/// `GET /api/status`: what the server holds against its bounds.
fn status(address: SocketAddr) -> serde_json::Value {
    let (code, body) = request(address, "GET", "/api/status", b"", Duration::from_secs(10));
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
    json(&body)
}

/// A Kayles instance on one heap of `heap` tokens and its heap labelling, solved here: the
/// check of the labelling is quadratic in the heap (0.7 s for 40,000 on the 2-core machine).
fn kayles_files(dir: &std::path::Path, heap: u64) -> (String, String) {
    let instance = serde_json::json!({
        "format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "kayles",
        "heaps": [heap],
    })
    .to_string();
    solved(dir, &format!("kayles-{heap}"), instance)
}

/// `instance` and the certificate `gamecert solve` writes for it, as texts.
fn solved(dir: &std::path::Path, name: &str, instance: String) -> (String, String) {
    let instance_path = dir.join(format!("{name}.json"));
    let certificate_path = dir.join(format!("{name}.cert.json"));
    std::fs::write(&instance_path, &instance).unwrap();
    let solved = crate::common::gamecert(&[
        "solve",
        instance_path.to_str().unwrap(),
        "-o",
        certificate_path.to_str().unwrap(),
        // JSON, as the red team uploaded (past 4 MB `solve -o` writes the binary form).
        "--format",
        "json",
    ]);
    assert_eq!(solved.status.code(), Some(0), "{}", crate::common::stderr(&solved));
    (instance, std::fs::read_to_string(&certificate_path).unwrap())
}

/// The body of `POST /api/verify` (or of a game from files) for two texts.
fn upload(instance: &str, certificate: &str) -> Vec<u8> {
    serde_json::json!({
        "instance_name": "i.json", "instance": instance,
        "certificate_name": "c.json", "certificate": certificate,
    })
    .to_string()
    .into_bytes()
}

/// 1,000 connections against a server limited to 1,024 open files (its cap then 960), each
/// sending the headers of a POST with a 60,000-byte body and then a body byte every 20 s,
/// reopened whenever the server closes it, for 45 s: a gallery request every 5 s is answered
/// 200 within 5 s (before issue 46: 15 of 15 probes got 503 over 75 s, each body held for the
/// 120 s of --upload-timeout). Each body is cut at the minimum pace (16 KB a second after the
/// 30 s grace of --idle-timeout) and, while it waits, its connection gives its slot up like an
/// idle one.
#[test]
fn serve_attack_slow_bodies_lock_no_one_out() {
    raise_open_file_limit(1_000 + 200);
    let server = Server::start_limited(&["--no-gallery"], Some(1024));
    let address = server.address;
    let stop = Arc::new(AtomicBool::new(false));
    let (opened, cut) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let attacker = {
        let (stop, opened, cut) = (stop.clone(), opened.clone(), cut.clone());
        std::thread::spawn(move || {
            let head = format!(
                "POST /api/verify HTTP/1.1\r\nHost: {address}\r\nContent-Type: \
                 application/json\r\nContent-Length: 60000\r\n\r\n{{"
            );
            let mut sockets: Vec<Option<(TcpStream, Instant)>> = (0..1_000).map(|_| None).collect();
            while !stop.load(Ordering::Relaxed) {
                let round = Instant::now();
                for socket in sockets.iter_mut() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if let Some((stream, last)) = socket {
                        // Closed by the server (read 0), or answered (its 408): reopen.
                        let mut answer = [0u8; 64];
                        let gone = match (&*stream).read(&mut answer) {
                            Ok(0) => true,
                            Ok(read) => {
                                if answer[..read].starts_with(b"HTTP/1.1 408") {
                                    cut.fetch_add(1, Ordering::Relaxed);
                                }
                                true
                            }
                            Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
                        };
                        let trickled = last.elapsed() < Duration::from_secs(20)
                            || (&*stream).write(b" ").is_ok_and(|n| n == 1);
                        if !gone && trickled {
                            if last.elapsed() >= Duration::from_secs(20) {
                                *last = Instant::now();
                            }
                            continue;
                        }
                    }
                    *socket = TcpStream::connect_timeout(&address, Duration::from_secs(1))
                        .ok()
                        .filter(|s| {
                            s.set_nonblocking(true).is_ok() && (&*s).write(head.as_bytes()).is_ok()
                        })
                        .map(|s| (s, Instant::now()));
                    if socket.is_some() {
                        opened.fetch_add(1, Ordering::Relaxed);
                    }
                }
                std::thread::sleep(Duration::from_secs(1).saturating_sub(round.elapsed()));
            }
        })
    };
    let started = Instant::now();
    let mut latencies = Vec::new();
    while started.elapsed() < Duration::from_secs(45) {
        std::thread::sleep(Duration::from_secs(5));
        let asked = Instant::now();
        let (code, _) = request(address, "GET", "/api/gallery", b"", Duration::from_secs(30));
        let answered = asked.elapsed();
        assert_eq!(code, 200, "a gallery request among 1,000 slow bodies, after {answered:?}");
        latencies.push(answered);
    }
    stop.store(true, Ordering::Relaxed);
    attacker.join().expect("the attacker");
    let (rss, peak) = memory(&server);
    let slowest = latencies.iter().max().copied().unwrap_or_default();
    println!(
        "serve attack, slow bodies: 1,000 bodies trickled a byte every 20 s for 45 s against \
         1,024 open files ({} connections opened in all, {} bodies cut off with 408 at the \
         minimum pace); {} gallery requests, each 200, the slowest in {:.1} ms; the server \
         {rss} MB resident, {peak} MB at its peak",
        opened.load(Ordering::Relaxed),
        cut.load(Ordering::Relaxed),
        latencies.len(),
        slowest.as_secs_f64() * 1e3,
    );
    assert!(slowest < Duration::from_secs(5), "a gallery request took {slowest:?}");
    // The server ends slow bodies, by the minimum pace (408) or by evicting a waiting
    // connection for a new one (closed): which of the two comes first depends on the machine's
    // load; tests/it/serve.rs holds the 408 on its own.
    let ended = cut.load(Ordering::Relaxed) + opened.load(Ordering::Relaxed).saturating_sub(1_000);
    assert!(ended > 0, "no slow body was ended by the server");
}

/// Four sockets each declaring a 64 MiB body and trickling it at 32 KB a second (above the
/// minimum pace) for 30 s, while ten honest uploads of a 120 KB certificate are verified: each
/// is answered 200 (before issue 46 the four reserved twice their declared size, the whole
/// 512 MB, and 10 of 10 honest uploads got 503 after 5 s). The four hold what they sent.
#[test]
fn serve_attack_declared_sizes_reserve_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (instance, certificate) = kayles_files(dir.path(), 40_000);
    let honest = upload(&instance, &certificate);
    let server = Server::start(&["--no-gallery"]);
    let address = server.address;
    let stop = Arc::new(AtomicBool::new(false));
    let tricklers: Vec<_> = (0..4)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || -> usize {
                let mut stream = TcpStream::connect(address).expect("connects");
                let head = format!(
                    "POST /api/verify HTTP/1.1\r\nHost: {address}\r\nContent-Type: \
                     application/json\r\nContent-Length: {}\r\n\r\n",
                    64 << 20
                );
                stream.write_all(head.as_bytes()).unwrap();
                let mut sent = 0;
                let piece = vec![b' '; 32 << 10];
                while !stop.load(Ordering::Relaxed) && stream.write_all(&piece).is_ok() {
                    sent += piece.len();
                    std::thread::sleep(Duration::from_secs(1));
                }
                sent
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    let mut answers = Vec::new();
    let mut held = 0;
    for _ in 0..10 {
        let asked = Instant::now();
        let (code, body) =
            request(address, "POST", "/api/verify", &honest, Duration::from_secs(30));
        answers.push((code, asked.elapsed()));
        assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
        assert_eq!(json(&body)["accepted"], true);
        held = held.max(status(address)["uploads"]["held"].as_u64().unwrap());
        std::thread::sleep(Duration::from_secs(2));
    }
    stop.store(true, Ordering::Relaxed);
    let sent: usize = tricklers.into_iter().map(|t| t.join().expect("a trickler")).sum();
    let (rss, peak) = memory(&server);
    let slowest = answers.iter().map(|(_, t)| *t).max().unwrap_or_default();
    println!(
        "serve attack, declared sizes: 4 bodies declaring 64 MiB each, {} KB sent in all at 32 \
         KB a second each; 10 honest verifies of a {} KB upload, each 200, the slowest in {:.0} \
         ms; the upload budget held at most {} KB; the server {rss} MB resident, {peak} MB at \
         its peak",
        sent >> 10,
        honest.len() >> 10,
        slowest.as_secs_f64() * 1e3,
        held >> 10,
    );
    // Twice what the four sent, a growth step each and an honest upload's share at most:
    // megabytes, not the 512 MB their declarations would have reserved.
    assert!(held < (2 * sent as u64) + (10 << 20), "the budget held {held} bytes");
    assert!(held < 64 << 20, "the budget held {held} bytes");
}

/// Four clients looping for 30 s on the verify of a certificate whose check takes about 1 s (the largest Kayles labelling the
/// checker's budget takes),
/// while a player plays an uploaded game (a move and a view a second): every move and view is
/// answered 200 within 1 s (before issue 46, checks and plays shared the permits and 7 of 9 of
/// a player's requests got 503 after 5 s).
#[test]
fn serve_attack_checks_never_starve_play() {
    let dir = tempfile::tempdir().unwrap();
    let (instance, certificate) = kayles_files(dir.path(), 44_000);
    let slow = Arc::new(upload(&instance, &certificate));
    let game_instance = serde_json::json!({
        "format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "kayles",
        "heaps": [30, 40, 50, 60],
    })
    .to_string();
    let (game_instance, game_certificate) = solved(dir.path(), "game", game_instance);
    let server = Server::start(&["--no-gallery"]);
    let address = server.address;
    let mut player = Client::new(address);
    let (code, view) =
        player.call("POST", "/api/games", &upload(&game_instance, &game_certificate));
    assert_eq!(code, 200, "{}", String::from_utf8_lossy(&view));
    let mut view = json(&view);
    let id = view["id"].as_str().expect("an id").to_string();
    let stop = Arc::new(AtomicBool::new(false));
    let checkers: Vec<_> = (0..4)
        .map(|_| {
            let (stop, slow) = (stop.clone(), slow.clone());
            std::thread::spawn(move || -> (usize, usize) {
                let (mut ok, mut busy) = (0, 0);
                while !stop.load(Ordering::Relaxed) {
                    let (code, _) =
                        request(address, "POST", "/api/verify", &slow, Duration::from_secs(60));
                    match code {
                        200 => ok += 1,
                        503 => busy += 1,
                        other => panic!("a check answered {other}"),
                    }
                }
                (ok, busy)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    let started = Instant::now();
    let mut times = Vec::new();
    while started.elapsed() < Duration::from_secs(30) {
        let asked = Instant::now();
        let (code, next) = if view["over"] == true {
            player.call("POST", &format!("/api/games/{id}/new"), b"{}")
        } else {
            let first = view["moves"][0].as_str().expect("a legal move");
            let body = serde_json::json!({ "move": first }).to_string();
            player.call("POST", &format!("/api/games/{id}/move"), body.as_bytes())
        };
        times.push(asked.elapsed());
        assert_eq!(code, 200, "a move among queued checks: {}", String::from_utf8_lossy(&next));
        view = json(&next);
        let asked = Instant::now();
        let (code, _) = player.call("GET", &format!("/api/games/{id}"), b"");
        times.push(asked.elapsed());
        assert_eq!(code, 200, "a view among queued checks");
        std::thread::sleep(Duration::from_millis(500));
    }
    stop.store(true, Ordering::Relaxed);
    let (mut ok, mut busy) = (0, 0);
    for checker in checkers {
        let (o, b) = checker.join().expect("a checker");
        ok += o;
        busy += b;
    }
    let (rss, peak) = memory(&server);
    let slowest = times.iter().max().copied().unwrap_or_default();
    println!(
        "serve attack, checks and play: 4 clients looping for 30 s on a {} KB verify ({ok} \
         checked, {busy} refused 503); the player's {} moves and views each 200, the slowest in \
         {:.1} ms; the server {rss} MB resident, {peak} MB at its peak",
        slow.len() >> 10,
        times.len(),
        slowest.as_secs_f64() * 1e3,
    );
    assert!(ok >= 4, "only {ok} checks were answered");
    assert!(slowest < Duration::from_secs(1), "a move or view took {slowest:?}");
}

/// Four clients looping for 15 s on verifies whose budgets (2 * 10^9 units each, about 1.9
/// GiB) fit once in the server's memory for checks (`--checks-memory-mb 2100`, `--checks 4`):
/// never two checks at work at once and never more reserved than the budget (status polled
/// every 50 ms); the others wait or get 503 naming the memory. Then an upload whose budget is
/// larger than the whole runs with the whole and says so. (Before issue 46, two 60 MB uploads
/// took the server to 3.7 GB at once; `--checks` alone bounded nothing but their number.)
#[test]
fn serve_attack_checks_share_their_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (instance, certificate) = kayles_files(dir.path(), 40_000);
    let files = Arc::new(upload(&instance, &certificate));
    let server = Server::start(&["--no-gallery", "--checks-memory-mb", "2100", "--checks", "4"]);
    let address = server.address;
    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = (0..4)
        .map(|_| {
            let (stop, files) = (stop.clone(), files.clone());
            std::thread::spawn(move || -> (usize, usize) {
                let (mut ok, mut busy) = (0, 0);
                while !stop.load(Ordering::Relaxed) {
                    let (code, body) =
                        request(address, "POST", "/api/verify", &files, Duration::from_secs(60));
                    match code {
                        200 => ok += 1,
                        503 => {
                            let error = json(&body)["error"].as_str().unwrap_or("").to_string();
                            assert!(error.contains("memory"), "{error}");
                            busy += 1;
                        }
                        other => panic!("a check answered {other}"),
                    }
                }
                (ok, busy)
            })
        })
        .collect();
    let started = Instant::now();
    let (mut most_working, mut most_reserved) = (0, 0);
    while started.elapsed() < Duration::from_secs(15) {
        let now = status(address);
        most_working = most_working.max(now["checks"]["running"].as_u64().unwrap());
        most_reserved = most_reserved.max(now["checks"]["memory_reserved"].as_u64().unwrap());
        std::thread::sleep(Duration::from_millis(50));
    }
    stop.store(true, Ordering::Relaxed);
    let (mut ok, mut busy) = (0, 0);
    for client in clients {
        let (o, b) = client.join().expect("a client");
        ok += o;
        busy += b;
    }
    // 10 MB of blanks buy 640 * 10^6 units more: the budget passes the whole and is lowered.
    let padded = format!("{certificate}{}", " ".repeat(10 << 20));
    let (code, body) = request(
        address,
        "POST",
        "/api/verify",
        &upload(&instance, &padded),
        Duration::from_secs(60),
    );
    assert_eq!(code, 200);
    let answer = json(&body);
    let (rss, peak) = memory(&server);
    println!(
        "serve attack, memory for checks: 4 clients looping for 15 s on a {} KB verify against \
         2,100 MB for checks: {ok} checked, {busy} refused 503; at most {most_working} at work \
         and {} MB reserved at once; the server {rss} MB resident, {peak} MB at its peak",
        files.len() >> 10,
        most_reserved >> 20,
    );
    assert_eq!(most_working, 1, "two checks of 1.9 GB budgets at once in 2.1 GB");
    assert!(most_reserved <= 2100 << 20, "{most_reserved} bytes reserved");
    assert!(ok >= 3, "only {ok} checks answered");
    assert_eq!(answer["accepted"], true, "{answer}");
    let text = answer["text"].as_str().unwrap();
    assert!(text.contains("--checks-memory-mb"), "{text}");
}

/// Sixteen games uploaded from a 5.5 MB triangle-avoidance strategy (n = 11): the bytes the
/// games are counted for grow as the server does, within 10% (before issue 46 a game was
/// counted for twice its files, and 16 games of a 38 MB certificate held 102 MB each while
/// counted for 77 MB).
#[test]
fn serve_attack_games_are_counted_as_held() {
    let dir = tempfile::tempdir().unwrap();
    let instance =
        r#"{"format": "gamecert-instance", "version": 1, "kind": "triangle-avoidance", "n": 11}"#;
    let (instance, certificate) = solved(dir.path(), "t11", instance.to_string());
    let files = upload(&instance, &certificate);
    let server = Server::start(&["--no-gallery"]);
    let address = server.address;
    let mut client = Client::new(address);
    let mut sizes = Vec::new();
    for _ in 0..16 {
        let (code, body) = client.call("POST", "/api/games", &files);
        assert_eq!(code, 200, "{}", String::from_utf8_lossy(&body));
        let counted = status(address)["games"]["counted"].as_u64().unwrap();
        sizes.push((counted, server.rss_kb().unwrap() << 10));
    }
    let (first, last) = (sizes[0], sizes[sizes.len() - 1]);
    let counted = last.0 - first.0;
    let grown = last.1.saturating_sub(first.1);
    println!(
        "serve attack, games counted: 16 games of a {} KB upload, {} MB counted in all ({} KB a \
         game); from the first to the last the count grew by {} MB and the server by {} MB",
        files.len() >> 10,
        last.0 >> 20,
        (last.0 / 16) >> 10,
        counted >> 20,
        grown >> 20,
    );
    // The allocator's free lists move by a few megabytes. Under the whole suite's load glibc
    // once gave the uploads' threads arenas of their own and the server grew 194 MB for 143
    // counted; `serve` now keeps one arena (src/serve/mod.rs), and grows 143 for 143.
    let slack = 16 << 20;
    assert!(grown <= counted + counted / 10 + slack, "grew {grown}, counted {counted}");
    assert!(counted <= grown + grown / 10 + slack, "grew {grown}, counted {counted}");
}
