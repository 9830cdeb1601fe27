// The review station's resident loop (`prflow station <machine>`): claim, fetch the diff, run the AI
// command with the review prompt as its argument and the diff on standard input, post the output as a
// COMMENT review, and when its first line starts with BLOCKING, comment `/changes` so the pull request
// goes back to its author. The AI can bounce a pull request; it can never approve one: the port's
// review call has the event hard-wired to COMMENT and nothing here names another.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { claimNext } from "./claim.js";

export const BLOCKING = "BLOCKING";
export const CHANGES_COMMAND = "/changes";
export const DEFAULT_PROMPT = new URL("../../prompts/review.md", import.meta.url);
/** The AI's output is cut here before it is posted (GitHub's body limit is 65,536 characters). */
export const MAX_REVIEW_CHARS = 60_000;

/** Runs `command` through the shell with the prompt as "$PRFLOW_PROMPT" (its first argument) and the diff on stdin. */
export function runAi(command, prompt, diff, { env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", `${command} "$PRFLOW_PROMPT"`], { env: { ...env, PRFLOW_PROMPT: prompt }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`AI command exited ${code}: ${err.trim().slice(0, 500)}`))));
    child.stdin.on("error", () => {}); // a command that does not read the diff closes stdin early
    child.stdin.end(diff);
  });
}

/** Whether the review bounces the pull request: its first line starts with BLOCKING. */
export function isBlocking(review) {
  return review.replace(/^\s+/, "").split("\n", 1)[0].startsWith(BLOCKING);
}

/**
 * One pass of the loop. Returns { line, number, blocking } — `line` is the claim's line, so a caller
 * can tell "claimed and reviewed" from `wip-full` / `queue-empty`.
 */
export async function stationPass({ engine, machine, port, ai, prompt, settleMs, log = () => {}, sleep }) {
  const { line, result } = await claimNext({ engine, role: "review", machine, port, settleMs, log, sleep });
  const m = /^claim #(\d+)$/.exec(line);
  if (!m) return { line, number: null, blocking: false };
  const number = Number(m[1]);
  const diff = await port.fetchDiff(number);
  const output = (await runAi(ai, prompt, diff)).slice(0, MAX_REVIEW_CHARS);
  const body = output.trim() || "(the AI first pass produced no text)";
  await port.postReview(number, body);
  const blocking = isBlocking(body);
  if (blocking) await port.postComment(number, CHANGES_COMMAND);
  log(blocking ? `#${number}: first pass BLOCKING, sent ${CHANGES_COMMAND}` : `#${number}: first pass done; waits for a person`);
  return { line, number, blocking, why: result?.why };
}

/** The loop: a pass, then a pause when there was nothing to claim. `once` stops after one pass. */
export async function stationLoop({ once = false, intervalMs = 300_000, sleep = (ms) => new Promise((r) => setTimeout(r, ms)), ...rest }) {
  for (;;) {
    let pass;
    try {
      pass = await stationPass({ ...rest, sleep });
    } catch (e) {
      if (once) throw e;
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
