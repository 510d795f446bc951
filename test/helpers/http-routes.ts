import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { RouteHandler } from "./routes";

/** A route: a path pattern with `:name` segments, and the exported handlers by method. */
export interface LoopbackRoute {
  pattern: string;
  handlers: Partial<Record<string, RouteHandler<Record<string, string>>>>;
}

/**
 * Serves exported route handlers on 127.0.0.1 as Next would call them (a Web Request in, a Response
 * out, streamed), for tests of HTTP clients such as the archive CLI.
 */
export async function serveRoutes(routes: readonly LoopbackRoute[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const parts = url.pathname.split("/");
    for (const route of routes) {
      const pattern = route.pattern.split("/");
      if (pattern.length !== parts.length) continue;
      const params: Record<string, string> = {};
      if (!pattern.every((segment, i) => (segment.startsWith(":") ? ((params[segment.slice(1)] = decodeURIComponent(parts[i] ?? "")), true) : segment === parts[i]))) continue;
      const handler = route.handlers[req.method ?? "GET"];
      if (handler === undefined) break;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const abort = new AbortController();
      res.on("close", () => abort.abort());
      void handler(new Request(url, { method: req.method, headers, signal: abort.signal }), { params: Promise.resolve(params) }).then((response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body === null || req.method === "HEAD") res.end();
        else Readable.fromWeb(response.body as WebReadableStream<Uint8Array>).on("error", () => res.destroy()).pipe(res);
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
