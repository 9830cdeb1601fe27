// Every benchmark the README quotes, one after another in one command (`npm run bench:all`), so the
// README's figures come from one run: the engine (bench.mjs), the API requests (bench-api.mjs), the
// scaling of the queue's triage and the dashboard in dependency members (bench-scale.mjs), the worker's CI runs per landed pull request beside
// update-every-branch (bench-queue-ci.mjs), its reads per cycle and per hour (bench-queue-budget.mjs) and, when Debian's chromium is installed, the
// dashboard page in a browser (bench-page.mjs).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const scripts = ["bench.mjs", "bench-api.mjs", "bench-scale.mjs", "bench-queue-ci.mjs", "bench-queue-budget.mjs"];
if (existsSync("/usr/bin/chromium")) scripts.push("bench-page.mjs");
else console.log("bench-page.mjs skipped: no /usr/bin/chromium\n");
let failed = 0;
for (const script of scripts) {
  console.log(`\n== ${script}\n`);
  const r = spawnSync(process.execPath, [new URL(script, import.meta.url).pathname], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
