// What the CLI says about itself: the usage error class (exit 2), the words for every option, and the
// help page of a command, built from its `options` so an option cannot be added without appearing here.

/** A mistake in how a command was called: `prflow` prints it with the usage and exits with status 2. */
export class UsageError extends Error {}

/** Exit codes, as the help and the README state them. */
export const EXIT = { done: 0, failed: 1, usage: 2 };

/** The words for options many commands share; a command's own `help` object adds to or overrides them. */
export const OPTION_HELP = {
  repo: "the repository, owner/name (default: GITHUB_REPOSITORY)",
  config:
    "a local config file instead of the repository's .github/prflow.json (read from its default branch), to try an edit before pushing it",
  live: "write to GitHub; without it nothing is written",
  "dry-run": "say what would be written, write nothing",
  format: "output: text for people, json for scripts",
  json: "the same as --format json",
  facts: "read a facts file (JSON) instead of GitHub; nothing is written",
  width: "cut each cell to N characters (0 cuts nothing)",
  numbers: 'only these pull requests, e.g. "12, 14"',
  markdown: "print the summary as Markdown",
  debug: "on a failure, print the stack trace too",
};

/** --config of a command that can read a facts file instead of a repository. */
export const CONFIG_EITHER =
  "a local config file; with --repo, used instead of the repository's .github/prflow.json; with a facts file, the default is .github/prflow.json here, else the bot-panel preset";

/** The lines after the options on every help page. */
export const FOOTER = [
  "environment: GH_TOKEN (else GITHUB_TOKEN), GITHUB_API_URL, GITHUB_GRAPHQL_URL",
  "exit status: 0 done, 1 failed (one line on stderr says which step and what to do), 2 usage",
];

/** Wraps `text` to `width` columns after `prefix` (kept as is); later lines are indented by `indent` spaces. */
export function wrap(text, width, indent = 0, prefix = "") {
  const out = [];
  let line = prefix;
  let fresh = true;
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    if (!fresh && line.length + 1 + word.length > width) {
      out.push(line);
      line = " ".repeat(indent) + word;
    } else line = fresh ? line + word : `${line} ${word}`;
    fresh = false;
  }
  out.push(line);
  return out.join("\n");
}

/** The terminal's width; when standard output is not a terminal, COLUMNS if set, else 80. */
export function terminalWidth(stream = process.stdout, env = process.env) {
  if (stream.isTTY && stream.columns > 0) return stream.columns;
  return Number(env.COLUMNS) > 0 ? Number(env.COLUMNS) : 80;
}

/** The first line of a writing command's help: the one write rule, and where the command stands on it. */
export const WRITE_RULES = {
  live: "Writes only with --live; without it, a dry run that says what it would write.",
  legacy: "Writes only with --live (--dry-run: nothing). Still writes with neither flag, with a deprecation line.",
};

/** What an option's value looks like, where its name does not say it. */
const VALUE_NAMES = {
  repo: "OWNER/NAME",
  config: "FILE",
  facts: "FILE",
  format: "text|json",
  width: "N",
  numbers: "LIST",
  prompt: "FILE",
  interval: "SECONDS",
};

function optionLine(name, spec) {
  const value = spec.type === "string" ? ` ${spec.valueName ?? VALUE_NAMES[name] ?? name.toUpperCase()}` : "";
  return `--${name}${value}`;
}

/** The help page of `name`: usage, what it does, whether it writes, every option with its default, examples. */
export function commandHelp(name, command, { width = 100 } = {}) {
  const w = Math.max(40, Math.min(width, 100));
  const lines = [wrap(`usage: ${command.usage}`, w, 4), "", wrap(command.summary, w)];
  if (command.writes) lines.unshift(wrap(WRITE_RULES[command.writes], w), "");
  if (command.writeNote) lines.push("", wrap(command.writeNote, w));
  const options = { ...(command.options ?? {}), debug: { type: "boolean" } };
  const names = Object.keys(options);
  const col = Math.min(26, Math.max(...names.map((n) => optionLine(n, options[n]).length)) + 4);
  lines.push("", "options:");
  for (const n of names) {
    const spec = options[n];
    const words = command.help?.[n] ?? OPTION_HELP[n] ?? "";
    const dflt = spec.default === undefined || spec.default === false ? "" : ` (default: ${spec.default})`;
    const left = `  ${optionLine(n, spec)}`;
    const text = `${words}${dflt}`;
    if (left.length + 2 > col) lines.push(left, wrap(text, w, col, " ".repeat(col)));
    else lines.push(wrap(text, w, col, left.padEnd(col)));
  }
  const examples = command.examples ?? [];
  if (examples.length) {
    lines.push("", "examples:");
    for (const e of examples) lines.push(wrap(e, w, 4, "  "));
  }
  lines.push("");
  for (const f of FOOTER) lines.push(wrap(f, w, 2));
  return lines.join("\n");
}
