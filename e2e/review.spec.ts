import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { OPERATOR } from "./env";
import { signInAnalyst, signInAs } from "./sign-in";

/**
 * The verified tier end to end (docs/matching.md, "Review queue"): an operator reads a pair in the
 * Review queue with both markets' rules side by side, confirms it with one keystroke, and the pair is
 * served as `verified: true` and kept by the `verified` filter; every review exports as JSON Lines; a
 * second operator's rejection of the same pair (from a queue opened before the confirmation) replaces
 * it, the filter follows, and importing the first export restores the confirmation. The e2e seed's
 * only cross-venue identity is the SYNTHETIC demo pair that `admin demo-ticks` writes
 * (docs/spreads.md), so the queue holds it, unreviewed.
 */

test.describe.configure({ mode: "serial" });

let page: Page;
/** A second operator's queue, opened before the first reviews the pair. */
let second: Page;
let pair = "";

interface Pair {
  marketA: { marketId: string };
  marketB: { marketId: string };
  verified: boolean;
}

/** The pairs of /v0/matched-markets with `verified=<filter>` (every relation), by the review queue's pair key. */
async function served(filter: "true" | "false"): Promise<Map<string, boolean>> {
  const res = await page.request.get(`/v0/matched-markets?relations=identity,subset,superset,overlap,disjoint&limit=500&verified=${filter}`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { data: Pair[] };
  const key = (p: Pair) => [p.marketA.marketId, p.marketB.marketId].sort().join("|");
  return new Map(body.data.map((p) => [key(p), p.verified]));
}

/** Imports `text` as a JSON Lines file through the queue's form and waits for its answer. */
async function importFile(text: string, expected: RegExp) {
  const form = page.getByTestId("review-import");
  await form.locator('input[type="file"]').setInputFiles({ name: "reviews.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(text) });
  await form.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("review-import-message")).toHaveText(expected);
}

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  await signInAs(page, OPERATOR);
  second = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signInAs(second, OPERATOR);
});

test("the Review page is the operator's only: an analyst gets a 404 and no Review link", async ({ browser }) => {
  const other = await (await browser.newContext()).newPage();
  await signInAnalyst(other);
  await expect(other.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Review" })).toHaveCount(0);
  expect((await other.goto("/review"))?.status()).toBe(404);
  expect((await other.request.get("/review/export")).status()).toBe(404);
  await other.context().close();
});

test("the queue shows an unreviewed identity with both rules side by side; y confirms it and it is served verified", async () => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Review" }).click();
  await expect(page.getByRole("heading", { name: "Review", exact: true })).toBeVisible();
  const item = page.getByTestId("review-item");
  await expect(item).toBeVisible();
  await expect(item).toContainText("Identity not yet reviewed");
  pair = (await item.getAttribute("data-pair")) ?? "";
  expect(pair).toMatch(/^[0-9a-f-]{36}\|[0-9a-f-]{36}$/);
  // Both markets, each with its venue, title and rules, in two columns on one row.
  const [left, right] = [page.locator('[data-testid^="review-side-"]').nth(0), page.locator('[data-testid^="review-side-"]').nth(1)];
  await expect(left).toContainText("SYNTHETIC DEMO");
  await expect(right).toContainText("SYNTHETIC DEMO");
  const [boxA, boxB] = [await left.boundingBox(), await right.boundingBox()];
  expect(boxA !== null && boxB !== null && boxA.x + boxA.width <= boxB.x + 1 && Math.abs(boxA.y - boxB.y) < 2).toBe(true);
  await second.goto("/review");
  await expect(second.locator(`[data-testid="review-item"][data-pair="${pair}"]`)).toBeVisible();
  // Not verified before any review: the filter keeps it out of verified=true and in verified=false.
  expect((await served("true")).has(pair)).toBe(false);
  expect((await served("false")).get(pair)).toBe(false);

  await page.keyboard.press("y");
  await expect(page.getByTestId("review-message")).toHaveText("Confirmed: same contract: both rules settle alike");
  await expect(page.locator(`[data-testid="review-item"][data-pair="${pair}"]`)).toHaveCount(0);
  expect((await served("true")).get(pair)).toBe(true);
  expect((await served("false")).has(pair)).toBe(false);
  // The same answer on a market's own matches: the pair's other market carries verified: true.
  const [a, b] = pair.split("|");
  const own = (await (await page.request.get(`/v0/markets/${a}/matches?verified=true`)).json()) as { data: { matches: Array<{ market: { marketId: string }; verified: boolean }> } };
  expect(own.data.matches.map((m) => [m.market.marketId, m.verified])).toEqual([[b, true]]);
  // Reviewed pairs leave the queue after a reload too.
  await page.reload();
  await expect(page.locator(`[data-testid="review-item"][data-pair="${pair}"]`)).toHaveCount(0);
});

let exported = "";

test("Export downloads every review as JSON Lines, the pair by the venues' own ids", async () => {
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export every review (JSON Lines)" }).click();
  const file = await (await download).path();
  exported = readFileSync(file, "utf8");
  const lines = exported.trim().split("\n").map((l) => JSON.parse(l) as { a: { venue: string; venueMarketId: string }; b: { venue: string }; verdict: string; relation: string; reason: string; reviewer: string });
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ verdict: "confirmed", relation: "identity", reason: "same contract: both rules settle alike", reviewer: OPERATOR.email });
  expect([lines[0]?.a.venue, lines[0]?.b.venue].sort()).toEqual(["kalshi", "polymarket"]);
});

test("a rejection from a queue opened before the confirmation replaces it (the latest review wins); the filter follows", async () => {
  await second.keyboard.press("1");
  await expect(second.getByTestId("review-message")).toHaveText("Rejected: rules differ: they can settle differently");
  await expect(second.getByTestId("review-count")).toHaveText("0 pairs waiting; 1 reviewed here.");
  expect((await served("true")).has(pair)).toBe(false);
  expect((await served("false")).get(pair)).toBe(false);
  const lines = (await (await page.request.get("/review/export")).text()).trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ verdict: "rejected", reason: "rules differ: they can settle differently", reviewer: OPERATOR.email });
});

test("importing the first export restores the confirmation; a malformed file is refused and changes nothing", async () => {
  await page.reload();
  await importFile('{"a": 1}\n', /^Line 1 is not a review/);
  expect((await served("true")).has(pair)).toBe(false);
  await importFile(exported, /^Imported 1 review\.$/);
  expect((await served("true")).get(pair)).toBe(true);
  const lines = (await (await page.request.get("/review/export")).text()).trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ verdict: "confirmed", reviewer: `${OPERATOR.email} (imported by ${OPERATOR.email})` });
});
