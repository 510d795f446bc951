import { expect, test, type Page } from "@playwright/test";
import { signInAnalyst } from "./sign-in";

/**
 * Cross-venue matching in the dashboard: the market page's "Same question elsewhere"
 * panel and the Compare page with its filters. The e2e seed lists the mock venue (Kalshi's catalog
 * is kept empty on purpose for the catalog's empty-venue state) and the SYNTHETIC demo pair that
 * `admin demo-ticks` writes (docs/spreads.md): a mock market has no counterpart, so the panel must
 * say so; Compare lists the demo pair, and the filters must reach /v0/matched-markets; how any pair
 * reads is checked on one pair in the API's shape.
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
  // The only identity pair of the seed is the synthetic demo pair.
  await expect(page.getByTestId("compare-pair")).toHaveCount(1);
  await expect(page.getByTestId("compare-pair")).toContainText("SYNTHETIC DEMO");
  const asked = page.waitForRequest((r) => r.url().includes("/v0/matched-markets") && r.url().includes("relations=subset") && r.url().includes("category=Crypto"));
  await page.getByTestId("compare-relation").selectOption("subset");
  await page.getByLabel("Category").selectOption("Crypto");
  await asked;
  await expect(page.getByText("No matched pairs with these filters.")).toBeVisible();
});

/** One market of /v0/matched-markets as the API shapes it (invented questions, not catalog data). */
function side(exchange: string, venueMarketId: string, title: string, yes: string, price: number) {
  const id = (n: number) => `00000000-0000-5000-8000-${String(n).padStart(12, "0")}`;
  const n = exchange === "kalshi" ? 1 : 2;
  const outcome = (label: string, p: number, suffix: string) => ({ outcomeId: `${venueMarketId}${suffix}`, label, price: p, priceChange24h: 0 });
  return {
    marketId: id(n),
    eventId: id(n + 10),
    exchange,
    sourceExchange: exchange,
    venueMarketId,
    title,
    slug: null,
    description: null,
    category: "Politics",
    outcomes: [outcome(yes, price, "-yes"), outcome(`Not ${yes}`, 1 - price, "-no")],
    volume24h: 1000,
    volume: null,
    liquidity: null,
    openInterest: null,
    status: "active",
    closed: false,
    resolutionDate: null,
    contractAddress: null,
    url: null,
    image: null,
    firstSeenAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };
}

test("Compare shows what Yes stands for on both sides, the probability, the reasoning and why an overlap is not an identity", async () => {
  // The e2e catalog has one venue, so it has no pair: the page is fed one overlap in the API's shape.
  const marketA = side("kalshi", "KXMAYOR-30-QX", "Mayor of Exampletown in 2030?", "Quinn Example", 0.41);
  const marketB = side("polymarket", "pm-mayor-30", "Will Rowan Sample be Mayor of Exampletown in 2030?", "Rowan Sample", 0.35);
  const reasoning =
    "Same office, same time 2030; different option: Kalshi Quinn Example vs Polymarket Rowan Sample. Related: both can resolve Yes, neither implies the other.";
  await page.route("**/v0/matched-markets?*", (route) =>
    route.fulfill({
      json: {
        data: [{ marketA, marketB, venueA: "kalshi", venueB: "polymarket", priceA: 0.41, priceB: 0.35, priceDifference: 0.06, relation: "overlap", confidence: 0.87, reasoning }],
        meta: { count: 1, limit: 200 },
      },
    }),
  );
  await page.goto("/compare");
  const pair = page.getByTestId("compare-pair");
  await expect(pair).toHaveCount(1);
  await expect(pair.getByTestId("yes-stands-for")).toHaveText(["Yes = Quinn Example", "Yes = Rowan Sample"]);
  await expect(pair.getByTestId("match-confidence")).toHaveText("87%");
  await expect(pair.getByTestId("why-not-identity")).toHaveText("Why not identity: Different option: Kalshi Quinn Example vs Polymarket Rowan Sample");
  await expect(pair.getByTestId("match-reasoning")).toContainText(reasoning);
  await page.screenshot({ path: "e2e-artifacts/compare-page.png", fullPage: true });
  await page.unroute("**/v0/matched-markets?*");
});
