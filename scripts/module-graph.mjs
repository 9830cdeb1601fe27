#!/usr/bin/env node
// Prints the engine's module graph (src/**/*.rs, from its `crate::` and `super::` paths) and exits 1
// when a layer is broken: the core (facts, config types, plan, time, checks, markers, ...) uses no
// flow and no composer; a flow uses the core and its own modules, never another flow or a composer;
// only a composer (reconcile, dashboard, the Wasm boundary) joins flows; and no import circle between
// any modules (a parent and its child module count: `mod triage;` then `triage::Report` is an edge). `--src DIR` reads another tree (the script's own test does);
// `--quiet` prints only what is wrong (the test command).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

const at = process.argv.indexOf("--src");
const SRC = at > 0 ? resolvePath(process.argv[at + 1]) : fileURLToPath(new URL("../src", import.meta.url));
/** The named composers, which may join flows: the views (reconcile: bot_panel and stations per pull
 * request; the dashboard: every flow on one board; the label catalogue), and the boundary that answers
 * JS (wasm, api), the simulations (sim: they run the queue's own decisions), and the crate's root,
 * which re-exports the public API. A flow is a folder under `flows/`; everything else is the core. */
const COMPOSERS = new Set(["views", "wasm", "api", "sim", "crate"]);
const layer = (m) => (m.split("::")[0] === "flows" ? "flow" : COMPOSERS.has(m.split("::")[0]) ? "composer" : "core");
/** The flow a module belongs to (`flows::queue::green` -> queue); a composer counts as its own. */
const flowOf = (m) => (layer(m) === "flow" ? m.split("::")[1] : layer(m) === "composer" ? m.split("::")[0] : null);

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? (name === "bin" ? [] : files(p)) : p.endsWith(".rs") ? [p] : [];
  });
}

/** src/flows/queue/mod.rs -> flows::queue, src/core/facts.rs -> core::facts, src/lib.rs -> crate. */
function moduleOf(file) {
  const parts = relative(SRC, file).replace(/\.rs$/, "").split("/");
  if (parts.at(-1) === "mod") parts.pop();
  return parts.length === 1 && parts[0] === "lib" ? "crate" : parts.join("::");
}

