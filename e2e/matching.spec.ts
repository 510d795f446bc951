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

/** The pair's rule terms both markets state differently, each in its own words (invented wording). */
const ruleDifferences = [
  { term: "trigger", a: "An announcement of the winner by the city clerk will resolve this market to Yes.", b: "Resolves Yes when Quinn Example is sworn in as mayor." },
  { term: "deadlineZone", a: "…by 11:59 PM ET on Dec 31, 2030…", b: "…by 11:59 PM UTC on Dec 31, 2030…" },
];
/** What else the engine found, as data: another option. */
const differences = [{ attribute: "option", state: "conflict", a: ["Quinn Example"], b: ["Rowan Sample"] }];

test("Compare shows what Yes stands for on both sides, the probability, the reasoning, why an overlap is not an identity and the rule differences side by side", async () => {
  // The e2e catalog has one venue, so it has no pair: the page is fed one overlap in the API's shape.
  const marketA = side("kalshi", "KXMAYOR-30-QX", "Mayor of Exampletown in 2030?", "Quinn Example", 0.41);
  const marketB = side("polymarket", "pm-mayor-30", "Will Rowan Sample be Mayor of Exampletown in 2030?", "Rowan Sample", 0.35);
  const reasoning =
    "Same office, same time 2030; different option: kalshi Quinn Example vs polymarket Rowan Sample. Related: both can resolve Yes, neither implies the other.";
  await page.route("**/v0/matched-markets?*", (route) =>
    route.fulfill({
      json: {
        data: [{ marketA, marketB, venueA: "kalshi", venueB: "polymarket", priceA: 0.41, priceB: 0.35, priceDifference: 0.06, relation: "overlap", confidence: 0.87, reasoning, differences, ruleDifferences }],
        meta: { count: 1, limit: 200 },
      },
    }),
  );
  await page.goto("/compare");
  const pair = page.getByTestId("compare-pair");
  await expect(pair).toHaveCount(1);
  await expect(pair.getByTestId("yes-stands-for")).toHaveText(["Yes = Quinn Example", "Yes = Rowan Sample"]);
  await expect(pair.getByTestId("match-confidence")).toHaveText("87%");
  // Rendered from the differences the engine returned, not read out of the reasoning's text.
  await expect(pair.getByTestId("why-not-identity")).toHaveText("Why not identity: Different option: kalshi Quinn Example vs polymarket Rowan Sample");
  await expect(pair.getByTestId("match-reasoning")).toContainText(reasoning);
  const table = pair.getByTestId("rule-differences");
  await expect(table.locator("thead th")).toHaveText(["Rules differ", "kalshi", "polymarket"]);
  const trigger = table.locator('[data-term="trigger"] td');
  await expect(trigger).toHaveText(["What counts", ruleDifferences[0]?.a ?? "", ruleDifferences[0]?.b ?? ""]);
  await expect(table.locator('[data-term="deadlineZone"] td')).toHaveText(["Deadline time zone", ruleDifferences[1]?.a ?? "", ruleDifferences[1]?.b ?? ""]);
  // Side by side: each side's wording in its own column, on one row.
  const [boxA, boxB] = [await trigger.nth(1).boundingBox(), await trigger.nth(2).boundingBox()];
  expect(boxA !== null && boxB !== null && boxA.x + boxA.width <= boxB.x + 1 && Math.abs(boxA.y - boxB.y) < 2).toBe(true);
  await page.screenshot({ path: "e2e-artifacts/compare-page.png", fullPage: true });
  await page.unroute("**/v0/matched-markets?*");
});

test("the market panel shows a match's rule differences side by side, read from the requested market's side", async () => {
  await page.goto("/?exchange=mock");
  await page.getByTestId("markets-table").getByRole("link").first().click();
  await page.waitForURL(/\/markets\/[^/]+$/);
  const marketId = page.url().split("/markets/")[1]?.split(/[?#]/)[0] ?? "";
  expect(marketId).not.toBe("");
  const self = (await (await page.request.get(`/v0/markets/${marketId}/matches`)).json()) as { data: { market: Record<string, unknown> } };
  const other = side("kalshi", "KXMAYOR-30-QX", "Mayor of Exampletown in 2030?", "Quinn Example", 0.41);
  // The seed's mock markets have no counterpart: the panel is fed one overlap in the API's shape.
  await page.route(`**/v0/markets/${marketId}/matches?*`, (route) =>
    route.fulfill({
      json: {
        data: {
          market: self.data.market,
          matches: [
            {
              market: { ...other, lastPrice: 0.41, bestBid: null, bestAsk: null, priceSource: "no_outcome" },
              relation: "overlap",
              confidence: 0.42,
              reasoning: "Same office; rules differ. Related: both can resolve Yes, neither implies the other.",
              differences: [{ attribute: "rules", state: "conflict", label: "trigger", a: [ruleDifferences[0]?.a ?? ""], b: [ruleDifferences[0]?.b ?? ""] }],
              ruleDifferences: [ruleDifferences[0]],
              firstSeenAt: "2026-01-01T00:00:00.000Z",
              validFrom: "2026-01-01T00:00:00.000Z",
              validTo: null,
              engineVersion: "brier-match-7",
            },
          ],
        },
      },
    }),
  );
  await page.reload();
  const panel = page.getByTestId("same-question-elsewhere");
  const table = panel.getByTestId("rule-differences");
  await expect(table.locator("thead th")).toHaveText(["Rules differ", `${String(self.data.market.exchange)} (this market)`, "kalshi"]);
  const row = table.locator('[data-term="trigger"] td');
  await expect(row).toHaveText(["What counts", ruleDifferences[0]?.a ?? "", ruleDifferences[0]?.b ?? ""]);
  const [boxA, boxB] = [await row.nth(1).boundingBox(), await row.nth(2).boundingBox()];
  expect(boxA !== null && boxB !== null && boxA.x + boxA.width <= boxB.x + 1 && Math.abs(boxA.y - boxB.y) < 2).toBe(true);
  await expect(panel.getByTestId("why-not-identity")).toContainText("Why not identity: Rules differ (what counts:");
  await page.screenshot({ path: "e2e-artifacts/market-panel-rule-differences.png", fullPage: true });
  await page.unroute(`**/v0/markets/${marketId}/matches?*`);
});
