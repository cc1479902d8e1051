// The static site's page (gamecert page): two views chosen by the URL's hash (the gallery, and
// verify), and the checker compiled to WebAssembly running in this browser. No server is asked
// anything: `index.html?instance=I&certificate=C` checks that pair on load (URLs relative to
// the page) and writes the verdict into #verdict, whose text begins with the verdict's word.
"use strict";

function $(id) { return document.getElementById(id); }

function showView() {
  var verify = location.hash === "#/verify" || new URLSearchParams(location.search).has("instance");
  $("view-gallery").hidden = verify;
  $("view-verify").hidden = !verify;
  $("nav-gallery").className = verify ? "" : "current";
  $("nav-verify").className = verify ? "current" : "";
}

// The checker: in a worker where the browser allows one (a page served over HTTP), else on the
// page's own thread, with the module from checker-wasm.js (a page opened from disk, where
// browsers refuse both workers and fetch).
var worker = null;
var workerFailed = false;

function checkInWorker(ask) {
  return new Promise(function (resolve, reject) {
    if (!worker) worker = new Worker("site-worker.js");
    worker.onmessage = function (event) {
      if (event.data.failed) reject(new Error(event.data.failed)); else resolve(event.data);
    };
    worker.onerror = function (event) {
      event.preventDefault();
      worker = null;
      reject(new Error(event.message || "the worker did not start"));
    };
    worker.postMessage(ask);
  });
}

var pageModule = null;

function loadScript(src) {
  return new Promise(function (resolve, reject) {
    var script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = function () { reject(new Error("cannot load " + src)); };
    document.head.appendChild(script);
  });
}

function checkOnPage(ask) {
  var started = performance.now();
  var ready = pageModule ? Promise.resolve(pageModule) :
    loadScript("checker-wasm.js").then(function () {
      var binary = atob(GAMECERT_WASM_BASE64);
      var bytes = new Uint8Array(binary.length);
      for (var k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
      return (pageModule = new WebAssembly.Module(bytes));
    });
  return ready.then(function (module) {
    var answer = GamecertChecker.check(module, ask.instanceName, ask.instance,
      ask.certificateName, ask.certificate, ask.maxWork);
    answer.ms = performance.now() - started;
    answer.onPage = true;
    return answer;
  });
}

function runCheck(ask) {
  if (workerFailed || typeof Worker === "undefined" || location.protocol === "file:") {
    return checkOnPage(ask);
  }
  return checkInWorker(ask).catch(function () {
    workerFailed = true;
    return checkOnPage(ask);
  });
}

function setVerdict(answer) {
  var verdict = $("verdict");
  var text = (answer.stdout || "") + (answer.stderr || "");
  if (text.indexOf(answer.word) !== 0) text = answer.word + "\n" + text;
  verdict.textContent = text;
  verdict.dataset.verdict = answer.verdict;
  verdict.dataset.exit = String(answer.code);
  verdict.dataset.accepted = answer.code === 0 ? "true" : "false";
  verdict.dataset.ms = answer.ms ? answer.ms.toFixed(1) : "";
  $("checked-where").textContent = "Checked in this browser by the WebAssembly checker" +
    (answer.onPage ? " (on the page's thread)" : "") +
    (answer.ms ? ", in " + (answer.ms / 1000).toFixed(2) + " s." : ".");
}

function clearVerdict(text) {
  var verdict = $("verdict");
  verdict.textContent = text;
  delete verdict.dataset.verdict;
  delete verdict.dataset.exit;
  delete verdict.dataset.accepted;
  delete verdict.dataset.ms;
  $("checked-where").textContent = "";
}

function maxWork() {
  var field = $("max-work").value.trim();
  return field === "" ? 0 : Number(field);
}

function check(instanceName, instance, certificateName, certificate) {
  clearVerdict("Checking...");
  $("verify-run").disabled = true;
  var done = function () { $("verify-run").disabled = false; };
  return runCheck({
    instanceName: instanceName, instance: instance,
    certificateName: certificateName, certificate: certificate, maxWork: maxWork(),
  }).then(setVerdict, function (error) {
    clearVerdict("NOT CHECKED\nthe checker could not run in this browser: " + error.message);
    $("verdict").dataset.verdict = "not-checked";
  }).then(done, done);
}

function readFile(input) {
  var file = input.files && input.files[0];
  if (!file) return Promise.resolve(null);
  return file.arrayBuffer().then(function (buffer) {
    return { name: file.name, bytes: new Uint8Array(buffer) };
  });
}

function checkChosen() {
  Promise.all([readFile($("instance-file")), readFile($("certificate-file"))]).then(function (two) {
    if (!two[0] || !two[1]) {
      clearVerdict("Choose an instance file and a certificate file first.");
      return;
    }
    return check(two[0].name, two[0].bytes, two[1].name, two[1].bytes);
  });
}

// A file's name from its URL: the checker names files in its messages and tells a DNF text
// from its `.dnf` name, as on the command line.
function nameOf(url) {
  var path = url.split(/[?#]/)[0];
  return decodeURIComponent(path.substring(path.lastIndexOf("/") + 1)) || url;
}

function fetchBytes(url) {
  return fetch(url).then(function (response) {
    if (!response.ok) throw new Error(url + ": " + response.status + " " + response.statusText);
    return response.arrayBuffer();
  }).then(function (buffer) { return new Uint8Array(buffer); });
}

// ?instance=I&certificate=C: fetch both (relative to the page) and check them.
function checkFromAddress() {
  var query = new URLSearchParams(location.search);
  var instance = query.get("instance");
  var certificate = query.get("certificate");
  if (!instance && !certificate) return;
  if (!instance || !certificate) {
    clearVerdict("The address names only one file: give both ?instance=...&certificate=...");
    return;
  }
  if (query.get("max-work")) $("max-work").value = query.get("max-work");
  $("from-address").textContent = "Instance " + instance + ", certificate " + certificate + ".";
  clearVerdict("Fetching the files...");
  Promise.all([fetchBytes(instance), fetchBytes(certificate)]).then(function (two) {
    return check(nameOf(instance), two[0], nameOf(certificate), two[1]);
  }, function (error) {
    clearVerdict("The files could not be fetched: " + error.message);
    $("verdict").dataset.verdict = "bad-input";
  });
}

function dropOnto(label, input) {
  label.addEventListener("dragover", function (event) {
    event.preventDefault();
    label.classList.add("over");
  });
  label.addEventListener("dragleave", function () { label.classList.remove("over"); });
  label.addEventListener("drop", function (event) {
    event.preventDefault();
    label.classList.remove("over");
    input.files = event.dataTransfer.files;
    clearVerdict("");
  });
}

window.addEventListener("hashchange", showView);
window.addEventListener("DOMContentLoaded", function () {
  showView();
  $("verify-run").addEventListener("click", checkChosen);
  dropOnto($("instance-drop"), $("instance-file"));
  dropOnto($("certificate-drop"), $("certificate-file"));
  $("instance-file").addEventListener("change", function () { clearVerdict(""); });
  $("certificate-file").addEventListener("change", function () { clearVerdict(""); });
  checkFromAddress();
});
