// A small evaluator of GitHub Actions expressions, for the tests that hold a workflow's `if:` to a model:
// literals ('text', true, false, null, numbers), property paths with `.*.` (an object filter), `!`, `==`,
// `!=`, `&&`, `||`, parentheses, and the functions contains(), always() and success(). GitHub's rules
// kept: == on strings ignores case, && and || return an operand, and a missing property is null.

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|(&&|\|\||==|!=|!|\(|\)|,)|([A-Za-z_][\w-]*(?:\.(?:\*|[A-Za-z_][\w-]*))*))/y;

function tokens(text) {
  const out = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`expression: cannot read at ${at}: ${text.slice(at, at + 20)}`);
    if (m[1] !== undefined) out.push({ lit: Number(m[1]) });
    else if (m[2] !== undefined) out.push({ lit: m[2].replace(/''/g, "'") });
    else if (m[3] !== undefined) out.push({ op: m[3] });
    else out.push({ word: m[4] });
  }
  return out;
}

const truthy = (v) => !(v === null || v === undefined || v === false || v === 0 || v === "" || Number.isNaN(v));
const equal = (a, b) =>
  typeof a === "string" && typeof b === "string" ? a.toLowerCase() === b.toLowerCase() : (a ?? null) === (b ?? null);

function lookup(path, context) {
  let values = [context];
  let filtered = false;
  for (const part of path.split(".")) {
    if (part === "*") {
      values = values.flatMap((v) => (Array.isArray(v) ? v : v && typeof v === "object" ? Object.values(v) : []));
      filtered = true;
    } else
      values = values
        .map((v) => (v && typeof v === "object" ? v[part] : undefined))
        .filter((v) => !filtered || v !== undefined);
  }
  return filtered ? values : (values[0] ?? null);
}

/** The value of `text` (an `if:` without `${{ }}`) in `context` ({ github, needs, ... }). */
export function evaluate(text, context) {
  const t = tokens(text.replace(/^\s*\$\{\{|\}\}\s*$/g, ""));
  let i = 0;
  const peek = (op) => t[i]?.op === op;
  const take = (op) => {
    if (!peek(op)) throw new Error(`expression: expected ${op} at token ${i}`);
    i++;
  };
  const functions = {
    contains: (hay, needle) =>
      Array.isArray(hay)
        ? hay.some((v) => equal(v, needle))
        : String(hay ?? "")
            .toLowerCase()
            .includes(String(needle).toLowerCase()),
    always: () => true,
    success: () => Object.values(context.needs ?? {}).every((n) => n.result === "success"),
  };
  function primary() {
    const tok = t[i++];
    if (!tok) throw new Error("expression: ended early");
    if (tok.op === "!") return !truthy(primary());
    if (tok.op === "(") {
      const v = or();
      take(")");
      return v;
    }
    if ("lit" in tok) return tok.lit;
    if (["true", "false", "null"].includes(tok.word)) return JSON.parse(tok.word);
    if (peek("(")) {
      take("(");
      const args = [];
      while (!peek(")")) {
        args.push(or());
        if (peek(",")) take(",");
      }
      take(")");
      if (!functions[tok.word]) throw new Error(`expression: no function ${tok.word}`);
      return functions[tok.word](...args);
    }
    return lookup(tok.word, context);
  }
  function comparison() {
    let v = primary();
    while (peek("==") || peek("!=")) {
      const op = t[i++].op;
      const w = primary();
      v = op === "==" ? equal(v, w) : !equal(v, w);
    }
    return v;
  }
  function and() {
    let v = comparison();
    while (peek("&&")) {
      i++;
      const w = comparison();
      v = truthy(v) ? w : v;
    }
    return v;
  }
  function or() {
    let v = and();
    while (peek("||")) {
      i++;
      const w = and();
      v = truthy(v) ? v : w;
    }
    return v;
  }
  const v = or();
  if (i !== t.length) throw new Error(`expression: unread tokens from ${i}`);
  return truthy(v);
}
