// Node adapter: loads the Wasm synchronously at import, so `createEngine(configText)` needs no init.
import { readFileSync } from "node:fs";
import * as wasm from "../pkg/prflow.js";
import { bind } from "./core.js";

wasm.initSync({ module: readFileSync(new URL("../pkg/prflow_bg.wasm", import.meta.url)) });

export const { version, drawSeed, createEngine } = bind(wasm);
