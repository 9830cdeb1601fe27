// How an emulator suite starts a test: one GitHub emulator, closed when the test ends, with what most
// tests want next (a scratch folder, the config's labels, users who can write, tokens).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../../emulator/index.js";
import { createEngine } from "../../../js/node.js";

/**
 * An emulator for test `t`, closed (and `dir` removed) when the test ends. Besides startEmulator's own
 * options: `dir` names a fresh temporary folder (`prflow-<dir>-*`); `config` creates the labels its
 * catalogue names; `users` gives logins an authorAssociation (`{ alice: "MEMBER" }`); `tokens` registers
 * a token per login. Resolves to `{ gh, dir }`.
 */
export async function setup(t, { dir, config, users = {}, tokens = {}, ...options } = {}) {
  const gh = await startEmulator(options);
  const folder = dir ? mkdtempSync(join(tmpdir(), `prflow-${dir}-`)) : null;
  t.after(async () => {
    await gh.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  for (const [login, token] of Object.entries(tokens)) gh.registerToken(token, login);
  for (const [login, association] of Object.entries(users)) gh.user(login, { association });
  if (config) for (const label of createEngine(config).labelCatalog().labels) gh.createLabel(label);
  return { gh, dir: folder };
}
