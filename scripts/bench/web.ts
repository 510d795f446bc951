/**
 * `npm run bench:web`: the dashboard's two budgets, measured against `npm start`'s server (server.mjs) on fresh seeded
 * embedded stores (e2e/serve.ts, so run `npm run build` first; NEXT_DIST_DIR picks the build):
 *
 * 1. First-load JavaScript of the catalog page (signed in), gzipped: every script the page's HTML
 *    loads, fetched from the server and gzipped here (level 9, like a CDN). Budget 250 kB. The
 *    same-run baseline is the sign-in page (framework, layout and one small form), so the catalog's
 *    own share is the difference.
 * 2. Time to first chart on the market page: navigation start to the candle chart's canvas in
 *    Chromium, median of N cold page loads. The same-run baselines are the page's
 *    DOMContentLoaded and the candle query alone over POST /v0/sql.
 * 3. The pair page's 7-day window (issue 35: ≤ 2 s): on a fresh page of the SYNTHETIC demo pair
 *    showing its 24 hours, the time from choosing "last 7d" to both 7-day answers on screen (the
 *    episodes table names the 7-day window and is no longer busy, the "loading…" mark is gone),
 *    median of N; the first run after start separately (no closed day kept yet: lib/spreads/day-cache.ts),
 *    and where the time went on the page's clock (each 7-day call, request to last byte, and the page's
 *    own time after the later answer). The same-run baselines are the page's two 7-day API calls alone.
 *
 * 4. The Archive page's day (issue 36: "within 2 s on a loaded machine"): a click on "Previous day"
 *    to yesterday's 24 hours on screen, N times (the first after start counts separately: it may
 *    build the day's file stats); the same-run baseline is the manifest request alone.
 *
 * Env: BENCH_PORT (default 3410), BENCH_RUNS (default 7), BENCH_BUSY (default 0): that many
 * processes spinning on the CPU for the whole measurement, to measure on a busy machine (the load
 * average is printed either way), BENCH_ONLY=pair (only 3), BENCH_DEMO_DAYS (days of the demo pair the
 * server is seeded with: e2e/serve.ts's E2E_DEMO_DAYS, default 2), BENCH_START_SECONDS (seeding and
 * start-up allowed, default 240), BENCH_PAIR_FIRST=early (3's first view while the fold ahead runs:
 * the pair page as the sign-in's destination and "last 7d" chosen as soon as it is interactive, its
 * 24 hours still loading, whether the fold ahead has started yet or not (it starts 5 s after the
 * server: lib/spreads/days-ahead.ts); by default the page shows its 24 hours and the choice waits
 * for the fold ahead's start, by which time the fold ahead may have ended), BENCH_AHEAD_AFTER_SECONDS
 * (the server's SPREAD_DAYS_AHEAD_AFTER_SECONDS: start the fold ahead that long after start, e.g. 60,
 * so that by default the choice falls right at its start, the page already showing its 24 hours).
 * The output says where the choice fell against the fold ahead's start and end. BENCH_DATA_DIR (e2e/serve.ts's
 * E2E_DATA_DIR): seed that data dir once and keep it, so that several runs (e.g. 3's first view, once per start)
 * each start a fresh server on the same data without seeding again (a 7-day demo takes minutes to seed).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { gzipSync } from "node:zlib";
import { chromium, type Page } from "playwright-core";
import { ANALYST } from "../../e2e/env";
import { summarize } from "./lib/harness";
import { loadLine } from "./lib/memory";

const port = Number(process.env.BENCH_PORT ?? 3410);
const runs = Number(process.env.BENCH_RUNS ?? 7);
const base = `http://127.0.0.1:${port}`;
const BUDGET_KB = 250;
const busy = Number(process.env.BENCH_BUSY ?? 0);
const DAY_MS = 86_400_000;

const onlyPair = process.env.BENCH_ONLY === "pair";
/** Seeding and start-up allowed (seven days of demo ticks take minutes on the shared cores). */
const startSeconds = Number(process.env.BENCH_START_SECONDS ?? 240);
const demoDays = process.env.BENCH_DEMO_DAYS;
/** 3's first view: chosen as soon as the page is interactive (early), or once its 24 hours are on screen. */
const pairFirstEarly = process.env.BENCH_PAIR_FIRST === "early";
const aheadAfterSeconds = process.env.BENCH_AHEAD_AFTER_SECONDS;
const dataDir = process.env.BENCH_DATA_DIR;

