// The demo's merge queue: a small queued board on the emulator with real git and the CI simulator (a
// Merge-After graph, a stack of two, a real conflict, main moved under all of them), and the worker
// (runQueue, the code `prflow queue` and the Action's queue mode run) landing them one at a time. It prints
// what the worker did and why, stamped with the emulator's clock, then what landed in which order, the CI
// runs each landed head cost, and the set-aside comment on the conflict.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue } from "../../lib/queue/worker.js";
import { createEngine } from "../../js/node.js";

const QUEUED = ["merge-queued", "skip-ci"];

/** The queued board; returns the pull requests by role. */
export function seedQueueBoard(gh) {
  // Head branches deleted on merge, so GitHub moves a stacked layer onto main when the one below merges.
  gh.setRepoSettings({ allowAutoMerge: true, deleteBranchOnMerge: true });
  gh.setRequiredChecks(["ci", "no-skip-ci-label"], { strict: true });
  gh.ci.register({
    name: "CI",
    jobs: [
      { name: "test", minutes: 4 },
      { name: "lint", minutes: 2 },
    ],
    aggregate: "ci",
    guard: "no-skip-ci-label",
  });
  const open = (title, extra) => gh.createPull({ title, author: "agent-cast", labels: QUEUED, ...extra });
  const parser = open("the parser rewrite", { head: "agent/parser", files: ["src/parser.rs"] });
  const fast = open("the parser's fast path (stacked on the rewrite)", {
    head: "agent/parser-fast",
    base: "agent/parser",
    files: ["src/fast.rs"],
  });
  const docs = open("the parser's docs", {
    head: "agent/parser-docs",
    files: ["docs/parser.md"],
    body: `Documents the new parser.\n\nMerge-After: #${parser.number}`,
  });
  const changelog = open("the changelog for the release", {
    head: "agent/changelog",
    files: ["CHANGELOG.md"],
    body: `Merge-After: #${docs.number}, #${fast.number}`,
  });
  const rename = open("rename the config keys", { head: "agent/rename", files: ["src/config.rs"], conflicting: true });
  // Someone else's merge: every branch is behind main now.
  gh.moveBranch("main");
  gh.clock.advance({ minutes: 5 });
  return { parser, fast, docs, changelog, rename };
}

/** Runs the worker until every landable pull request merged; prints as it goes. `print` takes one line. */
export async function runQueueDemo({ print = console.log } = {}) {
  const gh = await startEmulator({ git: true, seed: "demo-queue" });
  const start = gh.clock.now();
  const stateDir = mkdtempSync(join(tmpdir(), "prflow-demo-queue-"));
  try {
    const prs = seedQueueBoard(gh);
    const title = new Map(Object.values(prs).map((p) => [p.number, p.title]));
    print(`a queue of ${title.size} pull requests, all labelled merge-queued + skip-ci and behind main:`);
    for (const [n, t] of title) {
      const pr = gh.state.pull(n);
      const how =
        pr.baseRef !== "main"
          ? `stacked on ${pr.baseRef}`
          : (/Merge-After: (.*)/.exec(pr.body ?? "")?.[0] ?? (n === prs.rename.number ? "conflicts with main" : ""));
      print(`  #${n}  ${t}${how ? `  (${how})` : ""}`);
    }
    print("");
    const since = gh.requests.length;
    // Waits scaled as the emulator runs the Action (PRFLOW_TIME_SCALE): the client's spacing between writes too.
    const octokit = makeOctokit({
      token: gh.personalToken,
      baseUrl: gh.url,
      graphqlUrl: gh.graphqlUrl,
      timeScale: 0.001,
    });
    const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir });
    const landable = [prs.parser, prs.fast, prs.docs, prs.changelog].map((p) => p.number);
    const order = [];
    const clock = () => {
      const s = Math.round((gh.clock.now() - start) / 1000);
      return `+${String(Math.floor(s / 3600)).padStart(2, "0")}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
    };
    let steps = 0;
    const setAside = () =>
      gh.state
        .pull(prs.rename.number)
        .comments.map((id) => gh.state.comments.get(id).body)
        .find((b) => b.startsWith("<!-- prflow:set-aside"));
    await runQueue({
      gh: { octokit, owner: gh.owner, repo: gh.repo },
      g,
      engine: createEngine(),
      options: { dryRun: false, autoFix: true, activeInterval: 30, idleAfter: 10, idleInterval: 300, pollInterval: 30 },
      log: (line) => {
        // The re-reads while GitHub computes a merge state say the same thing six times: shown once.
        if (/UNKNOWN: GitHub is still computing/.test(line) && !/\(1 of/.test(line)) return;
        print(`[${clock()}] ${line}`);
      },
      // Waiting is the emulator's clock moving: CI jobs finish and auto-merge merges on the way.
      sleep: async (ms) => gh.clock.advance(ms),
      stopWhen: () => {
        for (const n of landable) if (gh.state.pull(n).merged && !order.includes(n)) order.push(n);
        return (order.length === landable.length && Boolean(setAside())) || ++steps > 200;
      },
    });
    const c = gh.counts({ since });
    print("");
    print(`landed, in this order: ${order.map((n) => `#${n}`).join(", ")}  (${clock().slice(1)} of GitHub's time)`);
    for (const n of order) {
      const head = gh.state.pull(n).headSha;
      const runs = gh.ci.usage({ number: n }).heads[head]?.runs ?? 0;
      print(`  #${n} ${title.get(n)}: ${runs} CI run${runs === 1 ? "" : "s"} on the head that merged`);
    }
    const comment = setAside();
    if (comment) {
      print(
        `set aside: #${prs.rename.number} ${title.get(prs.rename.number)}, with this comment (a fixer or a person takes it from here):`,
      );
      // Its sentence, the files, what clears it and the Retry box; the folded git output left out.
      let fenced = false;
      const shown = comment
        .split("\n")
        .slice(1)
        .filter((l) => {
          if (l.startsWith("```")) return (fenced = !fenced) && false;
          return !fenced && l.trim() && !/^<\/?(details|summary)/.test(l);
        });
      for (const line of shown) print(`  | ${line}`);
    }
    const git = Object.entries(c.byOperation)
      .filter(([k]) => / git /.test(k))
      .reduce((s, [, v]) => s + v, 0);
    const ran = gh.ci.runs.filter((r) => !r.skipped).length;
    print(
      `the worker's use of GitHub: ${c.total - git} API requests (${c.graphql} GraphQL, ${c.rest - git} REST), ${git} git requests; ${ran} CI runs ran jobs in all (the pushes under skip-ci skipped theirs)`,
    );
    if (gh.validationFailures.length)
      print(`!! ${gh.validationFailures.length} requests did not match GitHub's descriptions`);
    return { order, setAside: Boolean(comment), landable };
  } finally {
    await gh.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
