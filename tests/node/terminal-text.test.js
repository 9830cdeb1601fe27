// Control characters in what prflow prints: a pull request's title is anyone's text, and an ESC
// sequence or a NUL in it must not reach the reader's terminal through `prflow status` or
// `prflow report`. The facts are the queue report's, with hostile titles.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { oneLine, plainText } from "../../lib/plain-text.js";
import { prflow, PRESET_CONFIG } from "./lib/cli.js";

const root = new URL("../../", import.meta.url);
const HOSTILE = ["\x1b[31mred\x1b[0m title", "nul\0cut", "bell\x07 and \x9b2J C1", "two\nlines\ttabbed"];
// What a terminal must never be sent: C0 but newline, DEL, C1.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function factsFile() {
  const facts = JSON.parse(readFileSync(new URL("tests/fixtures/queue-report/facts.json", root), "utf8"));
  for (const [i, title] of HOSTILE.entries()) facts.pullRequests[i].title = title;
  const file = join(mkdtempSync(join(tmpdir(), "prflow-escapes-")), "facts.json");
  writeFileSync(file, JSON.stringify(facts));
  return { file, numbers: HOSTILE.map((_, i) => facts.pullRequests[i].number) };
}

for (const command of ["status", "report"]) {
  test(`prflow ${command}: titles' escapes and NULs never reach the terminal, the rest of the title does`, async () => {
    const { file, numbers } = factsFile();
    const r = await prflow([
      command,
      "--facts",
      file,
      "--config",
      PRESET_CONFIG,
      ...(command === "status" ? ["--width", "0"] : []),
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    const bad = out.split("\n").filter((l) => CONTROL.test(l));
    assert.deepEqual(
      bad.map((l) => JSON.stringify(l)),
      [],
      "no line holds a control character",
    );
    const rowOf = (n) => out.split("\n").find((l) => l.trimStart().startsWith(`#${n} `)) ?? "";
    assert.match(rowOf(numbers[0]), /\[31mred\[0m title/, "the visible part of the title stays");
    assert.match(rowOf(numbers[1]), /nulcut/);
    assert.match(rowOf(numbers[3]), /two lines tabbed/, "a title's line break does not start a new line");
  });
}

test("the sanitizer keeps newlines in multi-line text and nothing else below space, and removes C1", () => {
  assert.equal(plainText("a\x1b[1mb\0c\r\nd\te\x7f\x85f"), "a[1mbc\nd\tef");
  assert.equal(oneLine("a\nb\tc\x1b"), "a b c");
  assert.equal(plainText("é ✓ — ok"), "é ✓ — ok", "printable Unicode is untouched");
});
