// The engine's JS face, shared by every host: Node (js/node.js), the browser (js/web.js), the Action.
// Each host loads the Wasm its own way and hands the instantiated module to `bind`. The decisions are
// the engine's own list (src/api.rs): one method each, `(input) => call(name, input)`, nothing else.

/** Wraps the wasm-bindgen module: `{ version, createEngine }`. */
export function bind(wasm) {
  const names = wasm.Engine.names();
  return {
    /** The engine's version. */
    version: () => wasm.version(),
    /** A fresh simulation seed from the host's crypto (getrandom), for a run given none: the one random thing, outside every decision. */
    drawSeed: () => wasm.drawSeed(),
    /**
     * The engine under one config: its text (the fast path, and what a file holds), an object, or
     * nothing for the preset. A bad config never throws: `configErrors()` lists every problem and each
     * decision that needs the config answers with them.
     */
    createEngine(config) {
      const inner = new wasm.Engine(configText(config));
      const callText = (name, text) => send(wasm, inner, name, text);
      const call = (name, input) => JSON.parse(callText(name, request(input)));
      const engine = { version: () => wasm.version(), configErrors: () => JSON.parse(inner.configErrorsJson()), call, callText };
      for (const name of names) engine[name] = (input) => call(name, input);
      return engine;
    },
  };
}

const encoder = new TextEncoder();

// A request's text into the engine. A big one is written straight into Wasm memory by the platform's
// encoder (wasm-bindgen's glue copies a string a character at a time in JavaScript: 18 ms for a board
// of 10,000 pull requests, 1.6 this way); a small one takes the glue's path, which is as fast there.
function send(wasm, inner, name, text) {
  if (text.length < 65536 || !inner.inputBuffer) return inner.call(name, text);
  const memory = wasm.wasmMemory();
  // One byte a UTF-16 unit fits ASCII exactly; what is left after a non-ASCII character gets three.
  // The buffer is asked for before Wasm memory is viewed: asking may grow the memory, which detaches
  // the view taken before it.
  let size = text.length;
  const start = inner.inputBuffer(size);
  let { read, written } = encoder.encodeInto(text, new Uint8Array(memory.buffer, start, size));
  if (read < text.length) {
    const rest = text.slice(read);
    size = written + rest.length * 3;
    const ptr = inner.inputBuffer(size);
    written += encoder.encodeInto(rest, new Uint8Array(memory.buffer, ptr + written, size - written)).written;
  }
  return inner.callInput(name, written);
}

// No config at all (undefined or null) is the preset: the engine's `new Engine()`.
function configText(config) {
  if (config === undefined || config === null) return undefined;
  return typeof config === "string" ? config : JSON.stringify(config);
}

// Facts may arrive as JSON text (the fast path for big snapshots): spliced in as they are.
function request(input) {
  if (input === undefined || input === null) return "{}";
  if (typeof input.facts !== "string") return JSON.stringify(input);
  const { facts, ...rest } = input;
  const others = JSON.stringify(rest);
  return `{"facts":${facts}${others === "{}" ? "" : `,${others.slice(1, -1)}`}}`;
}
