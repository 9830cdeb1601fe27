// Runs a JavaScript action the way the GitHub runner does: writes the event payload to a file, resolves
// the action's inputs (given values, else the defaults in action.yml, `${{ github.token }}` being the
// job's token), and starts Node 24 on `runs.main` with INPUT_* and GITHUB_* variables; then reads back
// the step's outputs ($GITHUB_OUTPUT) and job summary ($GITHUB_STEP_SUMMARY).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** The emulator runs actions with waits scaled down: a retry-after of 1 s takes 1 ms. */
export const TEST_TIME_SCALE = "0.001";

/**
 * `{ actionPath, event, payload, inputs, token, env, emulator, workspace }` →
 * `{ code, stdout, stderr, outputs, summary, env }`. `actionPath` is the folder holding action.yml.
 */
export async function runAction({
  actionPath,
  event,
  payload = {},
  inputs = {},
  token,
  env = {},
  emulator,
  workspace,
}) {
  const meta = readActionYml(join(actionPath, "action.yml"));
  if (!/^node\d+$/.test(meta.using))
    throw new Error(`${actionPath}/action.yml: runs.using is ${meta.using}; only node actions run here`);
  const tmp = mkdtempSync(join(tmpdir(), "prflow-run-"));
  try {
    const files = {
      event: join(tmp, "event.json"),
      output: join(tmp, "output"),
      summary: join(tmp, "summary.md"),
      env: join(tmp, "env"),
      state: join(tmp, "state"),
    };
    writeFileSync(files.event, JSON.stringify(payload));
    for (const f of [files.output, files.summary, files.env, files.state]) writeFileSync(f, "");
    const jobToken = token ?? emulator?.appToken ?? "";
    const resolved = {};
    for (const [name, def] of Object.entries(meta.inputs)) {
      if (def !== undefined) resolved[name] = /\$\{\{\s*github\.token\s*\}\}/.test(def) ? jobToken : def;
    }
    Object.assign(
      resolved,
      Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])),
    );
    const inputEnv = Object.fromEntries(
      Object.entries(resolved).map(([k, v]) => [`INPUT_${k.replace(/ /g, "_").toUpperCase()}`, v]),
    );
    const repo = emulator ? `${emulator.owner}/${emulator.repo}` : (env.GITHUB_REPOSITORY ?? "");
    const runEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_EVENT_NAME: event,
      GITHUB_EVENT_PATH: files.event,
      GITHUB_REPOSITORY: repo,
      GITHUB_REPOSITORY_OWNER: repo.split("/")[0],
      GITHUB_API_URL: emulator?.url ?? env.GITHUB_API_URL,
      GITHUB_GRAPHQL_URL: emulator?.graphqlUrl ?? env.GITHUB_GRAPHQL_URL,
      GITHUB_SERVER_URL: emulator?.url ?? "https://github.com",
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      GITHUB_ENV: files.env,
      GITHUB_STATE: files.state,
      GITHUB_WORKSPACE: workspace ?? tmp,
      GITHUB_ACTION_PATH: resolve(actionPath),
      GITHUB_ACTION: "prflow",
      GITHUB_ACTOR: payload.sender?.login ?? repo.split("/")[0],
      GITHUB_WORKFLOW: "prflow",
      GITHUB_JOB: "prflow",
      GITHUB_RUN_ID: String(Date.now() % 1e9),
      GITHUB_RUN_NUMBER: "1",
      GITHUB_RUN_ATTEMPT: "1",
      GITHUB_REF: payload.pull_request ? `refs/pull/${payload.pull_request.number}/merge` : "refs/heads/main",
      GITHUB_SHA: payload.pull_request?.head?.sha ?? payload.sha ?? "",
      GITHUB_TOKEN: jobToken,
      RUNNER_OS: "Linux",
      RUNNER_ARCH: "X64",
      RUNNER_TEMP: tmp,
      PRFLOW_TIME_SCALE: TEST_TIME_SCALE,
      ...inputEnv,
      ...env,
    };
    const main = resolve(actionPath, meta.main);
    const { code, stdout, stderr } = await spawnNode(main, runEnv, runEnv.GITHUB_WORKSPACE);
    return {
      code,
      stdout,
      stderr,
      outputs: parseOutputs(readFileSync(files.output, "utf8")),
      summary: readFileSync(files.summary, "utf8"),
      env: runEnv,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function spawnNode(main, env, cwd) {
  return new Promise((resolvePromise, reject) => {
    // process.execPath: the Node 24 that runs the tests (node_modules/.bin/node), as `runs.using: node24`.
    const child = spawn(process.execPath, [main], {
      env,
      cwd: existsSync(cwd) ? cwd : undefined,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** `name=value` lines and `name<<DELIM ... DELIM` blocks, as the runner reads $GITHUB_OUTPUT. */
export function parseOutputs(text) {
  const out = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delim] = heredoc;
      const value = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i]);
      out[name] = value.join("\n");
    } else if (line.includes("=")) {
      out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return out;
}

/**
 * The few facts of action.yml a runner needs here: runs.using, runs.main and each input's default. A small
 * reader for the flat YAML an action file uses (keys, nested maps, quoted or plain scalars).
 */
export function readActionYml(file) {
  const text = readFileSync(file, "utf8");
  const inputs = {};
  let section = null;
  let input = null;
  let using;
  let main;
  for (const rawLine of text.split("\n")) {
    if (/^\s*(#|$)/.test(rawLine)) continue;
    const indent = rawLine.length - rawLine.trimStart().length;
    const line = rawLine.trim();
    const kv = /^([\w][\w -]*):(?:\s+(.*))?$/.exec(line);
    if (!kv) continue;
    const [, key, rest] = kv;
    const value = unquote((rest ?? "").replace(/\s+#.*$/, ""));
    if (indent === 0) {
      section = key;
      continue;
    }
    if (section === "inputs") {
      if (indent === 2) {
        input = key;
        inputs[input] = undefined;
      } else if (key === "default" && input) inputs[input] = value;
    } else if (section === "runs") {
      if (key === "using") using = value;
      if (key === "main") main = value;
    }
  }
  return { using, main, inputs };
}

function unquote(v) {
  const t = v.trim();
  if ((t.startsWith("'") && t.endsWith("'")) || (t.startsWith('"') && t.endsWith('"'))) return t.slice(1, -1);
  return t;
}
