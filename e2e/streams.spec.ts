import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import WebSocket from "ws";
import { startFakeMarketChannel, type FakeMarketChannel } from "../test/fakes/market-channel";
import { createFakeVenues, type FakeVenues } from "../test/fakes/venue-server";
import { ANALYST, E2E_BASE_URL, E2E_PORT } from "./env";
import { signInAnalyst } from "./sign-in";

/**
 * Live streams on the built server: `npm start`'s server.mjs hands /ws upgrades to the
 * compiled app/ws route module (the in-process suites mount the same handler on a plain server;
 * this proves the production wiring), and the market page's live order book.
 */

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
const wsUrl = `${E2E_BASE_URL.replace(/^http/, "ws")}/ws`;

interface ServerMessage {
  event: string;
  id?: string;
  error?: { code: string; message: string };
}

/** Opens /ws with the given headers; resolves with the socket and its messages, or rejects with the refused status. */
function connect(headers: Record<string, string>): Promise<{ socket: WebSocket; messages: ServerMessage[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, { headers });
    const messages: ServerMessage[] = [];
    socket.on("message", (raw) => messages.push(JSON.parse(String(raw)) as ServerMessage));
    socket.once("open", () => resolve({ socket, messages }));
    socket.once("unexpected-response", (_request, response) => reject(new Error(`status ${response.statusCode}`)));
    socket.once("error", reject);
  });
}

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  await signInAnalyst(page);
});

test.afterAll(async () => {
  await context?.close();
});

test("npm start serves /ws: admission before the upgrade, pmxt's protocol after it", async () => {
  await expect(connect({})).rejects.toThrow("status 401");
  const plain = await page.request.get("/ws");
  expect(plain.status()).toBe(501);
  expect(((await plain.json()) as { error: { message: string } }).error.message).toMatch(/npm start/);

  const cookies = await context.cookies();
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  // A session is admitted only from the dashboard's own origin (a browser always sends Origin on a
  // WebSocket): the same cookie from another origin, or with none, is cross-site WebSocket hijacking.
  await expect(connect({ cookie, origin: "https://sibling.example" })).rejects.toThrow("status 403");
  await expect(connect({ cookie })).rejects.toThrow("status 403");
  const { socket, messages } = await connect({ cookie, origin: new URL(E2E_BASE_URL).origin });
  const answer = async (id: string, event: "subscribed" | "error") => {
    await expect.poll(() => messages.some((m) => m.id === id && m.event === event)).toBe(true);
    return messages.find((m) => m.id === id && m.event === event);
  };
  // What pmxtjs sends first to probe the endpoint.
  socket.send(JSON.stringify({ id: "probe", action: "subscribe", exchange: "polymarket", method: "_ping", args: [] }));
  expect((await answer("probe", "error"))?.error?.code).toBe("NOT_FOUND");
  socket.send(JSON.stringify({ id: "fh", action: "subscribe", exchange: "polymarket", method: "firehose", args: [] }));
  await answer("fh", "subscribed");
  // The mock venue has no book stream: its watcher ends the subscription with pmxt's error.
  socket.send(JSON.stringify({ id: "mock", action: "subscribe", exchange: "mock", method: "watchOrderBook", args: ["mock-m1-yes"] }));
  expect((await answer("mock", "error"))?.error?.code).toBe("NOT_SUPPORTED");
  socket.close();
});

test("a market page whose venue has no book stream falls back to the fetched book", async () => {
  await page.goto("/?exchange=mock");
  await page.getByTestId("markets-table").getByRole("link").first().click();
  await expect(page.getByTestId("live-book")).toBeVisible();
});

/**
 * The market page's live order book updating by itself needs a recorded Polymarket market, which
 * the shared e2e server does not have (it polls only offline venues). This test runs its own
 * `npm start` server (port E2E_PORT + 17) on a data dir seeded offline with the fake Gamma API's
 * Polymarket catalog, its recorder on a loopback market channel that this test feeds.
 */
