// gamecert's checker compiled to WebAssembly, called through its exported entry (the ABI in
// wasm/src/lib.rs): bytes in, the checker's verdict out. One plain script for every host: the
// static site's page and its worker load it with <script> or importScripts, and node's runner
// (wasm/run.mjs) with require. Each check runs in a fresh instance of the compiled module, so a
// trap (a fault of the checker, or memory exhausted) leaves nothing behind for the next one.
"use strict";

var GamecertChecker = (function () {
  // Exit codes and verdict words as on the command line (gamecert verify, gamecert-check).
  var WORDS = { 0: "ACCEPTED", 1: "REJECTED", 2: "BAD INPUT", 3: "NOT CHECKED" };
  var TOKENS = { 0: "accepted", 1: "rejected", 2: "bad-input", 3: "not-checked" };

  // Compressed files are read by the native build only (gzip, xz, bzip2).
  function compression(bytes) {
    var starts = function (magic) {
      if (bytes.length < magic.length) return false;
      for (var k = 0; k < magic.length; k++) if (bytes[k] !== magic[k]) return false;
      return true;
    };
    if (starts([0x1f, 0x8b])) return "gzip";
    if (starts([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return "xz";
    if (starts([0x42, 0x5a, 0x68])) return "bzip2";
    return null;
  }

  function outcome(code, stdout, stderr) {
    return { code: code, word: WORDS[code], verdict: TOKENS[code], stdout: stdout, stderr: stderr };
  }

  // Checks `certificate` (bytes, named `certificateName`) against `instance` with the compiled
  // module; `maxWork` 0 is the command line's default budget, `json` asks for `--json`'s output.
  // Returns { code, word, verdict, stdout, stderr, memory } with the command line's codes (0
  // accepted, 1 rejected, 2 bad input, 3 not checked) and the module's memory at the end, in
  // bytes.
  function check(module, instanceName, instance, certificateName, certificate, maxWork, json) {
    var packed = [[instanceName, instance], [certificateName, certificate]];
    for (var k = 0; k < 2; k++) {
      var kind = compression(packed[k][1]);
      if (kind) {
        return outcome(2, "", packed[k][0] + ": a " + kind + " file: the checker in the browser " +
          "reads uncompressed files only; decompress it, or check it with `gamecert verify`, " +
          "which reads it as it is\n");
      }
    }
    var exports = new WebAssembly.Instance(module, {}).exports;
    // The checker's position fingerprints take secret keys from this seed.
    var seed = crypto.getRandomValues(new Uint32Array(4));
    exports.gc_seed(seed[0], seed[1], seed[2], seed[3]);
    var encoder = new TextEncoder();
    // Copies bytes into the instance's memory (which may grow at each allocation); null when
    // the memory cannot grow.
    var put = function (bytes) {
      var at = exports.gc_alloc(bytes.length);
      if (at === 0) return null;
      new Uint8Array(exports.memory.buffer, at, bytes.length).set(bytes);
      return [at, bytes.length];
    };
    var text = function (at, length) {
      return new TextDecoder().decode(new Uint8Array(exports.memory.buffer, at, length));
    };
    var memoryOut = function (why) {
      return outcome(3, "", "error: not checked: the WebAssembly checker ran out of memory (" +
        exports.memory.buffer.byteLength + " bytes" + why + ") before it could decide; check " +
        "the files with the native `gamecert verify`\n");
    };
    var buffers = [put(encoder.encode(instanceName)), put(instance),
      put(encoder.encode(certificateName)), put(certificate)];
    if (buffers.some(function (b) { return b === null; })) return memoryOut(": the files do not fit");
    var answer;
    try {
      var length = exports.gc_check(buffers[0][0], buffers[0][1], buffers[1][0], buffers[1][1],
        buffers[2][0], buffers[2][1], buffers[3][0], buffers[3][1], maxWork || 0, json ? 1 : 0);
      answer = JSON.parse(text(exports.gc_result_ptr(), length));
    } catch (trap) {
      if (!(trap instanceof WebAssembly.RuntimeError)) throw trap;
      // A panic wrote its message first: a fault of the checker, which the native checker
      // reports as a rejection (the module stored that rejection when the fault stopped a
      // check). A trap without one is memory the host would not give.
      var faultLength = exports.gc_fault_len();
      if (faultLength === 0) return memoryOut("; wasm32 has at most 4 GiB");
      var resultLength = exports.gc_result_len();
      if (resultLength > 0) {
        answer = JSON.parse(text(exports.gc_result_ptr(), resultLength));
      } else {
        answer = { code: 1, stdout: "", stderr: "error: internal error: the checker stopped " +
          "on a fault (" + text(exports.gc_fault_ptr(), faultLength) + "); the certificate is " +
          "rejected, and this input shows a bug in the checker\n" };
      }
    }
    var done = outcome(answer.code, answer.stdout, answer.stderr);
    done.memory = exports.memory.buffer.byteLength;
    return done;
  }

  return { check: check, compression: compression, WORDS: WORDS };
})();

if (typeof module !== "undefined" && module.exports) module.exports = GamecertChecker;
