//! The routes of `gamecert serve`: the page and its assets, and the JSON API the page calls.
//!
//! - `GET /`, `/page.css`, `/page.js`: the page (embedded).
//! - `GET /api/gallery`: the cases, each with its picture and claim.
//! - `GET /api/status`: what the server holds against its bounds.
//! - `POST /api/verify`: [`super::upload::Files`] -> `{text, accepted, exit}` (400 for bad
//!   input, with the same fields).
//! - `POST /api/games`: `{case, side?}` or the files of [`super::upload::Files`] and `side` ->
//!   the game's [`super::games::View`].
//! - `GET /api/games/{id}`; `POST /api/games/{id}/move` `{move}`, `/undo`, `/new` `{side?}`,
//!   `/hint` (-> `{hint}`).
//!
//! Errors are JSON `{error}`: 400 malformed or bad input, 404 unknown case or game, 408 a body
//! that paused or took too long, 413 a body over the limit (or a game too large to keep), 422 a
//! certificate the checker rejected, 503 (with Retry-After) when every check stays busy or the
//! upload budget stays spent, 500 a fault caught. (A body whose Content-Length is over the limit
//! is refused by tower-http's layer, 413 in plain text, before it is read.)

use super::bodies::{Received, Refusal};
use super::gallery::{Progress, State as GalleryState};
use super::games::{Game, Origin, Shared};
use super::listen::Waiting;
use super::upload::{Files, Unplayable, Uploaded};
use super::{App, Granted, Refused};
use crate::play::{Side, Strategy};
use axum::body::Bytes;
use axum::extract::{Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::{RequestBodyDeadlineLayer, RequestBodyTimeoutLayer};

const PAGE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

type AppState = Arc<App>;

/// The whole application.
pub fn router(app: Arc<App>) -> Router {
    let config = &app.config;
    let (limit, pause, whole) =
        (config.max_upload_bytes, config.idle_timeout, config.upload_timeout);
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", PAGE) }))
        .route("/page.css", get(|| async { asset("text/css; charset=utf-8", CSS) }))
        .route("/page.js", get(|| async { asset("text/javascript; charset=utf-8", JS) }))
        .route("/index.html", get(|| async { asset("text/html; charset=utf-8", PAGE) }))
        // The docs as pages in the page's frame (docs.rs); the old address of the results
        // (Markdown as text) now leads to their page.
        .route("/results.md", get(|| async { Redirect::permanent("/docs/results.html") }))
        .route("/docs/{*path}", get(doc))
        .route("/api/gallery", get(gallery))
        .route("/api/status", get(status))
        .route("/api/verify", post(verify))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(show_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/new", post(restart))
        .route("/api/games/{id}/hint", post(hint))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page".into()) })
        .with_state(app)
        // Every request body: at most `limit` bytes (413, before a byte of it is read when its
        // Content-Length says so), no pause longer than `pause` between two of its pieces and
        // all of it within `whole` (each 408 once the handler reads it: [`receive`]).
        .layer(RequestBodyLimitLayer::new(limit))
        .layer(RequestBodyTimeoutLayer::new(pause))
        .layer(RequestBodyDeadlineLayer::new(whole))
}

/// A doc's page (`/docs/families/voronoi.html`), or an image a doc shows.
async fn doc(Path(path): Path<String>) -> Response {
    if let Some((markdown_path, markdown)) = super::docs::by_page(&path) {
        let html = super::docs::page(markdown_path, markdown, super::docs::Site::Served);
        return ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response();
    }
    match super::docs::image(&path) {
        Some(bytes) => ([(header::CONTENT_TYPE, "image/png")], bytes).into_response(),
        None => error(StatusCode::NOT_FOUND, format!("no doc named {path}")),
    }
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// JSON made once (a game's view, the gallery), sent as it is.
fn json_answer(body: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// An error answer: `{error}` with `status`.
fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// 503 with Retry-After: the server is at one of its bounds; the request may be sent again.
fn busy(message: &str) -> Response {
    let mut answer = error(StatusCode::SERVICE_UNAVAILABLE, message.into());
    answer.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("2"));
    answer
}

/// A task that gave no answer, as an HTTP answer.
fn refused(refused: Refused) -> Response {
    match refused {
        Refused::Busy(what) => busy(&format!("{what}: try again in a moment")),
        Refused::Fault(what) => {
            error(StatusCode::INTERNAL_SERVER_ERROR, format!("the server hit a fault: {what}"))
        }
    }
}

/// The request's body, received whole under the server's budget, or the answer refusing it.
async fn receive(app: &App, request: Request) -> Result<Received, Response> {
    let (parts, body) = request.into_parts();
    let max = app.config.max_upload_bytes;
    let waiting = parts.extensions.get::<Waiting>();
    let received = app.bodies.receive(&parts.headers, body, max, waiting).await;
    received.map_err(|refusal| match refusal {
        Refusal::TooLarge => error(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request is larger than the server accepts ({} bytes, --max-upload-mb)",
                crate::base::limits::grouped(max as u128)
            ),
        ),
        Refusal::Busy => {
            busy("the server holds as many uploads as it allows: try again in a moment")
        }
        Refusal::TimedOut => error(
            StatusCode::REQUEST_TIMEOUT,
            "the request's body did not arrive in time (--idle-timeout, --upload-timeout)".into(),
        ),
        Refusal::TooSlow { received, waited } => error(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request's body came too slowly: {} in {:.1} s, under the {} bytes a second \
                 the server asks for after the first {} s (--min-upload-rate, --idle-timeout)",
                gamecert_certificates::base::text::counted(received as u64, "byte"),
                waited.as_secs_f64(),
                crate::base::limits::grouped(u128::from(app.config.min_upload_rate)),
                app.config.idle_timeout.as_secs(),
            ),
        ),
        Refusal::Broken(why) => {
            error(StatusCode::BAD_REQUEST, format!("the request's body could not be read: {why}"))
        }
    })
}

/// The body read as JSON of type `T`, or why not (for a 400).
fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("the request is not valid: {e}"))
}