// Test modules are not layers: their imports are left out (`#[cfg(test)]` and `#[cfg(all(test, ...))]`).
const code = (text) => text.split(/#\[cfg\((?:all\()?test\b/)[0].replace(/\/\/.*$/gm, "");

const modules = new Map(files(SRC).map((f) => [moduleOf(f), code(readFileSync(f, "utf8"))]));

/** `pub use crate::config::stations as settings;` in stations makes `stations::settings` another name
 * for `config::stations`: a path through it is an edge to where the module is, not to the flow that
 * re-exports it (a re-export pointing down keeps old paths working without an edge up). */
const aliases = new Map();
for (const [mod, text] of modules) {
  const base = mod === "crate" ? "" : mod;
  for (const m of text.matchAll(/\bpub\s+use\s+(crate|super)::([\w:]+)(?:\s+as\s+(\w+))?\s*;/g)) {
    const parent = mod.split("::").slice(0, -1).join("::");
    const target = m[1] === "crate" ? m[2] : [parent, m[2]].filter(Boolean).join("::");
    if (!modules.has(target)) continue;
    const name = m[3] ?? target.split("::").at(-1);
    aliases.set(base ? `${base}::${name}` : name, target);
  }
}

/** A path with every alias prefix replaced by the module it names. */
function unalias(path) {
  for (let hops = 0; hops < 10; hops++) {
    const parts = path.split("::");
    let changed = false;
    for (let n = parts.length; n > 0 && !changed; n--) {
      const target = aliases.get(parts.slice(0, n).join("::"));
      if (target) {
        path = [target, ...parts.slice(n)].join("::");
        changed = true;
      }
    }
    if (!changed) break;
  }
  return path;
}

/** The longest module that a path names (`queue::green::green` -> queue::green). */
function resolve(path) {
  const parts = unalias(path).split("::");
  for (let n = parts.length; n > 0; n--) {
    const m = parts.slice(0, n).join("::");
    if (modules.has(m)) return m;
  }
  return null;
}

/** `use crate::a::{b, c::d}` and inline `crate::a::b`, expanded to full paths. */
function paths(mod, text) {
  const out = [];
  const parent = mod.split("::").slice(0, -1).join("::");
  const expand = (prefix, rest) => {
    const brace = rest.match(/^\{([\s\S]*)\}$/);
    if (!brace) return out.push(prefix ? `${prefix}::${rest}` : rest);
    let depth = 0,
      cur = "";
    for (const ch of `${brace[1]},`) {
      if (ch === "{") depth++;
      if (ch === "}") depth--;
      if (ch === "," && depth === 0) {
        const t = cur.trim();
        if (t) {
          const i = t.indexOf("::");
          const head =
            i < 0 || t.startsWith("{")
              ? ""
              : t.slice(0, t.indexOf("::{") >= 0 ? t.indexOf("::{") : t.lastIndexOf("::"));
          if (t.includes("::{")) expand(prefix ? `${prefix}::${head}` : head, t.slice(head.length + 2));
          else out.push(prefix ? `${prefix}::${t}` : t);
        }
        cur = "";
      } else cur += ch;
    }
  };
  for (const m of text.matchAll(/\buse\s+(crate|super)::([^;]+);/g)) {
    const base = m[1] === "crate" ? "" : mod.includes("::") ? parent : "";
    const body = m[2].replace(/\s+/g, "");
    const at = body.indexOf("::{");
    if (body.startsWith("{")) expand(base, body);
    else if (at >= 0) expand(base ? `${base}::${body.slice(0, at)}` : body.slice(0, at), body.slice(at + 2));
    else out.push(base ? `${base}::${body}` : body);
  }
  for (const m of text.matchAll(/\bcrate::((?:\w+::)*\w+)/g)) out.push(m[1]);
  // A child module named by its own name (`mod triage;` then `triage::Report`): an edge to it.
  const base = mod === "crate" ? "" : mod;
  for (const c of text.matchAll(/\bmod\s+(\w+)\s*;/g)) {
    for (const m of text.matchAll(new RegExp(`(?<![\\w:])${c[1]}::((?:\\w+::)*\\w+)`, "g")))
      out.push(base ? `${base}::${c[1]}::${m[1]}` : `${c[1]}::${m[1]}`);
    if (new RegExp(`\\buse\\s+(?:self::)?${c[1]}\\b`).test(text) || new RegExp(`pub\\s+use\\s+${c[1]}::`).test(text))
      out.push(base ? `${base}::${c[1]}` : c[1]);
  }
  return out.map((p) => p.replace(/\s+as\s+\w+$/, ""));
}

const edges = new Map();
for (const [mod, text] of modules) {
  const to = new Set();
  for (const p of paths(mod, text)) {
    const target = resolve(p);
    if (target && target !== mod && target !== "crate") to.add(target);
  }
  edges.set(mod, [...to].sort());
}

// Tarjan's strongly connected components: each with more than one module is an import circle.
let index = 0;
const idx = new Map(),
  low = new Map(),
  stack = [],
  on = new Set(),
  circles = [];
function connect(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) circles.push(scc.sort());
  }
}
for (const v of [...modules.keys()].sort()) if (!idx.has(v)) connect(v);

const quiet = process.argv.includes("--quiet");
if (!quiet)
  for (const [mod, to] of [...edges].sort()) console.log(`${mod} [${layer(mod)}] -> ${to.join(", ") || "(nothing)"}`);
let bad = 0;
// Edges that point up or sideways: core -> flow or composer; flow -> another flow or a composer.
for (const [mod, to] of [...edges].sort()) {
  for (const t of to) {
    const [from, into] = [layer(mod), layer(t)];
    const up = from === "core" && into !== "core";
    const sideways = from === "flow" && into !== "core" && flowOf(t) !== flowOf(mod);
    if (up || sideways) {
      bad++;
      console.log(
        `ERROR: ${from} ${mod} uses ${into} ${t}: ${up ? "the core is below every flow" : "a flow uses the core, never another flow or a composer"}`,
      );
    }
  }
}
// Any import circle fails, within one layer too: a module's floor is below everything it imports.
for (const scc of circles) {
  bad++;
  const flows = [...new Set(scc.map(flowOf).filter(Boolean))];
  const what = flows.length > 1 ? `an import circle spans the flows ${flows.join(", ")}` : "an import circle";
  console.log(`\nERROR: ${what} (${scc.length} modules): ${scc.join(", ")}`);
}
process.exit(bad ? 1 : 0);
