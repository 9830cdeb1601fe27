// Config text that is valid JSON but not an object (issue 15 item 9): `null` and `[]` meant the preset,
// a file holding a JSON string was decoded a second time by the engine's boundary and applied. Each is
// an error naming the file, and there is no config to run with.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as prflow from "../../js/node.js";
import { loadConfig } from "../../lib/config-file.js";

const FILE = ".github/prflow.json";

for (const [text, found] of [
  ["null", "null"],
  ["[]", "an array"],
  [JSON.stringify(JSON.stringify({ stale: { days: 1 } })), "a string"],
  ["3", "a number"],
  ["true", "a boolean"],
]) {
  test(`config: ${text} is not a config`, () => {
    const loaded = loadConfig(prflow, FILE, { readFile: () => text });
    assert.equal(loaded.config, null, "no config to run with");
    assert.deepEqual(loaded.errors, [`${FILE}: $: expected a JSON object, found ${found}`]);
  });
}

test("config: an object is still a config", () => {
  assert.deepEqual(loadConfig(prflow, FILE, { readFile: () => "{}" }).errors, []);
});
