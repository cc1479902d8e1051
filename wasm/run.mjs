#!/usr/bin/env node
// The checker built for WebAssembly, run by node (>= 20, no packages), as gamecert-check runs:
//
//   node wasm/run.mjs [--json] [--max-work N] INSTANCE CERTIFICATE
//
// loads target/wasm/gamecert-checker.wasm (or $GAMECERT_WASM; scripts/build-wasm builds it),
// checks the two files through the module's ABI (wasm/src/lib.rs, docs/wasm.md), prints its
// standard output and error and exits with its code: 0 accepted, 1 rejected, 2 bad input,
// 3 not checked. A trap with a fault message is a fault of the checker, a rejection (exit 1) as
// the native checker reports it; a trap without one is the memory running out (exit 3).
// GAMECERT_WASM_STATS=1 prints the module's memory in bytes at the end on standard output
// (`wasm memory: N bytes`, for `gamecert bench wasm`).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const GamecertChecker = createRequire(import.meta.url)("./checker.js");

const USAGE = "usage: node wasm/run.mjs [--json] [--max-work N] INSTANCE CERTIFICATE\n";

function usage(message) {
  process.stderr.write(`error: ${message}\n${USAGE}`);
  process.exit(2);
}

const args = process.argv.slice(2);
let json = false;
let maxWork = 0;
const files = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === "--json") json = true;
  else if (arg === "--max-work" || arg.startsWith("--max-work=")) {
    const text = arg === "--max-work" ? args[++i] : arg.slice("--max-work=".length);
    if (text === undefined) usage("'--max-work N' needs a value");
    // The module checks the range (a whole number from 1 to 10^15) and words the refusal.
    maxWork = /^[0-9_]+$/.test(text) ? Number(text.replaceAll("_", "")) : NaN;
    if (maxWork === 0) maxWork = NaN;
  } else if (arg === "-h" || arg === "--help") {
    process.stdout.write(USAGE);
    process.exit(0);
  } else if (arg.startsWith("-") && arg !== "-") usage(`unknown option '${arg}'`);
  else files.push(arg);
}
if (files.length !== 2) usage("expected INSTANCE and CERTIFICATE");

const here = fileURLToPath(new URL(".", import.meta.url));
const wasmPath = process.env.GAMECERT_WASM || `${here}../target/wasm/gamecert-checker.wasm`;
let module;
try {
  module = new WebAssembly.Module(readFileSync(wasmPath));
} catch (e) {
  process.stderr.write(`error: ${wasmPath}: ${e.message} (build it with scripts/build-wasm)\n`);
  process.exit(2);
}

function finish(result) {
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (process.env.GAMECERT_WASM_STATS && result.memory !== undefined) {
    process.stdout.write(`wasm memory: ${result.memory} bytes\n`);
  }
  process.exit(result.code);
}

const read = [];
for (const file of files) {
  try {
    read.push(readFileSync(file));
  } catch (e) {
    finish({ code: 2, stdout: "", stderr: `error: ${file}: ${e.message}\n` });
  }
}
// The names as given (a path, so that messages name the file as gamecert-check does); the
// check itself is the page's (checker.js): the same seed, faults and memory outcomes.
finish(GamecertChecker.check(module, files[0], read[0], files[1], read[1], maxWork, json));
