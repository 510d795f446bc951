import { expect, test, type Page } from "@playwright/test";
import type { CalibrationResponse } from "@/lib/calibration/shapes";
import { signInAnalyst } from "./sign-in";

/**
 * The Calibration page (docs/calibration.md) on the e2e server's seeded demo: the SYNTHETIC mock
 * markets the seed resolves (with their recorded books and price history). The page's numbers are
 * the API's, the reliability diagram draws each venue's bins, and a count leads to the markets
 * behind it and on to a market's page.
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

test("the Calibration page shows each venue's scores, reliability and categories, equal to the API's, each linked to its markets", async () => {
  await page.goto("/");
  await page.getByRole("link", { name: "Calibration" }).click();
  await expect(page).toHaveURL(/\/calibration$/);
  await expect(page.getByRole("heading", { name: "Calibration", level: 1 })).toBeVisible();

  const rows = page.getByTestId("calibration-row");
  await expect(rows.first()).toBeVisible();
  const venue = await rows.first().getAttribute("data-venue");
  expect(venue).not.toBeNull();

  // The same figures from the API the page calls (its own window: the last 365 days).
  const answer = (await (await page.request.get(`/v0/calibration?since=${Date.now() - 365 * 86_400_000}`)).json()) as CalibrationResponse;
  const oneDay = answer.data.find((f) => f.venue === venue && f.horizon === "1d");
  expect(oneDay?.count ?? 0).toBeGreaterThan(0);
  const row = page.locator(`[data-testid="calibration-row"][data-venue="${venue}"][data-horizon="1d"]`);
  await expect(row.getByTestId("calibration-brier")).toHaveText((oneDay?.brier ?? 0).toFixed(4));
  await expect(row.getByTestId("calibration-count-link")).toHaveText(String(oneDay?.count));

  // The diagram: this venue's non-empty bins as points, against the diagonal.
  const diagram = page.getByTestId("reliability-diagram");
  await expect(diagram.getByTestId("reliability-diagonal")).toBeAttached();
  const drawn = diagram.locator(`[data-testid="reliability-venue"][data-venue="${venue}"]`);
  expect(Number(await drawn.getAttribute("data-points"))).toBe(oneDay?.bins.filter((b) => b.count > 0).length);

  // The category table has a row for the demo's categories.
  await expect(page.getByTestId("calibration-category-row").first()).toBeVisible();
  await page.screenshot({ path: "e2e-artifacts/screenshots/calibration-01-page.png", fullPage: true });

  // A count leads to the markets behind it; their number is the figure's (up to a page of 100).
  await row.getByTestId("calibration-count-link").click();
  await expect(page).toHaveURL(/\/calibration\/markets\?/);
  const listed = page.getByTestId("calibration-market-row");
  await expect(listed.first()).toBeVisible();
  expect(await listed.count()).toBe(Math.min(100, oneDay?.count ?? 0));
  await page.screenshot({ path: "e2e-artifacts/screenshots/calibration-02-markets.png", fullPage: true });

  await listed.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/markets\//);
});
