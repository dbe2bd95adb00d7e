// The browser's engine (engine.wasm, crates/browser) hosted in Node for
// the server's parity test (tests/it/engine.rs): one JSON request per
// line on stdin, its answer on one line of stdout, with the same three
// buffers the web client's worker (web/engine.js) uses.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const bytes = readFileSync(process.argv[2]);
const { instance } = await WebAssembly.instantiate(bytes, { env: { progress: () => {} } });
const x = instance.exports;
const enc = new TextEncoder();
const dec = new TextDecoder();

function ask(line) {
  const text = enc.encode(line);
  const at = x.input(text.length);
  new Uint8Array(x.memory.buffer, at, text.length).set(text);
  const len = x.call();
  const out = x.output();
  return dec.decode(new Uint8Array(x.memory.buffer, out, len));
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line) process.stdout.write(ask(line) + '\n');
}
