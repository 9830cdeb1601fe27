//! An Octokit for the shells: @octokit/core with retries on 5xx (plugin-retry) and rate-limit handling
//! (plugin-throttling) that honours `retry-after`, logging every retry, pointed where the runner says.
import { Octokit } from "@octokit/core";
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import Bottleneck from "bottleneck/light.js";

/** How many times a request hit by a rate limit (primary or secondary) is retried before the run fails. */
export const MAX_RATE_LIMIT_RETRIES = 3;
/** How many times a 5xx/429 is retried by plugin-retry (it waits 1, 4, 9 s). */
export const MAX_SERVER_ERROR_RETRIES = 3;
/**
 * The longest wait for a primary (hourly) rate limit worth sitting out. Past it the run stops: a job
 * that waits most of an hour for its budget burns CI minutes, and the next scheduled sweep will do.
 */
export const MAX_RATE_LIMIT_WAIT_S = 60;
/** GitHub asks for at least a second between writes (and GraphQL calls); plugin-throttling keeps it. */
export const WRITE_SPACING_MS = 1000;

/**
 * Octokit reports a fetch that got no answer (connection refused, no such host) as a 500, which
 * plugin-retry and the page halving then retry as if GitHub had failed; an API that cannot be reached
 * will not be reached by asking again. Registered first, this wrap is innermost: it turns that 500 into
 * status 0 (no answer), which the retries leave alone, worded with the address and the cause.
 */
function unreachable(octokit) {
  octokit.hook.wrap("request", async (request, options) => {
    try {
      return await request(options);
    } catch (e) {
      if (e?.status !== 500 || e.response || !e.cause) throw e;
      const code = e.cause?.cause?.code ?? e.cause?.code ?? e.cause?.cause?.message ?? e.message;
      if (dropped(code)) {
        // The connection dropped mid-request. A read is asked again (plugin-retry takes this 500); a
        // write may have been applied with its reply lost, so it is not repeated blind: the caller
        // re-reads before recording anything (`ambiguous`).
        if (idempotent(options)) throw e;
        const err = new e.constructor(
          `the connection dropped before GitHub answered ${options.method} ${options.url}: whether it was applied is not known (${describeCause(code)})`,
          0,
          { request: e.request },
        );
        err.ambiguous = true;
        throw err;
      }
      const origin = (() => {
        try {
          return new URL(e.request?.url ?? options.url).origin;
        } catch {
          return options.baseUrl ?? "the API";
        }
      })();
      const err = new e.constructor(`could not reach the API at ${origin}: ${describeCause(code)}`, 0, {
        request: e.request,
      });
      err.unreachable = true;
      throw err;
    }
  });
}

/** A connection that was open and then closed under the request (not one that could not be made). */
function dropped(code) {
  return /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$|other side closed|socket hang up/i.test(String(code));
}

/** A request that changes nothing when asked twice: a read, or a GraphQL query (not a mutation). */
function idempotent(options) {
  if (options.method === "GET" || options.method === "HEAD") return true;
  return (
    options.method === "POST" &&
    /\/graphql$/.test(options.url ?? "") &&
    typeof options.query === "string" &&
    !/^\s*mutation\b/.test(options.query)
  );
}

/** A connection failure's code in words (Node names them ECONNREFUSED, ENOTFOUND, …). */
function describeCause(code) {
  const words = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "no such host",
    ECONNRESET: "connection reset",
    ETIMEDOUT: "timed out",
    EAI_AGAIN: "name lookup failed",
  };
  return words[code] ? `${words[code]} (${code})` : code;
}

const RetryingOctokit = Octokit.plugin(unreachable, retry, throttling);

/**
 * `timeScale` multiplies every wait (retry-after, back-off, write spacing). It is 1 on GitHub; the emulator
 * runs the Action with PRFLOW_TIME_SCALE=0.001 so that "retry after 60 s" takes 60 ms in a test and the
 * same retry code runs. Nothing else differs between GitHub and the emulator.
 */
/** `owner/name` as GitHub spells a repository, split; null when `slug` is not one. */
export function parseSlug(slug) {
  const m = /^([\w.-]+)\/([\w.-]+)$/.exec(slug ?? "");
  return m ? { owner: m[1], repo: m[2] } : null;
}

