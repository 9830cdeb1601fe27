// Every bad input a newcomer meets gives one line on stderr that names the step and what to do, with
// the documented exit code (1 failed, 2 usage), and no stack trace. Runs the real CLI on the emulator.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { APP_TOKEN, startEmulator } from "../../emulator/index.js";
import { PRESET_CONFIG, runCli } from "./lib/cli.js";

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort() {
  const srv = createServer();
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

test("cli errors: each bad input gives its one line and exit code", async () => {
  const em = await startEmulator();
  const port = await closedPort();
  try {
    const env = {
      GITHUB_TOKEN: APP_TOKEN,
      GITHUB_API_URL: em.url,
      GITHUB_GRAPHQL_URL: em.graphqlUrl,
      PRFLOW_TIME_SCALE: "0.001",
    };
    const dead = { GITHUB_API_URL: `http://127.0.0.1:${port}`, GITHUB_GRAPHQL_URL: `http://127.0.0.1:${port}/graphql` };
    const cases = [
      {
        rule: "a wrong token",
        args: ["reconcile", "--repo", "acme/widgets"],
        env: { GITHUB_TOKEN: "ghs_wrong" },
        code: 1,
        line: /^prflow: reading \.github\/prflow\.json of acme\/widgets: bad token: GitHub answered 401 .*; check the token \(GH_TOKEN, else GITHUB_TOKEN\)/,
      },
      {
        rule: "a wrong token on status",
        args: ["status", "--repo", "acme/widgets"],
        env: { GITHUB_TOKEN: "ghs_wrong" },
        code: 1,
        line: /^prflow: reading \.github\/prflow\.json of acme\/widgets: bad token: GitHub answered 401 .*; check the token/,
      },
      {
        rule: "a wrong token on claim",
        args: ["claim", "review", "m4", "--repo", "acme/widgets"],
        env: { GITHUB_TOKEN: "ghs_wrong" },
        code: 1,
        line: /^prflow: reading \.github\/prflow\.json of acme\/widgets: bad token: GitHub answered 401 /,
      },
      {
        rule: "a missing repository",
        args: ["reconcile", "--repo", "acme/nope"],
        code: 1,
        line: /^prflow: reading the pull requests of acme\/nope: not found: .*acme\/nope.*; check --repo owner\/name/,
      },
      {
        rule: "a closed port, not retried as a 500",
        args: ["reconcile", "--repo", "acme/widgets"],
        env: dead,
        code: 1,
        line: new RegExp(
          `^prflow: reading \\.github/prflow\\.json of acme/widgets: could not reach the API at http://127\\.0\\.0\\.1:${port}: connection refused \\(ECONNREFUSED\\); check GITHUB_API_URL`,
        ),
        never: /failed on GitHub's side|asking again|GitHub answered 500/,
      },
      {
        rule: "a missing --config",
        args: ["status", "--repo", "acme/widgets", "--config", "nope.json"],
        code: 1,
        line: /^prflow: --config nope\.json: no such file; name an existing file/,
      },
      {
        rule: "a missing --config, before any write",
        args: ["labels", "--repo", "acme/widgets", "--live", "--config", "nope.json"],
        code: 1,
        line: /^prflow: --config nope\.json: no such file/,
      },
      {
        rule: "a spent rate limit",
        before: () => em.setRateLimit({ rest: 0 }),
        args: ["labels", "--repo", "acme/widgets", "--config", PRESET_CONFIG],
        code: 1,
        line: /^prflow: syncing the labels of acme\/widgets: rate limited by GitHub until \d\d:\d\d UTC \(403 on GET \/repos\/acme\/widgets\/labels\); nothing more was attempted; run again after the reset$/,
      },
      {
        rule: "an unknown command",
        args: ["sweep-all"],
        code: 2,
        line: /^prflow: unknown command "sweep-all"; commands: claim, /,
      },
      {
        rule: "an unknown --format",
        args: ["status", "--facts", "x.json", "--format", "yaml"],
        code: 2,
        line: /^prflow: --format: expected text or json, found "yaml"/,
      },
    ];
    for (const c of cases) {
      em.reset();
      c.before?.();
      const r = await runCli(c.args, { env: { ...env, ...(c.env ?? {}) } });
      assert.equal(r.code, c.code, `${c.rule}: ${r.stderr}`);
      const failures = r.stderr.split("\n").filter((l) => l.startsWith("prflow: "));
      assert.equal(failures.length, 1, `${c.rule}: one failure line, found\n${r.stderr}`);
      assert.match(failures[0], c.line, c.rule);
      assert.doesNotMatch(r.stderr, /^\s+at /m, `${c.rule}: no stack trace without --debug`);
      if (c.never) assert.doesNotMatch(r.stderr, c.never, c.rule);
      assert.equal(em.counts().writes, 0, `${c.rule}: nothing written`);
    }
    const debug = await runCli(["reconcile", "--repo", "acme/widgets", "--debug"], {
      env: { ...env, GITHUB_TOKEN: "ghs_wrong" },
    });
    assert.match(debug.stderr, /^\s+at /m, "--debug prints the stack");
  } finally {
    await em.settle();
    em.server.closeAllConnections?.();
    await new Promise((r) => em.server.close(r));
  }
});

test("cli errors: bare prflow prints the usage on stderr and exits 2; --version prints the version", async () => {
  const bare = await runCli([]);
  assert.equal(bare.code, 2);
  assert.equal(bare.stdout, "");
  assert.match(bare.stderr, /^usage: prflow <command> \[options\]/);
  const v = await runCli(["--version"]);
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^prflow \d+\.\d+\.\d+\n$/);
});

test("cli errors: claim with the stations labels missing stops at once, names `prflow labels`, claims nothing", async () => {
  const { readFileSync } = await import("node:fs");
  const { ROOT } = await import("./lib/cli.js");
  const em = await startEmulator({ seed: "claim-no-labels" });
  try {
    em.createPull({ author: "agent-m1", labels: [] });
    em.reset();
    const env = {
      GITHUB_TOKEN: APP_TOKEN,
      GITHUB_API_URL: em.url,
      GITHUB_GRAPHQL_URL: em.graphqlUrl,
      PRFLOW_TIME_SCALE: "0.001",
    };
    const config = `${ROOT}examples/stations/prflow.json`;
    JSON.parse(readFileSync(config, "utf8"));
    const r = await runCli(["claim", "review", "m4", "--repo", "acme/widgets", "--config", config], { env });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "", "no queue-empty when the cause is missing labels");
    assert.match(
      r.stderr,
      /^prflow: claim: \d+ labels the config uses do not exist in acme\/widgets \(.*\); create them with `prflow labels --repo acme\/widgets --live`/m,
    );
    assert.doesNotMatch(r.stderr, /lost #|trying the next one/);
    assert.equal(em.counts().writes, 0);
  } finally {
    await em.settle();
    em.server.closeAllConnections?.();
    await new Promise((r) => em.server.close(r));
  }
});
