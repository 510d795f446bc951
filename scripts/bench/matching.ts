/**
 * bench:matching — how often the matching engine is right, and how fast it is.
 *
 * 1. Quality: the labelled development set (test/fixtures/matching) is served by the loopback fake
 *    venue in the venues' wire formats and ingested through the real catalog path (pmxt-core ->
 *    normalize -> upsert; the ingestion runs the incremental matching pass). Then a full pass, and
 *    GET /v0/markets/{conditionId}/matches?limit=50 (the route handler, in-process, with a real key)
 *    for every labelled Polymarket market. Prints identity precision/recall/F1 overall, per category
 *    and at minConfidence 0.9, relation accuracy on the subset/superset pairs, failed calls.
 * 2. Speed: synthetic catalogs of N markets per venue (default 100,000) in a throwaway PostgreSQL
 *    database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres): a full pass,
 *    then an incremental pass after 1,000 markets changed. Peak RSS.
 *
 *   npm run bench:matching [-- --markets 100000 --changed 1000]
 *
 * Targets: identity precision >= 0.95 with recall >= 0.85; full <= 10 min; incremental <= 10 s.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";

const { values } = parseArgs({ options: { markets: { type: "string", default: "100000" }, changed: { type: "string", default: "1000" } } });
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// The embedded store is opened from DATA_DIR at first use: run the measurement in a child with its own.
if (process.env.BRIER_BENCH_MATCHING_CHILD !== "1") {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-matching-"));
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, DATA_DIR: dir, BRIER_BENCH_MATCHING_CHILD: "1", LOG_LEVEL: "warn" },
  });
  rmSync(dir, { recursive: true, force: true });
  process.exit(child.status ?? 1);
}

async function main() {
  const { ensureAccount, setPlan } = await import("@/lib/auth/accounts");
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { ingestVenues } = await import("@/lib/catalog/ingest");
  const { upsertCatalog } = await import("@/lib/catalog/store");
  const { eventUuid, marketUuid } = await import("@/lib/catalog/ids");
  const { closeDatabase, getDb, openDatabase } = await import("@/lib/db");
  const { runMatching } = await import("@/lib/matching/engine");
  const { marketMatches: matchesTable } = await import("@/lib/db/schema");
  const { and, eq, isNull, sql } = await import("drizzle-orm");
  const { createExchange } = await import("@/lib/venues/factory");
  const { createFakeVenues } = await import("../../test/fakes/venue-server");
  const { GET: marketMatches } = await import("@/app/v0/markets/[id]/matches/route");

  // ---------------------------------------------------------------- quality on the labelled set
  const dir = path.resolve(__dirname, "../../test/fixtures/matching");
  const read = (name: string) => JSON.parse(readFileSync(path.join(dir, name), "utf8"));
  const fake = createFakeVenues();
  fake.data.gammaEvents = read("polymarket_gamma_events.json");
  fake.data.kalshiEvents = read("kalshi_events.json").events;
  fake.data.kalshiSeries = read("kalshi_series.json").series;
  await fake.listen();
  const db = await getDb();
  const ingest = await ingestVenues(db, {
    venues: ["polymarket", "kalshi"],
    trigger: "cli",
    attempts: 1,
    exchangeFor: (venue) => createExchange(venue, { redirectUrl: fake.url }),
  });
  await fake.close();
  for (const run of ingest) if (run.outcome !== "succeeded") throw new Error(`${run.venue} ingestion ${run.outcome}: ${run.error ?? ""}`);
  const fullDev = await runMatching(db, { full: true });
  const email = `bench-matching-${Date.now()}@example.test`;
  const { account } = await ensureAccount(db, email);
  await setPlan(db, email, "enterprise");
  const key = (await createApiKey(db, account.id, "bench")).key;

  type Label = { polymarket: { conditionId: string }; kalshi: { ticker: string }; relation: string; category: string };
  const labels = read("LABELS.json") as { pairs: Label[]; polymarket_without_identity: Array<{ conditionId: string; category: string }> };
  const labelOf = new Map(labels.pairs.map((p) => [`${p.polymarket.conditionId}|${p.kalshi.ticker}`, p]));
  const categoryOf = new Map<string, string>();
  for (const p of labels.pairs) categoryOf.set(p.polymarket.conditionId, p.category);
  for (const p of labels.polymarket_without_identity) categoryOf.set(p.conditionId, p.category);

  type Predicted = { relation: string; confidence: number };
  const predictions = new Map<string, Predicted>();
  let failed = 0;
  const started = Date.now();
  for (const cid of categoryOf.keys()) {
    const request = new Request(`http://localhost/v0/markets/${cid}/matches?limit=50`, { headers: { authorization: `Bearer ${key}` } });
    const res = await marketMatches(request, { params: Promise.resolve({ id: cid }) });
    if (res.status !== 200) {
      failed += 1;
      continue;
    }
    const body = (await res.json()) as { data: { matches: Array<{ market: { exchange: string; venueMarketId: string }; relation: string; confidence: number }> } };
    for (const m of body.data.matches) if (m.market.exchange === "kalshi") predictions.set(`${cid}|${m.market.venueMarketId}`, { relation: m.relation, confidence: m.confidence });
  }
  const callMs = Date.now() - started;

  const score = (minConfidence: number, category?: string) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const [pair, p] of predictions) {
      const cid = pair.split("|")[0] ?? "";
      if (category !== undefined && categoryOf.get(cid) !== category) continue;
      if (p.relation !== "identity" || p.confidence < minConfidence) continue;
      if (labelOf.get(pair)?.relation === "identity") tp += 1;
      else fp += 1;
    }
    for (const l of labels.pairs) {
      if (l.relation !== "identity" || (category !== undefined && l.category !== category)) continue;
      const p = predictions.get(`${l.polymarket.conditionId}|${l.kalshi.ticker}`);
      if (p === undefined || p.relation !== "identity" || p.confidence < minConfidence) fn += 1;
    }
    const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { tp, fp, fn, precision, recall, f1 };
  };
  const f = (v: number) => v.toFixed(3);
  const row = (name: string, s: ReturnType<typeof score>) =>
    console.log(`${name.padEnd(22)} ${String(s.tp).padStart(4)} ${String(s.fp).padStart(4)} ${String(s.fn).padStart(4)}   ${f(s.precision)}     ${f(s.recall)}  ${f(s.f1)}`);
  console.log(`\nLabelled dev set: ${categoryOf.size} Polymarket markets queried in ${callMs} ms, failed calls: ${failed}; full pass over it ${fullDev.durationMs} ms`);
  console.log(`${"identity".padEnd(22)}   TP   FP   FN   precision  recall  F1`);
  row("overall", score(0));
  row("minConfidence 0.9", score(0.9));
  for (const category of [...new Set(labels.pairs.map((p) => p.category))].sort()) row(`  ${category}`, score(0, category));
  const nested = labels.pairs.filter((p) => p.relation === "subset" || p.relation === "superset");
  const nestedOk = nested.filter((p) => predictions.get(`${p.polymarket.conditionId}|${p.kalshi.ticker}`)?.relation === p.relation).length;
  const nestedOk09 = nested.filter((p) => {
    const got = predictions.get(`${p.polymarket.conditionId}|${p.kalshi.ticker}`);
    return got?.relation === p.relation && got.confidence >= 0.9;
  }).length;
  console.log(`subset/superset relation accuracy: ${nestedOk}/${nested.length} = ${f(nestedOk / nested.length)} (at minConfidence 0.9: ${nestedOk09}/${nested.length})`);
  const others = labels.pairs.filter((p) => p.relation === "overlap" || p.relation === "disjoint");
  const othersOk = others.filter((p) => predictions.get(`${p.polymarket.conditionId}|${p.kalshi.ticker}`)?.relation === p.relation).length;
  console.log(`overlap/disjoint relation accuracy (informative): ${othersOk}/${others.length}`);
  await closeDatabase();

  // ---------------------------------------------------------------- speed on synthetic catalogs
  const perVenue = Number(values.markets);
  const changedCount = Number(values.changed);
  // At catalog scale the service runs on PostgreSQL (the embedded PGlite is the single-process demo
  // store): the scale passes run on a throwaway database of BENCH_PG_URL's server.
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  const database = `bench_matching_${process.pid}`;
  await admin.unsafe(`create database ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const handle = await openDatabase({ url: url.toString() });
  try {
    const cities = ["Miami", "Austin", "Chicago", "Denver", "Houston", "Dallas", "Phoenix", "Seattle", "Boston", "Atlanta", "Philadelphia", "Los Angeles", "San Francisco", "Las Vegas", "New Orleans", "Minneapolis", "Detroit", "Nashville", "Portland", "San Diego", "San Antonio"];
    const assets = ["Bitcoin", "Ethereum", "Solana", "XRP", "Dogecoin", "Cardano", "Litecoin", "Hyperliquid"];
    const monthsLong = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    const monthsShort = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    type Spec = { kind: "temp" | "price"; subject: string; day: number; level: number };
    const specs: Spec[] = [];
    for (let day = 0; specs.length < perVenue; day += 1) {
      for (const city of cities) for (let level = 0; level < 6 && specs.length < perVenue; level += 1) specs.push({ kind: "temp", subject: city, day, level });
      for (const asset of assets) for (let level = 0; level < 6 && specs.length < perVenue; level += 1) specs.push({ kind: "price", subject: asset, day, level });
    }
    const dateOf = (day: number) => new Date(Date.UTC(2026, 0, 1) + (day % 730) * 86_400_000);
    const events = (venue: "polymarket" | "kalshi", version: (i: number) => number) => {
      const byEvent = new Map<string, { title: string; markets: Array<{ id: string; title: string; label: string; description: string; price: number; res: Date }> }>();
      specs.forEach((s, i) => {
        const d = dateOf(s.day);
        const long = `${monthsLong[d.getUTCMonth()]} ${d.getUTCDate()}`;
        const short = `${monthsShort[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
        const shift = version(i);
        const lo = 80 + 2 * s.level + shift;
        const strike = (1 + s.level + shift) * 10_000;
        let eventTitle: string;
        let title: string;
        let label: string;
        let description: string;
        if (venue === "polymarket") {
          eventTitle = s.kind === "temp" ? `Highest temperature in ${s.subject} on ${long}?` : `${s.subject} above ___ on ${long}?`;
          const q = s.kind === "temp" ? `Will the highest temperature in ${s.subject} be ${lo}-${lo + 1}°F on ${long}?` : `Will the price of ${s.subject} be above $${strike.toLocaleString("en-US")} on ${long}?`;
          title = `${eventTitle} - ${q}`;
          label = s.kind === "temp" ? `${lo}-${lo + 1}°F` : strike.toLocaleString("en-US");
          description = s.kind === "temp" ? `Resolves to the range containing the highest temperature in ${s.subject} on ${long}, ${d.getUTCFullYear()}.` : `Resolves Yes if the 12:00 PM ET candle on ${long}, ${d.getUTCFullYear()} closes above the price in the title.`;
        } else {
          eventTitle = s.kind === "temp" ? `Highest temperature in ${s.subject} on ${short}?` : `${s.subject} price on ${short} at 12pm EST?`;
          title = eventTitle;
          label = s.kind === "temp" ? `${lo}° to ${lo + 1}°` : `$${strike.toLocaleString("en-US")} or above`;
          description = s.kind === "temp" ? `If the highest temperature recorded in ${s.subject} for ${short} is ${lo} to ${lo + 1}°, then the market resolves to Yes.` : `If the index is above ${(strike - 0.01).toFixed(2)} at 12 PM EST on ${short}, then the market resolves to Yes.`;
        }
        const key = `${venue}-${s.kind}-${s.subject}-${s.day}`;
        const event = byEvent.get(key) ?? { title: eventTitle, markets: [] };
        event.markets.push({ id: `${venue}-${i}`, title, label, description, price: ((i * 7919) % 97) / 100 + 0.01, res: d });
        byEvent.set(key, event);
      });
      const now = new Date();
      return [...byEvent.entries()].map(([eventKey, e]) => {
        const eventId = eventUuid(venue, eventKey);
        return {
          event: { id: eventId, venue, venueEventId: eventKey, title: e.title, slug: null, description: null, category: "Weather", venueCategory: null, tags: [], image: null, url: null, volume24h: 0, volume: null, closed: false, resolutionDate: null, lastSeenAt: now },
          markets: e.markets.map((m) => ({
            id: marketUuid(venue, m.id), eventId, venue, venueMarketId: m.id, title: m.title, slug: null, description: m.description, category: "Weather",
            outcomes: [{ outcomeId: `${m.id}-y`, label: m.label, price: m.price, priceChange24h: 0 }, { outcomeId: `${m.id}-n`, label: `Not ${m.label}`, price: 1 - m.price, priceChange24h: 0 }],
            outcomeIds: [`${m.id}-y`, `${m.id}-n`], volume24h: 0, volume: null, liquidity: null, openInterest: null, status: "active", closed: false,
            resolutionDate: m.res, contractAddress: null, url: null, image: null, lastSeenAt: now,
          })),
        };
      });
    };
    let t = Date.now();
    await upsertCatalog(handle.db, events("polymarket", () => 0));
    await upsertCatalog(handle.db, events("kalshi", () => 0));
    const seedMs = Date.now() - t;
    const fullStarted = Date.now();
    const full = await runMatching(handle.db, {
      full: true,
      onProgress: (p) => process.stderr.write(`  full pass ${((Date.now() - fullStarted) / 1000).toFixed(1)} s: ${p.phase} ${p.done}${p.total === undefined ? "" : `/${p.total}`}\n`),
    });
    // Every synthetic Polymarket market has its Kalshi twin: how many of those identities the pass found.
    const [identities] = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(matchesTable)
      .where(and(eq(matchesTable.relation, "identity"), isNull(matchesTable.validTo)));
    // 1,000 Kalshi markets move their threshold one step: new text, new verdicts.
    const step = Math.max(1, Math.floor(perVenue / changedCount));
    const changed = new Set(Array.from({ length: Math.min(changedCount, perVenue) }, (_, i) => i * step));
    const changedEvents = events("kalshi", (i) => (changed.has(i) ? 1 : 0)).filter((e) => e.markets.some((m) => changed.has(Number(m.venueMarketId.split("-")[1]))));
    await upsertCatalog(handle.db, changedEvents);
    t = Date.now();
    const incremental = await runMatching(handle.db, {
      onProgress: (p) => process.stderr.write(`  incremental pass ${((Date.now() - t) / 1000).toFixed(1)} s: ${p.phase} ${p.done}${p.total === undefined ? "" : `/${p.total}`}\n`),
    });
    const incrementalMs = Date.now() - t;
    const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(`\nSynthetic catalogs: ${perVenue.toLocaleString("en-US")} markets per venue (seeded in ${(seedMs / 1000).toFixed(1)} s, PostgreSQL)`);
    console.log(`full pass         ${(full.durationMs / 1000).toFixed(1)} s   read=${full.marketsRead} compared=${full.pairsCompared} matches=${full.matchesFound}   (target <= 600 s)`);
    console.log(`synthetic identities found: ${identities?.n ?? 0} of ${perVenue} mirrored pairs`);
    console.log(`incremental pass  ${(incrementalMs / 1000).toFixed(1)} s   read=${incremental.marketsRead} opened=${incremental.opened} closed=${incremental.closed} confirmed=${incremental.confirmed}   (target <= 10 s)`);
    console.log(`peak RSS          ${rssMb} MB`);
  } finally {
    await handle.close();
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
