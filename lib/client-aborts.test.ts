import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { clientAborts, recordClientAbort, watchClientGone } from "./client-aborts.mjs";

/** A server whose handler answers after `delayMs` and then reports whether its client had gone first. */
async function serverReporting(delayMs: number) {
  const seen: boolean[] = [];
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    const goneAt = watchClientGone(res);
    setTimeout(() => {
      // Answered as the front does, whether or not the socket is still there.
      res.end("ok");
      setImmediate(() => seen.push(goneAt() !== undefined));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, seen, port: (server.address() as AddressInfo).port };
}

let close: (() => void) | undefined;
afterEach(() => close?.());

describe("client aborts", () => {
  it("tells a client that left before its answer from one that got it", async () => {
    const { server, seen, port } = await serverReporting(150);
    close = () => server.close();
    // This client gives up after 30 ms.
    await new Promise<void>((resolve) => {
      const req = request({ port, host: "127.0.0.1", path: "/slow" }, () => undefined);
      req.on("error", () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 30);
    });
    // This one waits for its answer.
    await new Promise<void>((resolve, reject) => {
      request({ port, host: "127.0.0.1", path: "/patient" }, (res) => {
        res.resume();
        res.on("end", resolve);
      })
        .on("error", reject)
        .end();
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.sort()).toEqual([false, true]);
  });

  it("counts aborts by route", () => {
    const before = clientAborts();
    recordClientAbort({ route: "/v0/markets", method: "GET", elapsedMs: 12, quiet: true });
    recordClientAbort({ route: "/v0/markets", method: "GET", elapsedMs: 40, quiet: true });
    recordClientAbort({ route: "/v0/sql", method: "POST", elapsedMs: 9000, quiet: true });
    const after = clientAborts();
    expect(after.total - before.total).toBe(3);
    expect((after.byRoute["/v0/markets"] ?? 0) - (before.byRoute["/v0/markets"] ?? 0)).toBe(2);
    expect((after.byRoute["/v0/sql"] ?? 0) - (before.byRoute["/v0/sql"] ?? 0)).toBe(1);
  });
});