export function makeOctokit({ token, baseUrl, graphqlUrl, log = () => {}, timeScale, userAgent } = {}) {
  const env = globalThis.process?.env ?? {};
  const scale = timeScale ?? (Number(env.PRFLOW_TIME_SCALE) > 0 ? Number(env.PRFLOW_TIME_SCALE) : 1);
  const apiUrl = (baseUrl || env.GITHUB_API_URL || "https://api.github.com").replace(/\/+$/, "");
  // A caller that names the REST base but not GraphQL gets GraphQL beside that base, not the runner's.
  const gqlUrl = graphqlUrl || (baseUrl ? undefined : env.GITHUB_GRAPHQL_URL) || undefined;
  const what = (options) => `${options.method} ${options.url}`;
  const onLimit = (kind) => (retryAfter, options, _octokit, retryCount) => {
    if (kind === "rate limit" && retryAfter > MAX_RATE_LIMIT_WAIT_S) {
      log(
        `giving up: the hourly rate limit is spent on ${what(options)}; it resets in ${retryAfter} s, more than this request waits (${MAX_RATE_LIMIT_WAIT_S} s): the resident worker waits for the reset, a run stops`,
      );
      return false;
    }
    if (retryCount < MAX_RATE_LIMIT_RETRIES) {
      log(
        `retry: ${kind} on ${what(options)}; waiting ${retryAfter} s as GitHub asks (retry ${retryCount + 1} of ${MAX_RATE_LIMIT_RETRIES})`,
      );
      return true;
    }
    log(`giving up: ${kind} on ${what(options)} after ${retryCount} retries`);
    return false;
  };
  const octokit = new RetryingOctokit({
    auth: token,
    baseUrl: apiUrl,
    userAgent: userAgent ?? "prflow",
    // Every failed attempt is logged where it happens, beneath the plugins, so each retry leaves a line.
    request: { fetch: loggingFetch(log, scale) },
    log: { debug() {}, info() {}, warn: (m) => log(`octokit: ${m}`), error: (m) => log(`octokit: ${m}`) },
    retry: { retries: MAX_SERVER_ERROR_RETRIES, retryAfterBaseValue: 1000 * scale },
    throttle: {
      retryAfterBaseValue: 1000 * scale,
      // Own groups so the spacing scales too (the plugin's defaults are module-wide singletons).
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: WRITE_SPACING_MS * scale }),
      notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 3 * WRITE_SPACING_MS * scale }),
      search: new Bottleneck.Group({ maxConcurrent: 1, minTime: 2 * WRITE_SPACING_MS * scale }),
      onRateLimit: onLimit("rate limit"),
      onSecondaryRateLimit: onLimit("secondary rate limit"),
    },
  });
  // Where GraphQL goes: what the runner says (GITHUB_GRAPHQL_URL), else GitHub's rule for the REST base
  // (…/api/v3 on GitHub Enterprise Server → …/api/graphql; else …/graphql).
  octokit.prflowGraphqlUrl =
    gqlUrl ?? (/\/api\/v3$/.test(apiUrl) ? apiUrl.replace(/\/api\/v3$/, "/api/graphql") : `${apiUrl}/graphql`);
  octokit.graphql = octokit.graphql.defaults({ url: octokit.prflowGraphqlUrl });
  return octokit;
}

/**
 * fetch that logs each answer the plugins may retry (5xx, 429, 403 rate limits). A 429 that is not worded
 * as a secondary limit reaches plugin-retry, whose back-off ignores `retry-after`; so the wait GitHub
 * asks for is taken here first, then the plugin retries.
 */
function loggingFetch(log, scale) {
  return async (url, init) => {
    const res = await fetch(url, init);
    if (res.status >= 500 || res.status === 429 || (res.status === 403 && res.headers.get("retry-after"))) {
      const after = Number(res.headers.get("retry-after"));
      log(
        `GitHub answered ${res.status} to ${init?.method ?? "GET"} ${new URL(url).pathname}${after ? ` (retry-after ${after} s)` : ""}`,
      );
      if (res.status === 429 && after > 0) {
        log(`waiting ${after} s as GitHub asks before retrying`);
        await new Promise((r) => setTimeout(r, after * 1000 * scale));
      }
    }
    return res;
  };
}
