import { expect, request as playwrightRequest, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { ANALYST, E2E_BASE_URL } from "./env";

/**
 * The analyst's flow through the dashboard (issue 6), one step per test, in order, in one
 * browser context: sign up, sign in, keys, catalog, market charts against POST /v0/sql, SQL
 * console, pass-through console, revoke. A screenshot of every page lands in e2e-artifacts/.
 */

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;
let apiKey = "";
let keyed: APIRequestContext;
let marketPath = "";
let candleSql = "";

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: `e2e-artifacts/screenshots/${name}.png`, fullPage: true });
}

async function newContext(browser: Browser): Promise<void> {
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
}

test.beforeAll(async ({ browser }) => {
  await newContext(browser);
});

test.afterAll(async () => {
  await keyed?.dispose();
  await context?.close();
});

test("sign up creates a free account and lands on the catalog", async () => {
  await page.goto("/");
  await shot("00-home-signed-out");
  await page.getByRole("link", { name: "Sign up" }).first().click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  const email = `new-${Date.now()}@brier.test`;
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("password must be at least 10 characters")).toBeVisible();
  await shot("01-signup-error");
  await page.getByLabel("Password").fill("a-good-long-password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Catalog" })).toBeVisible();
  await expect(page.getByTestId("plan-badge")).toHaveText("free");
});

