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

const RetryingOctokit = Octokit.plugin(retry, throttling);

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
      log(`giving up: the hourly rate limit is spent on ${what(options)}; it resets in ${retryAfter} s, too long to wait (over ${MAX_RATE_LIMIT_WAIT_S} s)`);
      return false;
    }
    if (retryCount < MAX_RATE_LIMIT_RETRIES) {
      log(`retry: ${kind} on ${what(options)}; waiting ${retryAfter} s as GitHub asks (retry ${retryCount + 1} of ${MAX_RATE_LIMIT_RETRIES})`);
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
  octokit.prflowGraphqlUrl = gqlUrl ?? (/\/api\/v3$/.test(apiUrl) ? apiUrl.replace(/\/api\/v3$/, "/api/graphql") : `${apiUrl}/graphql`);
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
      log(`GitHub answered ${res.status} to ${init?.method ?? "GET"} ${new URL(url).pathname}${after ? ` (retry-after ${after} s)` : ""}`);
      if (res.status === 429 && after > 0) {
        log(`waiting ${after} s as GitHub asks before retrying`);
        await new Promise((r) => setTimeout(r, after * 1000 * scale));
      }
    }
    return res;
  };
}
