// A deterministic board of N pull requests in mixed states (3 reviews and 10 check runs each): the
// benchmarks' board (scripts/lib/bench-snapshot.mjs), and the dashboard page's warm-up, which asks the
// engine about it while the real facts are still on the network, because a browser runs a Wasm
// function from quickly compiled code until it is hot and only then compiles it well.
export const bots = ["claude-bot", "codex-bot", "gemini-bot"];

/** A deterministic snapshot: every PR has 3 reviews and 10 check runs, in mixed states. */
export function sampleBoard(n) {
  let seed = 42;
  const rand = (k) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
  const at = (m) => new Date(Date.UTC(2026, 10, 30, 12) - m * 60_000).toISOString().replace(".000", "");
  const pulls = [];
  for (let i = 1; i <= n; i++) {
    const head = `h${i.toString(16).padStart(7, "0")}`;
    pulls.push({
      number: i,
      title: `Change ${i}`,
      author: `agent-${i % 7}`,
      isDraft: rand(10) === 0,
      createdAt: at(600 + rand(5000)),
      headSha: head,
      mergeable: ["MERGEABLE", "MERGEABLE", "MERGEABLE", "CONFLICTING", "UNKNOWN"][rand(5)],
      labels: [["state:addressing", "state:needs-human", "state:bots-reviewing"][rand(3)]],
      reviews: bots.map((b, k) => ({
        author: b,
        state: ["APPROVED", "APPROVED", "COMMENTED", "CHANGES_REQUESTED"][rand(4)],
        commit: rand(4) === 0 ? "old" : head,
        submittedAt: at(100 + k),
      })),
      reviewRequests: rand(6) === 0 ? [bots[rand(3)]] : [],
      checks: Array.from({ length: 10 }, (_, k) => ({
        name: `job-${k}`,
        workflow: k < 5 ? "ci" : "lint",
        status: rand(12) === 0 ? "IN_PROGRESS" : "COMPLETED",
        conclusion: ["SUCCESS", "SUCCESS", "SUCCESS", "SKIPPED", "NEUTRAL", "FAILURE", "CANCELLED"][rand(7)],
        startedAt: at(50 + k),
        id: i * 100 + k,
      })),
      files: [`src/mod${i % 13}.rs`, rand(3) === 0 ? "docs/guide.md" : `tests/t${i % 5}.rs`],
      timeline: [{ kind: "committed", at: at(90) }],
    });
  }
  return { now: "2026-11-30T12:00:00Z", viewer: "prflow-bot", labels: [], unknown: ["labels"], pullRequests: pulls };
}