/// What the server holds now, against its bounds (for an operator, and the tests that hold
/// the bounds): checks and plays at work, the memory checks have reserved, the bytes bodies
/// hold, the games kept and the bytes they are counted for.
async fn status(State(app): State<AppState>) -> Response {
    let (checks, check_permits) = app.checks.running();
    let (plays, play_permits) = app.plays.running();
    let (memory, reserved) = app.checks.memory();
    Json(json!({
        "checks": {"running": checks, "at_once": check_permits, "memory_bytes": memory,
                   "memory_reserved": reserved},
        "plays": {"running": plays, "at_once": play_permits},
        "uploads": {"bytes": app.bodies.total(), "held": app.bodies.held()},
        "games": {"count": app.games.len(), "bytes": app.config.max_games_bytes,
                  "counted": app.games.bytes()},
    }))
    .into_response()
}

async fn gallery(State(app): State<AppState>) -> Response {
    match app.gallery.state() {
        GalleryState::Ready(ready) => json_answer(ready.answer.clone()),
        GalleryState::Preparing(progress) => preparing(&progress),
        GalleryState::Failed(why) => failed(why),
    }
}

/// 503 with Retry-After while the gallery is prepared: `{error, preparing: {stage, done,
/// total}}`, the error saying how far it has got.
fn preparing(progress: &Progress) -> Response {
    let so_far = if progress.total > 0 {
        format!("{}, {} of {}", progress.stage, progress.done, progress.total)
    } else {
        progress.stage.clone()
    };
    let message = format!("the server is preparing the gallery ({so_far}): try again in a moment");
    let body = json!({ "error": message, "preparing": progress });
    let mut answer = (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
    answer.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    answer
}

/// 500: the gallery could not be prepared (uploads are still verified and played).
fn failed(why: &str) -> Response {
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!(
            "the gallery could not be prepared: {why} (verifying and playing your own files \
             still works)"
        ),
    )
}

