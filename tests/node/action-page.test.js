// `mode: page`: the Action writes the built dashboard page into a folder of the workspace, for
// actions/upload-pages-artifact, so a repository hosts the page without forking prflow. It reads and
// writes nothing on GitHub; the files are page/dist's, byte for byte.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../../emulator/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

test("action page: mode page copies page/dist into page-dir, says where, and calls no API", async (t) => {
  const em = await startEmulator();
  t.after(() => em.close());
  const ws = mkdtempSync(join(tmpdir(), "prflow-page-ws-"));
  em.reset();
  const r = await em.runAction({
    actionPath: ROOT,
    event: "workflow_dispatch",
    payload: {},
    inputs: { mode: "page", "page-dir": "site" },
    workspace: ws,
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const dist = join(ROOT, "page/dist");
  assert.deepEqual(readdirSync(join(ws, "site")).sort(), readdirSync(dist).sort());
  for (const f of readdirSync(dist))
    assert.ok(readFileSync(join(ws, "site", f)).equals(readFileSync(join(dist, f))), `${f} byte for byte`);
  assert.equal(r.outputs["page-dir"], join(ws, "site"));
  assert.match(r.summary, /\?repo=acme\/widgets/);
  assert.equal(em.requests.length, 0, "no request to GitHub");
});