test("a free account sees why order-book history is not available, then signs out", async () => {
  // The catalog is filled by the seed's ingest; wait for it rather than sleeping.
  await expect.poll(async () => ((await (await page.request.get("/v0/markets?exchange=mock&limit=1")).json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  await page.goto("/?exchange=mock");
  await page.getByTestId("markets-table").getByRole("link").first().click();
  await expect(page.getByTestId("history-plan-notice")).toContainText("Enterprise");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

test("sign in with a wrong password fails clearly, the right one works", async () => {
  await page.getByLabel("Email").fill(ANALYST.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await shot("02-signin-error");
  await page.getByLabel("Password").fill(ANALYST.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("plan-badge")).toHaveText("enterprise");
});

test("create a key, read it from the page, and call /v0/markets with it", async () => {
  await page.goto("/settings");
  await page.getByLabel("New key name").fill("e2e key");
  await page.getByRole("button", { name: "Create key" }).click();
  const value = page.getByTestId("new-key-value");
  await expect(value).toHaveText(/^brier_live_[A-Za-z0-9_-]{43}$/);
  apiKey = (await value.textContent()) ?? "";
  await expect(page.getByTestId("keys-table")).toContainText("e2e key");
  await shot("03-settings-key-created");

  keyed = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${apiKey}` } });
  const response = await keyed.get("/v0/markets?limit=5");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: unknown[]; meta: { count: number } };
  expect(body.meta.count).toBe(body.data.length);
  expect(body.data.length).toBeGreaterThan(0);
});

test("search and filter the catalog; the URL carries the state", async () => {
  await page.goto("/");
  const table = page.getByTestId("markets-table");
  await expect(table).toBeVisible();
  await shot("04-catalog");
  const firstTitle = (await table.getByRole("link").first().textContent()) ?? "";
  // The title's longest word: a search that narrows the list rather than matching everything.
  const word = firstTitle
    .split(/\s+/)
    .map((w) => w.replace(/[^A-Za-z0-9]/g, ""))
    .reduce((a, b) => (b.length > a.length ? b : a), "");

  await page.getByLabel("Venue").selectOption("mock");
  await expect(page).toHaveURL(/exchange=mock/);
  await page.getByLabel("Search").fill(word);
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(word)}`));
  await expect(table.getByRole("link").first()).toContainText(new RegExp(word, "i"));
  for (const badge of await table.locator(".badge").allTextContents()) expect(["mock", "closed"]).toContain(badge);
  await shot("05-catalog-filtered");

  // The same URL, opened fresh, shows the same view (the state is shareable).
  const shared = page.url();
  await page.goto(shared);
  await expect(page.getByLabel("Search")).toHaveValue(word);
  await expect(page.getByLabel("Venue")).toHaveValue("mock");

  await page.getByRole("link", { name: "Reset filters" }).click();
  await expect(page.getByLabel("Search")).toHaveValue("");
  await page.getByRole("button", { name: "Events" }).click();
  await expect(page).toHaveURL(/view=events/);
  await expect(page.getByTestId("events-table")).toBeVisible();
  await shot("06-catalog-events");
});

test("a market page draws candles whose data matches POST /v0/sql", async () => {
  await page.goto("/?exchange=mock");
  await page.getByTestId("markets-table").getByRole("link").first().click();
  await expect(page.getByTestId("ids")).toBeVisible();
  marketPath = new URL(page.url()).pathname;
  const chart = page.getByTestId("candle-chart");
  await expect(chart).toBeVisible();
  await expect(chart.locator("canvas").first()).toBeVisible();
  await expect(page.getByTestId("recorded-book")).toBeVisible();
  await expect(page.getByTestId("depth-chart").locator("canvas").first()).toBeVisible();
  await expect(page.getByTestId("levels-chart").locator("canvas").first()).toBeVisible();
  await shot("07-market");

  const href = (await page.getByTestId("open-in-sql").first().getAttribute("href")) ?? "";
  candleSql = new URL(href, E2E_BASE_URL).searchParams.get("q") ?? "";
  expect(candleSql).toContain("toStartOfHour(timestamp) AS hour");
  const answer = (await (await keyed.post("/v0/sql", { data: { query: candleSql } })).json()) as {
    data: { hour: string; open: number; close: number; low: number; high: number; ticks: number | string }[];
  };
  expect(answer.data.length).toBeGreaterThan(0);
  expect(Number(await page.getByTestId("candle-chart").getAttribute("data-candles"))).toBe(answer.data.length);

  await page.getByText(/^Candle data/).click();
  const rows = page.getByTestId("candle-table").locator("tbody tr");
  await expect(rows).toHaveCount(answer.data.length);
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll("td"), (td) => td.textContent ?? "")));
  expect(shown).toEqual(answer.data.map((r) => [r.hour, String(r.open), String(r.high), String(r.low), String(r.close), String(Number(r.ticks))]));
});

test("the candle example runs in the SQL console", async () => {
  await page.goto("/sql");
  await page.getByRole("button", { name: "Hourly candles (7 days)" }).click();
  await expect(page.getByLabel(/^Query/)).toHaveValue(/toStartOfHour/);
  await page.getByLabel(/^Query/).press("Control+Enter");
  const results = page.getByTestId("sql-results");
  await expect(results).toBeVisible();
  await expect(page.getByTestId("sql-stats")).toContainText("rows read");
  await expect(page.getByTestId("sql-chart").locator("canvas").first()).toBeVisible();
  const rowCount = Number(await results.getAttribute("aria-rowcount")) - 1;
  expect(rowCount).toBeGreaterThan(0);
  await shot("08-sql-console");
});

test("the pass-through console fetches a mock order book", async () => {
  await page.goto(marketPath);
  await page.getByRole("link", { name: "Open in console" }).click();
  await expect(page).toHaveURL(/\/console\?exchange=mock&method=fetchOrderBook/);
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("console-status")).toContainText("HTTP 200");
  await expect(page.getByTestId("console-response")).toContainText('"success": true');
  await expect(page.getByTestId("console-response")).toContainText('"bids"');
  await shot("09-console");
});

test("event and status pages render", async () => {
  await page.goto(marketPath);
  await page.getByRole("link", { name: "Event", exact: true }).click();
  await expect(page.getByTestId("event-markets")).toBeVisible();
  await shot("10-event");
  await page.goto("/status");
  await expect(page.getByTestId("catalog-status-table")).toContainText("mock");
  await shot("11-status");
});

test("revoking the key refuses the next request made with it", async () => {
  await page.goto("/settings");
  const row = page.getByTestId("keys-table").locator("tr", { hasText: "e2e key" });
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await shot("12-settings-revoke-confirm");
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(row).toContainText("revoked");
  const refused = await keyed.get("/v0/markets?limit=1");
  expect(refused.status()).toBe(401);
  await shot("13-settings-revoked");
});

test("dark theme at laptop width: no horizontal overflow, the choice survives a reload", async () => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.goto("/");
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByTestId("markets-table")).toBeVisible();
  await shot("14-catalog-dark-1024");
  for (const path of ["/", marketPath, "/sql", "/console", "/settings", "/status"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0);
  }
  await page.goto(marketPath);
  await expect(page.getByTestId("candle-chart").locator("canvas").first()).toBeVisible();
  await shot("15-market-dark-1024");
});
