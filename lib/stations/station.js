// The review station's resident loop (`prflow station <machine>`): claim, fetch the diff, run the AI
// command with the review prompt as its argument and the diff on standard input, and write what the
// engine makes of its output (`stationReview`: a COMMENT review, and `/changes` when the first line
// starts with BLOCKING). The AI can bounce a pull request; it can never approve one: the review op has
// no event, and the writer table's is hard-wired to COMMENT.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { claimNext } from "./claim.js";

export const DEFAULT_PROMPT = new URL("../../prompts/review.md", import.meta.url);

/** Runs `command` through the shell with the prompt as "$PRFLOW_PROMPT" (its first argument) and the diff on stdin. */
export function runAi(command, prompt, diff, { env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `${command} "$PRFLOW_PROMPT"`], {
      env: { ...env, PRFLOW_PROMPT: prompt },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`AI command exited ${code}: ${err.trim().slice(0, 500)}`)),
    );
    child.stdin.on("error", () => {}); // a command that does not read the diff closes stdin early
    child.stdin.end(diff);
  });
}

/**
 * One pass of the loop. Returns { line, number, blocking } — `line` is the claim's line, so a caller
 * can tell "claimed and reviewed" from `wip-full` / `queue-empty`.
 */
export async function stationPass({ engine, machine, port, ai, prompt, settleMs, log = () => {}, sleep }) {
  const {
    line,
    result,
    claimed: number,
  } = await claimNext({ engine, role: "review", machine, port, settleMs, log, sleep });
  if (number === null) return { line, number: null, blocking: false };
  const diff = await port.fetchDiff(number);
  const output = await runAi(ai, prompt, diff);
  const review = engine.stationReview({ number, head: result?.head ?? "", output });
  const results = await port.apply(review.ops);
  const stale = results.find((r) => r.outcome === "guard-failed");
  log(stale ? `#${number}: the review was not posted: ${stale.detail}` : review.why);
  return { line, number, blocking: review.blocking && !stale, why: result?.why };
}

/** The loop: a pass, then a pause when there was nothing to claim. `once` stops after one pass. */
export async function stationLoop({
  once = false,
  intervalMs = 300_000,
  sleep = (ms) => new Promise((r) => setTimeout(r, ms)),
  ...rest
}) {
  for (;;) {
    let pass;
    try {
      pass = await stationPass({ ...rest, sleep });
    } catch (e) {
      if (once || e?.fatal) throw e;
      rest.log?.(`pass failed: ${e.message}`);
      pass = { line: "error" };
    }
    if (once) return pass;
    if (!pass.number) await sleep(intervalMs);
  }
}

export function loadPrompt(path) {
  return readFileSync(path ?? DEFAULT_PROMPT, "utf8");
}
