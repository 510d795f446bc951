import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, request, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { DEMO_PORT } from "./env";

/**
 * The first ten minutes (issue 28): from an empty data dir, `npm run demo` alone, then what a
 * newcomer does first: sign in with the printed credentials, open a market (a price history and a
 * book chart that are not empty), run the SQL console's first query, change a plan on the Accounts
 * page while the server runs (on an account the CLI made beside the running server), create a key
 * there and call the API with it. Also: the demo's books, rebuilt by the API on a grid, are never
 * crossed or out of sync; its hours read `synthetic`; a second `npm run demo` reuses what it made.
 *
 * And the README followed from that empty data dir (issue 36): every `curl` example and SQL pattern
 * of the README answers; the demo pair's numbers agree across the catalog page, Compare, the pair
 * page and the API; a live frame arrives on /v0/stream within 5 s and the book moves; the terminal
 * stays quiet (fewer than 5 lines in the minute after start). Offline as a new user's machine may
 * be: the real venues polled are redirected to a closed loopback port, so they fail at once as an
 * unreachable venue does, and each is said once.
 */

const BASE = `http://127.0.0.1:${DEMO_PORT}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "brier-first-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(DEMO_PORT),
  HOST: "127.0.0.1",
  NEXTAUTH_URL: BASE,
  NODE_ENV: "production",
  // Offline: the mock venue answers; Kalshi and Limitless are polled and fail at once (a closed
  // loopback port stands for no network); no proxy swallows loopback calls.
  CATALOG_VENUES: "mock,kalshi,limitless",
  VENUE_REDIRECT_URL: "http://127.0.0.1:9",
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  http_proxy: "",
  https_proxy: "",
};

interface Printed {
  url: string;
  email: string;
  password: string;
  key: string;
}

/** Reads what `npm run demo` prints once the service answers. */
function parseBanner(text: string): Printed | undefined {
  const url = /Brier demo: (\S+)/.exec(text)?.[1];
  const email = /sign in as (\S+)/.exec(text)?.[1];
  const password = /Password\s+(\S+)/.exec(text)?.[1];
  const key = /API key\s+(brier_live_\S+)/.exec(text)?.[1];
  return url && email && password && key ? { url, email, password, key } : undefined;
}

let demo: ChildProcess;
let printed: Printed;
/** Every line the terminal showed, with the time it arrived, and when the banner was complete. */
const lines: Array<{ at: number; text: string }> = [];
let bannerAt = 0;
const run = promisify(execFile);
let page: Page;
let api: APIRequestContext;

function admin(args: string[], input = ""): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync("npx", ["tsx", "--conditions=react-server", "scripts/admin.ts", ...args], { env: { ...env, LOG_LEVEL: "warn" }, input, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function signIn(p: Page, email: string, password: string): Promise<void> {
  await p.goto(`${BASE}/signin`);
  await p.getByLabel("Email").fill(email);
  await p.getByLabel("Password").fill(password);
  await p.getByRole("button", { name: "Sign in" }).click();
  await expect(p.getByTestId("plan-badge")).toBeVisible();
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(900_000);
  let output = "";
  let partial = "";
  demo = spawn("npm", ["run", "--silent", "demo", "--", "--days", "1"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    partial += chunk.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const text of parts) lines.push({ at: Date.now(), text });
  };
  demo.stdout?.on("data", take);
  demo.stderr?.on("data", take);
  const deadline = Date.now() + 850_000;
  while (parseBanner(output) === undefined) {
    if (demo.exitCode !== null) throw new Error(`npm run demo exited with ${demo.exitCode}:\n${output.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`npm run demo printed no credentials in time:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  printed = parseBanner(output) as Printed;
  bannerAt = Date.now();
  page = await (await browser.newContext({ baseURL: BASE })).newPage();
  api = await request.newContext({ baseURL: BASE, extraHTTPHeaders: { authorization: `Bearer ${printed.key}` } });
});

test.afterAll(async () => {
  await api?.dispose();
  // The demo's process group: npm, the demo script and the server it started.
  if (demo?.pid !== undefined && demo.exitCode === null) {
    process.kill(-demo.pid, "SIGTERM");
    await new Promise((resolve) => demo.once("exit", resolve));
    // npm exits before the server it started has closed its stores: wait for the whole group to go.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
      try {
        process.kill(-demo.pid, 0);
      } catch {
        break;
      }
    }
  }
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

test("the demo prints a URL, an operator's email and password, and a key that answers", async () => {
  expect(printed.url).toBe(`http://127.0.0.1:${DEMO_PORT}`);
  const account = (await (await api.get("/v0/account")).json()) as { email: string; plan: string };
  expect(account).toMatchObject({ email: printed.email, plan: "enterprise" });
});

