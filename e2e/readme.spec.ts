import { spawn, type ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, request, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { DEMO_PORT } from "./env";

/**
 * The README followed from an empty data dir (issue 36): `npm run demo` alone, then every `curl`
 * example and every SQL pattern of the README against it; the demo pair's numbers agree across the
 * catalog page, Compare, the pair page and the API; a live frame arrives on /v0/stream within 5 s
 * (and the book moves); the terminal stays quiet (fewer than 5 lines a minute) once the demo runs.
 * Offline: the real venues polled are redirected to a closed loopback port, so they fail at once
 * as an unreachable venue does.
 */

const PORT = DEMO_PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "brier-readme-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(PORT),
  HOST: "127.0.0.1",
  NEXTAUTH_URL: BASE,
  NODE_ENV: "production",
  CATALOG_VENUES: "kalshi,limitless",
  VENUE_REDIRECT_URL: "http://127.0.0.1:9",
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  http_proxy: "",
  https_proxy: "",
};
const run = promisify(execFile);

let demo: ChildProcess;
let key = "";
let password = "";
let page: Page;
let api: APIRequestContext;
/** Every line the terminal showed, with the time it arrived. */
const lines: Array<{ at: number; text: string }> = [];
let bannerAt = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(900_000);
  demo = spawn("npm", ["run", "--silent", "demo", "--", "--days", "1"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let partial = "";
  const take = (chunk: Buffer) => {
    partial += chunk.toString();
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const text of parts) lines.push({ at: Date.now(), text });
  };
  demo.stdout?.on("data", take);
  demo.stderr?.on("data", take);
  const deadline = Date.now() + 850_000;
  for (;;) {
    const all = lines.map((l) => l.text).join("\n");
    const k = /API key\s+(brier_live_\S+)/.exec(all)?.[1];
    const p = /Password\s+(\S+)/.exec(all)?.[1];
    if (k !== undefined && p !== undefined && all.includes("Ctrl-C stops the server")) {
      key = k;
      password = p;
      bannerAt = Date.now();
      break;
    }
    if (demo.exitCode !== null) throw new Error(`npm run demo exited with ${demo.exitCode}:\n${all.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`npm run demo printed no credentials in time:\n${all.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  page = await (await browser.newContext({ baseURL: BASE })).newPage();
  api = await request.newContext({ baseURL: BASE, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
});

test.afterAll(async () => {
  await api?.dispose();
  if (demo?.pid !== undefined && demo.exitCode === null) {
    process.kill(-demo.pid, "SIGTERM");
    await new Promise((resolve) => demo.once("exit", resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** The README's `curl` commands (continuation lines joined), and its SQL patterns. */
function readmeExamples(): { curls: string[]; sql: string[] } {
  const readme = readFileSync(path.resolve("README.md"), "utf8");
  const curls: string[] = [];
  const sql: string[] = [];
  for (const [, lang, body] of readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    if (lang === "sql") sql.push((body ?? "").trim());
    if (lang !== "sh") continue;
    const joined = (body ?? "").replace(/\\\n\s*/g, " ");
    for (const line of joined.split("\n")) if (line.trim().startsWith("curl ")) curls.push(line.replace(/\s+#.*$/, "").trim());
  }
  return { curls, sql };
}

test("every curl example and SQL pattern of the README answers on the fresh demo", async () => {
  test.setTimeout(300_000);
  const { curls, sql } = readmeExamples();
  expect(curls.length).toBeGreaterThan(15);
  expect(sql).toHaveLength(3);
  for (const example of curls) {
    const command = `${example.replaceAll("localhost:3000", `127.0.0.1:${PORT}`)} -o /dev/stderr -w '%{http_code}'`;
    const streaming = / -[a-zA-Z]*N /.test(example);
    const result = await run("bash", ["-c", command], { env: { ...process.env, KEY: key }, timeout: 60_000 }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
      // A stream example ends at its --max-time (curl's exit 28) after it received its frames.
      if (streaming && error.code === 28) return { stdout: error.stdout ?? "", stderr: error.stderr ?? "" };
      throw new Error(`${example}: ${String(error.stderr ?? error)}`);
    });
    expect(result.stdout, `${example}\n${result.stderr.slice(0, 500)}`).toMatch(/^20[04]$/);
    if (!example.includes("-X DELETE") && !example.includes("-X PUT")) expect(result.stderr.length, example).toBeGreaterThan(1);
    if (streaming) expect(result.stderr, example).toMatch(/data: /);
  }
  for (const query of sql) {
    const answer = await api.post("/v0/sql", { data: { query } });
    expect(answer.status(), `${query}\n${await answer.text()}`).toBe(200);
    expect(((await answer.json()) as { data: unknown[] }).data.length, query).toBeGreaterThan(0);
  }
});

test("a live frame arrives on /v0/stream within 5 s, and the book moves", async () => {
  const started = Date.now();
  const controller = new AbortController();
  const res = await fetch(`${BASE}/v0/stream?exchange=mock&outcomeIds=mock-m34-yes`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const books: string[] = [];
  let firstAt = 0;
  while (books.length < 3 && Date.now() - started < 60_000) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (const match of text.matchAll(/data: (\{.*"bids".*\})\n/g)) if (!books.includes(match[1] ?? "")) books.push(match[1] ?? "");
    if (books.length > 0 && firstAt === 0) firstAt = Date.now();
  }
  controller.abort();
  expect(firstAt - started, "first book frame").toBeLessThan(5_000);
  expect(new Set(books).size, "the book changed").toBeGreaterThanOrEqual(2);
});

interface Listed {
  marketId: string;
  outcomes: Array<{ outcomeId: string; price: number }>;
}

test("the demo pair's numbers agree across the catalog page, Compare, the pair page and the API", async () => {
  test.setTimeout(180_000);
  await page.goto(`${BASE}/signin`);
  await page.getByLabel("Email").fill("operator@brier.local");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("plan-badge")).toBeVisible();
  const cents = (price: number) => `${Math.round(price * 1000) / 10}¢`.replace(".0¢", "¢");
  // The catalog re-prices once a minute: read the API, then the pages, and retry if a re-pricing fell between.
  for (let attempt = 0; ; attempt += 1) {
    const poly = (await (await api.get("/v0/markets/synthetic-demo-pair")).json()) as { data: Listed };
    const kalshi = (await (await api.get("/v0/markets/KXSYNTHDEMO-26DEC31")).json()) as { data: Listed };
    const [pYes, kYes] = [poly.data.outcomes[0]?.price ?? Number.NaN, kalshi.data.outcomes[0]?.price ?? Number.NaN];
    // The API's price is the recorded book's mid.
    const book = (await (await api.get("/v0/orderbooks/synthetic-demo-pair-yes?depth=1")).json()) as { data: { bids: Array<{ price: number }>; asks: Array<{ price: number }> } };
    const mid = ((book.data.bids[0]?.price ?? 0) + (book.data.asks[0]?.price ?? 0)) / 2;
    await page.goto(`${BASE}/?query=SYNTHETIC%20DEMO`);
    const catalog = (await page.getByTestId("markets-table").textContent()) ?? "";
    await page.goto(`${BASE}/compare?q=SYNTHETIC`);
    const compareRow = page.getByTestId("compare-pair").first();
    await expect(compareRow).toBeVisible();
    const compare = (await compareRow.textContent()) ?? "";
    const link = await compareRow.getByTestId("pair-spread-link").getAttribute("href");
    const again = (await (await api.get("/v0/markets/synthetic-demo-pair")).json()) as { data: Listed };
    if (again.data.outcomes[0]?.price !== pYes && attempt < 3) continue;
    expect(Math.abs(pYes - mid)).toBeLessThanOrEqual(0.02);
    expect(catalog).toContain(cents(pYes));
    expect(catalog).toContain(cents(kYes));
    expect(compare).toContain(cents(pYes));
    expect(compare).toContain(cents(kYes));
    expect(compare).toContain(cents(Math.abs(pYes - kYes)));
    // Compare links the pair page with Polymarket as A, as the docs do.
    expect(link).toMatch(/^\/pairs\/[^/]+\/[^/]+$/);
    await page.goto(`${BASE}${link ?? ""}`);
    await expect(page.getByText("synthetic-demo-pair", { exact: false }).first()).toBeVisible();
    const pairText = (await page.locator("main").textContent()) ?? "";
    expect(pairText.indexOf("polymarket")).toBeLessThan(pairText.indexOf("kalshi"));
    break;
  }
});

test("the terminal stays quiet: fewer than 5 lines in the minute after start", async () => {
  test.setTimeout(120_000);
  const wait = bannerAt + 65_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const after = lines.filter((line) => line.at > bannerAt + 2_000 && line.at <= bannerAt + 62_000);
  expect(after.length, after.map((l) => l.text).join("\n")).toBeLessThan(5);
  // Each unreachable venue was said once, as one structured line.
  const unreachable = lines.filter((line) => line.text.includes('"venue unreachable"'));
  expect(unreachable.map((l) => (JSON.parse(l.text) as { venue: string }).venue).sort()).toEqual(["kalshi", "limitless"]);
});
