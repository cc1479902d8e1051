//! The routes of `gamecert serve`: the page and its assets, and the JSON API the page calls.
//!
//! - `GET /`, `/page.css`, `/page.js`: the page (embedded).
//! - `GET /api/gallery`: the cases, each with its picture and claim.
//! - `POST /api/verify`: [`super::upload::Files`] -> `{text, accepted, exit}` (400 for bad
//!   input, with the same fields).
//! - `POST /api/games`: `{case, side?}` or the files of [`super::upload::Files`] and `side` ->
//!   the game's [`super::games::View`].
//! - `GET /api/games/{id}`; `POST /api/games/{id}/move` `{move}`, `/undo`, `/new` `{side?}`,
//!   `/hint` (-> `{hint}`).
//!
//! Errors are JSON `{error}`: 400 malformed or bad input, 404 unknown case or game, 413 a
//! body over the limit, 422 a certificate the checker rejected, 503 (with Retry-After) when
//! every check stays busy, 500 a fault caught.

use super::games::{Game, Shared};
use super::upload::{Files, Unplayable};
use super::{App, Refused};
use crate::play::Side;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

const PAGE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

type AppState = Arc<App>;

/// The whole application.
pub fn router(app: Arc<App>) -> Router {
    let limit = app.config.max_upload_bytes;
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", PAGE) }))
        .route("/page.css", get(|| async { asset("text/css; charset=utf-8", CSS) }))
        .route("/page.js", get(|| async { asset("text/javascript; charset=utf-8", JS) }))
        .route("/api/gallery", get(gallery))
        .route("/api/verify", post(verify))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(show_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/new", post(restart))
        .route("/api/games/{id}/hint", post(hint))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(limit))
        .with_state(app)
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// An error answer: `{error}` with `status`.
fn error(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// A blocking task that gave no answer, as an HTTP answer.
fn refused(refused: Refused) -> Response {
    match refused {
        Refused::Busy => {
            let mut answer = error(
                StatusCode::SERVICE_UNAVAILABLE,
                "every check is busy: try again in a moment".into(),
            );
            answer.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("2"));
            answer
        }
        Refused::Fault(what) => {
            error(StatusCode::INTERNAL_SERVER_ERROR, format!("the server hit a fault: {what}"))
        }
    }
}

/// The body read as JSON of type `T`, or why not (for a 400).
fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("the request is not valid: {e}"))
}

async fn gallery(State(app): State<AppState>) -> Response {
    let cases: Vec<_> = app
        .gallery
        .cases
        .iter()
        .map(|case| {
            json!({
                "name": case.name, "description": case.description, "kind": case.kind,
                "claim": case.claim, "picture": case.picture, "playable": case.strategy.is_some(),
            })
        })
        .collect();
    Json(json!({ "cases": cases })).into_response()
}

async fn verify(State(app): State<AppState>, body: Bytes) -> Response {
    let files: Files = match parse(&body) {
        Ok(files) => files,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    drop(body);
    let files = match files.decode() {
        Ok(files) => files,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let max_work = app.config.max_work;
    match app.checks.run(move || super::upload::verify(files, max_work)).await {
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

async fn new_game(State(app): State<AppState>, body: Bytes) -> Response {
    let request: NewGame = match parse(&body) {
        Ok(request) => request,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    drop(body);
    let human = match side(request.side.as_deref()) {
        Ok(human) => human,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let files = request.files.filter(|f| !f.is_empty());
    let (strategy, caption, uploaded) = match (request.case, files) {
        (Some(name), None) => {
            let Some(case) = app.gallery.case(&name) else {
                return error(StatusCode::NOT_FOUND, format!("no case named '{name}'"));
            };
            let Some(strategy) = case.strategy.clone() else {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("case '{name}' holds no strategy to play against ({})", case.kind),
                );
            };
            (strategy, format!("{}: {}", case.name, case.description), false)
        }
        (None, Some(fields)) => {
            let files: Files = match serde_json::from_value(serde_json::Value::Object(fields)) {
                Ok(files) => files,
                Err(e) => {
                    return error(StatusCode::BAD_REQUEST, format!("the request is not valid: {e}"))
                }
            };
            let files = match files.decode() {
                Ok(files) => files,
                Err(why) => return error(StatusCode::BAD_REQUEST, why),
            };
            let caption =
                format!("{} with {}", files.instance.0.display(), files.certificate.0.display());
            let max_work = app.config.max_work;
            match app.checks.run(move || super::upload::strategy(files, max_work)).await {
                Ok(Ok(strategy)) => (strategy, caption, true),
                Ok(Err(Unplayable::BadInput(why))) => return error(StatusCode::BAD_REQUEST, why),
                Ok(Err(Unplayable::Rejected(why))) => {
                    return error(StatusCode::UNPROCESSABLE_ENTITY, why)
                }
                Err(why) => return refused(why),
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
    let games = app.clone();
    let made = super::blocking(move || {
        let human = human.unwrap_or_else(|| strategy.default_human());
        let (id, game) = games.games.insert(Game::new(strategy, human, caption, uploaded));
        let game = lock(&game);
        game.view(id)
    })
    .await;
    match made {
        Ok(view) => Json(view).into_response(),
        Err(why) => refused(why),
    }
}

fn lock(game: &Shared) -> std::sync::MutexGuard<'_, Game> {
    // A fault while a game was being changed leaves it as it was before the change (every
    // change is computed first, then stored).
    game.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `change` on the game `id` on the blocking pool; answers its view.
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
    let done = super::blocking(move || {
        let mut game = lock(&game);
        change(&mut game).map(|()| game.view(id))
    })
    .await;
    match done {
        Ok(Ok(view)) => Json(view).into_response(),
        Ok(Err(why)) => error(StatusCode::BAD_REQUEST, why),
        Err(why) => refused(why),
    }
}

async fn show_game(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    with_game(app, id, |_| Ok(())).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    notation: String,
}

async fn play_move(State(app): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let request: MoveRequest = match parse(&body) {
        Ok(request) => request,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    with_game(app, id, move |game| game.play(&request.notation)).await
}

async fn undo(State(app): State<AppState>, Path(id): Path<String>) -> Response {
    with_game(app, id, |game| game.undo()).await
}

async fn restart(State(app): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let choice: SideChoice = if body.iter().all(u8::is_ascii_whitespace) {
        SideChoice::default()
    } else {
        match parse(&body) {
            Ok(choice) => choice,
            Err(why) => return error(StatusCode::BAD_REQUEST, why),
        }
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
    match super::blocking(move || lock(&game).hint()).await {
        Ok(hint) => Json(json!({ "hint": hint })).into_response(),
        Err(why) => refused(why),
    }
}