async fn verify(State(app): State<AppState>, request: Request) -> Response {
    let Received { bytes, share } = match receive(&app, request).await {
        Ok(received) => received,
        Err(answer) => return answer,
    };
    let files: Files = match parse(&bytes) {
        Ok(files) => files,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    drop(bytes);
    let files = match files.decode() {
        Ok(files) => files,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let max_work = app.config.max_work;
    let work = files.work(max_work);
    let checked = app.checks.run(work, move |granted| {
        // The upload's share of the budget is held until its check ends, even when the
        // client has gone.
        let _share = share;
        let mut answer = super::upload::verify(files, granted_work(max_work, granted));
        if granted.lowered {
            answer.text.push_str(&format!(
                "note: checked with a budget of {} work units, the memory this server gives its \
                 checks (--checks-memory-mb), less than verify would give these files ({}): \
                 `gamecert verify` checks them with verify's own budget\n",
                crate::base::limits::grouped(u128::from(granted.max_work)),
                crate::base::limits::grouped(u128::from(work)),
            ));
        }
        answer
    });
    match checked.await {
        Ok(answer) => {
            let status = if answer.exit == 2 { StatusCode::BAD_REQUEST } else { StatusCode::OK };
            let error = (answer.exit == 2).then(|| answer.text.trim_end().to_string());
            let mut body = json!(answer);
            if let Some(error) = error {
                body["error"] = error.into();
            }
            (status, Json(body)).into_response()
        }
        Err(why) => refused(why),
    }
}

/// The side chosen, if any.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SideChoice {
    side: Option<String>,
}

fn side(choice: Option<&str>) -> Result<Option<Side>, String> {
    match choice {
        None | Some("") => Ok(None),
        Some("first") => Ok(Some(Side::First)),
        Some("second") => Ok(Some(Side::Second)),
        Some(other) => Err(format!("side '{other}': `first` or `second` expected")),
    }
}

/// A new game: `{case, side?}` for a gallery case, or uploaded files with `side`.
#[derive(Deserialize)]
struct NewGame {
    case: Option<String>,
    side: Option<String>,
    #[serde(flatten)]
    files: Option<serde_json::Map<String, serde_json::Value>>,
}

/// What a new game is played from.
enum Source {
    /// A gallery case's strategy, with its title and caption.
    Case(Strategy, (String, String)),
    /// Uploaded files, checked before the game starts.
    Files(Uploaded),
}

async fn new_game(State(app): State<AppState>, request: Request) -> Response {
    let Received { bytes, share } = match receive(&app, request).await {
        Ok(received) => received,
        Err(answer) => return answer,
    };
    let request: NewGame = match parse(&bytes) {
        Ok(request) => request,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    drop(bytes);
    let human = match side(request.side.as_deref()) {
        Ok(human) => human,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let files = request.files.filter(|f| !f.is_empty());
    let source = match (request.case, files) {
        (Some(name), None) => {
            let gallery = match app.gallery.state() {
                GalleryState::Ready(ready) => &ready.gallery,
                GalleryState::Preparing(progress) => return preparing(&progress),
                GalleryState::Failed(why) => return failed(why),
            };
            let Some(case) = gallery.case(&name) else {
                return error(StatusCode::NOT_FOUND, format!("no case named '{name}'"));
            };
            let Some(strategy) = case.strategy.clone() else {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "case '{name}' holds no strategy to play against (its certificate is a \
                         {}): the gallery offers Play only on the cases that hold one",
                        case.kind
                    ),
                );
            };
            let caption = format!("{}: {}", case.name, case.description);
            Source::Case(strategy, (case.name.clone(), caption))
        }
        (None, Some(fields)) => {
            let files: Files = match serde_json::from_value(serde_json::Value::Object(fields)) {
                Ok(files) => files,
                Err(e) => {
                    return error(StatusCode::BAD_REQUEST, format!("the request is not valid: {e}"))
                }
            };
            match files.decode() {
                Ok(files) => Source::Files(files),
                Err(why) => return error(StatusCode::BAD_REQUEST, why),
            }
        }
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                "give `case` (a gallery case) or the files (`instance`, `certificate`), not both"
                    .into(),
            )
        }
    };
    let state = app.clone();
    let start = move |strategy: Strategy, caption, origin| -> Result<Bytes, (StatusCode, String)> {
        let human = human.unwrap_or_else(|| strategy.default_human());
        let limits = (state.config.max_game_bytes, state.config.max_game_positions);
        let game = Game::new(strategy, human, caption, origin, limits);
        let (id, game) =
            state.games.insert(game).map_err(|why| (StatusCode::PAYLOAD_TOO_LARGE, why))?;
        let mut game = lock(&game);
        let answer = game.answer(id);
        state.games.resize(id, game.bytes());
        Ok(answer)
    };
    let made = match source {
        // A gallery game is a play: its strategy is the gallery's, checked at start-up.
        Source::Case(strategy, names) => {
            app.plays.run(move || start(strategy, names, Origin::Gallery)).await
        }
        // Uploaded files are checked first, as a check.
        Source::Files(files) => {
            let title =
                format!("{} with {}", files.instance.0.display(), files.certificate.0.display());
            let max_work = app.config.max_work;
            let work = files.work(max_work);
            let job = move |granted| {
                let _share = share;
                match super::upload::strategy(files, granted_work(max_work, granted)) {
                    Ok((strategy, bytes)) => {
                        start(strategy, (title.clone(), title), Origin::Upload { bytes })
                    }
                    Err(Unplayable::BadInput(why)) => Err((StatusCode::BAD_REQUEST, why)),
                    Err(Unplayable::Rejected(why)) => Err((StatusCode::UNPROCESSABLE_ENTITY, why)),
                }
            };
            app.checks.run(work, job).await
        }
    };
    match made {
        Ok(Ok(answer)) => json_answer(answer),
        Ok(Err((status, why))) => error(status, why),
        Err(why) => refused(why),
    }
}

