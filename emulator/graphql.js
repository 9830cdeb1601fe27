// GraphQL as GitHub serves it: documents are parsed and validated by graphql-js against GitHub's own
// schema text (@octokit/graphql-schema), checked against GitHub's documented limits (first/last 1-100 on
// every connection, at most 500,000 nodes by GitHub's formula), costed like GitHub's rate limit, then
// executed with resolvers over the emulator's state. Response shapes come from GitHub's schema, not from us.
import { readFileSync } from "node:fs";
import { buildSchema, execute, getNamedType, GraphQLError, Kind, parse, validate } from "graphql";

/** GitHub's per-connection page bounds and per-query node limit (docs: "Rate limits and query limits"). */
export const MAX_PAGE = 100;
export const MAX_NODES = 500_000;
/** GitHub's hourly GraphQL budget in points. */
export const POINTS_PER_HOUR = 5000;

let cachedSchema;
/** GitHub's public schema, built once per process (about 0.3 s). */
export function githubSchema() {
  if (!cachedSchema) {
    // The package exports only index.js (which parses a large JSON copy on import); read the SDL beside it.
    const sdl = readFileSync(new URL("./schema.graphql", import.meta.resolve("@octokit/graphql-schema")), "utf8");
    // GitHub's SDL duplicates two enterprise fields and deprecates interface fields inconsistently; graphql-js
    // would refuse both, so the SDL is taken as valid (it is GitHub's own) and so is the built schema.
    cachedSchema = buildSchema(sdl, { assumeValidSDL: true, assumeValid: true });
  }
  return cachedSchema;
}

/**
 * GitHub's limits and cost for one operation, computed statically as GitHub does: every connection needs
 * first or last within 1..100; nodes = Σ over connections of (product of the enclosing connections' sizes ×
 * its own size); cost = round(Σ over connections of the product of the enclosing sizes / 100), at least 1.
 */
export function analyzeLimits(schema, document, { operationName, variables = {} } = {}) {
  const fragments = Object.fromEntries(
    document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops[0];
  const acc = { nodes: 0, requests: 0, errors: [], nodeLimitHit: false };
  if (!op) return { ...acc, cost: 1 };
  const root = op.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  walk(op.selectionSet, root, 1, []);
  const cost = op.operation === "mutation" ? 1 : Math.max(1, Math.round(acc.requests / 100));
  return { nodes: acc.nodes, requests: acc.requests, errors: acc.errors, cost };

  function argValue(field, name) {
    const arg = field.arguments?.find((a) => a.name.value === name);
    if (!arg) return undefined;
    if (arg.value.kind === Kind.VARIABLE) return variables[arg.value.name.value] ?? undefined;
    if (arg.value.kind === Kind.INT) return Number(arg.value.value);
    if (arg.value.kind === Kind.NULL) return undefined;
    return undefined;
  }
  function walk(selectionSet, parentType, multiplier, seen) {
    if (!selectionSet || !parentType) return;
    for (const sel of selectionSet.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(
          sel.selectionSet,
          sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parentType,
          multiplier,
          seen,
        );
      } else if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments[sel.name.value];
        if (frag && !seen.includes(frag.name.value))
          walk(frag.selectionSet, schema.getType(frag.typeCondition.name.value), multiplier, [
            ...seen,
            frag.name.value,
          ]);
      } else if (sel.kind === Kind.FIELD) {
        const name = sel.name.value;
        if (name.startsWith("__") || typeof parentType.getFields !== "function") continue;
        const def = parentType.getFields()[name];
        if (!def) continue;
        const type = getNamedType(def.type);
        let inner = multiplier;
        const isConnection = type.name.endsWith("Connection") && def.args.some((a) => a.name === "first");
        if (isConnection) {
          const first = argValue(sel, "first");
          const last = argValue(sel, "last");
          if (first === undefined && last === undefined) {
            acc.errors.push({
              type: "MISSING_PAGINATION_BOUNDARIES",
              message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
              locations: loc(sel),
            });
            continue;
          }
          for (const [argName, v] of [
            ["first", first],
            ["last", last],
          ]) {
            if (v === undefined) continue;
            if (v > MAX_PAGE)
              acc.errors.push({
                type: "EXCESSIVE_PAGINATION",
                message: `Requesting ${v} records on the \`${name}\` connection exceeds the \`${argName}\` limit of ${MAX_PAGE} records.`,
                locations: loc(sel),
              });
            else if (v < 1)
              acc.errors.push({
                type: "EXCESSIVE_PAGINATION",
                message: `\`${argName}\` on the \`${name}\` connection must be between 1 and ${MAX_PAGE}, found ${v}.`,
                locations: loc(sel),
              });
          }
          const size = Math.min(MAX_PAGE, Math.max(first ?? 0, last ?? 0));
          acc.requests += multiplier;
          acc.nodes += multiplier * size;
          inner = multiplier * size;
          if (acc.nodes > MAX_NODES && !acc.nodeLimitHit) {
            acc.nodeLimitHit = true;
            acc.errors.push({
              type: "MAX_NODE_LIMIT_EXCEEDED",
              message: `By the time this query traverses to the ${name} connection, it is requesting up to ${acc.nodes.toLocaleString("en-US")} possible nodes which exceeds the maximum limit of ${MAX_NODES.toLocaleString("en-US")}.`,
              locations: loc(sel),
            });
          }
        }
        walk(sel.selectionSet, type, inner, seen);
      }
    }
  }
}

