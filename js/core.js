// The engine's JS face, shared by every host: Node (js/node.js), the browser (js/web.js), the Action.
// Each host loads the Wasm its own way and hands the instantiated module to `bind`. The decisions are
// the engine's own list (src/api.rs): one method each, `(input) => call(name, input)`, nothing else.

/** Wraps the wasm-bindgen module: `{ version, drawSeed, createEngine }`. */
export function bind(wasm) {
  const names = wasm.Engine.names();
  return {
    /** The engine's version. */
    version: () => wasm.version(),
    /** A fresh simulation seed from the host's crypto (getrandom), for a run given none: the one random thing, outside every decision. */
    drawSeed: () => wasm.drawSeed(),
    /**
     * The engine under one config: its text (what a file holds), an object, or nothing for the preset.
     * A bad config never throws: `configErrors()` lists every problem and each decision that needs the
     * config answers with them.
     */
    createEngine(config) {
      const inner = new wasm.Engine(configText(config));
      const call = (name, input) => JSON.parse(inner.call(name, request(input)));
      const engine = { version: () => wasm.version(), configErrors: () => JSON.parse(inner.configErrors()), call };
      for (const name of names) engine[name] = (input) => call(name, input);
      return engine;
    },
  };
}

// No config at all (undefined or null) is the preset: the engine's `new Engine()`.
function configText(config) {
  if (config === undefined || config === null) return undefined;
  return typeof config === "string" ? config : JSON.stringify(config);
}

// A request as JSON text, the engine's input (src/wasm.rs says why not a JS object). Facts may arrive as
// the text a snapshot file holds: spliced in as they are.
function request(input) {
  if (input === undefined || input === null) return "{}";
  if (typeof input.facts !== "string") return JSON.stringify(input);
  const { facts, ...rest } = input;
  const others = JSON.stringify(rest);
  return `{"facts":${facts}${others === "{}" ? "" : `,${others.slice(1, -1)}`}}`;
}
