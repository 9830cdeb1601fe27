// The one "run prflow against a repository" flow, shared by the Action (action/src/main.js) and the CLI
// (cli/commands/*.js): load the config, read facts, ask the engine, apply (or only report) the plan.
// Hosts differ only in where their inputs come from and where the words go.
import { readFacts, applyPlan, syncLabels } from "./github/index.js";
import { loadConfig } from "./config-file.js";
import { countResults, labelsSummary, logLines, reconcileSummary } from "./summary.js";

/** A run that stopped before writing anything, with the lines that say why. */
export class RunError extends Error {
  constructor(lines) {
    super(lines.join("\n"));
    this.lines = lines;
  }
}

/**
 * The engine built from the config, or a RunError naming the file and JSON path of every problem, and
 * the line that says which config it is. `loaded` is a config the caller already read and named (the
 * CLI reads the repository's own through the API); without it the file at `configPath` is read.
 */
function configOrThrow(prflow, configPath, readFile, loaded) {
  if (loaded) return { ...loaded, said: null };
  const read = loadConfig(prflow, configPath, readFile ? { readFile } : undefined);
  if (read.errors.length) throw new RunError(read.errors);
  return {
    ...read,
    said: `config: ${read.source === "preset" ? `no ${configPath}: the ${read.engine.flow()} preset` : read.source}`,
  };
}

/**
 * Reconciles the pull requests `scope` names. `scope` is parseEvent's answer ({scope, numbers, why}).
 * Returns { plan, results, counts, summary, lines, skipped }.
 */
export async function reconcileRun({
  prflow,
  octokit,
  owner,
  repo,
  configPath,
  readFile,
  loaded,
  scope,
  live,
  log = () => {},
}) {
  const { engine, source, said } = configOrThrow(prflow, configPath, readFile, loaded);
  if (said) log(said);
  configPath = source;
  const scopeText = describeScope(scope);
  if (scope.scope === "none") {
    log(`nothing to reconcile: ${scope.why ?? "the event names no pull request"}`);
    const plan = { engine: engine.version(), configErrors: [], ops: [], pulls: [], warnings: [] };
    const counts = countResults(plan, []);
    return {
      plan,
      results: [],
      counts,
      skipped: true,
      summary: reconcileSummary({ repo: `${owner}/${repo}`, plan, results: [], live, scope: scopeText, counts }),
      lines: [],
    };
  }
  log(`reading ${scopeText}`);
  const facts = await step(`reading the pull requests of ${owner}/${repo}`, () =>
    readFacts(octokit, { owner, repo, numbers: scope.scope === "pulls" ? scope.numbers : undefined }),
  );
  const plan = engine.reconcile({ facts });
  if (plan.configErrors.length)
    throw new RunError(
      plan.configErrors.map((p) => `${configPath}: ${p.path}: expected ${p.expected}, found ${p.found}`),
    );
  log(
    `engine ${plan.engine}: ${count(plan.pulls.length, "pull request")}, ${count(plan.ops.length, "operation")}, ${count(plan.warnings.length, "warning")}${live ? "" : " (dry run: writing nothing)"}`,
  );
  stopWritesOnRateLimit(octokit, log);
  const results = await applyPlan(octokit, plan, { owner, repo, live, log });
  const counts = countResults(plan, results);
  const lines = logLines(plan, results, { live });
  for (const line of lines) log(line);
  const summary = reconcileSummary({ repo: `${owner}/${repo}`, plan, results, live, scope: scopeText, counts });
  return { facts, plan, results, counts, summary, lines, skipped: false };
}

/**
 * Upserts every label the config uses (the engine's catalogue). Never deletes: labels the tool made that
 * the config no longer uses are reported. Returns { catalog, results, unused, counts, summary }.
 */
export async function labelsRun({ prflow, octokit, owner, repo, configPath, readFile, loaded, live, log = () => {} }) {
  const { engine, source, said } = configOrThrow(prflow, configPath, readFile, loaded);
  if (said) log(said);
  configPath = source;
  const catalog = engine.labelCatalog();
  if (catalog.configErrors.length)
    throw new RunError(
      catalog.configErrors.map((p) => `${configPath}: ${p.path}: expected ${p.expected}, found ${p.found}`),
    );
  const sync = await step(`syncing the labels of ${owner}/${repo}`, () =>
    syncLabels(octokit, { owner, repo, decide: (existing) => engine.labelSync({ catalog, existing }), live, log }),
  );
  const results = sync.results;
  const unused = sync.unused ?? [];
  for (const r of results) log(`label ${r.name}: ${r.status}${r.detail ? ` (${r.detail})` : ""}`);
  for (const name of unused) log(`label ${name}: made by prflow but no longer in the config; kept, never deleted`);
  const counts = {
    ops: results.filter((r) => r.status !== "unchanged").length,
    writes: results.filter((r) => r.status === "created" || r.status === "updated").length,
    warnings: unused.length,
  };
  const summary = labelsSummary({ repo: `${owner}/${repo}`, results, unused, live });
  return { catalog, results, unused, counts, summary };
}