/**
 * GitHub words the common validation errors its own way (and names a code); the rest keep graphql-js's
 * text, which says the same thing.
 */
export function githubWording(message) {
  let m = /^Cannot query field "(\w+)" on type "(\w+)"/.exec(message);
  if (m)
    return {
      message: `Field '${m[1]}' doesn't exist on type '${m[2]}'`,
      extensions: { code: "undefinedField", typeName: m[2], fieldName: m[1] },
    };
  m = /^Argument "\w+\.(\w+)\((\w+):\)" of type "(.+)" is required, but it was not provided/.exec(message);
  if (m)
    return {
      message: `Field '${m[1]}' is missing required arguments: ${m[2]}`,
      extensions: { code: "missingRequiredArguments", className: "Field", name: m[1], arguments: m[2] },
    };
  m = /^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"/.exec(message);
  if (m)
    return {
      message: `Field '${m[3]}' doesn't accept argument '${m[1]}'`,
      extensions: { code: "argumentNotAccepted", name: m[3], typeName: "Field", argumentName: m[1] },
    };
  return { message, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } };
}

function loc(node) {
  return node.loc ? [{ line: node.loc.startToken.line, column: node.loc.startToken.column }] : [];
}

/** A Relay connection over `items` (first/after/last/before) with nodes, edges, pageInfo and totalCount. */
export function connection(items, { first, after, last, before } = {}) {
  const decode = (c) => {
    const m = /^cursor:(\d+)$/.exec(Buffer.from(String(c), "base64").toString());
    if (!m)
      throw new GraphQLError(`\`${c}\` does not appear to be a valid cursor.`, {
        extensions: { type: "INVALID_CURSOR_ARGUMENTS" },
      });
    return Number(m[1]);
  };
  const cursor = (i) => Buffer.from(`cursor:${i}`).toString("base64");
  let start = 0;
  let end = items.length;
  if (after != null) start = Math.max(start, decode(after) + 1);
  if (before != null) end = Math.min(end, decode(before));
  let from = start;
  let to = Math.max(start, end);
  if (first != null) to = Math.min(to, from + first);
  if (last != null) from = Math.max(from, to - last);
  const slice = items.slice(from, to);
  return {
    totalCount: items.length,
    nodes: slice,
    edges: slice.map((node, i) => ({ node, cursor: cursor(from + i) })),
    pageInfo: {
      hasNextPage: to < end,
      hasPreviousPage: from > start,
      startCursor: slice.length ? cursor(from) : null,
      endCursor: slice.length ? cursor(to - 1) : null,
    },
  };
}

/** How many distinct query texts keep their parsed and validated document (a client sends a handful). */
export const DOCUMENT_CACHE_SIZE = 256;
const documents = new Map();

/**
 * The parsed document of `query` and its parse or validation errors, worded as GitHub words them. Both
 * depend on the query text alone (the schema is fixed per process), so each distinct text is parsed and
 * validated once: a client polls with the same few documents, and parsing + validating them against
 * GitHub's schema cost more than executing them. Every request is still judged; only the verdict is
 * remembered.
 * The document must not be mutated (graphql-js execute does not); errors are copied per answer.
 */
