//! Upserts the repository labels a config uses (the engine's catalogue). The engine compares the
//! catalogue with the labels read (`labelSync`: create the missing, update colour and description where
//! they differ, never delete, report the tool's own labels the config no longer uses); the writer table
//! writes its ops.
import { applyOps } from "./write.js";

/** All labels of a repository (REST, 100 a page). */
export async function listLabels(octokit, { owner, repo }) {
  const out = [];
  for (let page = 1; ; page++) {
    const res = await octokit.request("GET /repos/{owner}/{repo}/labels", { owner, repo, per_page: 100, page });
    out.push(...res.data);
    if (res.data.length < 100) return out;
  }
}

/**
 * `decide(existing)` is the engine's `labelSync` for the labels read. Returns { results: [{name, color,
 * description, status, detail}], unused: [name] } with status created | updated | unchanged |
 * would create | would update | failed.
 */
export async function syncLabels(octokit, { owner, repo, decide, live = false, log = () => {} }) {
  const existing = (await listLabels(octokit, { owner, repo })).map((l) => ({
    name: l.name,
    color: l.color,
    description: l.description ?? null,
  }));
  const sync = decide(existing);
  const written = await applyOps(octokit, sync.ops, { owner, repo, live, log });
  // Rows that change carry one op each, in the same order.
  let next = 0;
  const results = sync.rows.map(({ name, color, description, change, detail }) => {
    const row = { name, color, description };
    if (change === "invalid") return { ...row, status: "failed", detail };
    if (change === "unchanged") return { ...row, status: "unchanged", detail: "" };
    const r = written[next++];
    const word = change === "create" ? "create" : "update";
    if (r.outcome === "dry-run") return { ...row, status: `would ${word}`, detail: change === "update" ? detail : "" };
    if (r.outcome === "applied") return { ...row, status: `${word}d`, detail: change === "update" ? detail : "" };
    return { ...row, status: "failed", detail: r.detail };
  });
  return { results, unused: sync.unused };
}
