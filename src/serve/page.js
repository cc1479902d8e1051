// gamecert serve's page: a hash router over three views (#/ the gallery, #/verify, #/play/CASE
// and #/game/ID), each filled from the server's JSON API. Vanilla JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);

// State of the play view: the game's id and whether a request is in flight.
let game = null;
let busy = false;
// What the play view's heading names (the case, or the uploaded instance).
let gameTitle = "";
// The gallery, fetched once (it is prepared when the server starts: until then the server
// answers 503 with how far it has got, and the page says so and asks again).
let galleryCases = null;
// The board's zoom, kept from one move to the next of the same game: {game, at}, `at` the part
// shown as fractions of the whole picture (which may grow or shrink a little with its notes).
let boardZoom = null;

// A JSON request; resolves to {status, body} (body {error} on failure), never rejects.
async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  try {
    const response = await fetch(url, options);
    const text = await response.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (_) {
      parsed = { error: text || response.statusText };
    }
    if (response.status === 413) {
      parsed = { error: "the files are larger than the server accepts (--max-upload-mb)" };
    }
    const retry = Number(response.headers.get("Retry-After"));
    return { status: response.status, body: parsed, retryAfter: retry > 0 ? retry : 1 };
  } catch (e) {
    return { status: 0, body: { error: "the server cannot be reached: " + e } };
  }
}

function setReady(ready) {
  document.body.dataset.ready = ready ? "true" : "false";
}

function show(view) {
  for (const section of document.querySelectorAll(".view")) {
    section.hidden = section.id !== "view-" + view;
  }
  $("nav-gallery").classList.toggle("current", view === "gallery");
  $("nav-verify").classList.toggle("current", view === "verify");
  if (view !== "play") {
    document.title = "gamecert";
  }
}

