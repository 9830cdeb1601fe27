// The engine's layers are checked by scripts/module-graph.mjs, which the test command runs: the real
// tree passes, and a tree with any import circle (across flows, or inside one layer between a module and
// its child), a core module using a flow, or a flow using another flow fails; a re-export pointing down is read as the module it names (issue 11).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("../../scripts/module-graph.mjs", import.meta.url));

function graph(src) {
  const r = spawnSync(process.execPath, [SCRIPT, ...(src ? ["--src", src] : [])], { encoding: "utf8" });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** A temporary src/ tree from { "flows/queue/mod.rs": "use crate::...;" }. */
function tree(files, t) {
  const root = mkdtempSync(join(tmpdir(), "prflow-graph-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const [path, text] of Object.entries({
    "lib.rs": "pub mod core;\n",
    "core/facts.rs": "pub struct Facts;\n",
    ...files,
  })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test("the engine's own tree has no broken layer and no import circle", () => {
  const { status, out } = graph();
  assert.equal(status, 0, out);
  assert.doesNotMatch(out, /ERROR/);
});

test("a circle across two flows fails", (t) => {
  const src = tree(
    {
      "flows/queue/mod.rs": "use crate::flows::stations::x;\npub fn q() {}\n",
      "flows/stations/mod.rs": "use crate::flows::queue::q;\npub fn x() {}\n",
    },
    t,
  );
  const { status, out } = graph(src);
  assert.equal(status, 1, out);
  assert.match(
    out,
    /an import circle spans the flows queue, stations|an import circle spans the flows stations, queue/,
  );
});

test("a circle inside one layer fails: two core modules, or a flow's module and its child", (t) => {
  const core = tree(
    {
      "core/config.rs": "use crate::core::facts::Facts;\npub struct C;\n",
      "core/facts.rs": "pub struct Facts(crate::core::config::C);\n",
    },
    t,
  );
  let { status, out } = graph(core);
  assert.equal(status, 1, out);
  assert.match(out, /ERROR: an import circle \(2 modules\): core::config, core::facts/);
  const parent = tree(
    {
      "flows/queue/mod.rs": "pub mod triage;\npub struct Ctx;\npub fn run() -> triage::Report { todo!() }\n",
      "flows/queue/triage.rs": "use super::Ctx;\npub struct Report;\n",
    },
    t,
  );
  ({ status, out } = graph(parent));
  assert.equal(status, 1, out);
  assert.match(out, /ERROR: an import circle \(2 modules\): flows::queue, flows::queue::triage/);
  const below = tree(
    {
      "flows/queue/mod.rs": "pub mod ctx;\npub mod triage;\npub fn run() -> triage::Report { todo!() }\n",
      "flows/queue/ctx.rs": "pub struct Ctx;\n",
      "flows/queue/triage.rs": "use super::ctx::Ctx;\npub struct Report;\n",
    },
    t,
  );
  ({ status, out } = graph(below));
  assert.equal(status, 0, out);
});

test("the core using a flow fails, even without a circle", (t) => {
  const src = tree(
    { "core/config.rs": "pub struct C(crate::flows::queue::Q);\n", "flows/queue/mod.rs": "pub struct Q;\n" },
    t,
  );
  const { status, out } = graph(src);
  assert.equal(status, 1, out);
  assert.match(out, /ERROR: core core::config uses flow flows::queue/);
});

test("a flow using another flow fails; a composer may join them", (t) => {
  const sideways = tree(
    { "flows/stations/mod.rs": "use crate::flows::followup::stop;\n", "flows/followup/mod.rs": "pub fn stop() {}\n" },
    t,
  );
  assert.equal(graph(sideways).status, 1);
  const composed = tree(
    {
      "views/reconcile.rs": "use crate::flows::followup::stop;\nuse crate::flows::stations::go;\n",
      "flows/stations/mod.rs": "pub fn go() {}\n",
      "flows/followup/mod.rs": "pub fn stop() {}\n",
    },
    t,
  );
  const { status, out } = graph(composed);
  assert.equal(status, 0, out);
});

test("a path through a re-export pointing down is an edge to the core module, not to the flow", (t) => {
  const files = {
    "core/config.rs": "pub mod stations;\n",
    "core/config/stations.rs": "pub struct Labels;\n",
    "flows/stations/mod.rs": "pub use crate::core::config::stations as settings;\n",
    "flows/followup/mod.rs": "use crate::flows::stations::settings::Labels;\n",
  };
  const { status, out } = graph(tree(files, t));
  assert.equal(status, 0, out);
  assert.match(out, /^flows::followup \[flow\] -> core::config::stations$/m);
});