function checkedDocument(schema, query) {
  let entry = documents.get(query);
  if (entry) return entry;
  try {
    const document = parse(query);
    const validationErrors = validate(schema, document).map((e) => ({
      ...githubWording(e.message),
      locations: e.locations,
    }));
    entry = { document, validationErrors };
  } catch (e) {
    entry = { parseErrors: [{ message: `Parse error on ${JSON.stringify(e.message)}`, locations: e.locations }] };
  }
  if (documents.size >= DOCUMENT_CACHE_SIZE) documents.delete(documents.keys().next().value);
  documents.set(query, entry);
  return entry;
}

/**
 * Parses, validates, checks limits and executes one request body. Returns { status, body, record } where
 * `record` says what to log: the operation name or top-level fields, the cost, and any validation problem.
 */
export function runGraphql(emulator, body, { login, token, faults }) {
  const schema = githubSchema();
  const { query, variables = {}, operationName } = body ?? {};
  if (typeof query !== "string") {
    return {
      status: 400,
      body: { message: "Problems parsing JSON", documentation_url: "https://docs.github.com/graphql" },
      record: { invalid: ["no query"] },
    };
  }
  const checked = checkedDocument(schema, query);
  if (checked.parseErrors) {
    const errors = checked.parseErrors.map((e) => ({ ...e }));
    return {
      status: 200,
      body: { errors },
      record: { invalid: errors.map((x) => x.message), operation: operationName ?? "(unparsed)" },
    };
  }
  const { document } = checked;
  const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops[0];
  const fields = op ? op.selectionSet.selections.filter((s) => s.kind === Kind.FIELD).map((s) => s.name.value) : [];
  const operation = op?.name?.value ?? fields.join(",");
  if (checked.validationErrors.length) {
    const errors = checked.validationErrors.map((e) => ({ ...e }));
    return { status: 200, body: { errors }, record: { operation, fields, invalid: errors.map((x) => x.message) } };
  }
  const limits = analyzeLimits(schema, document, { operationName, variables });
  if (limits.errors.length) {
    return {
      status: 200,
      body: { errors: limits.errors },
      record: { operation, fields, invalid: limits.errors.map((x) => x.message), cost: 0, nodes: limits.nodes },
    };
  }
  const budget = emulator.spendPoints(token, limits.cost);
  const context = {
    emulator,
    state: emulator.state,
    login,
    tokenKind: emulator.tokens.get(token)?.kind ?? null,
    faults,
    cost: limits.cost,
    nodes: limits.nodes,
    budget,
  };
  const result = execute({
    schema,
    document,
    rootValue: rootValue(emulator.state, context),
    contextValue: context,
    variableValues: variables,
    operationName,
    typeResolver: (value) => value.__typename,
  });
  const out = { data: result.data ?? null };
  if (result.errors?.length) {
    out.errors = result.errors.map((e) => {
      const json = { message: e.message, locations: e.locations, path: e.path };
      if (e.extensions?.type) json.type = e.extensions.type;
      return json;
    });
  }
  // Errors a resolver raised because the emulator lacks a field are bugs of the emulator: recorded too.
  const unsupported = (result.errors ?? [])
    .filter((e) => /Cannot return null for non-nullable|is not a function/.test(e.message))
    .map((e) => `unsupported by the emulator: ${e.message}`);
  return {
    status: 200,
    body: out,
    record: {
      operation,
      fields,
      cost: limits.cost,
      nodes: limits.nodes,
      invalid: unsupported.length ? unsupported : undefined,
    },
  };
}

// ---- resolvers: views over the state ----------------------------------------------------------------

const notFound = (message) => new GraphQLError(message, { extensions: { type: "NOT_FOUND" } });
const url = (st, path = "") => `https://github.com/${st.owner}/${st.repo}${path}`;

