import { expect, test, type Page } from "@playwright/test";
import { signInAnalyst } from "./sign-in";

/**
 * Cross-venue spreads in the dashboard (docs/spreads.md): from Compare's row of the SYNTHETIC
 * demo pair that the e2e seed writes (`admin demo-ticks`), the pair page shows both books on one
 * time axis, the spread after fees with its episodes, both venues' coverage (the demo's Kalshi gap
 * unknown) and the latest value; the page's numbers are the API's.
 */

test.describe.configure({ mode: "serial" });

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  await signInAnalyst(page);
});

test("Compare links the demo pair to its pair page: both books, the spread after fees, episodes, coverage, the latest value", async () => {
  await page.goto("/compare");
  const pair = page.getByTestId("compare-pair").filter({ hasText: "SYNTHETIC DEMO" });
  await expect(pair).toHaveCount(1);
  await pair.getByTestId("pair-spread-link").click();
  await expect(page).toHaveURL(/\/pairs\//);
  await expect(page.getByTestId("pair-title")).toContainText("SYNTHETIC DEMO");
  await expect(page.getByTestId("pair-fees")).toContainText("kalshi-2026-03");

  const books = page.getByTestId("pair-books-chart");
  await expect(books.locator("canvas").first()).toBeVisible();
  expect(Number(await books.getAttribute("data-points"))).toBeGreaterThan(1000);
  await expect(page.getByTestId("pair-net-chart").locator("canvas").first()).toBeVisible();

  // The demo's Kalshi book was not recorded for 30 minutes 26 hours ago: in the 24 h window Kalshi's strip is fully known, in 7 days it is not.
  await expect(page.getByTestId("pair-coverage-a").locator('[data-known="true"]').first()).toBeVisible();
  await page.getByTestId("pair-window").selectOption("7d");
  await expect(page.getByTestId("pair-coverage-b").locator('[data-known="false"]').first()).toBeAttached();

  const rows = page.getByTestId("pair-episode");
  await expect(rows.first()).toBeVisible();
  await expect(page.getByTestId("pair-live")).toContainText("Now:");
  await page.screenshot({ path: "e2e-artifacts/screenshots/spreads-01-pair.png", fullPage: true });

  // The page's episodes are the API's: once the 7-day answer has replaced the 24-hour one on screen,
  // the same window, size and threshold ask the API for exactly the rows the page shows.
  const url = new URL(page.url());
  const [, , a, b] = url.pathname.split("/");
  const table = page.getByTestId("pair-episodes");
  await expect(table).toHaveAttribute("aria-busy", "false");
  await expect.poll(async () => Date.now() - Number(await table.getAttribute("data-since"))).toBeGreaterThan(6.9 * 86_400_000);
  const since = await table.getAttribute("data-since");
  const until = await table.getAttribute("data-until");
  const shown = await rows.count();
  const answer = (await (await page.request.get(`/v0/pairs/${a}/${b}/episodes?since=${since}&until=${until}&size=100&minSpread=0&limit=200`)).json()) as { meta: { count: number } };
  expect(answer.meta.count).toBe(shown);
  expect(shown).toBeGreaterThan(0);
});

test("the market page's Same question elsewhere panel links to the pair page", async () => {
  await page.goto("/markets/synthetic-demo-pair");
  const panel = page.getByTestId("same-question-elsewhere");
  await expect(panel).toContainText("SYNTHETIC DEMO");
  await panel.getByTestId("pair-spread-link").click();
  await expect(page.getByTestId("pair-title")).toContainText("SYNTHETIC DEMO");
});
