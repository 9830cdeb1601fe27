// GitHub's REST description (@octokit/openapi, dereferenced) as the judge of every REST exchange: the
// request's path and query parameters and body, and the response body, are validated against the
// operation's schemas with ajv. The 73 MB file is parsed once per process, on the first REST request, and
// each operation's validators are compiled the first time it is used.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import Ajv from "ajv";
import addFormats from "ajv-formats";

let api;
let ajv;
const compiled = new Map();

function load() {
  if (!api) {
    const require = createRequire(import.meta.url);
    const file = require.resolve("@octokit/openapi/generated/api.github.com.deref.json");
    api = JSON.parse(readFileSync(file, "utf8"));
    ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, coerceTypes: false });
    addFormats(ajv);
  }
  return api;
}

/** The operation object for `method` on a path template such as `/repos/{owner}/{repo}/labels`. */
export function operation(method, template) {
  const op = load().paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`the OpenAPI description has no ${method} ${template}`);
  return op;
}

function validator(key, schema) {
  if (!compiled.has(key)) compiled.set(key, schema ? ajv.compile(jsonSchema(structuredClone(schema))) : null);
  return compiled.get(key);
}

/**
 * OpenAPI 3.0 → JSON Schema where ajv needs it: `nullable: true` on a schema without `type` (an allOf,
 * oneOf or anyOf) becomes `anyOf: [schema, {type: "null"}]`; with a type, ajv reads `nullable` itself.
 */
function jsonSchema(node) {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (!node || typeof node !== "object") return node;
  for (const k of Object.keys(node)) {
    if (k === "example" || k === "examples") delete node[k];
    else
      node[k] =
        k === "properties"
          ? Object.fromEntries(Object.entries(node[k]).map(([p, v]) => [p, jsonSchema(v)]))
          : jsonSchema(node[k]);
  }
  if (node.nullable === true && node.type === undefined) {
    const { nullable, ...rest } = node;
    return { anyOf: [rest, { type: "null" }] };
  }
  if (node.nullable === true && node.enum && !node.enum.includes(null)) node.enum = [...node.enum, null];
  return node;
}

const describe = (where, errors) =>
  (errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${where}${e.instancePath || ""} ${e.message}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(", ")})` : ""}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ""}`,
    );

/**
 * Problems with a request: unknown or ill-typed path/query parameters, a missing required one, or a
 * body the operation's schema rejects. Query values arrive as strings and are coerced as GitHub does.
 */
export function validateRequest(method, template, { params = {}, query = {}, body }) {
  const op = operation(method, template);
  const problems = [];
  for (const p of op.parameters ?? []) {
    const value = p.in === "path" ? params[p.name] : p.in === "query" ? query[p.name] : undefined;
    if (p.in !== "path" && p.in !== "query") continue;
    if (value === undefined) {
      if (p.required) problems.push(`${p.in} parameter ${p.name} is required`);
      continue;
    }
    const v = validator(`${method} ${template} param ${p.name}`, p.schema);
    const coerced = coerce(value, p.schema);
    if (v && !v(coerced)) problems.push(...describe(`${p.in} parameter ${p.name}`, v.errors));
  }
  const known = new Set((op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
  for (const name of Object.keys(query))
    if (!known.has(name)) problems.push(`query parameter ${name} is not a parameter of ${method} ${template}`);
  const schema = op.requestBody?.content?.["application/json"]?.schema;
  if (schema) {
    if (body === undefined) {
      if (op.requestBody.required) problems.push("a JSON body is required");
    } else {
      const v = validator(`${method} ${template} body`, schema);
      if (!v(body)) problems.push(...describe("body", v.errors));
    }
  } else if (body !== undefined && method !== "GET" && method !== "DELETE") {
    problems.push(`${method} ${template} takes no body`);
  }
  return problems;
}

function coerce(value, schema) {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === "integer" || type === "number") return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

function responseSchema(method, template, status) {
  const op = operation(method, template);
  const r = op.responses?.[String(status)] ?? op.responses?.default;
  if (!r) return { declared: false };
  return { declared: true, schema: r.content?.["application/json"]?.schema };
}

/** Problems with a response: an undeclared status or a body the declared schema rejects. */
export function validateResponse(method, template, status, body) {
  const { declared, schema } = responseSchema(method, template, status);
  if (!declared) return [`status ${status} is not a documented response of ${method} ${template}`];
  if (!schema)
    return body === undefined || body === null || body === ""
      ? []
      : [`status ${status} of ${method} ${template} has no body`];
  const v = validator(`${method} ${template} ${status} response`, schema);
  return v(body) ? [] : describe(`response ${status}`, v.errors);
}

/**
 * Fills every property the response schema requires and the emulator's view left out, with a value of
 * the declared type (null where nullable), so a response is whole; the fields the emulator does set are
 * then validated as they are.
 */
export function conform(method, template, status, body) {
  const { schema } = responseSchema(method, template, status);
  return schema ? fill(schema, body, 0) : body;
}

function pick(schema, value) {
  const options = schema.oneOf ?? schema.anyOf;
  if (!options) return schema;
  const kind = Array.isArray(value)
    ? "array"
    : value === null
      ? "null"
      : typeof value === "object"
        ? "object"
        : typeof value;
  return (
    options.find((o) => typeOf(o).includes(kind) || (kind === "number" && typeOf(o).includes("integer"))) ?? options[0]
  );
}

function typeOf(schema) {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.properties || schema.allOf) return ["object"];
  if (schema.items) return ["array"];
  return [];
}

function fill(schema, value, depth) {
  if (!schema || depth > 12) return value;
  if (schema.allOf) {
    let v = value;
    for (const s of schema.allOf) v = fill(s, v, depth + 1);
    return v;
  }
  schema = pick(schema, value);
  if (Array.isArray(value)) return schema.items ? value.map((x) => fill(schema.items, x, depth + 1)) : value;
  if (value && typeof value === "object") {
    const out = { ...value };
    for (const key of schema.required ?? []) {
      if (!(key in out)) out[key] = blank(schema.properties?.[key] ?? {}, depth + 1);
    }
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (out[key] && typeof out[key] === "object") out[key] = fill(sub, out[key], depth + 1);
    }
    return out;
  }
  return value;
}

function blank(schema, depth) {
  if (schema.allOf) return fill(schema, blank(schema.allOf[0], depth + 1), depth + 1);
  const s = schema.oneOf || schema.anyOf ? (schema.oneOf ?? schema.anyOf)[0] : schema;
  const types = typeOf(s);
  if (s.nullable || types.includes("null") || schema.nullable) return null;
  if (s.enum) return s.enum[0];
  const t = types[0];
  if (t === "object" || s.properties) return fill(s, {}, depth + 1);
  if (t === "array") return [];
  if (t === "integer" || t === "number") return 0;
  if (t === "boolean") return false;
  if (s.format === "date-time") return "2026-01-01T00:00:00Z";
  if (s.format === "uri") return "https://api.github.com/";
  if (s.format === "email") return "noreply@github.com";
  return "";
}
