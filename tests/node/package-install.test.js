// Installing prflow without a registry release: `npm pack` makes the tarball a user would install
// (`npm install ./prflow-X.tgz`, or `npm install github:OWNER/prflow`, which packs the same files), and
// an empty folder installs it with npm itself, offline. npm would fetch prflow's three dependencies from
// the registry; here a lockfile names them and they are given from this checkout's node_modules, so
// nothing is fetched. Then `npx prflow --version` and a library import run there, from the tarball's
// files only: a file the package needs but does not ship fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/cli.js";

const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, npm_config_update_notifier: "false" },
  });

test("package: npm pack, npm install --offline into an empty folder, npx prflow --version and an import work there", () => {
  const work = mkdtempSync(join(tmpdir(), "prflow-pack-"));
  const meta = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], ROOT));
  const tgz = join(work, packed.filename);
  const shipped = packed.files.map((f) => f.path);
  assert.ok(
    shipped.includes("cli/prflow.js") && shipped.includes("pkg/prflow_bg.wasm"),
    "the CLI and the engine are in the tarball",
  );
  assert.ok(
    !shipped.some((f) => f.startsWith("tests/") || f.startsWith("emulator/")),
    "no tests or emulator in the tarball",
  );

  const app = join(work, "app");
  mkdirSync(app);
  // The dependencies' closure, as this checkout's lockfile resolved them, copied in and locked.
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")).packages;
  const packages = { "": { name: "app", dependencies: { prflow: `file:${tgz}` } } };
  const todo = Object.keys(meta.dependencies);
  while (todo.length) {
    const name = todo.pop();
    if (packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = lock[`node_modules/${name}`];
    cpSync(join(ROOT, "node_modules", name), join(app, "node_modules", name), { recursive: true, dereference: true });
    todo.push(...Object.keys(lock[`node_modules/${name}`].dependencies ?? {}));
  }
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "app", private: true, dependencies: { prflow: `file:${tgz}` } }),
  );
  writeFileSync(
    join(app, "package-lock.json"),
    JSON.stringify({ name: "app", lockfileVersion: 3, requires: true, packages }),
  );
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], app);

  assert.equal(run("npx", ["--offline", "prflow", "--version"], app), `prflow ${meta.version}\n`);
  const script =
    'import { createEngine } from "prflow"; const e = createEngine("{}"); console.log(e.version(), e.labelCatalog().labels.length > 0);';
  assert.equal(run(process.execPath, ["--input-type=module", "-e", script], app), `${meta.version} true\n`);
  // The station's default prompt ships too (a file the CLI reads at run time).
  assert.ok(shipped.includes("prompts/review.md"), "prompts/review.md is in the tarball");
});
