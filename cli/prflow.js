#!/usr/bin/env node
// The `prflow` command: `prflow <command> [options]`, each command a file in cli/commands/ exporting
// { summary, usage, options, run } (and optionally help, examples, writes: "live" or "legacy",
// writeNote), so a new command is a new file and nothing here changes. Here: --version, help pages,
// one --format, the one write rule (--live writes; a command that wrote by default still does, with a
// deprecation line), and every failure as one line with exit 1 (2 for usage), the stack only with --debug.
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { UsageError, EXIT, FOOTER, commandHelp, terminalWidth, wrap } from "./usage.js";
import { describeFailure } from "../lib/run.js";

const commandsDir = new URL("./commands/", import.meta.url);
const available = () =>
  readdirSync(commandsDir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => f.slice(0, -3))
    .sort();
const load = (name) => import(new URL(`${name}.js`, commandsDir));
const version = () => JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

async function help(width) {
  const lines = [
    "usage: prflow <command> [options]",
    "       prflow help <command> | prflow <command> --help | prflow --version",
    "",
    "commands:",
  ];
  for (const name of available()) lines.push(wrap((await load(name)).summary, width, 18, `  ${name.padEnd(15)} `));
  lines.push(
    "",
    wrap(
      "A command writes only with --live. One that reads a repository decides with the repository's own .github/prflow.json (--config FILE tries a local one) and names it on stderr.",
      width,
    ),
    wrap("Every command takes --format text|json and --debug; `prflow help <command>` lists its options.", width),
    ...FOOTER.map((f) => wrap(f, width, 2)),
  );
  return lines.join("\n");
}

/**
 * The command's options with --format and its alias --json, so every command takes both; a command that
 * writes (`writes: "live"`, or "legacy" while it still writes without --live) takes --live and --dry-run.
 */
function withFormat(options = {}, writes) {
  const write = writes
    ? { live: { type: "boolean", default: false }, "dry-run": { type: "boolean", default: false } }
    : {};
  return {
    ...options,
    ...write,
    format: options.format ?? { type: "string", default: "text" },
    json: options.json ?? { type: "boolean", default: false },
  };
}

/** parseArgs' complaint in our words, naming the command's options. */
function parseError(e, wanted, options) {
  const flag = /'(-{1,2}[^' <]+)/.exec(e.message)?.[1] ?? "";
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const names = Object.keys(options)
      .map((n) => `--${n}`)
      .join(", ");
    return `${flag}: \`prflow ${wanted}\` has no such option; it takes ${names}`;
  }
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE")
    return /argument missing/.test(e.message)
      ? `${flag}: expected a value after it, found none`
      : `${flag}: takes no value (it is on or off)`;
  if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL")
    return `unexpected argument; \`prflow help ${wanted}\` shows what it takes`;
  return e.message;
}

/**
 * The one write rule: --live writes, nothing else does. A command agents call in loops ("legacy") still
 * writes with neither flag this release, saying so on stderr, so their scripts keep working.
 */
function writeMode(values, wanted, writes) {
  if (!writes) return;
  if (values.live && values["dry-run"]) throw new UsageError("--live and --dry-run contradict each other; pick one");
  if (writes === "legacy" && !values.live && !values["dry-run"]) {
    console.error(
      `prflow ${wanted}: writing without --live is deprecated; add --live to write (or --dry-run for a dry run): a later version writes only with --live`,
    );
    values.live = true;
  }
  values["dry-run"] = !values.live;
}

async function main(argv, width) {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V") {
    console.log(`prflow ${version()}`);
    return EXIT.done;
  }
  if (!name) {
    console.error(await help(width));
    return EXIT.usage;
  }
  if (name === "--help" || name === "-h" || (name === "help" && !rest.length)) {
    console.log(await help(width));
    return EXIT.done;
  }
  const known = available();
  const wanted = name === "help" ? rest[0] : name;
  if (!known.includes(wanted))
    throw new UsageError(`unknown command ${JSON.stringify(wanted)}; commands: ${known.join(", ")}`);
  const command = await load(wanted);
  const full = { ...command, options: withFormat(command.options, command.writes) };
  if (name === "help" || rest.includes("--help") || rest.includes("-h")) {
    console.log(commandHelp(wanted, full, { width }));
    return EXIT.done;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: full.options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw new UsageError(
      `${parseError(e, wanted, full.options)}\n(\`prflow help ${wanted}\` says what each option does)`,
    );
  }
  const values = parsed.values;
  if (values.json) values.format = "json";
  if (!["text", "json"].includes(values.format))
    throw new UsageError(`--format: expected text or json, found ${JSON.stringify(values.format)}`);
  values.json = values.format === "json";
  writeMode(values, wanted, command.writes);
  return (await command.run(values, parsed.positionals)) ?? EXIT.done;
}

const args = process.argv.slice(2);
const debug = args.includes("--debug") || process.env.PRFLOW_DEBUG === "1";
try {
  process.exitCode = await main(
    args.filter((a) => a !== "--debug"),
    terminalWidth(),
  );
} catch (e) {
  if (e instanceof UsageError) {
    console.error(`prflow: ${e.message}`);
    process.exitCode = EXIT.usage;
  } else {
    for (const line of describeFailure(e)) console.error(`prflow: ${line}`);
    if (debug && e?.stack) console.error(e.stack);
    process.exitCode = EXIT.failed;
  }
}