async function route() {
  setReady(false);
  const hash = location.hash || "#/";
  const play = hash.match(/^#\/play\/(.+)$/);
  const byId = hash.match(/^#\/game\/([0-9a-f]+)$/);
  if (!play && !byId) {
    // Leaving the play view: nothing of the last game stays on the page.
    game = null;
    $("board").replaceChildren();
    $("moves").replaceChildren();
  }
  if (hash === "#/verify") {
    show("verify");
    setReady(true);
  } else if (play) {
    show("play");
    const name = decodeURIComponent(play[1]);
    clearPlay(name);
    if (await galleryReady(hash)) {
      await startGame({ case: name, side: null }, name);
    }
  } else if (byId) {
    show("play");
    if (game === null || game.id !== byId[1]) {
      gameTitle = "";
    }
    await request("GET", "/api/games/" + byId[1]);
    setReady(true);
  } else {
    show("gallery");
    if (await galleryReady(hash)) {
      await loadGallery();
      setReady(true);
    }
  }
}

// ---- the gallery being prepared ----

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Waits until the server's gallery is ready, saying meanwhile how far its preparation has got;
// false when the person has gone to another view (or the gallery cannot be had: said on the
// page).
async function galleryReady(hash) {
  const note = $("preparing");
  while (galleryCases === null) {
    const answer = await api("GET", "/api/gallery");
    const now = location.hash || "#/";
    if (now !== hash) {
      // Another view now: it asks again itself if it needs the gallery, and the views that
      // do not need it do not show the note.
      if (now === "#/verify" || now.startsWith("#/game/")) {
        note.hidden = true;
      }
      return false;
    }
    if (answer.status === 200) {
      galleryCases = answer.body.cases;
      break;
    }
    if (answer.status === 503 && answer.body.preparing) {
      const p = answer.body.preparing;
      const count = p.total > 0 ? ": " + p.stage + ", " + p.done + " of " + p.total : "";
      note.textContent = "Preparing the gallery" + count + ". The server solves the papers' " +
        "examples and checks every certificate once when it starts; this page fills in by " +
        "itself when they are ready. Verify works meanwhile.";
      note.hidden = false;
      document.body.dataset.preparing = "true";
      await sleep(1000 * answer.retryAfter);
      continue;
    }
    note.textContent = answer.body.error || "the gallery cannot be loaded";
    note.hidden = false;
    return false;
  }
  note.hidden = true;
  delete document.body.dataset.preparing;
  return true;
}

// ---- gallery ----

async function loadGallery() {
  const holder = $("gallery");
  holder.replaceChildren();
  for (const item of galleryCases) {
    const card = document.createElement("article");
    card.className = "case";
    card.dataset.case = item.name;
    const title = document.createElement("h2");
    title.textContent = item.name;
    const description = document.createElement("p");
    description.className = "note";
    description.textContent = item.description;
    const picture = document.createElement("div");
    picture.className = "picture";
    // The server drew this picture from a certificate the checker accepted.
    picture.innerHTML = item.picture;
    zoomable(picture, { needsKey: true });
    // The checker's own sentence for the claim (the file's keyword stays a JSON field).
    const claim = document.createElement("p");
    claim.className = "claim";
    claim.textContent = "Certified: " + sentence(item.claim);
    const kind = document.createElement("p");
    kind.className = "note kind";
    kind.textContent = "certificate: " + item.kind;
    card.append(title, description, picture, claim, kind);
    if (item.playable) {
      const link = document.createElement("a");
      link.className = "play";
      link.href = "#/play/" + encodeURIComponent(item.name);
      link.textContent = "Play";
      card.append(link);
    }
    holder.append(card);
  }
}

// ---- zoom and pan ----
// Every picture is SVG with a viewBox: zooming and panning move the viewBox, nothing is
// redrawn. The wheel zooms about the pointer (in the gallery with Ctrl or Cmd held, so that
// the wheel still scrolls the page), a drag pans, and the buttons zoom in, out and back to the
// whole picture. A drag never plays a move: a click only counts when the pointer stayed put.

const MAX_ZOOM = 24;
const DRAG_PIXELS = 5;

function readBox(text) {
  const parts = (text || "").trim().split(/[\s,]+/).map(Number);
  return parts.length === 4 && parts.every(Number.isFinite) && parts[2] > 0 && parts[3] > 0
    ? parts : null;
}

function writeBox(svg, box) {
  svg.setAttribute("viewBox", box.map((x) => Math.round(x * 100) / 100).join(" "));
}

// `box` scaled to at most the whole picture and at least 1/MAX_ZOOM of it, and kept inside it.
function clampBox(box, full) {
  let [x, y, w, h] = box;
  const scale = Math.min(1, Math.max(1 / MAX_ZOOM, w / full[2]));
  w = full[2] * scale;
  h = full[3] * scale;
  x = Math.min(Math.max(x, full[0]), full[0] + full[2] - w);
  y = Math.min(Math.max(y, full[1]), full[1] + full[3] - h);
  return [x, y, w, h];
}

// The point of the picture under the pointer, in the picture's own units.
function pictureAt(svg, clientX, clientY) {
  const matrix = svg.getScreenCTM();
  if (!matrix) {
    return null;
  }
  return new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
}

// Zooms `svg` by `factor` (above 1: in) about the screen point (clientX, clientY), or about
// the middle of what is shown.
function zoomBy(svg, factor, clientX, clientY) {
  const full = readBox(svg.dataset.fullBox);
  const box = readBox(svg.getAttribute("viewBox"));
  if (!full || !box) {
    return;
  }
  let at = clientX === undefined ? null : pictureAt(svg, clientX, clientY);
  if (!at) {
    at = { x: box[0] + box[2] / 2, y: box[1] + box[3] / 2 };
  }
  const next = [at.x - (at.x - box[0]) / factor, at.y - (at.y - box[1]) / factor,
    box[2] / factor, box[3] / factor];
  setBox(svg, clampBox(next, full));
}

// A large tree's picture carries a collapsed overview beside its full detail: the overview is
// shown (class tree-zoomed-out) while the picture is drawn smaller than data-detail-at screen
// pixels per unit. A picture not yet on the page is taken to fill a card (380 x 240 pixels).
function showDetail(svg, box) {
  const at = Number(svg.dataset.detailAt);
  if (!at || !box) {
    return;
  }
  const rect = svg.getBoundingClientRect();
  const scale = rect.width > 0 && rect.height > 0
    ? Math.min(rect.width / box[2], rect.height / box[3])
    : Math.min(380 / box[2], 240 / box[3]);
  svg.classList.toggle("tree-zoomed-out", scale < at);
}

// Where a board opens: the picture's data-focus box (a large tree: where the moves are), at
// the whole picture's proportions, else the whole picture.
function openingBox(svg, full) {
  const focus = readBox(svg.dataset.focus);
  if (!focus) {
    return full;
  }
  const scale = Math.max(focus[2] / full[2], focus[3] / full[3]);
  const w = full[2] * scale;
  const h = full[3] * scale;
  return clampBox([focus[0] + (focus[2] - w) / 2, focus[1] + (focus[3] - h) / 2, w, h], full);
}

function setBox(svg, box) {
  writeBox(svg, box);
  showDetail(svg, box);
  const full = readBox(svg.dataset.fullBox);
  const zoomed = full !== null && box[2] < full[2] - 1e-6;
  svg.classList.toggle("zoomed", zoomed);
  // Touch screens pan the picture only while it is zoomed; otherwise they scroll the page.
  svg.style.touchAction = zoomed ? "none" : "";
  const holder = svg.closest(".zoom-holder");
  if (holder) {
    holder.dataset.zoomed = zoomed ? "true" : "false";
    if (holder === $("board") && game !== null && full !== null) {
      const at = [(box[0] - full[0]) / full[2], (box[1] - full[1]) / full[3],
        box[2] / full[2], box[3] / full[3]];
      boardZoom = { game: game.id, at };
    }
  }
}

// Makes the SVG inside `holder` zoomable, with the three buttons. `needsKey`: the wheel zooms
// only with Ctrl or Cmd held. `keep`: the id of the game whose zoom carries over to this
// board (the same picture, one move later).
function zoomable(holder, options) {
  const svg = holder.querySelector("svg");
  const full = svg ? readBox(svg.getAttribute("viewBox")) : null;
  if (!full) {
    return;
  }
  svg.dataset.fullBox = full.join(" ");
  holder.classList.add("zoom-holder");
  const tools = document.createElement("div");
  tools.className = "zoom-tools";
  const button = (label, title, action) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.title = title;
    b.setAttribute("aria-label", title);
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      action();
    });
    tools.append(b);
    return b;
  };
  button("+", "Zoom in", () => zoomBy(svg, 1.5));
  button("\u2212", "Zoom out", () => zoomBy(svg, 1 / 1.5));
  const reset = button("Reset", "Show the whole picture", () => setBox(svg, full));
  reset.className = "zoom-reset";
  holder.append(tools);
  holder.title = options.needsKey
    ? "Ctrl + wheel (Cmd on a Mac) zooms, drag pans"
    : "The wheel zooms, a drag pans";
  if (options.keep && boardZoom && boardZoom.game === options.keep) {
    const at = boardZoom.at;
    setBox(svg, clampBox([full[0] + at[0] * full[2], full[1] + at[1] * full[3],
      at[2] * full[2], at[3] * full[3]], full));
  } else {
    setBox(svg, holder === $("board") ? openingBox(svg, full) : full);
  }
  // Drawn once on the page, the picture's real size decides between overview and detail.
  requestAnimationFrame(() => showDetail(svg, readBox(svg.getAttribute("viewBox"))));
  svg.addEventListener("wheel", (e) => {
    if (options.needsKey && !e.ctrlKey && !e.metaKey) {
      return;
    }
    e.preventDefault();
    // A notch of the wheel (about 100 pixels) zooms by 1.25; a touchpad's small steps less.
    const pixels = e.deltaMode === 1 ? e.deltaY * 33 : e.deltaY;
    zoomBy(svg, Math.pow(1.25, -pixels / 100), e.clientX, e.clientY);
  }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) {
      return;
    }
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, box: readBox(svg.getAttribute("viewBox")),
      moved: false };
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag || drag.id !== e.pointerId) {
      return;
    }
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_PIXELS) {
      return;
    }
    if (!drag.moved) {
      drag.moved = true;
      // Captured only once it is a drag: a click keeps its target (the move it plays).
      try {
        svg.setPointerCapture(e.pointerId);
      } catch (_) {
        // A pointer the browser no longer tracks: the drag goes on without the capture.
      }
      svg.classList.add("panning");
    }
    const matrix = svg.getScreenCTM();
    const scale = matrix ? matrix.a : 1;
    const box = drag.box;
    setBox(svg, clampBox([box[0] - dx / scale, box[1] - dy / scale, box[2], box[3]], full));
  });
  const end = (e) => {
    if (drag && drag.id === e.pointerId) {
      svg.dataset.dragged = drag.moved ? "true" : "false";
      svg.classList.remove("panning");
      drag = null;
    }
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  // The click that ends a drag plays nothing.
  svg.addEventListener("click", (e) => {
    if (svg.dataset.dragged === "true") {
      svg.dataset.dragged = "false";
      e.stopPropagation();
      e.preventDefault();
    }
  }, true);
}

