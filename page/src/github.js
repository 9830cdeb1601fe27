// Reads what the dashboard shows from GitHub, in the browser, with the code the CLI uses: facts by
// lib/github/read.js and lib/github/read-queue.js (the Action's readFacts, then the merge queue's
// facts) through lib/github/client.js (makeOctokit), and `.github/prflow.json` through the REST
// contents API. No decision is taken here: the engine draws everything.
import { makeOctokit, parseSlug } from "../../lib/github/client.js";
import { readFacts } from "../../lib/github/read.js";
import { readLanded, readQueueFacts } from "../../lib/github/read-queue.js";
import { checkConfigText, DEFAULT_CONFIG_PATH as CONFIG_PATH } from "../../lib/config-text.js";
/** GitHub.com's REST base; GHES is `https://HOST/api/v3`. */
export const DEFAULT_API = "https://api.github.com";

/** A failure with the step it happened in ("reading pull requests") and a line for the page. */
export class ReadError extends Error {
  constructor(step, line, cause) {
    super(`${step}: ${line}`);
    this.step = step;
    this.line = line;
    this.cause = cause;
  }
}

/**
 * The API base a token may be sent to: https, or http on loopback (the emulator). Anything else is
 * refused before a token leaves the page.
 */
export function apiBase(text) {
  let url;
  try {
    url = new URL((text || DEFAULT_API).trim());
  } catch {
    throw new ReadError("checking the API URL", `${JSON.stringify(text)} is not a URL`);
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new ReadError(
      "checking the API URL",
      `${url.origin} is not https; the token is only sent over https (or to loopback)`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

/** Every `owner/repo` in `text` (separated by commas, spaces or lines), or a ReadError naming the first bad one. */
export function parseRepos(text) {
  const list = String(text ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (!list.length)
    throw new ReadError("checking the repository", "enter owner/repo (several: separate them with commas)");
  return [...new Set(list)].map(parseRepo);
}

/** `owner/repo`, or a ReadError saying what is wrong with it. */
export function parseRepo(text) {
  const parsed = parseSlug((text ?? "").trim());
  if (!parsed)
    throw new ReadError("checking the repository", `expected owner/repo, found ${JSON.stringify(text ?? "")}`);
  return parsed;
}

/** The web address of a pull request, from the API base (api.github.com → github.com, HOST/api/v3 → HOST). */
export function pullUrl(api, fullName, number) {
  let server = servers.get(api);
  if (server === undefined)
    servers.set(api, (server = api === DEFAULT_API ? "https://github.com" : api.replace(/\/api\/v3$/, "")));
  return `${server}/${fullName}/pull/${number}`;
}
/** The web server of each API base, worked out once: the page asks for three links per row. */
const servers = new Map();

/**
 * A refresh reads everything again once the last full read is this old, whatever the open list's ETag
 * says: a check that finishes changes no pull request's `updated_at`, so the list answers 304 all the same.
 */
export const FULL_READ_MINUTES = 5;

/** The clock `facts.now` came from, in words for the "as of" stamp. */
export const CLOCKS = {
  github: "GitHub's clock, from its Date header",
  // api.github.com does not list Date in Access-Control-Expose-Headers, so a page cannot read it.
  browser: "this browser's clock: GitHub does not let a page read its Date header",
};

/** The open pull requests' list, asked conditionally: `changed` false on GitHub's 304 (which costs no rate limit). */
export async function probe(octokit, { owner, repo, etag }) {
  try {
    const res = await octokit.request("GET /repos/{owner}/{repo}/issues", {
      owner,
      repo,
      state: "open",
      sort: "updated",
      direction: "desc",
      per_page: 100,
      headers: etag ? { "if-none-match": etag } : {},
    });
    return { changed: true, etag: res.headers.etag ?? null };
  } catch (e) {
    if (e.status === 304) return { changed: false, etag };
    throw new ReadError("checking for changes", explain(e, `${owner}/${repo}`), e);
  }
}

/** The client for `api` with `token`, counting its requests in `stats` and noting whether GitHub's Date header was readable. */
export function client({ api, token, progress = () => {} }) {
  const octokit = makeOctokit({ token, baseUrl: api, log: progress, userAgent: "prflow-dashboard" });
  const stats = { requests: 0, dated: false };
  octokit.hook.error("request", (error) => {
    stats.requests++;
    throw error;
  });
  octokit.hook.after("request", (res) => {
    stats.requests++;
    if (res.headers?.date) stats.dated = true;
  });
  return { octokit, stats };
}

/**
 * Reads the facts, the config, then the merge queue's facts, with the loaded `prflow` (js/web.js): the
 * engine is built from the config's text (or from no config when the repository has none) and says
 * which branches the queue needs compared with the tip. First it asks for the open list's ETag, so a
 * later `probe` with it answers 304 while nothing changed. `progress(line)` gets a line per page
 * ("reading pull requests 50/120") and every retry or partial failure the readers report.
 * `labelCache` is the last read's (its ETags make an unchanged label set cost nothing).
 * `dashboard(engine, facts)` asks the engine for the view (the page times it).
 * Returns { facts, engine, view, configSource, requests, etag, clock, labelColors, labelCache }: a bad config is the engine's to
 * report (its answers carry `configErrors`), never replaced here by the preset.
 */
export async function readAll({
  api,
  token,
  owner,
  repo,
  prflow,
  labelCache,
  dashboard = (engine, facts) => engine.dashboard({ facts }),
  progress = () => {},
}) {
  const { octokit, stats } = client({ api, token, progress });
  // The first answer is also the first place a bad token or a missing repository shows.
  const { etag } = await probe(octokit, { owner, repo }).catch((e) => {
    throw new ReadError("reading pull requests", e.line ?? e.message, e.cause ?? e);
  });

  // Before the facts, so that what the page does once the facts arrive starts at their last answer.
  progress(`reading ${owner}/${repo}'s label colours`);
  const labels = await readLabelColors(octokit, { owner, repo, cache: labelCache, progress });

  progress(`reading pull requests of ${owner}/${repo}`);
  let facts;
  try {
    facts = await readFacts(octokit, { owner, repo, log: progress });
  } catch (e) {
    throw new ReadError("reading pull requests", explain(e, `${owner}/${repo}`), e);
  }

  progress(`reading ${CONFIG_PATH}`);
  let engine;
  let configSource = `${CONFIG_PATH} not found: the preset applies`;
  try {
    const res = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", { owner, repo, path: CONFIG_PATH });
    engine = checkConfigText(prflow, decodeBase64(res.data.content ?? "")).engine;
    configSource = CONFIG_PATH;
  } catch (e) {
    if (e.status !== 404) throw new ReadError(`reading ${CONFIG_PATH}`, explain(e, `${owner}/${repo}`), e);
    engine = prflow.createEngine();
  }

  // The queue's facts need the config's label names, so they come last; what cannot be read is marked
  // unknown in the facts (the engine then says so), never a failed page.
  // Each round asks for the whole view, whose `reads` say what to read next: the answer that names
  // nothing is the one drawn, so the board costs one whole-board engine call after its last response.
  progress("reading the recent landings");
  await readLanded(octokit, { owner, repo, facts, log: progress });
  progress("reading the merge queue's facts");
  let view;
  await readQueueFacts(octokit, {
    owner,
    repo,
    engine,
    facts,
    log: progress,
    reads: (f) => (view = dashboard(engine, f)).reads,
  });
  return {
    facts,
    engine,
    view,
    configSource,
    requests: stats.requests,
    etag,
    clock: stats.dated ? CLOCKS.github : CLOCKS.browser,
    labelColors: labels.colors,
    labelCache: labels.cache,
  };
}

/**
 * The repository's own label colours ({ name: "rrggbb" }), as GitHub draws its labels: REST's label
 * list, a page of 100 at a time, each page asked with the ETag it had last time (`cache`, kept by the
 * caller between reads), so an unchanged label set costs 304s, which cost no rate limit. A label set
 * that cannot be read leaves the colours the config gives (the engine's labelColors): a colour is never
 * worth a failed page.
 */
export async function readLabelColors(octokit, { owner, repo, cache = { pages: [] }, progress = () => {} }) {
  const pages = [];
  try {
    for (let page = 1; ; page++) {
      const last = cache.pages[page - 1];
      let entry;
      try {
        const res = await octokit.request("GET /repos/{owner}/{repo}/labels", {
          owner,
          repo,
          per_page: 100,
          page,
          headers: last?.etag ? { "if-none-match": last.etag } : {},
        });
        entry = {
          etag: res.headers.etag ?? null,
          labels: res.data.map((l) => [l.name, l.color]),
          more: /rel="next"/.test(res.headers.link ?? ""),
        };
      } catch (e) {
        if (e.status !== 304 || !last) throw e;
        entry = last;
      }
      pages.push(entry);
      if (!entry.more) break;
    }
  } catch (e) {
    progress(
      `labels: could not read ${owner}/${repo}'s label colours (${e.status ?? ""} ${e.message}); the config's colours are shown`,
    );
    return { colors: null, cache };
  }
  return { colors: Object.fromEntries(pages.flatMap((p) => p.labels)), cache: { pages } };
}

/** UTF-8 text from the contents API's base64 (with its line breaks). */
function decodeBase64(b64) {
  const bin = atob(b64.replace(/\s+/g, ""));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

/** One line naming what failed: bad token, not found, rate limited, unreachable, or GitHub's words. */
export function explain(e, fullName) {
  const status = e?.status;
  const message = e?.response?.data?.message ?? e?.message ?? String(e);
  const types = (e?.errors ?? []).map((x) => x.type ?? x.extensions?.type);
  // Octokit reports a fetch that never got an answer as a 500 with the browser's words.
  if (!e?.response && /fetch failed|failed to fetch|networkerror|load failed/i.test(message)) {
    return `could not reach the API (${message}): check the API URL; a browser also reports a CORS refusal this way`;
  }
  if (status === 401) return `bad token: GitHub answered 401 (${message}); check the token, or make a new one`;
  // plugin-throttling gives up on a spent GraphQL budget with its own words ("GraphQL Rate Limit Exceeded").
  if (types.includes("RATE_LIMITED") || status === 429 || /rate limit/i.test(message)) {
    const reset = Number(e?.response?.headers?.["x-ratelimit-reset"]);
    const when = reset > 0 ? `; it resets at ${new Date(reset * 1000).toISOString().slice(11, 16)} UTC` : "";
    return `rate limited: ${message}${when}`;
  }
  if (status === 404 || types.includes("NOT_FOUND"))
    return `repository ${fullName} not found, or the token cannot read it (${message})`;
  if (status === 403) return `forbidden: GitHub answered 403 (${message}); the token lacks a read permission`;
  if (status) return `GitHub answered ${status}: ${message}`;
  return message;
}