function rootValue(st, ctx) {
  return {
    repository: ({ owner, name }) => {
      if (owner.toLowerCase() !== st.owner.toLowerCase() || name.toLowerCase() !== st.repo.toLowerCase()) {
        throw notFound(`Could not resolve to a Repository with the name '${owner}/${name}'.`);
      }
      return repoView(st, ctx);
    },
    viewer: () => userView(st, ctx.login, { viewer: true }),
    rateLimit: () => ({
      __typename: "RateLimit",
      cost: ctx.cost,
      limit: POINTS_PER_HOUR,
      nodeCount: ctx.nodes,
      remaining: ctx.budget.remaining,
      used: ctx.budget.used,
      resetAt: st.clock.iso(ctx.budget.resetAt),
    }),
    node: ({ id }) => nodeById(st, ctx, id),
    nodes: ({ ids }) => ids.map((id) => nodeById(st, ctx, id)),
    // Mutation roots (graphql-js reads them from the same root value).
    enablePullRequestAutoMerge: ({ input }) => {
      const pr = pullByNodeId(st, input.pullRequestId);
      asWriter(ctx, () =>
        unprocessable(() =>
          st.enableAutoMerge(pr.number, { method: (input.mergeMethod ?? "MERGE").toLowerCase(), by: ctx.login }),
        ),
      );
      return {
        __typename: "EnablePullRequestAutoMergePayload",
        clientMutationId: input.clientMutationId ?? null,
        actor: () => userView(st, ctx.login),
        pullRequest: () => pullView(st, ctx, pr),
      };
    },
    disablePullRequestAutoMerge: ({ input }) => {
      const pr = pullByNodeId(st, input.pullRequestId);
      asWriter(ctx, () => st.disableAutoMerge(pr.number, ctx.login));
      return {
        __typename: "DisablePullRequestAutoMergePayload",
        clientMutationId: input.clientMutationId ?? null,
        actor: () => userView(st, ctx.login),
        pullRequest: () => pullView(st, ctx, pr),
      };
    },
    mergePullRequest: ({ input }) => {
      const pr = pullByNodeId(st, input.pullRequestId);
      asWriter(ctx, () => {
        try {
          st.merge(
            pr.number,
            {
              method: (input.mergeMethod ?? "MERGE").toLowerCase(),
              sha: input.expectedHeadOid,
              title: input.commitHeadline,
              message: input.commitBody,
            },
            ctx.login,
          );
        } catch (e) {
          if (!e.httpStatus) throw e;
          // GitHub answers a refused merge as a GraphQL error (UNPROCESSABLE), in the words REST uses.
          throw new GraphQLError(e.message, { extensions: { type: "UNPROCESSABLE" } });
        }
      });
      return {
        __typename: "MergePullRequestPayload",
        clientMutationId: input.clientMutationId ?? null,
        actor: () => userView(st, ctx.login),
        pullRequest: () => pullView(st, ctx, pr),
      };
    },
  };
}

/** A refused write as GitHub's GraphQL error (UNPROCESSABLE), in the words REST uses. */
function unprocessable(write) {
  try {
    return write();
  } catch (e) {
    if (!e.httpStatus) throw e;
    throw new GraphQLError(e.message, { extensions: { type: "UNPROCESSABLE" } });
  }
}

/** A pull request by its node id, or GitHub's NOT_FOUND error. */
function pullByNodeId(st, id) {
  const [kind, raw] = Buffer.from(String(id), "base64").toString().split(":");
  const pr = kind === "PullRequest" ? [...st.pulls.values()].find((p) => p.isPull && p.id === Number(raw)) : null;
  if (!pr) throw notFound(`Could not resolve to a node with the global id of '${id}'`);
  return pr;
}

/** Runs a mutation's write with the caller's token kind, so its webhooks start runs as a REST write's would. */
function asWriter(ctx, write) {
  return ctx.emulator.state.withTokenKind(ctx.tokenKind, write);
}

function nodeById(st, ctx, id) {
  const [kind, raw] = Buffer.from(String(id), "base64").toString().split(":");
  const n = Number(raw);
  if (kind === "Repository" && n === st.repoId) return repoView(st, ctx);
  if (kind === "PullRequest" || kind === "Issue") {
    const pr = [...st.pulls.values()].find((p) => p.id === n);
    if (pr) return pr.isPull ? pullView(st, ctx, pr) : issueView(st, ctx, pr);
  }
  if (kind === "Label") {
    const l = [...st.labels.values()].find((x) => x.id === n);
    if (l) return labelView(st, l);
  }
  if (kind === "IssueComment" && st.comments.has(n)) return commentView(st, st.comments.get(n));
  throw notFound(`Could not resolve to a node with the global id of '${id}'`);
}