/** "1 operation", "2 operations". */
export function count(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** What a write refused by stopWritesOnRateLimit says, so the summaries can count them as one. */
export const NOT_ATTEMPTED = "not attempted: rate limited by GitHub";

/**
 * After GitHub answers a rate limit (403/429 with its headers, past the retries plugin-throttling makes),
 * every later write of the run fails at once without a request: the budget is spent until the reset, and
 * forty more refused writes would only spend the secondary limit too. Reads are left alone.
 */
export function stopWritesOnRateLimit(octokit, log = () => {}) {
  if (octokit.prflowWriteGuard) return;
  octokit.prflowWriteGuard = true;
  let until;
  octokit.hook.wrap("request", async (request, options) => {
    // A guard's fresh read belongs to its write: once writes stop, reading for them is spent budget.
    const write =
      (options.method !== "GET" || options.request?.prflowGuard === true) &&
      !(options.url === "/graphql" && !/^\s*mutation\b/.test(options.query ?? ""));
    if (until !== undefined && write) throw new Error(`${NOT_ATTEMPTED}${until ? ` until ${until}` : ""}`);
    try {
      return await request(options);
    } catch (e) {
      const reset = rateLimitReset(e);
      if (reset !== undefined && until === undefined) {
        until = reset;
        log(
          `rate limited by GitHub${reset ? ` until ${reset}` : ""} on ${options.method} ${options.url}; no further writes attempted this run`,
        );
      }
      throw e;
    }
  });
}

/** Runs `fn`, naming `what` on the error it throws so the one failure line says which step failed. */
async function step(what, fn) {
  try {
    return await fn();
  } catch (e) {
    if (e && typeof e === "object" && !e.step) e.step = what;
    throw e;
  }
}

/** The scope in words, for the log and the summary. */
export function describeScope(scope) {
  const why = scope.why ? ` (${scope.why})` : "";
  if (scope.scope === "pulls")
    return `pull request${scope.numbers.length === 1 ? "" : "s"} ${scope.numbers.map((n) => `#${n}`).join(", ")}${why}`;
  if (scope.scope === "none") return `no pull request${why}`;
  return `all open pull requests${why}`;
}

/** Parses a `numbers` input ("12, 14 #15") into pull request numbers, or throws a usage error. */
export function parseNumbers(text) {
  const parts = String(text ?? "")
    .split(/[\s,]+/)
    .map((s) => s.replace(/^#/, ""))
    .filter(Boolean);
  return parts.map((p) => {
    if (!/^[1-9][0-9]*$/.test(p))
      throw new RunError([
        `numbers: expected pull request numbers separated by commas or spaces, found ${JSON.stringify(p)}`,
      ]);
    return Number(p);
  });
}

/**
 * Any failure as one line that says what went wrong and what to do, for the CLI's stderr and the
 * Action's `::error::`: a RunError's own lines, GitHub's answers by status, an unreachable API by
 * address. `step` names what the run was doing when it failed.
 */
export function describeFailure(e, { step } = {}) {
  if (e instanceof RunError) return e.lines;
  const at = step ?? e?.step;
  const req = e?.request ? ` to ${e.request.method ?? "GET"} ${pathOf(e.request.url)}` : "";
  const say = (line) => [at ? `${at}: ${line}` : line];
  if (e?.unreachable) return say(`${e.message}; check GITHUB_API_URL and the network`);
  const status = e?.status ?? e?.response?.status;
  const gh = e?.message ? ` (${String(e.message).split("\n")[0]})` : "";
  if (status === 401)
    return say(`bad token: GitHub answered 401${gh}${req}; check the token (GH_TOKEN, else GITHUB_TOKEN)`);
  const limited = rateLimitReset(e);
  if (limited !== undefined)
    return say(
      `rate limited by GitHub${limited ? ` until ${limited}` : ""} (${status}${req ? ` on${req.slice(3)}` : ""}); nothing more was attempted; run again after the reset`,
    );
  if (status === 403)
    return say(
      `forbidden: GitHub answered 403${gh}${req}; the token lacks a permission this step needs (pull-requests, issues or statuses: write for --live)`,
    );
  if (status === 404 || /NOT_FOUND|not found|Could not resolve to a Repository/i.test(e?.message ?? ""))
    return say(
      `not found: GitHub answered ${status ?? "NOT_FOUND"}${gh}${req}; check --repo owner/name and that the token can see the repository`,
    );
  if (status >= 500)
    return say(`GitHub failed on its side (${status}${gh})${req}, even after retries; try again later`);
  if (status) return say(`GitHub answered ${status}${gh}${req}`);
  return say(String(e?.message ?? e).split("\n")[0]);
}

function pathOf(url) {
  try {
    return new URL(url).pathname;
  } catch {
    return url ?? "";
  }
}

/** "HH:MM UTC" when `e` is a rate-limit answer (403 or 429 with the headers GitHub sends), "" when the time is unknown, else undefined. */
export function rateLimitReset(e) {
  const status = e?.status ?? e?.response?.status;
  if (status !== 403 && status !== 429) return undefined;
  const h = e?.response?.headers ?? {};
  const spent =
    h["x-ratelimit-remaining"] === "0" ||
    h["retry-after"] !== undefined ||
    status === 429 ||
    /rate limit/i.test(e?.message ?? "");
  if (!spent) return undefined;
  const reset = Number(h["x-ratelimit-reset"]);
  const at =
    reset > 0
      ? new Date(reset * 1000)
      : Number(h["retry-after"]) > 0
        ? new Date(Date.now() + Number(h["retry-after"]) * 1000)
        : null;
  return at ? `${at.toISOString().slice(11, 16)} UTC` : "";
}
