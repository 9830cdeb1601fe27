// The dashboard page: reads the form (prefilled from ?repo= and ?api=, the token from sessionStorage),
// reads facts from GitHub with the Action's own reader, asks the engine (the same Wasm) for the
// dashboard view, and draws it. It announces the end of each load with a `prflow:rendered` or
// `prflow:failed` event on the document (tests and embedding pages wait for it), and a `prflow:confirm`
// event when it waits for the person to confirm an API URL that is not GitHub's.
import { load } from "../../js/web.js";
import { apiBase, parseRepo, readAll, ReadError, DEFAULT_API } from "./github.js";
import { renderConfigErrors, renderView } from "./render.js";
import { installKeys } from "./keys.js";

/** sessionStorage key of the token, per API base: a token is never offered to another host. */
const tokenKey = (api) => `prflow.token ${api}`;
/**
 * sessionStorage key of the person's yes to an API base other than GitHub's: a link can carry any
 * `?api=`, so the token goes there only once the person has read the host and said yes, in this tab.
 */
const confirmedKey = (api) => `prflow.confirmed ${api}`;

const $ = (id) => document.getElementById(id);
let prflow;

function status(line) {
  $("status").textContent = line;
}

function fail(line) {
  $("error").textContent = line;
  $("error").hidden = false;
  status("");
  document.body.dataset.state = "failed";
  document.dispatchEvent(new CustomEvent("prflow:failed", { detail: line }));
}

async function run(event) {
  event?.preventDefault();
  $("error").hidden = true;
  $("error").textContent = "";
  document.body.dataset.state = "loading";
  let api;
  try {
    api = apiBase($("api").value);
    const { owner, repo } = parseRepo($("repo").value);
    const token = $("token").value.trim();
    if (!token) throw new ReadError("checking the token", "enter a token (fine-grained, read-only)");
    if (api !== DEFAULT_API && sessionStorage.getItem(confirmedKey(api)) !== "yes") return ask(api);
    sessionStorage.setItem(tokenKey(api), token);
    history.replaceState(null, "", `?${new URLSearchParams({ repo: `${owner}/${repo}`, ...(api === DEFAULT_API ? {} : { api }) })}`);

    if (!prflow) {
      status("loading the engine");
      try {
        const res = await fetch(new URL("prflow_bg.wasm", document.baseURI));
        if (!res.ok) throw new Error(`prflow_bg.wasm: HTTP ${res.status}`);
        prflow = await load(await res.arrayBuffer());
      } catch (e) {
        throw new ReadError("loading the engine", e.message, e);
      }
    }

    const { facts, engine, configSource, requests } = await readAll({ api, token, owner, repo, prflow, progress: status });
    // A bad config is the engine's answer like any other: every problem with its path, and no rows (the
    // Action too writes nothing until they are fixed).
    const view = engine.dashboard({ facts });
    const errors = view.configErrors;
    renderConfigErrors(document, $("config-errors"), configSource, errors);
    renderView(document, $("view"), { view, api, repository: facts.repository });
    $("snapshot").textContent = JSON.stringify(facts, null, 2);
    status(`${view.rows.length} open pull request${view.rows.length === 1 ? "" : "s"} as of ${facts.now}; config: ${errors.length ? `${configSource} has errors` : configSource}; ${requests} API requests; engine ${view.engine}`);
    document.body.dataset.state = "rendered";
    document.dispatchEvent(new CustomEvent("prflow:rendered", { detail: { rows: view.rows.length } }));
  } catch (e) {
    fail(e instanceof ReadError ? `${e.step} failed: ${e.line}` : `failed: ${e.message}`);
  }
}

/** Shows which host the token would go to and waits for the person's answer; nothing is sent meanwhile. */
function ask(api) {
  $("confirm-api-host").textContent = api;
  $("confirm-api").hidden = false;
  $("confirm-api").dataset.api = api;
  status(`waiting for you to confirm the API URL ${api}`);
  document.body.dataset.state = "confirm";
  document.dispatchEvent(new CustomEvent("prflow:confirm", { detail: { api } }));
}

function start() {
  const params = new URLSearchParams(location.search);
  $("repo").value = params.get("repo") ?? "";
  $("api").value = params.get("api") ?? DEFAULT_API;
  try {
    $("token").value = sessionStorage.getItem(tokenKey(apiBase($("api").value))) ?? "";
  } catch {
    // a bad ?api= is reported when the form is sent
  }
  $("form").addEventListener("submit", run);
  $("confirm-api-yes").addEventListener("click", () => {
    sessionStorage.setItem(confirmedKey($("confirm-api").dataset.api), "yes");
    $("confirm-api").hidden = true;
    // run() reads the field again: a host changed since the question is asked about anew.
    run();
  });
  $("confirm-api-no").addEventListener("click", () => {
    $("confirm-api").hidden = true;
    $("api").value = DEFAULT_API;
    status("the API URL is GitHub's again: press Show");
    document.body.dataset.state = "ready";
  });
  $("forget").addEventListener("click", () => {
    sessionStorage.clear();
    $("token").value = "";
  });
  installKeys(document);
  document.body.dataset.state = "ready";
  document.dispatchEvent(new CustomEvent("prflow:ready"));
  if ($("repo").value && $("token").value) run();
}

start();
