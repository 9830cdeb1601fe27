// One worker per repository: the queue's lease on the emulator's real git. Two workers taking it at the
// same moment never both hold it; a holder that dies is taken over only once its lease expired; two
// whole workers racing on one board release one pull request at a time and write no false comment; a
// cycle (the Action's `mode: queue`) that finds the lease held writes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator/index.js";
import { makeOctokit } from "../../lib/github/index.js";
import { Git } from "../../lib/queue/git.js";
import { runQueue } from "../../lib/queue/worker.js";
import { LEASE_REF, QueueLease, readLease } from "../../lib/queue/lease.js";
import { createEngine } from "../../js/node.js";
import { landingRepo, openBoard, WORKER_OPTIONS } from "../../scripts/lib/queue-land.mjs";

const engine = createEngine();

async function repo(t) {
  const gh = await startEmulator({ git: true });
  gh.clock.set("2026-12-01T09:00:00Z");
  const dirs = [];
  t.after(async () => {
    await gh.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const git = async () => {
    const d = mkdtempSync(join(tmpdir(), "prflow-lease-"));
    dirs.push(d);
    const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: d });
    await g.ready();
    return g;
  };
  return { gh, git, dirs };
}

/** A tiny deterministic random source, so a failing round can be replayed. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => (x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32;
}

test("100 rounds of two workers taking, renewing, leaving and dying: never two holders, taken over only after expiry", async (t) => {
  const { gh, git } = await repo(t);
  const ttl = 600;
  const workers = [];
  for (const me of ["host-a/1", "host-b/2"])
    workers.push(new QueueLease({ g: await git(), engine, me, ttlSeconds: ttl }));
  const random = rng(35);
  const now = () => gh.clock.iso();
  const counts = { contested: 0, takenOver: 0, waited: 0, released: 0, died: 0, waitedForDead: 0 };
  let lastHolder = null;
  let lastUntil = 0;
  for (let round = 0; round < 100; round++) {
    // Both ask at the same moment (interleaved fetches and leased pushes on the one remote).
    const answers = await Promise.all(workers.map((w) => w.ensure(now())));
    const holding = answers.map((a, i) => (a.held ? i : -1)).filter((i) => i >= 0);
    if (!holding.length) {
      // Nobody may hold it only while a dead worker's lease runs: both wait, naming it.
      const { record } = await readLease(workers[0].g);
      const [, dead, until] = /holder=(\S+) until=(\S+)/.exec(record);
      assert.ok(
        !workers.some((w) => w.me === dead) && gh.clock.now() < Date.parse(until),
        `round ${round}: nobody holds it though its holder ${dead} is alive or expired: ${JSON.stringify(answers)}`,
      );
      assert.ok(
        answers.every((a) => a.holder === dead),
        `round ${round}: both name the dead holder`,
      );
      counts.waitedForDead++;
      gh.clock.advance({ seconds: Math.floor(random() * 700) });
      continue;
    }
    assert.equal(holding.length, 1, `round ${round}: exactly one holds the lease: ${JSON.stringify(answers)}`);
    const [h] = holding;
    const other = 1 - h;
    assert.match(
      answers[other].message,
      new RegExp(`held by ${workers[h].me.replace("/", "\\/")} until`),
      `round ${round}: the waiter names the holder`,
    );
    counts.waited++;
    const { record } = await readLease(workers[h].g);
    assert.match(record, new RegExp(`holder=${workers[h].me}`), `round ${round}: GitHub says the same holder`);
    if (lastHolder !== null && lastHolder !== h) {
      // A change of holder only once the last one's lease ran out or it left.
      assert.ok(
        gh.clock.now() >= lastUntil,
        `round ${round}: taken over at ${now()}, before the lease expired at ${new Date(lastUntil).toISOString()}`,
      );
      counts.takenOver++;
    }
    if (answers.every((a) => a.held === false || a.held === true)) counts.contested++;
    lastHolder = h;
    lastUntil = Date.parse(/until=([^ ]+)/.exec(record)[1]);
    const r = random();
    if (r < 0.3) {
      await workers[h].release(now());
      counts.released++;
      lastUntil = gh.clock.now();
    } else if (r < 0.55) {
      // It dies: no release, its memory gone; the other waits out the lease.
      workers[h].held = null;
      workers[h] = new QueueLease({
        g: workers[h].g,
        engine,
        me: `${workers[h].me.split("/")[0]}/${100 + round}`,
        ttlSeconds: ttl,
      });
      counts.died++;
    }
    gh.clock.advance({ seconds: Math.floor(random() * 700) });
  }
  assert.ok(
    counts.takenOver >= 10 && counts.released >= 10 && counts.died >= 10 && counts.waitedForDead >= 5,
    `each path was walked: ${JSON.stringify(counts)}`,
  );
  assert.deepEqual(gh.validationFailures, []);
});

/**
 * Virtual time for several loops on one emulator: a sleep waits until every live loop sleeps, then the
 * clock moves to the earliest wake-up. Each loop's steps are thus atomic in the emulator's time.
 */
function sharedClock(gh, loops) {
  let live = loops;
  const sleepers = [];
  const tick = () => {
    if (!sleepers.length || sleepers.length < live) return;
    sleepers.sort((a, b) => a.at - b.at);
    const s = sleepers.shift();
    if (s.at > gh.clock.now()) gh.clock.advanceTo(s.at);
    s.resolve();
  };
  return {
    sleep: (ms) =>
      new Promise((resolve) => {
        sleepers.push({ at: gh.clock.now() + ms, resolve });
        tick();
      }),
    done() {
      live--;
      tick();
    },
  };
}

