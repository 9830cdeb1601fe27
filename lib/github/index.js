//! The GitHub layer shared by the Action and the CLI: an Octokit that retries, facts in, plan out.
export { makeOctokit, parseSlug, MAX_RATE_LIMIT_RETRIES, MAX_SERVER_ERROR_RETRIES } from "./client.js";
export { readFacts, readJobLog, graphqlRequest, requiredContexts, toCheck, PULL_PAGE, NESTED } from "./read.js";
export {
  applyOps,
  applyPlan,
  guardBroken,
  WRITERS,
  REVIEW_EVENT,
  APPLIED,
  UNCHANGED,
  DRY_RUN,
  GUARD_FAILED,
  FAILED,
} from "./write.js";
export { syncLabels, listLabels } from "./labels.js";
export { parseEvent, SCOPE_ALL, SCOPE_PULLS, SCOPE_NONE } from "./events.js";