// ---- verify ----

// A file's bytes as base64 (compressed files travel as they are).
function readBase64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const bytes = new Uint8Array(reader.result);
      let binary = "";
      for (let i = 0; i < bytes.length; i += 0x8000) {
        binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
      }
      resolve(btoa(binary));
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

async function uploadedFiles() {
  const instance = $("instance-file").files[0];
  const certificate = $("certificate-file").files[0];
  if (!instance || !certificate) {
    return null;
  }
  return {
    instance_name: instance.name,
    instance_base64: await readBase64(instance),
    certificate_name: certificate.name,
    certificate_base64: await readBase64(certificate),
  };
}

// The checker's three verdicts (accepted, rejected, not checked: its budget ran out) and bad
// input, as `verify --json` names them.
function setVerdict(text, accepted, exit, outcome) {
  const verdict = $("verdict");
  verdict.textContent = text;
  verdict.dataset.accepted = accepted ? "true" : "false";
  verdict.dataset.exit = String(exit);
  verdict.dataset.verdict = outcome;
}

// "Play against it" is offered only once the checker accepted a certificate that holds a
// strategy; `why` says why not when it accepted one that holds none.
function setPlayable(playable, why) {
  $("verify-play").hidden = !playable;
  $("play-note").textContent = why || "";
}

