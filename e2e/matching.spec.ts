import { expect, test, type Page } from "@playwright/test";
import { signInAnalyst } from "./sign-in";

/**
 * Cross-venue matching in the dashboard: the market page's "Same question elsewhere"
 * panel and the Compare page with its filters. The e2e seed lists only the mock venue (Kalshi is
 * kept empty on purpose for the catalog's empty-venue state), so there is no counterpart: the
 * panel and the page must say so, and the filters must reach /v0/matched-markets.
 */

test.describe.configure({ mode: "serial" });

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  await signInAnalyst(page);
  await expect(page.getByRole("link", { name: "Compare" })).toBeVisible();
});

test("a market page shows the Same question elsewhere panel", async () => {
  await expect.poll(async () => ((await (await page.request.get("/v0/markets?exchange=mock&limit=1")).json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  await page.goto("/?exchange=mock");
  await page.getByTestId("markets-table").getByRole("link").first().click();
  const panel = page.getByTestId("same-question-elsewhere");
  await expect(panel.getByRole("heading", { name: "Same question elsewhere" })).toBeVisible();
  await expect(panel).toContainText("No other venue lists this question");
});

test("the Compare page filters matched pairs through /v0/matched-markets", async () => {
  await page.getByRole("link", { name: "Compare" }).click();
  await expect(page.getByRole("heading", { name: "Compare venues" })).toBeVisible();
  await expect(page.getByText("No matched pairs with these filters.")).toBeVisible();
  const asked = page.waitForRequest((r) => r.url().includes("/v0/matched-markets") && r.url().includes("relations=subset") && r.url().includes("category=Crypto"));
  await page.getByTestId("compare-relation").selectOption("subset");
  await page.getByLabel("Category").selectOption("Crypto");
  await asked;
  await expect(page.getByText("No matched pairs with these filters.")).toBeVisible();
});
