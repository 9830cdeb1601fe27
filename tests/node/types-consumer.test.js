// The package's types as a TypeScript user meets them: a consumer importing "prflow" (and "prflow/web")
// compiles under `tsc --strict` WITHOUT skipLibCheck, so every generated declaration must hold; a
// decision's input is checked against its Rust type and its output is typed, through the methods and
// through `call(name, ...)`. (The interfaces were hand-written before issue 11; TS2537 hid in one.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsc = join(root, "node_modules/.bin/tsc");

const CONSUMER = `
import { createEngine, version, type Decisions, type Facts, type Plan, type ConfigError } from "prflow";
import { load } from "prflow/web";

const engine = createEngine('{"stale": {"days": 3}}');
const facts: Facts = { now: "2026-01-01T00:00:00Z", pullRequests: [] };
const plan: Plan = engine.reconcile({ facts });
const same: Decisions["reconcile"]["output"] = engine.call("reconcile", { facts: JSON.stringify(facts) });
const errors: ConfigError[] = engine.configErrors();
const triage = engine.triage({ facts });
const order: number[] = "configErrors" in triage ? [] : triage.order;
const owners: string[] = createEngine().codeOwners({ codeowners: "* @a", path: "x" });
const settle = async () => (await load()).createEngine(null).sweep({ facts }).stopTheLine;
// @ts-expect-error: a request is checked against the decision's input type
engine.reconcile({ fact: facts });
// @ts-expect-error: an unknown decision is a type error
engine.call("reconcil", {});
// @ts-expect-error: a fixture-only decision is compiled for the tests alone, so not in the types
engine.call("settle", { facts });
// @ts-expect-error: nor its method
engine.marker({ body: "" });
export const used = [version(), plan.ops.length, same.ops.length, errors.length, order, owners, settle];
`;

test("a consumer compiles against the package's types under tsc --strict, without skipLibCheck", () => {
  const dir = mkdtempSync(join(tmpdir(), "prflow-types-"));
  try {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(root, join(dir, "node_modules", "prflow"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    writeFileSync(join(dir, "consumer.ts"), CONSUMER);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        lib: ["es2022", "dom"],
        types: [],
      },
      files: ["consumer.ts"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
    let out = "";
    try {
      out = execFileSync(tsc, ["-p", dir], { encoding: "utf8", cwd: dir });
    } catch (e) {
      assert.fail(`tsc --strict reported errors:\n${e.stdout}${e.stderr}`);
    }
    assert.equal(out.trim(), "", "no diagnostics");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