const server = spawn("npx", ["tsx", "--conditions=react-server", "e2e/serve.ts"], {
  // The demo pair stays trading (e2e/serve.ts closes it otherwise): the page of a pair whose books still move.
  env: {
    ...process.env,
    E2E_PORT: String(port),
    E2E_DEMO_PAIR_OPEN: "1",
    ...(demoDays === undefined ? {} : { E2E_DEMO_DAYS: demoDays }),
    ...(aheadAfterSeconds === undefined ? {} : { SPREAD_DAYS_AHEAD_AFTER_SECONDS: aheadAfterSeconds }),
    ...(dataDir === undefined ? {} : { E2E_DATA_DIR: dataDir }),
  },
  // stderr (the server's logs) is passed on, and read for the fold ahead's start and end (below).
  stdio: ["ignore", "ignore", "pipe"],
  // Its own process group: stopping it stops npx, tsx, serve.ts and next-server together.
  detached: true,
});
const stopServer = () => {
  if (server.exitCode === null && server.pid !== undefined) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
};
process.on("exit", stopServer);

/** When the server's fold ahead of closed days (lib/spreads/days-ahead.ts) last started and ended, on this process's clock. */
const foldAhead: { started?: number; ended?: number; startedSeen?: () => void } = {};
let stderrTail = "";
server.stderr?.on("data", (chunk: Buffer) => {
  process.stderr.write(chunk);
  const lines = (stderrTail + chunk.toString("utf8")).split("\n");
  stderrTail = lines.pop() ?? "";
  for (const line of lines) {
    if (line.includes('"msg":"folding closed days of pairs ahead"')) {
      foldAhead.started = performance.now();
      foldAhead.ended = undefined;
      foldAhead.startedSeen?.();
    } else if (line.includes('"msg":"closed days of pairs folded ahead"')) foldAhead.ended = performance.now();
  }
});