test("sign in with the printed credentials, open a market: a price history and a book chart with data", async () => {
  await signIn(page, printed.email, printed.password);
  await expect(page.getByTestId("plan-badge")).toHaveText("enterprise");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Accounts" })).toBeVisible();
  await page.goto(`${BASE}/?exchange=mock`);
  // Sparklines drawn from the demo's hourly prices: lines, not one dot.
  const spark = page.getByTestId("markets-table").getByTestId("sparkline").first();
  await expect(spark).toBeVisible();
  expect(Number(await spark.getAttribute("data-points"))).toBeGreaterThan(20);
  await page.getByTestId("markets-table").locator("a[href^='/markets/']").first().click();
  await expect(page.getByTestId("price-lines-chart")).toBeVisible();
  await expect(page.getByTestId("price-lines-empty")).toHaveCount(0);
  await expect(page.getByTestId("candle-chart").first()).toBeVisible();
  expect(Number(await page.getByTestId("candle-chart").first().getAttribute("data-candles"))).toBeGreaterThan(20);
  await expect(page.getByTestId("depth-chart").first()).toBeVisible();
  // The coverage ribbon says what the demo hours are.
  await expect(page.getByTestId("coverage-ribbon").locator("[data-condition='synthetic']").first()).toBeVisible();
});

test("the SQL console opens with a query that runs", async () => {
  await page.goto(`${BASE}/sql`);
  const editor = page.getByRole("textbox", { name: /^Query/ });
  await expect(editor).toHaveValue(/toStartOfHour/);
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const results = page.getByTestId("sql-results");
  await expect(results).toBeVisible();
  expect(Number(await results.getAttribute("aria-rowcount")) - 1).toBeGreaterThan(20);
});

