import { describe, expect, it } from "vitest";

describe("the test environment", () => {
  it("cannot reach an external host (names other than localhost fail to resolve at once)", async () => {
    const started = Date.now();
    await expect(fetch("https://gamma-api.polymarket.com/events")).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("still reaches loopback by name", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((_, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://localhost:${port}/`);
    expect(await res.text()).toBe("ok");
    server.close();
  });
});