/** BENCH_BUSY processes that spin on the CPU until stopped. */
const spinners: ChildProcess[] = [];
function startSpinners(): void {
  for (let i = 0; i < busy; i += 1) spinners.push(spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}
function stopSpinners(): void {
  for (const spinner of spinners.splice(0)) spinner.kill("SIGKILL");
}
process.on("exit", stopSpinners);

async function waitForHealth(): Promise<void> {
  const deadline = Date.now() + startSeconds * 1000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/v0/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not become healthy in ${startSeconds} s`);
}

const median = (values: number[]) => summarize(values).p50;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

async function firstLoadJs(page: Page, path: string): Promise<{ raw: number; gzip: number; files: number }> {
  const response = await page.request.get(`${base}${path}`);
  const html = await response.text();
  const sources = new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1] ?? ""));
  let raw = 0;
  let gzip = 0;
  for (const src of sources) {
    const body = await (await page.request.get(new URL(src, base).toString())).body();
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { raw, gzip, files: sources.size };
}

async function main(): Promise<void> {
  // Launched while the server seeds and starts: the pair page's first view can then be asked soon after the start.
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    await waitForHealth();
    startSpinners();
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();

    // Same-run baseline: the sign-in page (framework, layout and one small form).
    const landing = await firstLoadJs(page, "/signin");
    // Early (BENCH_PAIR_FIRST=early), the sign-in leads straight to the pair page (no catalog first), to ask its first view soon after the start.
    await page.goto(`${base}/signin${pairFirstEarly ? `?callbackUrl=${encodeURIComponent(await pairPath())}` : ""}`);
    await page.getByLabel("Email").fill(ANALYST.email);
    await page.getByLabel("Password").fill(ANALYST.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    if (pairFirstEarly) await untilInteractive(page);
    else await page.getByRole("heading", { name: "Catalog" }).waitFor();
    if (onlyPair) console.log(`Brier dashboard benchmark (server.mjs, embedded stores, Chromium; shared 2-core machine: figures are noisy); ${busy} spinning processes beside it; ${loadLine("now")}`);
    else {
      const catalog = await firstLoadJs(page, "/");

      const market = (await (await page.request.get(`${base}/v0/markets?exchange=mock&limit=1`)).json()) as {
        data: { marketId: string; contractAddress: string; outcomes: { outcomeId: string }[] }[];
      };
      const first = market.data[0];
      if (first === undefined) throw new Error("the seeded catalog is empty");
      const { candleSql } = await import("../../lib/sql/patterns");
      const sql = candleSql({ market: first.contractAddress, assetId: first.outcomes[0]?.outcomeId ?? "" });

      const chartTimes: number[] = [];
      const domTimes: number[] = [];
      const sqlTimes: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const started = performance.now();
        await page.request.post(`${base}/v0/sql`, { data: { query: sql } });
        sqlTimes.push(performance.now() - started);

        const fresh = await context.newPage();
        await fresh.goto(`${base}/markets/${first.marketId}`, { waitUntil: "commit" });
        await fresh.locator('[data-testid="candle-chart"] canvas').first().waitFor({ timeout: 30_000 });
        const timing = await fresh.evaluate(() => {
          const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
          return { chart: performance.now(), dom: nav?.domContentLoadedEventEnd ?? Number.NaN };
        });
        chartTimes.push(timing.chart);
        domTimes.push(timing.dom);
        await fresh.close();
      }

      // The Archive page: yesterday's 24 hours on screen after a click, against the manifest alone.
      const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
      const archiveTimes: number[] = [];
      const manifestTimes: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const fresh = await context.newPage();
        await fresh.goto(`${base}/archive`);
        await fresh.getByRole("heading", { name: "Archive" }).waitFor();
        const started = performance.now();
        await fresh.getByRole("button", { name: "← Previous day" }).click();
        await fresh.locator('[data-testid="archive-hours-table"] tbody tr').nth(23).waitFor({ timeout: 120_000 });
        archiveTimes.push(performance.now() - started);
        await fresh.close();
        const asked = performance.now();
        const answer = await page.request.get(`${base}/v0/archive/manifest?date=${yesterday}&venue=polymarket`);
        if (!answer.ok()) throw new Error(`the manifest answered ${answer.status()}`);
        manifestTimes.push(performance.now() - asked);
      }

      const own = catalog.gzip - landing.gzip;
      console.log(`Brier dashboard benchmark (server.mjs, embedded stores, Chromium; shared 2-core machine: figures are noisy); ${busy} spinning processes beside it; ${loadLine("now")}`);
      console.log("");
      console.log("First-load JS, gzip -9 of every <script src> in the page's HTML");
      console.log(`  catalog page (signed in)      ${kb(catalog.gzip).padStart(10)}  (${catalog.files} files, ${kb(catalog.raw)} raw)  budget ${BUDGET_KB} kB: ${catalog.gzip <= BUDGET_KB * 1024 ? "OK" : "OVER"}`);
      console.log(`  baseline: /signin page         ${kb(landing.gzip).padStart(10)}  (${landing.files} files, ${kb(landing.raw)} raw)`);
      console.log(`  catalog's own share           ${kb(own).padStart(10)}`);
      console.log("");
      console.log(`Market page, ${runs} cold loads (median / min / max, ms)`);
      line("time to first candle chart", chartTimes);
      line("baseline: DOMContentLoaded", domTimes);
      line("baseline: candle SQL alone", sqlTimes);
      console.log("");
      console.log(`Archive page, yesterday's 24 hours after a click, ${runs} loads (median / min / max, ms); budget 2,000 ms`);
      console.log(`  first load after start          ${(archiveTimes[0] ?? Number.NaN).toFixed(0).padStart(7)}`);
      line("every load", archiveTimes);
      line("baseline: the manifest alone", manifestTimes);
    }
    await pairWeek(page);
  } finally {
    stopSpinners();
    await browser.close();
    stopServer();
  }
}

