#!/usr/bin/env node
// Prints the engine's module graph (src/**/*.rs, from its `crate::` and `super::` paths) and exits
// non-zero when an import circle spans two flows: a flow may use core and never another flow except
// through a named composer, so a circle through two flows is a layer broken somewhere on it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
/** The flows, by their first path segment (bot_panel and reconcile are one flow). */
const FLOW = { bot_panel: "reconcile", reconcile: "reconcile", stations: "stations", followup: "followup", queue: "queue" };

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? (name === "bin" ? [] : files(p)) : p.endsWith(".rs") ? [p] : [];
  });
}

/** src/queue/mod.rs -> queue, src/queue/green.rs -> queue::green, src/lib.rs -> crate. */
function moduleOf(file) {
  const parts = relative(SRC, file).replace(/\.rs$/, "").split("/");
  if (parts.at(-1) === "mod") parts.pop();
  return parts.length === 1 && parts[0] === "lib" ? "crate" : parts.join("::");
}

// Test modules are not layers: their imports are left out.
const code = (text) => text.split(/#\[cfg\(test\)\]/)[0].replace(/\/\/.*$/gm, "");

const modules = new Map(files(SRC).map((f) => [moduleOf(f), code(readFileSync(f, "utf8"))]));

/** The longest module that a path names (`queue::green::green` -> queue::green). */
function resolve(path) {
  const parts = path.split("::");
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
    let depth = 0, cur = "";
    for (const ch of `${brace[1]},`) {
      if (ch === "{") depth++;
      if (ch === "}") depth--;
      if (ch === "," && depth === 0) {
        const t = cur.trim();
        if (t) {
          const i = t.indexOf("::");
          const head = i < 0 || t.startsWith("{") ? "" : t.slice(0, t.indexOf("::{") >= 0 ? t.indexOf("::{") : t.lastIndexOf("::"));
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
const idx = new Map(), low = new Map(), stack = [], on = new Set(), circles = [];
function connect(v) {
  idx.set(v, index); low.set(v, index++); stack.push(v); on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) { connect(w); low.set(v, Math.min(low.get(v), low.get(w))); }
    else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const scc = [];
    let w;
    do { w = stack.pop(); on.delete(w); scc.push(w); } while (w !== v);
    if (scc.length > 1) circles.push(scc.sort());
  }
}
for (const v of [...modules.keys()].sort()) if (!idx.has(v)) connect(v);

for (const [mod, to] of [...edges].sort()) console.log(`${mod} -> ${to.join(", ") || "(nothing)"}`);
let bad = 0;
for (const scc of circles) {
  const flows = [...new Set(scc.map((m) => FLOW[m.split("::")[0]]).filter(Boolean))];
  const spans = flows.length > 1;
  if (spans) bad++;
  console.log(`\n${spans ? "ERROR: an import circle spans the flows " + flows.join(", ") : "circle within one layer"} (${scc.length} modules): ${scc.join(", ")}`);
}
process.exit(bad ? 1 : 0);
