import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { signInAnalyst } from "./sign-in";

/**
 * History on the dashboard: the catalog rows' 7-day sparkline and the market page's
 * price line per outcome (catalog price snapshots, every plan), the coverage ribbon under the
 * charts, and the recorder's heartbeat and incidents on the status page.
 */

test.describe.configure({ mode: "serial" });

let context: BrowserContext;
let page: Page;

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

test("catalog rows carry a 7-day sparkline from the price snapshots the seed's poll wrote", async () => {
  await page.goto("/?exchange=mock");
  const table = page.getByTestId("markets-table");
  await expect(table).toBeVisible();
  const sparkline = table.getByTestId("sparkline").first();
  await expect(sparkline).toBeVisible();
  expect(Number(await sparkline.getAttribute("data-points"))).toBeGreaterThan(0);
  // The sparkline's last point is the price the catalog shows (both from the same poll or a later one).
  const marketId = (await table.locator("tbody tr").first().getAttribute("data-market-id")) ?? "";
  const answer = (await (await page.request.get(`/v0/prices/sparklines?marketIds=${marketId}`)).json()) as { data: Array<{ points: Array<[number, number]> }> };
  expect(answer.data[0]?.points.length).toBeGreaterThan(0);
  await page.screenshot({ path: "e2e-artifacts/screenshots/history-01-sparklines.png", fullPage: true });
});

test("the market page shows a price line per outcome and the coverage ribbon under the charts", async () => {
  await page.goto("/?exchange=mock");
  await page.getByTestId("markets-table").getByRole("link").first().click();
  const prices = page.getByTestId("price-lines");
  await expect(prices).toBeVisible();
  await expect(prices.getByTestId("price-lines-chart").locator("canvas").first()).toBeVisible();
  const ribbon = page.getByTestId("coverage-ribbon");
  await expect(ribbon).toBeVisible();
  // 7 days of hours; the synthetic demo ticks were never recorded by a recorder, so no hour is available.
  const cells = ribbon.locator("[data-condition]");
  await expect(cells).toHaveCount(168);
  expect(await ribbon.locator('[data-condition="available"]').count()).toBe(0);
  await page.screenshot({ path: "e2e-artifacts/screenshots/history-02-market.png", fullPage: true });
});

test("the status page shows the recorder's heartbeat and its incidents", async () => {
  await page.goto("/status");
  const section = page.getByTestId("recorder-incidents");
  await expect(section).toBeVisible();
  await expect(page.getByTestId("recorder-heartbeat")).toContainText("running");
  await expect(page.getByTestId("incidents-table")).toContainText("recorder_started");
  await page.screenshot({ path: "e2e-artifacts/screenshots/history-03-status.png", fullPage: true });
});
