// The simulations page (page/sim.html): runs `review` or `queue` in the engine's Wasm, as `prflow sim`
// does, and shows the same text and the same SVG plots the build writes into docs/. A run without a
// seed draws one (engine.drawSeed, the browser's crypto) and writes it into the form, so a reload with
// that seed replays the run.
import { load } from "../../js/web.js";
import { landingsSvg, queueText, reviewText, sweepSvg, waitsSvg } from "../../lib/sim-view.js";

const $ = (id) => document.getElementById(id);
let engine;

async function engineOnce() {
  if (!engine) {
    // The simulations' own build of the engine (scripts/build.sh), not the dashboard's.
    const res = await fetch(new URL("sim_bg.wasm", document.baseURI));
    if (!res.ok) throw new Error(`sim_bg.wasm: HTTP ${res.status}`);
    engine = await load(await res.arrayBuffer());
  }
  return engine;
}

/** The parameters from the form: the JSON text, then the seed field over it. */
function formParams(eng) {
  let params;
  try {
    params = JSON.parse($("params").value || "{}");
  } catch (e) {
    throw new Error(`parameters: not valid JSON (${e.message})`);
  }
  if (!params || typeof params !== "object" || Array.isArray(params))
    throw new Error("parameters: expected a JSON object");
  const seedText = $("seed").value.trim();
  if (seedText !== "") {
    if (!/^\d+$/.test(seedText) || Number(seedText) > 0xffffffff)
      throw new Error(`seed: expected a whole number from 0 to 4294967295, found ${JSON.stringify(seedText)}`);
    params.seed = Number(seedText);
  } else if (params.seed === undefined) {
    params.seed = eng.drawSeed();
    $("seed").value = String(params.seed);
  }
  return params;
}

async function run(event) {
  event?.preventDefault();
  $("error").textContent = "";
  document.body.dataset.state = "running";
  try {
    $("status").textContent = "loading the engine";
    const eng = await engineOnce();
    const kind = $("kind").value;
    const params = formParams(eng);
    $("status").textContent = `running ${kind} with seed ${params.seed}`;
    // Let the status paint before the run holds the main thread.
    await new Promise((r) => setTimeout(r, 0));
    const sims = eng.createEngine();
    const report = kind === "review" ? sims.simReview(params) : sims.simQueue(params);
    const svgs = kind === "review" ? [waitsSvg(report), sweepSvg(report)] : [landingsSvg(report)];
    // Our own SVG: every text in it is escaped by lib/sim-view.js, every number comes from the engine.
    $("plots").innerHTML = svgs.join("\n");
    $("text").textContent = kind === "review" ? reviewText(report) : queueText(report);
    $("status").textContent = `${kind}, seed ${report.seed}`;
    document.body.dataset.state = "done";
  } catch (e) {
    $("error").textContent = e.message;
    $("status").textContent = "";
    document.body.dataset.state = "error";
  }
  document.dispatchEvent(new CustomEvent("prflow:sim-rendered"));
}

$("form").addEventListener("submit", run);
