import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { signInAnalyst } from "./sign-in";

/**
 * The archive on the dashboard: the Archive page lists a day's hours of a venue with their
 * condition and Parquet links (the seed's synthetic ticks of yesterday), a link downloads the file
 * whose ETag is the manifest's checksum; the status page shows both recorders, Kalshi's saying why
 * it records nothing (no credentials in the e2e environment).
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

test("the Archive page lists yesterday's hours with conditions and downloadable Parquet files", async () => {
  await page.goto("/archive");
  await expect(page.getByRole("heading", { name: "Archive" })).toBeVisible();
  await page.getByRole("button", { name: "← Previous day" }).click();
  const table = page.getByTestId("archive-hours-table");
  await expect(table.locator("tbody tr")).toHaveCount(24);
  const link = table.getByRole("link").first();
  await expect(link).toBeVisible();
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/v0\/archive\/polymarket\/\d{4}-\d{2}-\d{2}\/\d{2}\.parquet$/);
  const date = href.split("/")[4] ?? "";
  const manifest = (await (await page.request.get(`/v0/archive/manifest?date=${date}&venue=polymarket`)).json()) as {
    data: { hours: Array<{ checksum: string; file: { url: string; bytes: number } | null }> };
  };
  const entry = manifest.data.hours.find((hour) => hour.file?.url === href);
  const file = await page.request.get(href);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("application/vnd.apache.parquet");
  expect(file.headers().etag).toBe(`"${entry?.checksum}"`);
  const body = await file.body();
  expect(body.length).toBe(entry?.file?.bytes);
  expect(body.subarray(0, 4).toString()).toBe("PAR1");
  await page.screenshot({ path: "e2e-artifacts/screenshots/archive-01-hours.png", fullPage: true });

  await page.getByTestId("archive-venue").selectOption("kalshi");
  await expect(page.getByRole("heading", { name: /^kalshi · / })).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(24);
  // Kalshi's archive holds the synthetic demo pair's book (e2e/serve.ts, lib/demo/pair.ts): its hours link to Kalshi's own files.
  const kalshiFile = table.getByRole("link").first();
  await expect(kalshiFile).toBeVisible();
  expect(await kalshiFile.getAttribute("href")).toMatch(/^\/v0\/archive\/kalshi\/\d{4}-\d{2}-\d{2}\/\d{2}\.parquet$/);
  const kalshi = await page.request.get((await kalshiFile.getAttribute("href")) ?? "");
  expect(kalshi.status()).toBe(200);
  expect((await kalshi.body()).subarray(0, 4).toString()).toBe("PAR1");
});

test("the status page shows both recorders, Kalshi's with the reason it records nothing", async () => {
  await page.goto("/status");
  await expect(page.getByTestId("recorder-status-table")).toBeVisible();
  const kalshi = page.getByTestId("kalshi-recorder-status-table");
  await expect(kalshi).toBeVisible();
  await expect(kalshi.getByTestId("recorder-not-recording-reason")).toContainText("KALSHI_API_KEY_ID");
  await page.screenshot({ path: "e2e-artifacts/screenshots/archive-02-status.png", fullPage: true });
});
