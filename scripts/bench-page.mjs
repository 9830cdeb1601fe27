// The dashboard page's drawing cost in a real browser: 500 pull requests (or the counts given) seeded on
// the emulator, the built page (page/dist) opened in Debian's chromium, and the script time from the
// last API response to the page's `prflow:rendered` (the engine's dashboard() plus drawing), printed
// per run with the engine's and the drawing's own shares (the page's performance measures), and the
// time to the first frame after it (layout and paint of what was drawn). `--dist DIR` benchmarks
// another build of the page; `--against DIR` also runs that build (e.g. an older one), its runs
// interleaved with the first's in the same browser on the same board, and prints each one's median
// and their ratio (a shared, noisy machine moves both alike). `--runs N` (default 3). Beside the wall
// times, the whole load's main-thread CPU time and tasks' time (Chromium's Performance counters, from
// the click to the first frame): less moved by a loaded machine than wall time.
// Goal: 200 ms for 500. Build the page first (node page/build.mjs page/dist pkg).
//   npm run bench:page [-- 500 1000] [-- --against /tmp/old-dist --runs 7]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { startEmulator } from "../emulator/index.js";
import { seedBoard } from "./lib/seed-emulator.mjs";
import { servePage } from "./lib/serve-page.mjs";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const dist = option("--dist");
const against = option("--against");
const RUNS = Number(option("--runs") ?? 3);
const sizes = args.map(Number).filter((n) => n > 0);
const SIZES = sizes.length ? sizes : [500];
const TOKEN = "ghp_benchPageReaderToken00000000000000000";
const config = readFileSync(new URL("../examples/prflow.json", import.meta.url), "utf8");

const profile = mkdtempSync(join(tmpdir(), "prflow-bench-chromium-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
// Each build served on its own origin: [name, server].
const builds = [["this", await servePage(dist)], ...(against ? [["against", await servePage(against)]] : [])];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const n of SIZES) {
    const em = await startEmulator({ owner: "acme", repo: "widgets" });
    try {
      seedBoard(em, n);
      em.registerToken(TOKEN, "maintainer");
      em.setFile(".github/prflow.json", config);
      const times = new Map(
        builds.map(([name]) => [name, { ms: [], engine: [], draw: [], readers: [], frame: [], cpu: [], tasks: [] }]),
      );
      for (let run = 0; run < RUNS; run++)
        for (const [name, page] of builds) {
          const tab = await browser.newPage();
          await tab.setViewportSize({ width: 1400, height: 900 });
          await tab.addInitScript((api) => {
            window.__done = new Promise((resolve) => {
              document.addEventListener("prflow:confirm", () => document.getElementById("confirm-api-yes").click());
              const end = (outcome) => () => {
                // The facts have arrived when the last API response has; what follows is the page's script.
                const last = Math.max(
                  ...performance
                    .getEntriesByType("resource")
                    .filter((e) => e.name.startsWith(api))
                    .map((e) => e.responseEnd),
                );
                // The page's own measures after the last response: the engine's dashboard() (earlier rounds'
                // answers, while reads were still named, came before it) and drawing (its layout comes after).
                const after = (name) => performance.getEntriesByName(name).filter((m) => m.startTime >= last);
                const measured = (name) => after(name).reduce((sum, m) => sum + m.duration, 0);
                const engineMs = measured("prflow engine");
                const drawMs = measured("prflow draw");
                // From the last response to the engine's last view: what lib/github makes of the answers.
                const readerMs = Math.max(
                  0,
                  (after("prflow engine")[0]?.startTime ??
                    performance.getEntriesByName("prflow facts read").at(-1)?.startTime ??
                    last) - last,
                );
                // After the event: one frame, so the layout and paint of what was drawn are counted too.
                const ms = performance.now() - last;
                requestAnimationFrame(() =>
                  setTimeout(
                    () =>
                      resolve({
                        outcome,
                        ms,
                        frameMs: performance.now() - last,
                        engineMs,
                        drawMs,
                        readerMs,
                        rows: document.querySelectorAll("#view tr.row, #pulls tbody tr").length,
                      }),
                    0,
                  ),
                );
              };
              document.addEventListener("prflow:rendered", end("rendered"));
              document.addEventListener("prflow:failed", (e) => resolve({ outcome: `failed: ${e.detail}` }));
            });
          }, em.url);
          await tab.goto(`${page.url}/index.html?repo=acme/widgets&api=${encodeURIComponent(em.url)}`);
          await tab.fill("#token", TOKEN);
          // The renderer's own counters (Chromium's Performance domain) around the whole load, from the
          // click to the frame after the event: its main thread's CPU time (ThreadTime), which a loaded
          // machine inflates far less than wall time, and its tasks' wall time. (ScriptDuration is left out: it
          // misses the promise continuations the page's script mostly runs in.)
          const cdp = await browser.newCDPSession(tab);
          await cdp.send("Performance.enable");
          const counters = async () =>
            Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
          const before = await counters();
          await tab.click("button[type=submit]");
          const r = await tab.evaluate(() => window.__done);
          const spent = await counters();
          for (const k of ["ThreadTime", "TaskDuration"]) r[k] = (spent[k] - before[k]) * 1000;
          await cdp.detach();
          await tab.close();
          if (r.outcome !== "rendered") throw new Error(`the page ${r.outcome}`);
          const t = times.get(name);
          t.ms.push(r.ms);
          t.engine.push(r.engineMs);
          t.draw.push(r.drawMs);
          t.readers.push(r.readerMs);
          t.frame.push(r.frameMs);
          t.cpu.push(r.ThreadTime);
          t.tasks.push(r.TaskDuration);
          console.log(
            `${builds.length > 1 ? `[${name}] ` : ""}${n} pull requests (${r.rows} rows drawn), run ${run + 1}: ${r.ms.toFixed(0)} ms of script after the facts arrived (readers ${r.readerMs.toFixed(0)} ms, engine ${r.engineMs.toFixed(0)} ms, drawing ${r.drawMs.toFixed(0)} ms); ${r.frameMs.toFixed(0)} ms to the first frame; whole load: main thread CPU ${r.ThreadTime.toFixed(0)} ms, tasks ${r.TaskDuration.toFixed(0)} ms`,
          );
        }
      for (const [name, t] of times) {
        const m = median(t.ms);
        console.log(
          `${builds.length > 1 ? `[${name}] ` : ""}${n} pull requests: median ${m.toFixed(0)} ms (readers ${median(t.readers).toFixed(0)}, engine ${median(t.engine).toFixed(0)}, drawing ${median(t.draw).toFixed(0)}; first frame ${median(t.frame).toFixed(0)}; whole load: main thread CPU ${median(t.cpu).toFixed(0)}, tasks ${median(t.tasks).toFixed(0)}), ${(m / 200).toFixed(2)}x the goal of 200 ms for 500`,
        );
      }
      if (against) {
        const [a, b] = [times.get("this"), times.get("against")];
        const ratio = (k) => (median(a[k]) / median(b[k])).toFixed(2);
        console.log(
          `${n} pull requests: this build / --against: ${ratio("ms")}x the script time (readers ${ratio("readers")}x, engine ${ratio("engine")}x, drawing ${ratio("draw")}x; first frame ${ratio("frame")}x; whole load: main thread CPU ${ratio("cpu")}x, tasks ${ratio("tasks")}x)`,
        );
      }
    } finally {
      await em.close();
    }
  }
} finally {
  await browser.close();
  for (const [, page] of builds) await page.close();
  rmSync(profile, { recursive: true, force: true });
}