async function runVerify() {
  const verdict = $("verdict");
  delete verdict.dataset.accepted;
  delete verdict.dataset.exit;
  delete verdict.dataset.verdict;
  setPlayable(false, "");
  const files = await uploadedFiles();
  if (!files) {
    verdict.textContent = "Choose an instance file and a certificate file first.";
    return;
  }
  verdict.textContent = "Checking...";
  const answer = await api("POST", "/api/verify", files);
  const body = answer.body;
  if (typeof body.exit === "number") {
    setVerdict(body.text, body.accepted, body.exit, body.verdict);
    setPlayable(body.playable === true, body.unplayable);
  } else {
    setVerdict("error: " + (body.error || "no answer"), false, 2, "bad-input");
  }
}

async function playUpload() {
  const files = await uploadedFiles();
  if (!files) {
    $("verdict").textContent = "Choose an instance file and a certificate file first.";
    return;
  }
  show("play");
  setReady(false);
  await startGame(files, files.instance_name);
  if (game !== null) {
    // The game has an address of its own now (no hashchange: it is shown already).
    history.replaceState(null, "", "#/game/" + game.id);
  }
}

for (const kind of ["instance", "certificate"]) {
  const drop = $(kind + "-drop");
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length > 0) {
      $(kind + "-file").files = e.dataTransfer.files;
      filesChanged();
    }
  });
  $(kind + "-file").addEventListener("change", filesChanged);
}

// New files: the last verdict (and its offer to play) no longer stands.
function filesChanged() {
  const verdict = $("verdict");
  verdict.textContent = "";
  delete verdict.dataset.accepted;
  delete verdict.dataset.exit;
  delete verdict.dataset.verdict;
  setPlayable(false, "");
}

// ---- play ----

function setBusy(value) {
  busy = value;
  $("board").dataset.busy = value ? "true" : "false";
  for (const id of ["hint", "undo", "new-game"]) {
    $(id).disabled = value || (id === "undo" && game !== null && !game.can_undo);
  }
}

// The checker's claim as a sentence's end ("W wins" -> "W wins.").
function sentence(claim) {
  return /[.!?]$/.test(claim) ? claim : claim + ".";
}

function setTitle(title) {
  $("play-title").textContent = "Play: " + title;
  document.title = title + " \u2013 gamecert";
}

