// Two fixer stations race for one set-aside pull request, 100 rounds on the emulator: each reads the
// board, picks, writes its claim and reads it back (claimNextFix, what `prflow fixer` runs). Exactly one
// reads itself back as the holder each round, and it is the holder every later read sees: the oldest
// holding claim wins, and a claim is always a new comment.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as prflow from "../../js/node.js";
import { startEmulator, PERSONAL_TOKEN } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { loadConfig } from "../../lib/config-file.js";
import { claimNextFix, readFactsFor } from "../../lib/queue/agents.js";
import { PRESET_CONFIG } from "./lib/cli.js";

const ROUNDS = 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test(`two fixers race for one set-aside pull request: exactly one holds it, ${ROUNDS} rounds`, async () => {
  const gh = await startEmulator({ owner: "acme", repo: "widgets", seed: "agents-race" });
  try {
    gh.clock.set("2026-11-30T09:00:00Z");
    const { engine } = loadConfig(prflow, PRESET_CONFIG);
    const ctx = () => ({
      engine,
      octokit: makeOctokit({ token: PERSONAL_TOKEN, baseUrl: gh.url, graphqlUrl: gh.graphqlUrl, timeScale: 0.001 }),
      owner: "acme",
      repo: "widgets",
      log: () => {},
    });
    const fixers = { "fixer-a": ctx(), "fixer-b": ctx() };
    // A deterministic jitter, so rounds interleave differently but a failure reproduces.
    let seed = 7;
    const jitter = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % 25);
    let bothWrote = 0;
    const wins = { "fixer-a": 0, "fixer-b": 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const pr = gh.createPull({
        title: `round ${round}`,
        head: `agent/r${round}`,
        labels: ["merge-queued", "skip-ci"],
      });
      gh.comment(pr.number, {
        author: "acme",
        body: `<!-- prflow:set-aside reason=rebase-failed head=${pr.headSha} base=x -->\nset aside\n\n- [ ] Retry`,
      });
      const results = await Promise.all(
        Object.entries(fixers).map(async ([name, c]) => {
          await sleep(jitter());
          const { pick, claimed } = await claimNextFix(c, name);
          return { name, number: pick.number, won: Boolean(claimed?.won) };
        }),
      );
      const winners = results.filter((r) => r.won && r.number === pr.number);
      assert.equal(winners.length, 1, `round ${round}: ${JSON.stringify(results)}`);
      const facts = await readFactsFor(fixers["fixer-a"], pr.number);
      const holder = engine.triage({ facts }).entries.find((e) => e.number === pr.number).claim?.by;
      assert.equal(holder, winners[0].name, `round ${round}: the one that read itself back as holder is the holder`);
      wins[holder]++;
      const claims = gh.state
        .pull(pr.number)
        .comments.filter((id) => gh.state.comments.get(id).body.startsWith("<!-- prflow:claim"));
      if (claims.length === 2) bothWrote++;
      gh.closePull(pr.number);
    }
    assert.ok(bothWrote > 0, "in some rounds both fixers wrote a claim: a real race, not turns");
    console.log(`agents race: ${ROUNDS} rounds, both wrote a claim in ${bothWrote}, wins ${JSON.stringify(wins)}`);
    assert.deepEqual(gh.validationFailures, []);
  } finally {
    await gh.close();
  }
});