function repoView(st, ctx) {
  return {
    __typename: "Repository",
    id: st.nodeId("Repository", st.repoId),
    databaseId: st.repoId,
    name: st.repo,
    nameWithOwner: `${st.owner}/${st.repo}`,
    url: url(st),
    isPrivate: false,
    owner: () => userView(st, st.owner),
    defaultBranchRef: () => ({
      __typename: "Ref",
      id: st.nodeId("Ref", st.defaultBranch),
      name: st.defaultBranch,
      prefix: "refs/heads/",
      target: () => commitView(st, { oid: st.branch(st.defaultBranch).sha, committedDate: st.now(), author: st.owner }),
      // Classic branch protection as non-admins see it (rulesets are served by REST /rules/branches).
      refUpdateRule: st.protectionChecks.length
        ? {
            __typename: "RefUpdateRule",
            pattern: st.defaultBranch,
            requiredStatusCheckContexts: [...st.protectionChecks],
            allowsDeletions: false,
            allowsForcePushes: false,
            blocksCreations: false,
            requiredApprovingReviewCount: 0,
            requiresCodeOwnerReviews: false,
            requiresConversationResolution: false,
            requiresLinearHistory: false,
            requiresSignatures: false,
            viewerAllowedToDismissReviews: false,
            viewerCanPush: true,
          }
        : null,
    }),
    labels: (args) => {
      if (ctx.faults.labelsReadFails())
        throw new GraphQLError("Something went wrong while loading labels (injected fault).", {
          extensions: { type: "SERVICE_UNAVAILABLE" },
        });
      const all = [...st.labels.values()].sort((a, b) => a.name.localeCompare(b.name));
      const q = args.query?.toLowerCase();
      return connection(
        all.filter((l) => !q || l.name.toLowerCase().includes(q)).map((l) => labelView(st, l)),
        args,
      );
    },
    label: ({ name }) => (st.label(name) ? labelView(st, st.label(name)) : null),
    pullRequests: (args) => {
      let list = [...st.pulls.values()].filter((p) => p.isPull);
      if (args.states) list = list.filter((p) => args.states.includes(p.merged ? "MERGED" : p.state.toUpperCase()));
      if (args.labels) list = list.filter((p) => args.labels.some((l) => p.labels.includes(l)));
      if (args.baseRefName) list = list.filter((p) => p.baseRef === args.baseRefName);
      if (args.headRefName) list = list.filter((p) => p.headRef === args.headRefName);
      const key = args.orderBy?.field === "UPDATED_AT" ? "updatedAt" : "createdAt";
      list.sort((a, b) => a[key].localeCompare(b[key]) || a.number - b.number);
      if (args.orderBy?.direction === "DESC") list.reverse();
      return connection(
        list.map((p) => pullView(st, ctx, p)),
        args,
      );
    },
    pullRequest: ({ number }) => {
      const pr = st.pulls.get(number);
      if (!pr?.isPull) throw notFound(`Could not resolve to a PullRequest with the number of ${number}.`);
      return pullView(st, ctx, pr);
    },
    issue: ({ number }) => {
      const pr = st.pulls.get(number);
      if (!pr || pr.isPull) throw notFound(`Could not resolve to an Issue with the number of ${number}.`);
      return issueView(st, ctx, pr);
    },
    // The merge queue's reads (issue 6): a number that may be an issue or a pull request.
    issueOrPullRequest: ({ number }) => {
      const pr = st.pulls.get(number);
      if (!pr) return null;
      return pr.isPull ? pullView(st, ctx, pr) : issueView(st, ctx, pr);
    },
    issues: (args) => {
      let list = [...st.pulls.values()].filter((p) => !p.isPull);
      if (args.states) list = list.filter((p) => args.states.includes(p.state.toUpperCase()));
      if (args.labels) list = list.filter((p) => args.labels.some((l) => p.labels.includes(l)));
      return connection(
        list.map((p) => issueView(st, ctx, p)),
        args,
      );
    },
    object: ({ expression }) => {
      const m = /^([^:]+):(.+)$/.exec(expression ?? "");
      if (!m || !["HEAD", st.defaultBranch].includes(m[1])) return null;
      const text = st.files.get(m[2]);
      if (text === undefined) return null;
      return {
        __typename: "Blob",
        id: st.nodeId("Blob", m[2]),
        oid: st.sha(m[2]),
        abbreviatedOid: "0000000",
        text,
        byteSize: Buffer.byteLength(text),
        isBinary: false,
        isTruncated: false,
      };
    },
  };
}

function userView(st, login, { viewer = false } = {}) {
  if (!login) return null;
  const u = st.user(login);
  const isBot = u.type === "Bot" && !viewer;
  // GraphQL names a bot without its [bot] suffix; `viewer` is typed User, so it keeps REST's login.
  const name = isBot ? login.replace(/\[bot\]$/, "") : login;
  return {
    __typename: isBot ? "Bot" : "User",
    id: st.nodeId(isBot ? "Bot" : "User", u.id),
    databaseId: u.id,
    login: name,
    url: `https://github.com/${name}`,
    avatarUrl: `https://avatars.githubusercontent.com/u/${u.id}`,
  };
}

