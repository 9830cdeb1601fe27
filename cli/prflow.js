#!/usr/bin/env node
// The `prflow` command: `prflow <command> [options]`, each command a file in cli/commands/ exporting
// { summary, usage, options, run }, so a new command is a new file and nothing here changes.
import { readdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { UsageError } from "./usage.js";
import { RunError } from "../lib/run.js";

const commandsDir = new URL("./commands/", import.meta.url);
const available = () =>
  readdirSync(commandsDir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => f.slice(0, -3))
    .sort();

async function help() {
  const lines = ["usage: prflow <command> [options]", "", "commands:"];
  for (const name of available()) {
    const { summary } = await import(new URL(`${name}.js`, commandsDir));
    lines.push(`  ${name.padEnd(15)} ${summary}`);
  }
  lines.push("", "`prflow <command> --help` shows a command's options.");
  return lines.join("\n");
}

async function main(argv) {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(await help());
    return 0;
  }
  if (!available().includes(name)) throw new UsageError(`unknown command ${JSON.stringify(name)}; commands: ${available().join(", ")}`);
  const command = await import(new URL(`${name}.js`, commandsDir));
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(`usage: ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${e.message}\nusage: ${command.usage}`);
  }
  return (await command.run(parsed.values, parsed.positionals)) ?? 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (e instanceof UsageError) {
    console.error(`prflow: ${e.message}`);
    process.exitCode = 2;
  } else if (e instanceof RunError) {
    for (const line of e.lines) console.error(`prflow: ${line}`);
    process.exitCode = 1;
  } else {
    console.error(`prflow: ${e.stack ?? e}`);
    process.exitCode = 1;
  }
}