/// The `--max-work` a check runs with: the server's own, or the budget the memory for checks
/// lowered it to.
fn granted_work(max_work: Option<u64>, granted: Granted) -> Option<u64> {
    if granted.lowered {
        Some(granted.max_work)
    } else {
        max_work
    }
}

fn lock(game: &Shared) -> std::sync::MutexGuard<'_, Game> {
    // A fault while a game was being changed leaves it as it was before the change (every
    // change is computed first, then stored).
    game.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `change` on the game `id` behind a permit, as a check runs; answers its view.
async fn with_game(
    app: AppState,
    id: String,
    change: impl FnOnce(&mut Game) -> Result<(), String> + Send + 'static,
) -> Response {
    let Some((id, game)) = app.games.get(&id) else {
        return error(
            StatusCode::NOT_FOUND,
            format!("no game '{id}' (it may have ended long ago)"),
        );
    };
    let state = app.clone();
    let done = app.plays.run(move || {
        let mut game = lock(&game);
        change(&mut game)?;
        let answer = game.answer(id);
        state.games.resize(id, game.bytes());
        Ok(answer)
    });
    match done.await {
        Ok(Ok(answer)) => json_answer(answer),
        Ok(Err(why)) => error(StatusCode::BAD_REQUEST, why),
        Err(why) => refused(why),
    }
}

async fn show_game(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    // A game unchanged since its view was drawn is answered from memory, without a permit
    // (a game being changed is locked: its new view is waited for behind one).
    if let Some((_, game)) = app.games.get(&id) {
        if let Some(answer) = game.try_lock().ok().and_then(|game| game.cached()) {
            return json_answer(answer);
        }
    }
    with_game(app, id, |_| Ok(())).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    notation: String,
}

/// A small request's body, received under the upload budget (released at once) and read as
/// JSON of type `T`; an empty body is `when_empty` when given. The answer to send when not.
async fn small_json<T: for<'de> Deserialize<'de>>(
    app: &App,
    request: Request,
    when_empty: Option<T>,
) -> Result<T, Response> {
    let received = receive(app, request).await?;
    match when_empty {
        Some(value) if received.bytes.iter().all(u8::is_ascii_whitespace) => Ok(value),
        _ => parse(&received.bytes).map_err(|why| error(StatusCode::BAD_REQUEST, why)),
    }
}

async fn play_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    request: Request,
) -> Response {
    let request: MoveRequest = match small_json(&app, request, None).await {
        Ok(request) => request,
        Err(answer) => return answer,
    };
    with_game(app, id, move |game| game.play(&request.notation)).await
}

async fn undo(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    with_game(app, id, |game| game.undo()).await
}

async fn restart(
    State(app): State<AppState>,
    Path(id): Path<String>,
    request: Request,
) -> Response {
    let choice: SideChoice = match small_json(&app, request, Some(SideChoice::default())).await {
        Ok(choice) => choice,
        Err(answer) => return answer,
    };
    let human = match side(choice.side.as_deref()) {
        Ok(human) => human,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    with_game(app, id, move |game| {
        let human = human.unwrap_or_else(|| game.default_human());
        game.restart(human);
        Ok(())
    })
    .await
}

async fn hint(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    let Some((_, game)) = app.games.get(&id) else {
        return error(StatusCode::NOT_FOUND, format!("no game '{id}'"));
    };
    match app.plays.run(move || lock(&game).hint()).await {
        Ok(hint) => Json(json!({ "hint": hint })).into_response(),
        Err(why) => refused(why),
    }
}
