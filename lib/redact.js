// The one redaction of text that came from elsewhere (a command's output, a CI log, GitHub) on its way
// into a comment, a summary, a fixer's brief or the Action's log. Every form of the tokens this process
// holds is masked (raw, URL-encoded, base64 of `x-access-token:TOKEN` as git's Authorization header
// carries it), and so is anything shaped like a credential, whoever's it is. The structure of what the
// text lands in is kept by the writer of each: workflow commands escaped for the Action's log, HTML for
// the job summary; comments and briefs are fenced by the engine (src/core/text.rs).

const MASK = "***";

// Every form of every secret registered, longest first (a form may contain a shorter one).
const forms = new Set();

/** Registers a secret (the write token): from now on `redact` masks it in each of the forms it travels in. */
export function registerSecret(secret) {
  if (!secret || String(secret).length < 4) return;
  const s = String(secret);
  const b64 = (t) => Buffer.from(t).toString("base64");
  for (const f of [s, encodeURIComponent(s), b64(s), b64(`x-access-token:${s}`), b64(`:${s}`)]) {
    forms.add(f);
    // base64 without its padding, as some tools print it.
    forms.add(f.replace(/=+$/, ""));
  }
}

/** Whether `value` is (a form of) a registered secret: the command runner drops such variables. */
export function isSecret(value) {
  return forms.has(String(value));
}

// Credential shapes, whoever's: GitHub's token prefixes, Authorization headers, token-bearing URLs,
// and the API keys an AI command is likely to hold (OpenAI/Anthropic sk-, AWS AKIA, Google AIza,
// Slack xox?-, GitLab glpat-).
const SHAPES = [
  [/\b(gh[pousr]_)[A-Za-z0-9]{16,}/g, `$1${MASK}`],
  [/\b(github_pat_)[A-Za-z0-9_]{16,}/g, `$1${MASK}`],
  [
    /(authorization\s*:\s*)(?:(basic|bearer|token)\s+)?[^\s"'`]+/gi,
    (_m, head, scheme) => `${head}${scheme ? `${scheme} ` : ""}${MASK}`,
  ],
  [/(x-access-token:)[^@\s"'`]+/gi, `$1${MASK}`],
  [/(\/\/)[^/@\s:"'`]+:[^/@\s"'`]+@/g, `$1${MASK}@`],
  [/\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_-]{16,}/g, `$1${MASK}`],
  [/\bAKIA[0-9A-Z]{16}\b/g, `AKIA${MASK}`],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, `AIza${MASK}`],
  [/\b(xox[abposr]-)[A-Za-z0-9-]{10,}/g, `$1${MASK}`],
  [/\b(glpat-)[A-Za-z0-9_-]{16,}/g, `$1${MASK}`],
];

/** `text` with every registered secret and every credential-shaped string masked. */
export function redact(text) {
  let out = String(text ?? "");
  for (const f of [...forms].sort((a, b) => b.length - a.length))
    if (f && out.includes(f)) out = out.split(f).join(MASK);
  for (const [re, to] of SHAPES) out = out.replace(re, to);
  return out;
}

/**
 * One line for the Action's log: redacted, its line breaks escaped as @actions/core escapes a
 * command's data (`%`, CR, LF), so text from elsewhere cannot start a line of its own, and a line that
 * would itself read as a workflow command (`::name::`, or the older `##[name]`) shown with its colons
 * or hashes escaped, so the runner does not run it.
 */
export function logLine(text) {
  const line = redact(text).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  return line.replace(/^(\s*)::/, "$1%3A%3A").replace(/^(\s*)##\[/, "$1%23%23[");
}

/** Text for a Markdown job summary line: redacted, HTML escaped (no tag, no entity of its own). */
export function summaryText(text) {
  return redact(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/\|/g, "\\|");
}
