// The static site's checker off the page's thread (gamecert page): it compiles the WebAssembly
// checker once and answers each { instance, certificate } message with the checker's outcome.
"use strict";
importScripts("checker.js");

var compiled = null;

onmessage = function (event) {
  var ask = event.data;
  var started = performance.now();
  (compiled || (compiled = WebAssembly.compileStreaming(fetch("gamecert-checker.wasm"))))
    .then(function (module) {
      var answer = GamecertChecker.check(module, ask.instanceName, ask.instance,
        ask.certificateName, ask.certificate, ask.maxWork);
      answer.ms = performance.now() - started;
      postMessage(answer);
    })
    .catch(function (error) {
      compiled = null;
      postMessage({ failed: String(error && error.message || error) });
    });
};