const line = (name: string, values: number[]) =>
  console.log(`  ${name.padEnd(32)}${median(values).toFixed(0).padStart(7)} /${Math.min(...values).toFixed(0).padStart(6)} /${Math.max(...values).toFixed(0).padStart(6)}`);

/** The SYNTHETIC demo pair's two markets and its page's path. */
async function demoPair(): Promise<{ a: string; b: string; path: string }> {
  const { DEMO_PAIR } = await import("../../lib/demo/pair");
  const a = DEMO_PAIR.polymarket.venueMarketId;
  const b = DEMO_PAIR.kalshi.ticker;
  return { a, b, path: `/pairs/${encodeURIComponent(a)}/${encodeURIComponent(b)}` };
}
const pairPath = async () => (await demoPair()).path;

/** Waits until the pair page's window box is interactive (hydrated), its first window possibly still loading. */
async function untilInteractive(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const box = document.querySelector('[data-testid="pair-window"]');
      return box !== null && Object.keys(box).some((key) => key.startsWith("__reactProps"));
    },
    undefined,
    { timeout: 120_000, polling: "raf" },
  );
}

/** 3: the pair page's 7-day window, from choosing it to both answers on screen, against its two API calls alone. */
async function pairWeek(page: Page): Promise<void> {
  const { a, b, path } = await demoPair();
  const week = 7 * 86_400_000;
  const renderTimes: number[] = [];
  const pageShownTimes: number[] = [];
  const pageSpreadsTimes: number[] = [];
  const pageEpisodesTimes: number[] = [];
  const afterAnswersTimes: number[] = [];
  const spreadsTimes: number[] = [];
  const episodesTimes: number[] = [];
  let points = 0;
  let episodes = 0;

  /** A fresh page of the pair showing its first window (24 h) with nothing loading. */
  const freshPage = async () => {
    const fresh = await page.context().newPage();
    await fresh.goto(`${base}${path}`);
    const table = fresh.getByTestId("pair-episodes");
    await table.waitFor({ timeout: 120_000 });
    await fresh.getByTestId("pair-loading").waitFor({ state: "detached", timeout: 120_000 });
    return { fresh, until: Number(await table.getAttribute("data-until")) };
  };
  /** Waits until the episodes of [since, until] at `size` are on screen, not busy, nothing loading; the page's clock then. */
  const onScreen = async (fresh: Page, since: number, size: number) => {
    const shown = await fresh.waitForFunction(
      ([since, size]) => {
        const episodesTable = document.querySelector('[data-testid="pair-episodes"]');
        const done =
          episodesTable?.getAttribute("data-since") === since &&
          // The chart's heading names the size asked for (the box's value once its 400 ms wait is over).
          [...document.querySelectorAll("h2")].some((h) => h.textContent === `Executable spread after fees, ${size} contracts`) &&
          episodesTable.getAttribute("aria-busy") === "false" &&
          document.querySelector('[data-testid="pair-loading"]') === null;
        return done ? performance.now() : false;
      },
      [String(since), String(size)] as const,
      { timeout: 120_000, polling: "raf" },
    );
    return Number(await shown.jsonValue());
  };
  /** The page's two calls whose query holds `marker`, each from its request to its last byte (the page's clock). */
  const callsOf = async (fresh: Page, marker: string) => {
    const calls = await fresh.evaluate(
      (marker) =>
        performance
          .getEntriesByType("resource")
          .filter((entry) => entry.name.includes(marker))
          .map((entry) => ({ episodes: entry.name.includes("/episodes?"), start: entry.startTime, end: (entry as PerformanceResourceTiming).responseEnd, duration: entry.duration })),
      marker,
    );
    const spreadsCall = calls.find((call) => !call.episodes);
    const episodesCall = calls.find((call) => call.episodes);
    if (spreadsCall === undefined || episodesCall === undefined) throw new Error(`the page's two calls with ${marker} were not seen`);
    return { spreadsCall, episodesCall };
  };

  /** Resolves once the fold ahead's start is logged (at once if it was). */
  const foldAheadStarted = async () => {
    if (foldAhead.started !== undefined) return `the fold ahead had started ${(performance.now() - foldAhead.started).toFixed(0)} ms before`;
    await new Promise<void>((resolve, reject) => {
      foldAhead.startedSeen = resolve;
      setTimeout(() => reject(new Error("the fold ahead did not start within 120 s")), 120_000).unref();
    });
    return "asked when the fold ahead's start was logged";
  };
  /** The 7-day answers at size 100 on screen, whatever the page's `until` (read from its episodes table). */
  const weekOnScreen = (fresh: Page) =>
    fresh.waitForFunction(
      (week) => {
        const table = document.querySelector('[data-testid="pair-episodes"]');
        return (
          table !== null &&
          Number(table.getAttribute("data-until")) - Number(table.getAttribute("data-since")) === week &&
          [...document.querySelectorAll("h2")].some((h) => h.textContent === "Executable spread after fees, 100 contracts") &&
          table.getAttribute("aria-busy") === "false" &&
          document.querySelector('[data-testid="pair-loading"]') === null
        );
      },
      week,
      { timeout: 120_000, polling: "raf" },
    );

  // 3a. The first 7-day view asked while the server's fold ahead of closed days runs: "last 7d"
  // chosen as soon as its start is logged on a page showing its 24 hours (by default), or on a page
  // opened right after sign-in as soon as it is interactive (BENCH_PAIR_FIRST=early).
  let whileAhead: { ms: number; note: string } | undefined;
  {
    let fresh: Page;
    let note: string;
    let shown: () => Promise<unknown>;
    if (pairFirstEarly) {
      // The sign-in's page: the pair page, interactive (main).
      fresh = page;
      note = "chosen as soon as the pair page was interactive, the sign-in's destination";
      shown = () => weekOnScreen(page);
    } else {
      const first = await freshPage();
      fresh = first.fresh;
      note = await foldAheadStarted();
      shown = () => onScreen(fresh, first.until - week, 100);
    }
    const started = performance.now();
    const startedAhead = foldAhead.started;
    if (pairFirstEarly) note += startedAhead === undefined ? "; the fold ahead had not started at the click" : `; the fold ahead had started ${(started - startedAhead).toFixed(0)} ms before the click`;
    await fresh.getByTestId("pair-window").selectOption("7d");
    await shown();
    const ms = performance.now() - started;
    if (pairFirstEarly && startedAhead === undefined && foldAhead.started !== undefined) note += ` and started ${(foldAhead.started - started).toFixed(0)} ms after it`;
    const ended = foldAhead.ended;
    note += foldAhead.started === undefined ? "; the fold ahead had not started when it was on screen" : ended === undefined ? "; the fold ahead was still running when it was on screen" : ended < started ? "; but the fold ahead had ended before the click" : `; the fold ahead ended ${(ended - started).toFixed(0)} ms after the click`;
    whileAhead = { ms, note };
    // The sign-in's page stays open (its context's requests are the baselines below), off the pair page.
    if (fresh === page) await page.goto("about:blank");
    else await fresh.close();
  }
  // Wait for the fold ahead to end: the runs below measure a view of kept days.
  for (let waited = 0; foldAhead.ended === undefined && waited < 300_000; waited += 250) await new Promise((resolve) => setTimeout(resolve, 250));

  for (let i = 0; i < runs; i += 1) {
    const { fresh, until } = await freshPage();
    const started = performance.now();
    const pageStarted = await fresh.evaluate(() => performance.now());
    await fresh.getByTestId("pair-window").selectOption("7d");
    const shown = await onScreen(fresh, until - week, 100);
    renderTimes.push(performance.now() - started);
    // Where the time went, on the page's clock: each 7-day call from its request to its last byte, and what the page took after the later one.
    const { spreadsCall, episodesCall } = await callsOf(fresh, `since=${until - week}&`);
    pageSpreadsTimes.push(spreadsCall.duration);
    pageEpisodesTimes.push(episodesCall.duration);
    afterAnswersTimes.push(shown - Math.max(spreadsCall.end, episodesCall.end));
    pageShownTimes.push(shown - pageStarted);
    points = Number(await fresh.getByTestId("pair-books-chart").getAttribute("data-points"));
    episodes = await fresh.getByTestId("pair-episode").count();
    await fresh.close();

    // Baselines: the page's two 7-day calls alone, one after the other.
    const query = `since=${until - week}&until=${until}&size=100`;
    let t0 = performance.now();
    await page.request.get(`${base}/v0/pairs/${a}/${b}/spreads?${query}&interval=5m&limit=5000`);
    spreadsTimes.push(performance.now() - t0);
    t0 = performance.now();
    await page.request.get(`${base}/v0/pairs/${a}/${b}/episodes?${query}&minSpread=0&limit=200`);
    episodesTimes.push(performance.now() - t0);
  }

  // 3b. The 7-day view at a size never asked before (a new size each run, none folded ahead): the
  // size typed into the box on the 7-day view, to both answers at that size on screen; and on the
  // page's clock from the first call at that size (the box waits 400 ms after the last keystroke).
  const sizeTimes: number[] = [];
  const sizeFromCallTimes: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const size = 100 + 37 * (i + 1);
    sizes.push(size);
    const { fresh, until } = await freshPage();
    await fresh.getByTestId("pair-window").selectOption("7d");
    await onScreen(fresh, until - week, 100);
    const started = performance.now();
    await fresh.getByTestId("pair-size").fill(String(size));
    const shown = await onScreen(fresh, until - week, size);
    sizeTimes.push(performance.now() - started);
    const { spreadsCall, episodesCall } = await callsOf(fresh, `size=${size}&`);
    sizeFromCallTimes.push(shown - Math.min(spreadsCall.start, episodesCall.start));
    await fresh.close();
  }

  console.log("");
  console.log(`Pair page, SYNTHETIC demo pair (${demoDays ?? 2} days recorded), "last 7d" chosen on a fresh page showing 24 h, ${runs} runs (median / min / max, ms); target 2,000 ms`);
  console.log(`  first view while the fold ahead runs ${whileAhead.ms.toFixed(0).padStart(7)}  (${whileAhead.note})`);
  line("7-day window on screen (days kept)", renderTimes);
  line("  on the page's clock", pageShownTimes);
  line("  its /spreads call", pageSpreadsTimes);
  line("  its /episodes call", pageEpisodesTimes);
  line("  page after the later answer", afterAnswersTimes);
  line("baseline: /spreads 7 d, 5m grid alone", spreadsTimes);
  line("baseline: /episodes 7 d alone", episodesTimes);
  console.log(`  (the chart's points: ${points}; episodes listed: ${episodes})`);
  console.log(`7-day view at a new size (sizes ${sizes.join(", ")}), ${runs} runs`);
  line("size typed to on screen", sizeTimes);
  line("  first call at the size to on screen", sizeFromCallTimes);
}

main().catch((error: unknown) => {
  console.error(error);
  stopServer();
  process.exit(1);
});
