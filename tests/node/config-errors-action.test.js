// A config with three mistakes reports all three through the bundled Action run as a workflow runs it,
// on the emulator (issue 11): each with its JSON path and plain words, the run fails, nothing is written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../../emulator/index.js";
import { seedBoard } from "../../scripts/lib/seed-emulator.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BAD = { queue: { watch: { timeoutMinutes: -5 } }, labels: { draft: 3 }, nonsense: true };

for (const mode of ["reconcile", "labels", "sweep"]) {
  test(`action (${mode}): a config with three mistakes names all three and writes nothing`, async () => {
    const em = await startEmulator();
    try {
      seedBoard(em, 3);
      const ws = mkdtempSync(join(tmpdir(), "prflow-ws-"));
      mkdirSync(join(ws, ".github"));
      writeFileSync(join(ws, ".github/prflow.json"), JSON.stringify(BAD));
      const labelsOf = () =>
        JSON.stringify([[...em.state.labels.keys()], [...em.state.pulls.values()].map((p) => p.labels)]);
      const before = labelsOf();
      const r = await em.runAction({
        actionPath: ROOT,
        event: "schedule",
        payload: { schedule: "17,47 * * * *" },
        inputs: { mode, live: "true" },
        workspace: ws,
      });
      assert.notEqual(r.code, 0, "the run fails");
      const errors = r.stdout.split("\n").filter((l) => l.startsWith("::error"));
      const said = errors.join("\n");
      assert.match(said, /\$\.queue\.watch\.timeoutMinutes[^\n]*a whole number of minutes, at least 0/, said);
      assert.match(said, /\$\.labels\.draft[^\n]*a string/, said);
      assert.match(said, /\$\.nonsense/, said);
      assert.equal(labelsOf(), before, "no label was created or written");
    } finally {
      await em.settle();
      em.server.closeAllConnections?.();
      await new Promise((resolve) => em.server.close(resolve));
    }
  });
}