test.describe("the market page's live order book", () => {
  const port = E2E_PORT + 17;
  const base = `http://127.0.0.1:${port}`;
  const ids = JSON.parse(readFileSync(path.resolve("test/fixtures/venues/IDS.json"), "utf8")) as { M1: { cond: string; yes: string } };
  let dataDir = "";
  let venues: FakeVenues;
  let channel: FakeMarketChannel;
  let server: ChildProcess | undefined;
  let ownContext: BrowserContext;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(240_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "brier-e2e-streams-"));
    venues = createFakeVenues();
    await venues.listen();
    channel = await startFakeMarketChannel();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      HTTP_PROXY: "",
      HTTPS_PROXY: "",
      http_proxy: "",
      https_proxy: "",
      NEXTAUTH_URL: base,
      CATALOG_VENUES: "mock",
      POLYMARKET_WS_URL: channel.url,
    };
    // Asynchronous: the fake venues answer from this process while the CLI runs.
    const admin = (args: string[], input?: string, extra: Record<string, string> = {}) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn("npx", ["tsx", "--conditions=react-server", "scripts/admin.ts", ...args], {
          env: { ...env, ...extra },
          stdio: [input === undefined ? "ignore" : "pipe", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        if (input !== undefined) child.stdin?.end(input);
        child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`admin ${args[0] ?? ""} failed: ${stderr}`))));
      });
    await admin(["ingest", "--venue", "polymarket"], undefined, { VENUE_REDIRECT_URL: venues.url });
    await admin(["create-key", "--email", ANALYST.email, "--plan", "pro", "--name", "seed"]);
    await admin(["set-password", "--email", ANALYST.email], `${ANALYST.password}\n`);
    server = spawn(process.execPath, ["server.mjs"], { env: { ...env, PORT: String(port), HOST: "127.0.0.1" }, stdio: "ignore" });
    await expect.poll(async () => (await fetch(`${base}/v0/health`).catch(() => undefined))?.status, { timeout: 120_000 }).toBe(200);
    // The recorder subscribed and the channel replayed the recorded frames: the books exist.
    await expect.poll(() => channel.connections(), { timeout: 60_000 }).toBeGreaterThan(0);
    ownContext = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 900 } });
  });

  test.afterAll(async () => {
    await ownContext?.close();
    server?.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await channel?.close();
    await venues?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("streams the recorded book and redraws on every update, with a connection indicator", async () => {
    const own = await ownContext.newPage();
    await signInAnalyst(own);
    const markets = (await (await own.request.get("/v0/markets?exchange=polymarket&limit=50")).json()) as {
      data: Array<{ marketId: string; outcomes: Array<{ outcomeId: string }> }>;
    };
    const market = markets.data.find((m) => m.outcomes.some((o) => o.outcomeId === ids.M1.yes));
    expect(market).toBeDefined();
    await own.goto(`/markets/${market?.marketId ?? ""}`);
    const status = own.getByTestId("stream-status");
    await expect(status).toHaveAttribute("data-status", "live");
    await expect(status).toContainText("Live");
    const book = own.getByTestId("streamed-book");
    await expect(book).toBeVisible();
    // The recorded book: best bid 0.61 (IDS.json final_ws_best), shown in cents.
    await expect(book).toContainText("61¢");
    const updated = own.getByTestId("stream-updated");
    const countOf = async () => Number(/(\d+) update/.exec((await updated.textContent()) ?? "")?.[1] ?? 0);
    const before = await countOf();
    // A new best bid arrives on the venue's channel: the ladder shows it without a reload.
    channel.broadcast(
      JSON.stringify({
        market: ids.M1.cond,
        event_type: "price_change",
        timestamp: String(Date.now()),
        price_changes: [{ asset_id: ids.M1.yes, price: "0.62", size: "4321", side: "BUY", hash: "e2e", best_bid: "0.62", best_ask: "0.63" }],
      }),
    );
    await expect(book).toContainText("62¢");
    await expect(book).toContainText("4,321");
    await expect.poll(countOf).toBeGreaterThan(before);
    await own.screenshot({ path: "e2e-artifacts/screenshots/streams-01-live-book.png", fullPage: true });
  });
});
