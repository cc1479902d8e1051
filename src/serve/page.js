// gamecert serve's page: a hash router over three views (#/ the gallery, #/verify, #/play/CASE
// and #/game/ID), each filled from the server's JSON API. Vanilla JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);

// State of the play view: the game's id and whether a request is in flight.
let game = null;
let busy = false;
// What the play view's heading names (the case, or the uploaded instance).
let gameTitle = "";
// The gallery, fetched once.
let galleryCases = null;

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
    return { status: response.status, body: parsed };
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
    await startGame({ case: decodeURIComponent(play[1]), side: null }, decodeURIComponent(play[1]));
  } else if (byId) {
    show("play");
    if (game === null || game.id !== byId[1]) {
      gameTitle = "";
    }
    await request("GET", "/api/games/" + byId[1]);
    setReady(true);
  } else {
    show("gallery");
    await loadGallery();
    setReady(true);
  }
}

// ---- gallery ----

async function loadGallery() {
  if (galleryCases === null) {
    const answer = await api("GET", "/api/gallery");
    if (answer.status !== 200) {
      $("gallery").textContent = answer.body.error || "the gallery cannot be loaded";
      return;
    }
    galleryCases = answer.body.cases;
  }
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
    description.textContent = item.description + " (" + item.kind + ")";
    const picture = document.createElement("div");
    picture.className = "picture";
    // The server drew this picture from a certificate the checker accepted.
    picture.innerHTML = item.picture;
    const claim = document.createElement("p");
    claim.className = "claim";
    claim.textContent = item.claim;
    card.append(title, description, picture, claim);
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

function setVerdict(text, accepted, exit) {
  const verdict = $("verdict");
  verdict.textContent = text;
  verdict.dataset.accepted = accepted ? "true" : "false";
  verdict.dataset.exit = String(exit);
}

async function runVerify() {
  const verdict = $("verdict");
  delete verdict.dataset.accepted;
  delete verdict.dataset.exit;
  const files = await uploadedFiles();
  if (!files) {
    verdict.textContent = "Choose an instance file and a certificate file first.";
    return;
  }
  verdict.textContent = "Checking...";
  const answer = await api("POST", "/api/verify", files);
  const body = answer.body;
  if (typeof body.exit === "number") {
    setVerdict(body.text, body.accepted, body.exit);
  } else {
    setVerdict("error: " + (body.error || "no answer"), false, 2);
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
    }
  });
}

// ---- play ----

function setBusy(value) {
  busy = value;
  $("board").dataset.busy = value ? "true" : "false";
  for (const id of ["hint", "undo", "new-game"]) {
    $(id).disabled = value || (id === "undo" && game !== null && !game.can_undo);
  }
}

function render(view) {
  game = view;
  $("play-title").textContent = "Play: " + (gameTitle ? gameTitle + " (" + view.kind + ")" : view.kind);
  $("claim").textContent = "Certified claim: " + view.claim + ". You play " + view.you +
    "; the certified strategy plays " + view.it + ".";
  // Drawn by the server from the checked game; clickable parts carry data-move.
  $("board").innerHTML = view.board;
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
  $("moves-note").textContent = view.over ? "The game is over." :
    view.moves_total > view.moves.length ?
      "The first " + view.moves.length + " of " + view.moves_total + " moves; " + view.move_syntax + "." :
      view.move_syntax + ".";
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

async function startGame(body, title) {
  game = null;
  gameTitle = title;
  $("board").replaceChildren();
  $("moves").replaceChildren();
  $("hint-text").textContent = "";
  $("play-title").textContent = "Play: " + title;
  for (const id of ["claim", "to-move", "last-move", "summary", "result", "message"]) {
    $(id).textContent = "";
  }
  delete $("result").dataset.claimMet;
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
