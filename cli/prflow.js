#!/usr/bin/env node
// The `prflow` command: `prflow <command> [options]`, each command a file in cli/commands/ exporting
// { summary, usage, options, run } (and optionally help, examples, writes), so a new command is a new
// file and nothing here changes. Here: --version, help pages, one --format, the config line, and every
// failure as one line with exit 1 (2 for usage), the stack only with --debug.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { UsageError, EXIT, FOOTER, commandHelp, terminalWidth, wrap } from "./usage.js";
import { describeFailure } from "../lib/run.js";
import { DEFAULT_CONFIG_PATH } from "../lib/config-file.js";

const commandsDir = new URL("./commands/", import.meta.url);
const available = () =>
  readdirSync(commandsDir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => f.slice(0, -3))
    .sort();
const load = (name) => import(new URL(`${name}.js`, commandsDir));
const version = () => JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

async function help(width) {
  const lines = ["usage: prflow <command> [options]", "       prflow help <command> | prflow <command> --help | prflow --version", "", "commands:"];
  for (const name of available()) lines.push(wrap((await load(name)).summary, width, 18, `  ${name.padEnd(15)} `));
  lines.push("", "Every command takes --format text|json and --debug; `prflow help <command>` lists its options.", ...FOOTER);
  return lines.join("\n");
}

/** The command's options with --format and its alias --json, so every command takes both. */
function withFormat(options = {}) {
  return { ...options, format: options.format ?? { type: "string", default: "text" }, json: options.json ?? { type: "boolean", default: false } };
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
  if (!known.includes(wanted)) throw new UsageError(`unknown command ${JSON.stringify(wanted)}; commands: ${known.join(", ")}`);
  const command = await load(wanted);
  const full = { ...command, options: withFormat(command.options) };
  if (name === "help" || rest.includes("--help") || rest.includes("-h")) {
    console.log(commandHelp(wanted, full, { width }));
    return EXIT.done;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: full.options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw new UsageError(`${e.message}\nusage: ${command.usage}\n(\`prflow help ${wanted}\` lists every option)`);
  }
  const values = parsed.values;
  if (values.json) values.format = "json";
  if (!["text", "json"].includes(values.format)) throw new UsageError(`--format: expected text or json, found ${JSON.stringify(values.format)}`);
  values.json = values.format === "json";
  if ("config" in full.options) sayConfig(values.config, parsed.tokens.some((t) => t.kind === "option" && t.name === "config"), command.saysConfig);
  return (await command.run(values, parsed.positionals)) ?? EXIT.done;
}

/** Says on stderr which config the command runs with; a named file that does not exist stops the run. */
function sayConfig(path, explicit, quiet) {
  // Commands on lib/run.js say it themselves (the Action logs the same line).
  const say = (line) => quiet || console.error(line);
  if (existsSync(path)) return say(`config: ${path}`);
  if (explicit || path !== DEFAULT_CONFIG_PATH) {
    const e = new Error(`--config ${path}: no such file; name an existing file, or leave --config out for ${DEFAULT_CONFIG_PATH} (or the bot-panel preset when that is missing)`);
    e.configMissing = true;
    throw e;
  }
  say(`config: no ${DEFAULT_CONFIG_PATH}: the bot-panel preset`);
}

const args = process.argv.slice(2);
const debug = args.includes("--debug") || process.env.PRFLOW_DEBUG === "1";
try {
  process.exitCode = await main(args.filter((a) => a !== "--debug"), terminalWidth());
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
