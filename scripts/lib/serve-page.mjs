// Serves the built dashboard (page/dist) on loopback, as GitHub Pages would serve it: for the dashboard
// test and `npm run demo -- --dashboard`.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

export const PAGE_DIST = fileURLToPath(new URL("../../page/dist", import.meta.url));
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};

/**
 * Starts the server; resolves with { url, close }. Only files under `dir` are served, and the paths
 * under each prefix of `routes` ({ "/web/": (path) => html or null }), which answer HTML of their own.
 */
export async function servePage(dir = PAGE_DIST, routes = {}) {
  const server = createServer((req, res) => {
    const pathname = new URL(req.url, "http://x").pathname;
    for (const [prefix, route] of Object.entries(routes)) {
      if (!pathname.startsWith(prefix)) continue;
      const html = route(pathname);
      if (html === null) res.writeHead(404).end();
      else res.writeHead(200, { "content-type": TYPES[".html"] }).end(html);
      return;
    }
    const path = normalize(pathname).replace(/^\/+/, "") || "index.html";
    try {
      if (path.startsWith("..")) throw new Error("outside");
      const body = readFileSync(join(dir, path));
      res.writeHead(200, { "content-type": TYPES[path.slice(path.lastIndexOf("."))] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
