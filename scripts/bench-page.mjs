// The dashboard page's drawing cost in a real browser: 500 pull requests (or the counts given) seeded on
// the emulator, the built page (page/dist) opened in Debian's chromium, and the script time from the
// last API response to the page's `prflow:rendered` (the engine's dashboard() plus drawing), printed
// per run with the engine's and the drawing's own shares (the page's performance measures), and the
// time to the first frame after it (layout and paint of what was drawn). `--dist DIR` benchmarks
// another build of the page (e.g. an older one, for a before/after). Goal: 200 ms for 500. Build the page first (bash scripts/build.sh).
//   npm run bench:page [-- 500 1000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { startEmulator } from "../emulator/index.js";
import { seedBoard } from "./lib/seed-emulator.mjs";
import { servePage } from "./lib/serve-page.mjs";

const args = process.argv.slice(2);
const distAt = args.indexOf("--dist");
const dist = distAt >= 0 ? args.splice(distAt, 2)[1] : undefined;
const sizes = args.map(Number).filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [500];
const RUNS = 3;
const TOKEN = "ghp_benchPageReaderToken00000000000000000";
const config = readFileSync(new URL("../examples/prflow.json", import.meta.url), "utf8");

const profile = mkdtempSync(join(tmpdir(), "prflow-bench-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const page = await servePage(dist);
try {
  for (const n of SIZES) {
    const em = await startEmulator({ owner: "acme", repo: "widgets" });
    try {
      seedBoard(em, n);
      em.registerToken(TOKEN, "maintainer");
      em.setFile(".github/prflow.json", config);
      const times = [];
      for (let run = 0; run < RUNS; run++) {
        const tab = await browser.newPage();
        await tab.setViewportSize({ width: 1400, height: 900 });
        await tab.addInitScript((api) => {
          window.__done = new Promise((resolve) => {
            document.addEventListener("prflow:confirm", () => document.getElementById("confirm-api-yes").click());
            const end = (outcome) => () => {
              // The facts have arrived when the last API response has; what follows is the page's script.
              const last = Math.max(...performance.getEntriesByType("resource").filter((e) => e.name.startsWith(api)).map((e) => e.responseEnd));
              const measured = (name) => performance.getEntriesByName(name).reduce((sum, m) => sum + m.duration, 0);
              // The page's own measures: the engine's dashboard() and drawing (its layout comes after).
              const engineMs = measured("prflow engine");
              const drawMs = measured("prflow draw");
              // From the last response to the readers' return: what lib/github makes of the answers.
              const readerMs = Math.max(0, (performance.getEntriesByName("prflow facts read").at(-1)?.startTime ?? last) - last);
              // After the event: one frame, so the layout and paint of what was drawn are counted too.
              const ms = performance.now() - last;
              requestAnimationFrame(() => setTimeout(() => resolve({ outcome, ms, frameMs: performance.now() - last, engineMs, drawMs, readerMs, rows: document.querySelectorAll("#view tr.row, #pulls tbody tr").length }), 0));
            };
            document.addEventListener("prflow:rendered", end("rendered"));
            document.addEventListener("prflow:failed", (e) => resolve({ outcome: `failed: ${e.detail}` }));
          });
        }, em.url);
        await tab.goto(`${page.url}/index.html?repo=acme/widgets&api=${encodeURIComponent(em.url)}`);
        await tab.fill("#token", TOKEN);
        await tab.click("button[type=submit]");
        const r = await tab.evaluate(() => window.__done);
        await tab.close();
        if (r.outcome !== "rendered") throw new Error(`the page ${r.outcome}`);
        times.push(r.ms);
        console.log(`${n} pull requests (${r.rows} rows drawn), run ${run + 1}: ${r.ms.toFixed(0)} ms of script after the facts arrived (readers ${r.readerMs.toFixed(0)} ms, engine ${r.engineMs.toFixed(0)} ms, drawing ${r.drawMs.toFixed(0)} ms); ${r.frameMs.toFixed(0)} ms to the first frame`);
      }
      const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
      console.log(`${n} pull requests: median ${median.toFixed(0)} ms (goal 200 ms for 500)`);
    } finally {
      await em.close();
    }
  }
} finally {
  await browser.close();
  await page.close();
  rmSync(profile, { recursive: true, force: true });
}