function labelView(st, l) {
  return {
    __typename: "Label",
    id: l.nodeId,
    name: l.name,
    color: l.color,
    description: l.description,
    isDefault: l.default,
    createdAt: l.createdAt,
    url: url(st, `/labels/${encodeURIComponent(l.name)}`),
  };
}

/** A label by name as a timeline event shows it, even after it was deleted. */
function eventLabel(st, name) {
  const l = st.label(name);
  return l
    ? labelView(st, l)
    : {
        __typename: "Label",
        id: st.nodeId("Label", name),
        name,
        color: "ededed",
        description: null,
        isDefault: false,
        url: url(st),
      };
}

function issueCommon(st, ctx, pr) {
  return {
    id: pr.nodeId,
    databaseId: pr.id,
    number: pr.number,
    title: pr.title,
    body: pr.body,
    state: pr.isPull && pr.merged ? "MERGED" : pr.state.toUpperCase(),
    closed: pr.state === "closed",
    createdAt: pr.createdAt,
    updatedAt: pr.updatedAt,
    closedAt: pr.closedAt,
    url: url(st, `/${pr.isPull ? "pull" : "issues"}/${pr.number}`),
    author: () => userView(st, pr.author),
    authorAssociation: st.user(pr.author).association,
    labels: (args) =>
      connection(
        pr.labels.map((n) => eventLabel(st, n)),
        args,
      ),
    comments: (args) =>
      connection(
        pr.comments.map((id) => commentView(st, st.comments.get(id))),
        args,
      ),
    repository: () => repoView(st, ctx),
  };
}

/** Resolvers of a pull request's lists fail while a `field-fails` fault names them (GitHub's partial errors). */
function guarded(ctx, view) {
  for (const field of ["labels", "comments", "reviews", "reviewRequests", "files", "commits", "timelineItems"]) {
    const inner = view[field];
    if (typeof inner !== "function") continue;
    view[field] = (args) => {
      if (ctx.faults.fieldFails(field))
        throw new GraphQLError(`Something went wrong while loading ${field} (injected fault).`, {
          extensions: { type: "SERVICE_UNAVAILABLE" },
        });
      return inner(args);
    };
  }
  return view;
}

function issueView(st, ctx, pr) {
  return {
    __typename: "Issue",
    ...issueCommon(st, ctx, pr),
    timelineItems: (args) => timeline(st, ctx, pr, args),
  };
}

function pullView(st, ctx, pr) {
  return guarded(ctx, {
    __typename: "PullRequest",
    ...issueCommon(st, ctx, pr),
    isDraft: pr.isDraft,
    merged: pr.merged,
    mergedAt: pr.mergedAt ?? null,
    baseRefName: pr.baseRef,
    headRefName: pr.headRef,
    headRefOid: pr.headSha,
    baseRefOid: st.branch(pr.baseRef).sha,
    mergeable: st.mergeable(pr),
    mergeStateStatus: st.mergeStateStatus(pr),
    reviews: (args) => {
      let list = pr.reviews;
      if (args.states) list = list.filter((r) => args.states.includes(r.state));
      if (args.author) list = list.filter((r) => r.author === args.author);
      return connection(
        list.map((r) => reviewView(st, r)),
        args,
      );
    },
    reviewRequests: (args) =>
      connection(
        pr.reviewRequests.map((q, i) => reviewRequestView(st, pr, q, i)),
        args,
      ),
    files: (args) =>
      connection(
        pr.files.map((path) => ({
          __typename: "PullRequestChangedFile",
          path,
          additions: 1,
          deletions: 0,
          changeType: "MODIFIED",
          viewerViewedState: "UNVIEWED",
        })),
        args,
      ),
    commits: (args) =>
      connection(
        pr.commits.map((c) => ({
          __typename: "PullRequestCommit",
          id: st.nodeId("PullRequestCommit", c.oid),
          commit: commitView(st, c),
          url: url(st, `/pull/${pr.number}/commits/${c.oid}`),
        })),
        args,
      ),
    timelineItems: (args) => timeline(st, ctx, pr, args),
    // The merge queue's reads (issue 6): forks, auto-merge, the issues it closes, review conversations.
    isCrossRepository: Boolean(pr.isFork),
    autoMergeRequest: pr.autoMerge
      ? {
          __typename: "AutoMergeRequest",
          enabledAt: pr.autoMerge.enabledAt ?? pr.updatedAt,
          mergeMethod: (pr.autoMerge.method ?? "squash").toUpperCase(),
          enabledBy: () => userView(st, pr.autoMerge.enabledBy ?? st.owner),
        }
      : null,
    closingIssuesReferences: (args) =>
      connection(
        closingIssues(st, pr).map((i) => issueView(st, ctx, i)),
        args,
      ),
    reviewThreads: (args) =>
      connection(
        (pr.reviewThreads ?? []).map((t, i) => ({
          __typename: "PullRequestReviewThread",
          id: st.nodeId("PullRequestReviewThread", `${pr.number}-${i}`),
          isResolved: Boolean(t.isResolved),
          isOutdated: false,
          isCollapsed: false,
        })),
        args,
      ),
  });
}

