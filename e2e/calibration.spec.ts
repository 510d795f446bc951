import { expect, test, type Page } from "@playwright/test";
import type { CalibrationMarketsResponse, CalibrationResponse } from "@/lib/calibration/shapes";
import type { MarketPublic } from "@/lib/catalog/shapes";
import type { ResolutionChangePublic } from "@/lib/outcomes/shapes";
import { signInAnalyst } from "./sign-in";

/**
 * The Calibration page (docs/calibration.md) on the e2e server's seeded demo: the SYNTHETIC mock
 * markets the seed's `admin demo-ticks` closes and resolves by their price paths (docs/outcomes.md,
 * "The offline demo"). The page's numbers are the API's; the markets it scores are the ones the
 * resolution feed (GET /v0/resolutions) says resolved, each with the result the feed and the
 * market's own `resolution` state; a count leads to the markets behind it and on to a market page
 * that shows the same resolution, marked synthetic.
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

/** A GET as a client makes it: a 503 (the embedded tick store's read pool busy) is asked again after its Retry-After. */
async function api<T>(path: string): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await page.request.get(path);
    if (res.status() === 503 && attempt < 10) {
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers()["retry-after"] ?? 1) * 1000));
      continue;
    }
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return (await res.json()) as T;
  }
}

/** Every change of the feed for a venue, all pages. */
async function feed(venue: string): Promise<ResolutionChangePublic[]> {
  const changes: ResolutionChangePublic[] = [];
  let cursor: string | null = null;
  do {
    const answer: { data: ResolutionChangePublic[]; nextCursor: string | null } = await api(`/v0/resolutions?venue=${venue}&limit=1000${cursor === null ? "" : `&cursor=${cursor}`}`);
    changes.push(...answer.data);
    cursor = answer.nextCursor;
  } while (cursor !== null);
  return changes;
}

test("the Calibration page, GET /v0/resolutions and each market's resolution agree on the demo's resolved markets", async () => {
  await page.goto("/");
  await page.getByRole("link", { name: "Calibration" }).click();
  await expect(page).toHaveURL(/\/calibration$/);
  await expect(page.getByRole("heading", { name: "Calibration", level: 1 })).toBeVisible();

  const rows = page.getByTestId("calibration-row");
  await expect(rows.first()).toBeVisible();
  await expect(rows.first()).toHaveAttribute("data-venue", "mock");
  // The category table (one call per category) has a row for the demo's categories once its calls are answered.
  await expect(page.getByTestId("calibration-category-row").first()).toBeVisible();
  await expect(page.getByTestId("calibration-category-table")).not.toContainText("loading");

  // The feed: the demo's markets closed, determined and settled, every change synthetic.
  const changes = await feed("mock");
  expect(changes.length).toBeGreaterThan(0);
  for (const change of changes) expect([change.learnedBy, change.synthetic]).toEqual(["synthetic", true]);
  const latest = new Map<string, ResolutionChangePublic>();
  for (const change of changes) latest.set(change.venueMarketId, change);
  const settled = [...latest.values()].filter((c) => c.state === "settled");
  expect(settled.length).toBeGreaterThan(3);
  for (const c of settled) {
    expect([0, 0.5, 1]).toContain(c.settlementValue);
    expect(c.winningOutcomeId).toBe(c.settlementValue === 0.5 ? null : c.outcomeIds[c.settlementValue === 1 ? 0 : 1]);
  }

  // The same figures from the API the page calls, over the page's own window (the last 365 days).
  const until = Math.ceil(Date.now() / 60_000) * 60_000;
  const answer = await api<CalibrationResponse>(`/v0/calibration?since=${until - 365 * 86_400_000}&until=${until}`);
  const mock = answer.data.filter((f) => f.venue === "mock");
  // Every resolved market of the feed is scored or counted unscored at every horizon, nothing else.
  for (const figure of mock) expect(figure.count + figure.unscored, figure.horizon).toBe(settled.length);
  const oneDay = mock.find((f) => f.horizon === "1d");
  expect(oneDay?.count ?? 0).toBeGreaterThan(0);
  const row = page.locator('[data-testid="calibration-row"][data-venue="mock"][data-horizon="1d"]');
  await expect(row.getByTestId("calibration-brier")).toHaveText((oneDay?.brier ?? 0).toFixed(4));
  await expect(row.getByTestId("calibration-count-link")).toHaveText(String(oneDay?.count));

  // The diagram: this venue's non-empty bins as points, against the diagonal.
  const diagram = page.getByTestId("reliability-diagram");
  await expect(diagram.getByTestId("reliability-diagonal")).toBeAttached();
  const drawn = diagram.locator('[data-testid="reliability-venue"][data-venue="mock"]');
  await expect(drawn).toHaveAttribute("data-points", String(oneDay?.bins.filter((b) => b.count > 0).length));

  await page.screenshot({ path: "e2e-artifacts/screenshots/calibration-01-page.png", fullPage: true });

  // A count leads to the markets behind it; their number is the figure's (up to a page of 100).
  await row.getByTestId("calibration-count-link").click();
  await expect(page).toHaveURL(/\/calibration\/markets\?/);
  const listed = page.getByTestId("calibration-market-row");
  await expect(listed.first()).toBeVisible();
  expect(await listed.count()).toBe(Math.min(100, oneDay?.count ?? 0));
  await page.screenshot({ path: "e2e-artifacts/screenshots/calibration-02-markets.png", fullPage: true });

  // Each market behind the figure: the outcome it was scored against is the feed's settlement, and
  // the market's own resolution (GET /v0/markets/{id}) is the feed's latest change.
  const behind = await api<CalibrationMarketsResponse>(`/v0/calibration/markets?${new URL(page.url()).searchParams.toString()}`);
  expect(behind.data.length).toBe(await listed.count());
  for (const scored of behind.data) {
    const change = latest.get(scored.venueMarketId);
    expect(change?.state, scored.venueMarketId).toBe("settled");
    expect(scored.outcome).toBe(change?.settlementValue);
    expect(Date.parse(scored.forecastAt)).toBeLessThan(Date.parse(scored.closedAt));
    expect(Date.parse(scored.pricedAt)).toBeLessThanOrEqual(Date.parse(scored.forecastAt));
    const market = (await api<{ data: MarketPublic }>(`/v0/markets/${scored.marketId}`)).data;
    expect(market.resolution).toMatchObject({
      state: "settled",
      winningOutcomeId: change?.winningOutcomeId,
      settlementValue: change?.settlementValue,
      closedAt: change?.closedAt,
      learnedBy: "synthetic",
      synthetic: true,
    });
  }

  // On to the first market's page: its resolution line says the same, marked synthetic.
  const first = behind.data[0];
  await listed.first().getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/markets/${first?.marketId ?? "?"}`));
  const line = page.getByTestId("market-resolution");
  await expect(line).toHaveAttribute("data-state", "settled");
  await expect(line).toHaveAttribute("data-winner", latest.get(first?.venueMarketId ?? "")?.winningOutcomeId ?? "");
  await expect(line.getByTestId("market-resolution-synthetic")).toBeVisible();
  await page.screenshot({ path: "e2e-artifacts/screenshots/calibration-03-market.png" });
});
