// Generates docs/reference.md from the engine itself: every label each part of prflow writes or reads
// (the label catalogue `prflow labels` creates) and every config key with its type, default and meaning
// (the config schema, whose words are the Rust doc comments). `scripts/build.sh` runs it and `--check`
// compares, so the reference cannot drift from the engine. A config key without a description fails
// the build: every key is documented or the build says which one is not.
//   node scripts/gen-reference.mjs CONFIG_SCHEMA NATIVE_BIN OUT.md
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [schemaPath, nativeBin, outPath] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
const definitions = schema.definitions ?? schema.$defs ?? {};
const stationsExample = JSON.parse(readFileSync(new URL("../examples/stations/prflow.json", import.meta.url), "utf8"));

const scratch = mkdtempSync(join(tmpdir(), "prflow-ref-"));
function catalog(config) {
  const path = join(scratch, "config.json");
  writeFileSync(path, JSON.stringify(config));
  const out = JSON.parse(execFileSync(nativeBin, ["catalog", path], { encoding: "utf8" }));
  if (out.configErrors.length)
    throw new Error(`catalog of ${JSON.stringify(config)}: ${JSON.stringify(out.configErrors)}`);
  return out.labels;
}

/** Table cells hold one line; a pipe inside would end the cell. */
const cell = (text) =>
  String(text)
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ");
const code = (value) => "`" + (typeof value === "string" ? value : JSON.stringify(value)) + "`";

function labelTable(labels) {
  const rows = labels.map((l) => `| ${code(l.name)} | \`#${l.color}\` | ${cell(l.description)} |`);
  return ["| label | colour | meaning (the description `prflow labels` writes) |", "| --- | --- | --- |", ...rows].join(
    "\n",
  );
}

const base = catalog({});
const names = (labels) => new Set(labels.map((l) => l.name));
const beyond = (labels, than) => labels.filter((l) => !names(than).has(l.name));
const stationsBase = catalog({ flow: "stations" });
const labelSections = [
  [
    "The bot-panel flow (the preset, `{}`)",
    "`stale` is left out when `stale.days` is 0; each key of `scopes` adds a label of its own.",
    base,
  ],
  [
    'The stations flow (`"flow": "stations"`, here with `examples/stations/prflow.json`)',
    "`from:<machine>` names the machine that opened a pull request, `reviewer:<machine>` the review station that claimed it: one of each per machine of that role.",
    catalog(stationsExample),
  ],
  [
    "The merge queue (when the config has a `queue` section)",
    "Added to either flow's labels.",
    beyond(catalog({ flow: "stations", queue: {} }), stationsBase),
  ],
  [
    "The follow-up board (when the config has a `followup` section)",
    "Added to either flow's labels; not when `followup.board.enabled` is false.",
    beyond(catalog({ followup: {} }), base),
  ],
];

// ---- config keys --------------------------------------------------------------------------------

const missing = [];
function resolve(node) {
  if (!node) return node;
  if (node.$ref) return resolve(definitions[node.$ref.split("/").pop()]);
  if (node.allOf?.length === 1) return resolve(node.allOf[0]);
  if (node.anyOf) {
    const real = node.anyOf.filter((x) => x.type !== "null");
    if (real.length === 1) return resolve(real[0]);
  }
  return node;
}
function typeOf(node) {
  const n = resolve(node);
  if (!n) return "any";
  if (n.enum) return n.enum.map((v) => code(v)).join(" \\| ");
  if (n.oneOf)
    return n.oneOf
      .map((x) =>
        x.enum ? x.enum.map((v) => code(v)).join(" \\| ") : x.const !== undefined ? code(x.const) : typeOf(x),
      )
      .join(" \\| ");
  if (n.anyOf) return n.anyOf.map(typeOf).join(" or ");
  const t = Array.isArray(n.type) ? n.type.filter((x) => x !== "null")[0] : n.type;
  if (t === "array") return `list of ${typeOf(n.items)}`;
  if (t === "object" && n.additionalProperties && typeof n.additionalProperties === "object" && !n.properties)
    return `map of name to ${typeOf(n.additionalProperties)}`;
  if (t === "integer") return n.minimum > 0 ? `integer ≥ ${n.minimum}` : "integer";
  return t ?? "any";
}
function defaultOf(property) {
  if (!("default" in property)) return "";
  const d = property.default;
  if (d !== null && typeof d === "object" && !Array.isArray(d)) return Object.keys(d).length ? "see below" : "`{}`";
  const text = JSON.stringify(d);
  return text.length > 60 ? "see the schema" : code(d);
}
const rows = [];
/** Into an object, or into the objects of a list (`levels.<name>[].after`). */
function walkValue(value, path, depth) {
  const r = resolve(value);
  if (r?.properties) walk(r, `${path}.`, depth + 1);
  else if (r?.type === "array" && resolve(r.items)?.properties) walk(r.items, `${path}[].`, depth + 1);
}
function walk(node, prefix, depth) {
  const n = resolve(node);
  if (!n || depth > 6) return;
  for (const [key, property] of Object.entries(n.properties ?? {})) {
    if (key === "$schema") continue;
    const path = prefix + key;
    const description = property.description ?? resolve(property)?.description;
    if (!description) missing.push(path);
    rows.push(`| ${code(path)} | ${typeOf(property)} | ${defaultOf(property)} | ${cell(description ?? "")} |`);
    const r = resolve(property);
    if (r?.additionalProperties && typeof r.additionalProperties === "object" && !r.properties)
      walkValue(r.additionalProperties, `${path}.<name>`, depth);
    else walkValue(r, path, depth);
  }
}
walk(schema, "", 0);
rmSync(scratch, { recursive: true, force: true });
if (missing.length) {
  console.error(
    `gen-reference: config keys without a description (add a doc comment to the Rust field): ${missing.join(", ")}`,
  );
  process.exit(1);
}

const text = `<!-- Generated by scripts/gen-reference.mjs from the engine (label catalogue, config schema). Do not edit. -->
# prflow reference

Every label prflow writes or reads, and every key of \`.github/prflow.json\`. Both are generated from the
engine, so they are what the engine does: the label descriptions are the ones \`prflow labels --live\`
writes to GitHub, the config rows are the schema's ([\`schema/config.schema.json\`](../schema/config.schema.json)).
Every label name is a config key, so a renamed label is renamed everywhere.

## Labels

${labelSections.map(([title, note, labels]) => `### ${title}\n\n${note}\n\n${labelTable(labels)}`).join("\n\n")}

## Config keys

Every key is optional. \`<name>\` stands for a key you choose (a machine, a state label, a scope label).

| key | type | default | meaning |
| --- | --- | --- | --- |
${rows.join("\n")}
`;
writeFileSync(outPath, text);
