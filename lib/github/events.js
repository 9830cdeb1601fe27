//! Which pull requests an event asks to reconcile. Events only say *which* pull requests to recompute
//! (state is derived, never remembered), so this is a tiny pure mapping from a webhook payload to a
//! scope, with no rule of the flow in it:
//!
//! | event                                   | scope                                              |
//! | --------------------------------------- | -------------------------------------------------- |
//! | pull_request, pull_request_target       | that pull request                                  |
//! | pull_request_review(_comment)           | that pull request                                  |
//! | issue_comment                           | the pull request, or none on a plain issue          |
//! | check_suite, check_run                  | its pull_requests[], or all when the list is empty  |
//! | status                                  | all (a status carries only a sha)                   |
//! | schedule, workflow_dispatch, push, ...  | all                                                |
//!
//! check_suite/check_run list no pull requests for a fork's branch (GitHub leaves the list empty when
//! the head is in another repository), so an empty list means "could be any": reconcile all.

export const SCOPE_ALL = "all";
export const SCOPE_PULLS = "pulls";
export const SCOPE_NONE = "none";

const all = (why) => ({ scope: SCOPE_ALL, why });
const pulls = (numbers, why) => ({ scope: SCOPE_PULLS, numbers: [...new Set(numbers)].sort((a, b) => a - b), why });
const none = (why) => ({ scope: SCOPE_NONE, why });

/** `{scope:'all'} | {scope:'pulls', numbers} | {scope:'none', why}`; every answer carries `why` in words. */
export function parseEvent(eventName, payload = {}) {
  payload = payload ?? {};
  switch (eventName) {
    case "pull_request":
    case "pull_request_target":
    case "pull_request_review":
    case "pull_request_review_comment":
    case "pull_request_review_thread": {
      const n = payload.pull_request?.number ?? payload.number;
      return Number.isInteger(n)
        ? pulls([n], `${eventName} ${payload.action ?? ""}`.trim())
        : none(`${eventName} without a pull request number`);
    }
    case "issue_comment":
    case "issues": {
      const issue = payload.issue;
      if (!issue) return none(`${eventName} without an issue`);
      if (!issue.pull_request) return none(`${eventName} on issue #${issue.number}, not a pull request`);
      return pulls([issue.number], `${eventName} ${payload.action ?? ""} on #${issue.number}`.trim());
    }
    case "check_suite":
    case "check_run": {
      const list = payload[eventName]?.pull_requests ?? [];
      const numbers = list.map((p) => p.number).filter(Number.isInteger);
      return numbers.length
        ? pulls(numbers, `${eventName} ${payload.action ?? ""}`.trim())
        : all(`${eventName} names no pull request (a fork's head, or a branch without one)`);
    }
    case "status":
      return all(
        `status ${payload.context ?? ""} on ${String(payload.sha ?? "").slice(0, 7)}: a status names only a commit`.replace(
          "  ",
          " ",
        ),
      );
    case "schedule":
      return all("scheduled sweep");
    case "workflow_dispatch":
      return all("started by hand");
    case "":
      return all("no event (run outside a workflow)");
    default:
      return all(`${eventName}: sweeping all`);
  }
}
