// Transient is not a failure: one policy for what GitHub and git answer while they are briefly unwell
// (a dropped connection, a 5xx, a 429, a secondary limit, a spent hourly limit). What is transient,
// how long to back off, and a retry loop for a git push or fetch: the API's retries are Octokit's
// plugins (lib/github/client.js), tuned to the same waits.

/** The waits between attempts, in seconds: the API's plugin-retry waits 1, 4, 9 s; git the same. */
export const RETRY_WAITS_S = [1, 4, 9];
/** The resident worker's back-off when GitHub keeps failing: doubling from 30 s, at most 10 minutes. */
export const BACKOFF_FIRST_S = 30;
export const BACKOFF_MAX_S = 600;

// What git (through curl) prints when the network or GitHub's front end failed, not the repository.
const GIT_TRANSIENT = [
  /The requested URL returned error: (5\d\d|429)/i,
  /\b(502|503|504) (Bad Gateway|Service Unavailable|Gateway Time-?out)/i,
  /Connection reset|Connection refused|Connection timed out|Operation timed out|timed out after/i,
  /Failed to connect|Could not resolve host|Couldn't connect|Empty reply from server/i,
  /remote end hung up unexpectedly|early EOF|RPC failed|unexpected disconnect|transfer closed/i,
  /SSL_read|GnuTLS recv error|TLS connection was non-properly terminated|curl \d+ /i,
];

/** Whether git's output (stderr) says the failure was the network's or GitHub's front end's. */
export function gitTransient(text) {
  return GIT_TRANSIENT.some((re) => re.test(String(text ?? "")));
}

/**
 * Whether an API error is transient: no answer (a dropped or refused connection), a 5xx, a 429, a
 * secondary limit or a spent hourly limit (a 403 saying so, GraphQL's RATE_LIMITED).
 */
export function apiTransient(e) {
  if (!e) return false;
  const status = e.status ?? e.response?.status;
  if (status === 0 || e.unreachable || e.ambiguous) return true;
  if (status >= 500 || status === 429) return true;
  const text = `${e.message ?? ""} ${JSON.stringify(e.response?.data ?? "")}`;
  if (/rate limit|RATE_LIMITED|abuse/i.test(text)) return true;
  if (e.cause && !status) return true; // fetch failed with no answer at all
  return false;
}

/**
 * How long to wait after GitHub failed for the `attempt`-th time in a row (1, 2, ...): until a spent
 * rate limit resets (its `x-ratelimit-reset`, or `retry-after`), else doubling back-off. Returns
 * `{ seconds, until (ISO, machine clock), why }`.
 */
export function waitAfter(e, attempt, nowMs = Date.now()) {
  const headers = e?.response?.headers ?? {};
  const reset = Number(headers["x-ratelimit-reset"]);
  const remaining = headers["x-ratelimit-remaining"];
  const after = Number(headers["retry-after"]);
  let seconds;
  let why;
  if (Number.isFinite(reset) && reset > 0 && String(remaining) === "0") {
    seconds = Math.max(1, Math.ceil(reset - nowMs / 1000) + 1);
    why = "the rate limit to reset";
  } else if (Number.isFinite(after) && after > 0) {
    seconds = after;
    why = "the wait GitHub asked for";
  } else {
    seconds = Math.min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** Math.max(0, attempt - 1));
    why = "GitHub to answer again";
  }
  return { seconds, until: new Date(nowMs + seconds * 1000).toISOString(), why };
}

/**
 * Runs `attempt()` again while it answers `{ transient: true }` (or throws what `isTransient` calls
 * transient), waiting RETRY_WAITS_S between tries; returns the last answer, or throws the last error.
 * `sleep(ms)` is the caller's (a test's moves a clock); `log` says each retry.
 */
export async function retrying(
  attempt,
  {
    what = "git",
    isTransient = () => false,
    sleep = (ms) => new Promise((r) => setTimeout(r, ms)),
    log = () => {},
    waits = RETRY_WAITS_S,
  } = {},
) {
  for (let i = 0; ; i++) {
    let out;
    try {
      out = await attempt();
    } catch (e) {
      if (!isTransient(e) || i >= waits.length) throw e;
      log(
        `retry: ${what} failed (${String(e.message).split("\n").pop()}); again in ${waits[i]} s (retry ${i + 1} of ${waits.length})`,
      );
      await sleep(waits[i] * 1000);
      continue;
    }
    if (!out?.transient || i >= waits.length) return out;
    log(
      `retry: ${what} failed (${String(out.log ?? "")
        .trim()
        .split("\n")
        .pop()}); again in ${waits[i]} s (retry ${i + 1} of ${waits.length})`,
    );
    await sleep(waits[i] * 1000);
  }
}