function render(view) {
  game = view;
  // The server names the game (the case, or the uploaded files), so a reload keeps it.
  gameTitle = view.title || gameTitle || view.kind;
  setTitle(gameTitle);
  $("claim").textContent = "Certified: " + sentence(view.claim) + " You play " + view.you +
    "; the certified strategy plays " + view.it + ".";
  // Drawn by the server from the checked game; clickable parts carry data-move.
  $("board").innerHTML = view.board;
  const svg = $("board").querySelector("svg");
  if (svg) {
    zoomable($("board"), { keep: view.id });
  }
  $("to-move").textContent = view.to_move;
  $("last-move").textContent = view.last_move;
  $("summary").textContent = view.summary;
  const result = $("result");
  if (view.over) {
    result.textContent = view.result;
    result.dataset.claimMet = view.claim_met;
  } else {
    result.textContent = "";
    delete result.dataset.claimMet;
  }
  $("side").value = view.side;
  const moves = $("moves");
  moves.replaceChildren();
  for (const notation of view.moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = notation;
    button.textContent = notation;
    moves.append(button);
  }
  const yourTurn = !view.over && view.to_move.includes("(you)");
  moves.hidden = !yourTurn;
  $("moves-note").textContent = view.over ? "The game is over: New game starts another." :
    view.moves_total > view.moves.length ?
      "The first " + view.moves.length + " of " + view.moves_total + " moves; " + view.move_syntax + "." :
      view.move_syntax + ".";
  // The move box says so too when there is nothing left to type.
  const text = $("move-text");
  text.disabled = view.over;
  text.placeholder = view.over ? "the game is over" : "";
  $("move-play").disabled = view.over;
  $("undo").disabled = busy || !view.can_undo;
}

// Sends a request about the current game and shows the answer (or its error).
async function request(method, url, body) {
  setBusy(true);
  $("message").textContent = "";
  const answer = await api(method, url, body);
  if (answer.status === 200 && answer.body.id) {
    render(answer.body);
  } else {
    $("message").textContent = answer.body.error || "no answer";
  }
  setBusy(false);
  return answer;
}

// The play view emptied, headed `title`, before a game is shown.
function clearPlay(title) {
  game = null;
  gameTitle = title;
  $("board").replaceChildren();
  $("moves").replaceChildren();
  $("hint-text").textContent = "";
  setTitle(title);
  for (const id of ["claim", "to-move", "last-move", "summary", "result", "message"]) {
    $(id).textContent = "";
  }
  delete $("result").dataset.claimMet;
}

async function startGame(body, title) {
  clearPlay(title);
  if (body.side === null) {
    delete body.side;
  }
  await request("POST", "/api/games", body);
  setReady(true);
}

async function move(notation) {
  if (busy || game === null) {
    return;
  }
  $("hint-text").textContent = "";
  await request("POST", "/api/games/" + game.id + "/move", { move: notation });
}

$("board").addEventListener("click", (e) => {
  const target = e.target.closest("[data-move]");
  if (target) {
    move(target.getAttribute("data-move"));
  }
});
$("moves").addEventListener("click", (e) => {
  const target = e.target.closest("button[data-move]");
  if (target) {
    move(target.dataset.move);
  }
});
$("move-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("move-text").value.trim();
  if (text) {
    move(text);
    $("move-text").value = "";
  }
});
$("hint").addEventListener("click", async () => {
  if (busy || game === null) {
    return;
  }
  setBusy(true);
  const answer = await api("POST", "/api/games/" + game.id + "/hint");
  $("hint-text").textContent = answer.body.hint || answer.body.error || "";
  setBusy(false);
});
$("undo").addEventListener("click", async () => {
  if (busy || game === null) {
    return;
  }
  $("hint-text").textContent = "";
  await request("POST", "/api/games/" + game.id + "/undo");
});
$("new-game").addEventListener("click", async () => {
  if (busy || game === null) {
    return;
  }
  $("hint-text").textContent = "";
  await request("POST", "/api/games/" + game.id + "/new", { side: $("side").value });
});
$("verify-run").addEventListener("click", runVerify);
$("verify-play").addEventListener("click", playUpload);

window.addEventListener("hashchange", route);
route();