test("two workers racing on one board: one pull request released at a time, every one lands, no comment; the survivor takes over a dead worker's queue", async (t) => {
  const { gh, stateDir, close } = await landingRepo({ seed: "lease-race" });
  t.after(close);
  const numbers = Object.values(openBoard(gh, [{ key: "a" }, { key: "b" }, { key: "c" }]));
  // After every event GitHub records (each label edit is one), at most one pull request runs CI.
  let most = 0;
  const released = () =>
    numbers.filter((n) => {
      const pr = gh.state.pull(n);
      return pr.state === "open" && pr.labels.includes("merge-queued") && !pr.labels.includes("skip-ci");
    }).length;
  const push = gh.events.push.bind(gh.events);
  gh.events.push = (...e) => {
    most = Math.max(most, released());
    return push(...e);
  };
  const clock = sharedClock(gh, 2);
  const lines = { a: [], b: [] };
  const merged = () => numbers.filter((n) => gh.state.pull(n).merged).length;
  const worker = async (name, { dieAfterLandings }) => {
    const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(stateDir, name) });
    const octokit = makeOctokit({
      token: gh.personalToken,
      baseUrl: gh.url,
      graphqlUrl: gh.graphqlUrl,
      timeScale: 0.001,
    });
    const lease = new QueueLease({ g, engine, me: `host-${name}/1`, log: (l) => lines[name].push(l) });
    let steps = 0;
    try {
      await runQueue({
        gh: { octokit, owner: gh.owner, repo: gh.repo },
        g,
        engine,
        options: WORKER_OPTIONS,
        sleep: clock.sleep,
        lease,
        log: (l) => lines[name].push(l),
        // The first to hold the lease "dies" (leaves without releasing) once it landed some.
        stopWhen: () => {
          if (dieAfterLandings !== undefined && lease.held && merged() >= dieAfterLandings) {
            lease.held = null;
            return true;
          }
          return merged() === numbers.length || ++steps >= 300;
        },
      });
    } finally {
      clock.done();
    }
  };
  await Promise.all([worker("a", { dieAfterLandings: 1 }), worker("b", { dieAfterLandings: 2 })]);
  // Whichever held the lease first died after one landing; the other took over. If that was the one
  // dying after two, one more worker finishes, as a restart would.
  if (merged() < numbers.length) {
    const again = sharedClock(gh, 1);
    const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(stateDir, "c") });
    const octokit = makeOctokit({
      token: gh.personalToken,
      baseUrl: gh.url,
      graphqlUrl: gh.graphqlUrl,
      timeScale: 0.001,
    });
    let steps = 0;
    await runQueue({
      gh: { octokit, owner: gh.owner, repo: gh.repo },
      g,
      engine,
      options: WORKER_OPTIONS,
      sleep: again.sleep,
      log: (l) => lines.b.push(l),
      stopWhen: () => merged() === numbers.length || ++steps >= 300,
    });
  }
  const all = `A:\n${lines.a.join("\n")}\nB:\n${lines.b.join("\n")}`;
  assert.equal(merged(), numbers.length, `every one landed\n${all}`);
  assert.equal(most, 1, `never two released at once\n${all}`);
  for (const n of numbers) assert.deepEqual(gh.state.pull(n).comments, [], `#${n}: no comment (no false set-aside)`);
  const waits = [...lines.a, ...lines.b].filter((l) => /the queue is held by host-[ab]\/1 until/.test(l));
  assert.ok(waits.length >= 1, `the waiting worker said who held the queue\n${all}`);
  assert.ok(
    [...lines.a, ...lines.b].some((l) => /taken over from host-[ab]\/1 \(it expired at/.test(l)),
    `the dead worker's lease was taken over after it expired\n${all}`,
  );
  for (const n of numbers) assert.equal(gh.ci.usage({ number: n }).total.runs, 1, `#${n}: one CI run`);
  assert.deepEqual(gh.validationFailures, []);
});

test("a cycle (the Action's mode: queue) that finds the lease held says who holds it and writes nothing", async (t) => {
  const { gh, stateDir, close } = await landingRepo({ seed: "lease-action" });
  t.after(close);
  const [n] = Object.values(openBoard(gh, [{ key: "a" }]));
  const g = new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(stateDir, "resident") });
  await g.ready();
  const resident = new QueueLease({ g, engine, me: "host-r/7" });
  assert.equal((await resident.ensure(gh.clock.iso())).held, true);
  const before = gh.requests.length;
  const octokit = makeOctokit({
    token: gh.personalToken,
    baseUrl: gh.url,
    graphqlUrl: gh.graphqlUrl,
    timeScale: 0.001,
  });
  const lines = [];
  const out = await runQueue({
    gh: { octokit, owner: gh.owner, repo: gh.repo },
    g: new Git({ cloneUrl: gh.cloneUrl(), stateDir: join(stateDir, "action") }),
    engine,
    options: WORKER_OPTIONS,
    once: true,
    sleep: async () => {},
    log: (l) => lines.push(l),
  });
  assert.equal(out.wait.kind, "leaseHeld");
  assert.ok(
    lines.some((l) => /^the queue is held by host-r\/7 until 2026-12-01T09:10:00Z: waiting$/.test(l)),
    lines.join("\n"),
  );
  const c = gh.counts({ since: before });
  const writes = Object.keys(c.byOperation).filter(
    (k) => !/^(GET |graphql |POST git upload-pack)/.test(k) && k !== "graphql undefined",
  );
  assert.deepEqual(writes, [], `no write (reads only): ${JSON.stringify(c.byOperation)}`);
  assert.ok(gh.state.pull(n).labels.includes("skip-ci"), "nothing released");
  assert.match((await readLease(g)).record, /holder=host-r\/7/, "the resident worker still holds it");
  assert.ok(LEASE_REF.startsWith("refs/prflow/"));
});
