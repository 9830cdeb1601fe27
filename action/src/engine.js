// The engine for the bundled Action (`prflow.createEngine(configText)`): the same JS core as every host, with the Wasm read from the file
// action/build.mjs copies next to the bundle (dist/prflow_bg.wasm), so the Action needs no install step.
import { existsSync, readFileSync } from "node:fs";
import * as wasm from "../../pkg/prflow.js";
import { bind } from "../../js/core.js";

const beside = new URL("./prflow_bg.wasm", import.meta.url);
// Run from source (action/src), the Wasm is still in pkg/.
const path = existsSync(beside) ? beside : new URL("../../pkg/prflow_bg.wasm", import.meta.url);
wasm.initSync({ module: readFileSync(path) });

export const prflow = bind(wasm);