test("beside the running server: the CLI makes an account, the Accounts page changes its plan, sets its password, makes a key that calls the API", async ({ browser }) => {
  // The CLI while the server holds the stores: through the admin channel.
  const made = admin(["create-key", "--email", "analyst@example.test", "--plan", "free"]);
  expect(made.code, made.stderr).toBe(0);
  expect(made.stderr).toContain("sent to the running server");
  expect(made.stderr).toContain("set-password --email analyst@example.test");
  const cliKey = made.stdout.trim();

  await page.goto(`${BASE}/accounts`);
  const card = page.locator("[data-testid='account'][data-email='analyst@example.test']");
  await expect(card).toContainText("no password");
  await card.getByLabel("Plan").selectOption("pro");
  await card.getByRole("button", { name: "Change plan" }).click();
  await expect(card).toContainText("is now on the pro plan");
  const cli = await request.newContext({ baseURL: BASE, extraHTTPHeaders: { authorization: `Bearer ${cliKey}` } });
  expect(((await (await cli.get("/v0/account")).json()) as { plan: string }).plan).toBe("pro");
  await cli.dispose();

  await card.getByLabel("New password").fill("analyst password 1");
  await card.getByRole("button", { name: "Set password" }).click();
  await expect(card).toContainText("it can sign in now");

  await card.getByLabel("New key name").fill("from the accounts page");
  await card.getByRole("button", { name: "Create key" }).click();
  const key = (await card.getByTestId("new-key-value").textContent()) ?? "";
  expect(key).toMatch(/^brier_live_/);
  const keyed = await request.newContext({ baseURL: BASE, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
  const markets = await keyed.get("/v0/markets?exchange=mock&limit=3");
  expect(markets.status()).toBe(200);
  expect(((await markets.json()) as { data: unknown[] }).data).toHaveLength(3);
  await keyed.dispose();

  // The account the CLI made signs in now; it is no operator: the Accounts page is a 404 to it.
  const other = await (await browser.newContext({ baseURL: BASE })).newPage();
  await signIn(other, "analyst@example.test", "analyst password 1");
  await expect(other.getByTestId("plan-badge")).toHaveText("pro");
  await expect(other.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Accounts" })).toHaveCount(0);
  const refused = await other.goto(`${BASE}/accounts`);
  expect(refused?.status()).toBe(404);
  await other.context().close();
});

test("the demo's books, rebuilt by the API on a grid, are never crossed and always in sync; its hours read synthetic", async () => {
  // One day of demo history (`--days 1`): the last 23 hours of it, one book every 5 minutes.
  const since = Date.now() - 23 * 3_600_000;
  for (const outcome of ["mock-m34-yes", "mock-m34-no"]) {
    const answer = await api.get(`/v0/orderbooks/${outcome}/history?since=${since}&interval=5m&depth=1&limit=1000`);
    expect(answer.status(), await answer.text()).toBe(200);
    const books = ((await answer.json()) as { data: Array<{ bids: Array<{ price: number }>; asks: Array<{ price: number }>; inSync: boolean }> }).data;
    expect(books.length).toBeGreaterThan(250);
    for (const book of books) {
      expect(book.inSync).toBe(true);
      expect(book.bids[0]?.price ?? 0).toBeLessThan(book.asks[0]?.price ?? 0);
    }
  }
  const coverage = (await (await api.get("/v0/coverage?outcomeId=mock-m34-yes")).json()) as { data: { assets: Array<{ hours: Array<{ condition: string }> }> } };
  const hours = coverage.data.assets[0]?.hours ?? [];
  expect(hours.filter((h) => h.condition === "synthetic").length).toBeGreaterThanOrEqual(23);
  expect(hours.filter((h) => h.condition === "missing").length).toBeLessThanOrEqual(1);
});

/** The README's `curl` commands (continuation lines joined), and its SQL patterns. */
function readmeExamples(): { curls: string[]; sql: string[] } {
  const readme = readFileSync(path.resolve("README.md"), "utf8");
  const curls: string[] = [];
  const sql: string[] = [];
  for (const [, lang, body] of readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    if (lang === "sql") sql.push((body ?? "").trim());
    if (lang !== "sh") continue;
    const joined = (body ?? "").replace(/\\\n\s*/g, " ");
    for (const line of joined.split("\n")) if (line.trim().startsWith("curl ")) curls.push(line.replace(/\s+#.*$/, "").trim());
  }
  return { curls, sql };
}

test("every curl example and SQL pattern of the README answers on the fresh demo", async () => {
  test.setTimeout(300_000);
  const { curls, sql } = readmeExamples();
  expect(curls.length).toBeGreaterThan(15);
  expect(sql).toHaveLength(3);
  for (const example of curls) {
    // The body on stdout, then the status on a line of its own (curl cannot open /dev/stderr on Node's pipe).
    const command = `${example.replaceAll("localhost:3000", `127.0.0.1:${DEMO_PORT}`)} -w '\\n%{http_code}'`;
    const streaming = / -[a-zA-Z]*N /.test(example);
    const result = await run("bash", ["-c", command], { env: { ...process.env, KEY: printed.key }, timeout: 60_000 }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
      // A stream example ends at its --max-time (curl's exit 28) after it received its frames; curl then writes no status.
      if (streaming && error.code === 28) return { stdout: `${error.stdout ?? ""}\n200`, stderr: error.stderr ?? "" };
      throw new Error(`${example}: curl exited with ${String(error.code)} ${error.stderr ?? ""}`);
    });
    const cut = result.stdout.lastIndexOf("\n");
    const [body, status] = [result.stdout.slice(0, cut), result.stdout.slice(cut + 1)];
    expect(status, `${example}\n${body.slice(0, 500)}`).toMatch(/^20[04]$/);
    if (!example.includes("-X DELETE") && !example.includes("-X PUT")) expect(body.length, example).toBeGreaterThan(1);
    if (streaming) expect(body, example).toMatch(/data: /);
  }
  for (const query of sql) {
    const answer = await api.post("/v0/sql", { data: { query } });
    expect(answer.status(), `${query}\n${await answer.text()}`).toBe(200);
    expect(((await answer.json()) as { data: unknown[] }).data.length, query).toBeGreaterThan(0);
  }
});

test("a live frame arrives on /v0/stream within 5 s, and the book moves", async () => {
  const started = Date.now();
  const controller = new AbortController();
  const res = await fetch(`${BASE}/v0/stream?exchange=mock&outcomeIds=mock-m34-yes`, { headers: { authorization: `Bearer ${printed.key}` }, signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const books: string[] = [];
  let firstAt = 0;
  while (books.length < 3 && Date.now() - started < 60_000) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (const match of text.matchAll(/data: (\{.*"bids".*\})\n/g)) if (!books.includes(match[1] ?? "")) books.push(match[1] ?? "");
    if (books.length > 0 && firstAt === 0) firstAt = Date.now();
  }
  controller.abort();
  expect(firstAt - started, "first book frame").toBeLessThan(5_000);
  expect(new Set(books).size, "the book changed").toBeGreaterThanOrEqual(2);
});

interface Listed {
  marketId: string;
  updatedAt: string;
  outcomes: Array<{ outcomeId: string; price: number }>;
}

test("the demo pair's numbers agree across the catalog page, Compare, the pair page and the API", async () => {
  test.setTimeout(180_000);
  const cents = (price: number) => `${Math.round(price * 1000) / 10}¢`.replace(".0¢", "¢");
  // The catalog re-prices once a minute: read the API, then the pages, and retry if a re-pricing fell between.
  for (let attempt = 0; ; attempt += 1) {
    const poly = (await (await api.get("/v0/markets/synthetic-demo-pair")).json()) as { data: Listed };
    const kalshi = (await (await api.get("/v0/markets/KXSYNTHDEMO-26DEC31")).json()) as { data: Listed };
    const [pYes, kYes] = [poly.data.outcomes[0]?.price ?? Number.NaN, kalshi.data.outcomes[0]?.price ?? Number.NaN];
    // The API's price is the recorded book's mid at the instant the catalog last priced it (its updatedAt).
    const book = (await (await api.get(`/v0/orderbooks/synthetic-demo-pair-yes?depth=1&at=${encodeURIComponent(poly.data.updatedAt)}`)).json()) as { data: { bids: Array<{ price: number }>; asks: Array<{ price: number }> } };
    const mid = ((book.data.bids[0]?.price ?? 0) + (book.data.asks[0]?.price ?? 0)) / 2;
    await page.goto(`${BASE}/?q=SYNTHETIC%20DEMO`);
    await expect(page.getByTestId("markets-table").locator("tbody tr")).toHaveCount(2);
    const catalog = (await page.getByTestId("markets-table").textContent()) ?? "";
    await page.goto(`${BASE}/compare?q=SYNTHETIC`);
    const compareRow = page.getByTestId("compare-pair").first();
    await expect(compareRow).toBeVisible();
    const compare = (await compareRow.textContent()) ?? "";
    const link = await compareRow.getByTestId("pair-spread-link").getAttribute("href");
    const againPoly = (await (await api.get("/v0/markets/synthetic-demo-pair")).json()) as { data: Listed };
    const againKalshi = (await (await api.get("/v0/markets/KXSYNTHDEMO-26DEC31")).json()) as { data: Listed };
    // Retry when a re-pricing fell between the reads, or when the book's last changes before that
    // instant were not yet flushed to the store (the live demo flushes every 2 s).
    const repriced = againPoly.data.outcomes[0]?.price !== pYes || againKalshi.data.outcomes[0]?.price !== kYes;
    if ((repriced || Math.abs(pYes - mid) > 1e-9) && attempt < 5) {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      continue;
    }
    expect(Math.abs(pYes - mid), `catalog ${pYes} against the book's mid ${mid} at ${poly.data.updatedAt}`).toBeLessThan(1e-9);
    expect(catalog).toContain(cents(pYes));
    expect(catalog).toContain(cents(kYes));
    expect(compare).toContain(cents(pYes));
    expect(compare).toContain(cents(kYes));
    expect(compare).toContain(cents(Math.abs(pYes - kYes)));
    // Compare links the pair page with Polymarket as A, as the docs do.
    expect(link).toMatch(/^\/pairs\/[^/]+\/[^/]+$/);
    await page.goto(`${BASE}${link ?? ""}`);
    const title = page.getByTestId("pair-title");
    await expect(title).toContainText("SYNTHETIC DEMO");
    const pairText = (await title.textContent()) ?? "";
    expect(pairText.indexOf("(polymarket)")).toBeGreaterThan(0);
    expect(pairText.indexOf("(polymarket)")).toBeLessThan(pairText.indexOf("(kalshi)"));
    break;
  }
});

test("the terminal stays quiet: fewer than 5 lines in the minute after start", async () => {
  test.setTimeout(120_000);
  const wait = bannerAt + 65_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const after = lines.filter((line) => line.at > bannerAt + 2_000 && line.at <= bannerAt + 62_000);
  expect(after.length, after.map((l) => l.text).join("\n")).toBeLessThan(5);
  // Each unreachable venue was said once, as one structured line.
  const unreachable = lines.filter((line) => line.text.includes('"venue unreachable"'));
  expect(unreachable.map((l) => (JSON.parse(l.text) as { venue: string }).venue).sort()).toEqual(["kalshi", "limitless"]);
});

test("npm run demo again, beside the running server, prints the same credentials", () => {
  const again = spawnSync("npm", ["run", "--silent", "demo"], { env, encoding: "utf8", timeout: 300_000 });
  expect(again.status, again.stderr).toBe(0);
  const second = parseBanner(`${again.stdout}${again.stderr}`);
  expect(second).toMatchObject({ email: printed.email, password: printed.password, key: printed.key });
  expect(again.stderr).toContain("The demo history is there already");
});