/** GitHub links a pull request onto the default branch to the issues its body closes with a keyword. */
function closingIssues(st, pr) {
  if (pr.baseRef !== st.defaultBranch) return [];
  const numbers = [...String(pr.body ?? "").matchAll(/\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+#(\d+)/gi)].map(
    (m) => Number(m[1]),
  );
  return [...new Set(numbers)].map((n) => st.pulls.get(n)).filter((i) => i && !i.isPull);
}

function reviewView(st, r) {
  return {
    __typename: "PullRequestReview",
    id: r.nodeId,
    databaseId: r.id,
    author: () => userView(st, r.author),
    authorAssociation: st.user(r.author).association,
    state: r.state,
    body: r.body,
    submittedAt: r.submittedAt,
    createdAt: r.submittedAt,
    commit: () => ({ ...commitView(st, { oid: r.commit, committedDate: r.submittedAt, author: r.author }) }),
  };
}

function reviewRequestView(st, pr, q, i) {
  const requestedReviewer =
    q.type === "Team"
      ? {
          __typename: "Team",
          id: st.nodeId("Team", st.team(q.slug).id),
          slug: q.slug,
          name: q.slug,
          organization: { __typename: "Organization", login: st.owner, id: st.nodeId("Organization", 1) },
        }
      : userView(st, q.login);
  return {
    __typename: "ReviewRequest",
    id: st.nodeId("ReviewRequest", `${pr.number}-${i}`),
    asCodeOwner: false,
    requestedReviewer,
  };
}

function commentView(st, c) {
  return {
    __typename: "IssueComment",
    id: c.nodeId,
    databaseId: c.id,
    author: () => userView(st, c.author),
    authorAssociation: st.user(c.author).association,
    body: c.body,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    isMinimized: false,
    url: url(st, `/issues/${c.issueNumber}#issuecomment-${c.id}`),
  };
}

function commitView(st, c) {
  return {
    __typename: "Commit",
    id: st.nodeId("Commit", c.oid),
    oid: c.oid,
    abbreviatedOid: c.oid.slice(0, 7),
    committedDate: c.committedDate,
    authoredDate: c.committedDate,
    message: "A change",
    url: url(st, `/commit/${c.oid}`),
    author: {
      __typename: "GitActor",
      name: c.author,
      email: `${c.author}@users.noreply.github.com`,
      date: c.committedDate,
      user: () => userView(st, c.author),
    },
    statusCheckRollup: () => {
      const state = st.rollupState(c.oid);
      if (!state) return null;
      return {
        __typename: "StatusCheckRollup",
        id: st.nodeId("StatusCheckRollup", c.oid),
        state,
        // A fine-grained token is refused every check run (GitHub offers no Checks permission for one):
        // the node is null with an error at its path, the statuses beside it still read.
        contexts: (args, ctx) =>
          connection(
            [
              ...st
                .checkRunsFor(c.oid)
                .map((r) => (ctx?.tokenKind === "fine-grained" ? refusedToFineGrained() : checkRunView(st, r))),
              ...st.statusesFor(c.oid).map((s) => statusView(st, s)),
            ],
            args,
          ),
      };
    },
  };
}

/** GitHub's answer to a fine-grained token for a check run (graphql-js reports an Error value at its path). */
const refusedToFineGrained = () =>
  new GraphQLError("Resource not accessible by personal access token", { extensions: { type: "FORBIDDEN" } });

function checkRunView(st, r) {
  const suite = st.suite(r.suiteId);
  return {
    __typename: "CheckRun",
    id: r.nodeId,
    databaseId: r.id,
    name: r.name,
    status: r.status,
    conclusion: r.conclusion,
    startedAt: r.startedAt,
    completedAt: r.completedAt,
    detailsUrl: url(st, `/actions/runs/${suite?.runId ?? 0}`),
    isRequired: () => st.requiredChecks.includes(r.name),
    checkSuite: () => ({
      __typename: "CheckSuite",
      id: st.nodeId("CheckSuite", r.suiteId),
      databaseId: r.suiteId,
      workflowRun: suite
        ? {
            __typename: "WorkflowRun",
            id: st.nodeId("WorkflowRun", suite.runId),
            databaseId: suite.runId,
            runNumber: 1,
            workflow: { __typename: "Workflow", id: st.nodeId("Workflow", suite.workflowId), name: suite.workflow },
          }
        : null,
    }),
  };
}

function statusView(st, s) {
  return {
    __typename: "StatusContext",
    id: s.nodeId,
    context: s.context,
    state: s.state.toUpperCase(),
    description: s.description,
    targetUrl: s.targetUrl,
    createdAt: s.createdAt,
    creator: () => userView(st, s.creator),
    isRequired: () => st.requiredChecks.includes(s.context),
  };
}

const ITEM_TYPE = (typename) => typename.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();

function timeline(st, ctx, pr, args) {
  let items = pr.timeline;
  if (args.itemTypes) items = items.filter((e) => args.itemTypes.includes(ITEM_TYPE(e.type)));
  if (args.since) items = items.filter((e) => e.at >= args.since);
  return connection(
    items.map((e, i) => timelineView(st, ctx, pr, e, i)),
    args,
  );
}

function timelineView(st, ctx, pr, e, i) {
  const base = {
    __typename: e.type,
    id: st.nodeId(e.type, `${pr.number}-${i}`),
    createdAt: e.at,
    actor: () => userView(st, e.actor),
  };
  switch (e.type) {
    case "LabeledEvent":
    case "UnlabeledEvent":
      // The event points at the label itself, so a renamed label shows its new name, as on GitHub.
      return {
        ...base,
        label: eventLabel(st, [...st.labels.values()].find((l) => l.id === e.labelId)?.name ?? e.label),
      };
    case "PullRequestCommit":
      return {
        __typename: e.type,
        id: base.id,
        commit: commitView(st, e.commit),
        url: url(st, `/pull/${pr.number}/commits/${e.commit.oid}`),
      };
    case "IssueComment":
      return commentView(st, st.comments.get(e.comment));
    case "PullRequestReview":
      return reviewView(
        st,
        pr.reviews.find((r) => r.id === e.review),
      );
    case "BaseRefChangedEvent":
      return { ...base, previousRefName: e.previousRefName, currentRefName: e.currentRefName };
    case "MergedEvent":
      return {
        ...base,
        mergeRefName: e.mergeRefName,
        commit: commitView(st, { oid: e.commit, committedDate: e.at, author: e.actor }),
      };
    case "HeadRefDeletedEvent":
      return { ...base, headRefName: e.headRefName };
    case "HeadRefForcePushedEvent":
      return {
        ...base,
        beforeCommit: e.before ? commitView(st, { oid: e.before, committedDate: e.at, author: e.actor }) : null,
        afterCommit: commitView(st, { oid: e.after, committedDate: e.at, author: e.actor }),
        ref: null,
      };
    case "AutoMergeEnabledEvent":
      return { ...base, enabler: () => userView(st, e.actor) };
    case "AutoMergeDisabledEvent":
      // GitHub's reasonCode is the machine form (BASE_BRANCH_CHANGED); reason the words.
      return {
        ...base,
        disabler: () => userView(st, e.actor),
        reasonCode: e.reason ?? null,
        reason: e.reason ? e.reason.toLowerCase().replace(/_/g, " ") : null,
      };
    case "ClosedEvent":
      return {
        ...base,
        closer: null,
        stateReason: null,
        url: url(st, `/${pr.isPull ? "pull" : "issues"}/${pr.number}`),
        resourcePath: `/${st.owner}/${st.repo}/${pr.isPull ? "pull" : "issues"}/${pr.number}`,
      };
    case "ReviewRequestedEvent":
      return {
        ...base,
        requestedReviewer: () =>
          e.team
            ? reviewRequestView(st, pr, { type: "Team", slug: e.team }, 0).requestedReviewer
            : userView(st, e.reviewer),
      };
    default:
      return base;
  }
}
