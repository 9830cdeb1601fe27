// The bundled Action in `sweep` mode, run as a scheduled workflow step would run it, against the
// emulator: outputs (stop-the-line, writes), the job summary, and what it wrote.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator, makeClock } from "../../emulator/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CONFIG = { followup: { people: { humans: ["alice", "bob"], onDuty: "alice", reviewers: ["bob"] } } };

test("sweep mode on a schedule: stop-the-line output, one comment per level, the board, and a converged second run", async () => {
  const gh = await startEmulator({ clock: makeClock("2026-11-30T08:00:00Z") });
  try {
    const ws = mkdtempSync(join(tmpdir(), "prflow-ws-"));
    mkdirSync(join(ws, ".github"));
    writeFileSync(join(ws, ".github/prflow.json"), JSON.stringify(CONFIG));
    gh.createLabel({ name: "state:ready-for-review" });
    const pr = gh.createPull({ title: "Waiting too long", author: "agent-m1" });
    gh.addLabels(pr.number, ["state:ready-for-review"], { by: "agent-m1" });
    gh.clock.advance({ minutes: 245 });
    const run = () =>
      gh.runAction({
        actionPath: ROOT,
        event: "schedule",
        payload: { schedule: "7,37 * * * 1-5" },
        inputs: { mode: "sweep", live: "true" },
        workspace: ws,
      });

    const first = await run();
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(first.outputs["stop-the-line"], "true", "past 240 minutes in the queue: stop the line");
    assert.equal(first.outputs.writes, "2", "the stop-the-line comment and the new board");
    assert.match(first.summary, /\*\*Stop the line:\*\* #1 has waited 4 h 5 min in `state:ready-for-review`/);
    const bodies = gh.state.pull(pr.number).comments.map((id) => gh.state.comments.get(id).body);
    assert.equal(bodies.length, 1, "only the highest level reached fires, not a backlog");
    assert.match(bodies[0], /level=240 -->\n\*\*Stop the line\.\*\* @alice @bob:/);

    const second = await run();
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(second.outputs.writes, "0", "nothing changed: nothing written");
    assert.equal(second.outputs["stop-the-line"], "true", "still stopped while it waits");
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await gh.settle();
    gh.server.closeAllConnections?.();
    await new Promise((resolve) => gh.server.close(resolve));
  }
});
