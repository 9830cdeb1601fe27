//! Upserts the repository labels a config uses (the engine's catalogue): creates the missing, updates
//! colour and description where they differ, never deletes. Labels prflow made (their description
//! carries the owner mark) that the config no longer uses are reported as `unused`.

/** GitHub rejects a label description longer than this. */
export const MAX_LABEL_DESCRIPTION = 100;
const COLOR = /^[0-9a-fA-F]{6}$/;

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
 * `wanted`: [{name, color, description}]. Returns { results: [{name, color, description, status, detail}],
 * unused: [name] } with status created | updated | unchanged | would create | would update | failed.
 */
export async function syncLabels(octokit, { owner, repo, wanted, live = false, ownerMark = "prflow", log = () => {} }) {
  const existing = await listLabels(octokit, { owner, repo });
  const byName = new Map(existing.map((l) => [l.name.toLowerCase(), l]));
  const results = [];
  for (const want of wanted) {
    const row = { name: want.name, color: want.color, description: want.description ?? "" };
    const problem = labelProblem(want);
    if (problem) {
      results.push({ ...row, status: "failed", detail: problem });
      continue;
    }
    const have = byName.get(want.name.toLowerCase());
    try {
      if (!have) {
        if (live) await octokit.request("POST /repos/{owner}/{repo}/labels", { owner, repo, name: want.name, color: want.color, description: row.description });
        results.push({ ...row, status: live ? "created" : "would create", detail: "" });
        continue;
      }
      const diffs = [];
      if (have.name !== want.name) diffs.push(`name ${have.name} → ${want.name}`);
      if (have.color.toLowerCase() !== want.color.toLowerCase()) diffs.push(`colour ${have.color} → ${want.color}`);
      if ((have.description ?? "") !== row.description) diffs.push("description");
      if (!diffs.length) {
        results.push({ ...row, status: "unchanged", detail: "" });
        continue;
      }
      if (live) {
        await octokit.request("PATCH /repos/{owner}/{repo}/labels/{name}", {
          owner, repo, name: have.name, new_name: want.name, color: want.color, description: row.description,
        });
      }
      results.push({ ...row, status: live ? "updated" : "would update", detail: diffs.join(", ") });
    } catch (e) {
      const detail = `${e.status ? `${e.status} ` : ""}${e.message}`;
      log(`label ${want.name}: ${detail}`);
      results.push({ ...row, status: "failed", detail });
    }
  }
  const wantedNames = new Set(wanted.map((w) => w.name.toLowerCase()));
  const mark = new RegExp(`\\b${ownerMark.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i");
  const unused = existing.filter((l) => !wantedNames.has(l.name.toLowerCase()) && mark.test(l.description ?? "")).map((l) => l.name);
  return { results, unused };
}

/** Why GitHub would refuse this label, or null. */
export function labelProblem({ name, color, description }) {
  if (!name || name.length > 50) return `name must be 1 to 50 characters, found ${JSON.stringify(name ?? "")}`;
  if (!COLOR.test(color ?? "")) return `color must be six hex digits without #, found ${JSON.stringify(color ?? "")}`;
  const n = [...(description ?? "")].length;
  if (n > MAX_LABEL_DESCRIPTION) return `description is ${n} characters; GitHub allows at most ${MAX_LABEL_DESCRIPTION}`;
  return null;
}
