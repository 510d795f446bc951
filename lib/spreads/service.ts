import "server-only";
import type { Db } from "@/lib/db";
import { InvalidParameterError, isAppError } from "@/lib/errors";
import { venueJournal } from "@/lib/history/condition";
import { recordedSpans, union, type Span } from "@/lib/history/coverage-model";
import { assetIncidents, journalWindow, journalWithin, runSpans, subscribedSpans, syntheticSpans, type JournalWindow } from "@/lib/history/journal";
import { firstBookAfter, lastBookAtOrBefore, lastBooksAtOrBefore, mergedBookRows } from "@/lib/history/ticks";
import type { TickReader } from "@/lib/ticks";
import { encodeCursor } from "@/lib/input";
import { closedDaysOf, DAY_MS, foldParts, KEPT_GRID_STEPS, spreadDays, type DayInputs, type FoldedDay, type SpreadDayCache, type WindowPart } from "./day-cache";
import { joinStretches } from "./episodes";
import { getMarketOrThrow } from "@/lib/catalog/resolve";
import { SYNTHETIC_STATUS } from "@/lib/catalog/assets";
import { allScheduleVersions, marketFeeAt, scheduleAt, type FeeSubject, type MarketFee } from "./fees";
import { currentOutcomes, outcomeKey } from "@/lib/outcomes/store";
import { defaultFeeReaders, marketFeeVersions, storedMarketFees, type FeeReaders } from "./market-fees";
import { resolvePair, type PairSide, type ResolvedPair } from "./pairs";
import { tradingEndOf } from "./trading-end";
import { currentMatches } from "@/lib/matching/pair-store";
import { recordedVenues } from "@/lib/recorder/registry";
import { priceSeries, type SeriesRows, type SeriesWindow, type SideInput } from "./series";
import {
  episodesResponse,
  feesResponse,
  MAX_WINDOW_MS,
  PAIR_PAGE_SIZE,
  PAIR_PAGE_WINDOW_MS,
  spreadIntervals,
  spreadsPage,
  type EpisodesQuery,
  type EpisodesResponse,
  type PairPublic,
  type SpreadPoint,
  type SpreadsPage,
  type SpreadsQuery,
} from "./shapes";

/** since/until of a spread window: until defaults to now, since to a day before, at most 31 days apart. */
export function spreadWindow(since: number | undefined, until: number | undefined, now: number): { since: number; until: number } {
  const end = until ?? now;
  const start = since ?? end - DAY_MS;
  if (start >= end) throw new InvalidParameterError("since", "since must be before until");
  if (end - start > MAX_WINDOW_MS) throw new InvalidParameterError("since", "since and until may be at most 31 days apart");
  return { since: start, until: end };
}

/**
 * When the side's book is known: its recorder's runs ∩ its subscriptions − its lost connections
 * (docs/history.md, "Coverage"), and, for a synthetic demo history (`admin demo-ticks`), the
 * synthetic runs' spans of the asset, whose books are known by construction (coverage labels those
 * hours `synthetic`).
 */
export async function recordedSpansOf(db: Db, side: Pick<PairSide, "outcomeId" | "recorder">, since: number, until: number, now: number): Promise<Span[]> {
  return recordedSpansIn(await journalWindow(db, since, until, [side.outcomeId]), side, since, until, now);
}

/** `recordedSpansOf` from a journal read for a window that covers [since, until) (the same spans, no read). */
function recordedSpansIn(journal: JournalWindow, side: Pick<PairSide, "outcomeId" | "recorder">, since: number, until: number, now: number): Span[] {
  const window = venueJournal(journalWithin(journal, since, until), side.recorder);
  const { lost } = assetIncidents(window, side.outcomeId, now);
  const subscribed = subscribedSpans(window, side.outcomeId, now);
  const recorded = recordedSpans({ since, until, now, runs: runSpans(window, now), subscribed, lost, incidents: [] });
  const synthetic = recordedSpans({ since, until, now, runs: syntheticSpans(window, now), subscribed, lost, incidents: [] });
  return union([...recorded, ...synthetic]);
}

const noRows: SeriesRows = { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }) };

/**
 * Both sides of a pair, wired to the tick tables and the journal, for a window, and both sides'
 * rows from each one's last snapshot at or before `since` (or its first after) in one merged
 * stream, and when each side's market stopped trading (no point after it is priced: series.ts,
 * `market_closed`).
 */
export async function pairInputs(db: Db, ticks: TickReader, pair: ResolvedPair, since: number, until: number, now: number): Promise<[SideInput, SideInput, SeriesRows, (number | undefined)[]]> {
  const starts = await Promise.all(
    [pair.a, pair.b].map(async (side) => (await lastBookAtOrBefore(ticks, side.source, side.outcomeId, since)) ?? (await firstBookAfter(ticks, side.source, side.outcomeId, since, until))),
  );
  const { a, b, rows } = await pairInputsFrom(db, ticks, pair, since, until, now, starts);
  return [a, b, rows, starts];
}

/**
 * `pairInputs` with each side's replay start already looked up; `journal`, when given, a journal
 * read for a window covering this one's (from the earlier of `since` and each replay start) and
 * both sides' outcomes: the spans are taken from it instead of a read a side.
 */
async function pairInputsFrom(db: Db, ticks: TickReader, pair: ResolvedPair, since: number, until: number, now: number, starts: readonly (number | undefined)[], journal?: JournalWindow): Promise<DayInputs> {
  const sides = [pair.a, pair.b];
  const closes = sides.map(tradingEndOf);
  const replayed = sides.flatMap((side, i) => {
    const fromMs = starts[i];
    return fromMs === undefined ? [] : [{ source: side.source, assetId: side.outcomeId, fromMs, side: i }];
  });
  const rows = replayed.length === 0 ? noRows : mergedBookRows(ticks, replayed, until);
  // The journal from the replay's first snapshot: a lost connection that ended before `since` but
  // after that snapshot decides whether the snapshot still holds (series.ts, stretchesOf).
  const input = async (side: PairSide, i: number): Promise<SideInput> => ({
    outcomeId: side.outcomeId,
    fee: side,
    spans: journal === undefined ? await recordedSpansOf(db, side, Math.min(since, starts[i] ?? since), until, now) : recordedSpansIn(journal, side, Math.min(since, starts[i] ?? since), until, now),
    ...(closes[i] === undefined ? {} : { closedAt: closes[i] }),
  });
  return { a: await input(pair.a, 0), b: await input(pair.b, 1), rows, starts: [...starts] };
}

/**
 * `pairInputs` of each part of a window: its replay starts looked up in one read a side, both
 * sides at once (a window's parts took two lookups each), and the journal read once for all the
 * parts and both sides, each part's spans taken from it (a read a part and side took 8–30 ms each,
 * a quarter of a cold 7-day view's lookups: docs/spreads.md, "Closed days").
 */
async function partInputs(db: Db, ticks: TickReader, pair: ResolvedPair, parts: readonly WindowPart[], now: number): Promise<DayInputs[]> {
  const sides = [pair.a, pair.b];
  const lastBooks = await Promise.all(sides.map((side) => lastBooksAtOrBefore(ticks, side.source, side.outcomeId, parts.map((part) => part.since))));
  const starts: (number | undefined)[][] = [];
  for (const [p, part] of parts.entries()) {
    const partStarts: (number | undefined)[] = [];
    for (const [i, side] of sides.entries()) partStarts.push(lastBooks[i]?.[p] ?? (await firstBookAfter(ticks, side.source, side.outcomeId, part.since, part.until)));
    starts.push(partStarts);
  }
  const from = Math.min(...parts.flatMap((part, p) => [part.since, ...(starts[p] ?? []).filter((start) => start !== undefined)]));
  const to = Math.max(...parts.map((part) => part.until));
  const journal = await journalWindow(db, from, to, sides.map((side) => side.outcomeId));
  return Promise.all(parts.map((part, p) => pairInputsFrom(db, ticks, pair, part.since, part.until, now, starts[p] ?? [], journal)));
}

/**
 * The window's parts folded (./day-cache.ts): its closed days kept in `cache` while their inputs
 * hold, the partial days around them replayed; the pair page's two calls of one window share one
 * fold. Without a cache, every part replayed.
 */
async function foldedParts(db: Db, ticks: TickReader, pair: ResolvedPair, parts: readonly WindowPart[], size: number, threshold: number, now: number, cache: SpreadDayCache | null, workers: 1 | 2 = 2): Promise<FoldedDay[]> {
  const inputsOf = (asked: readonly WindowPart[]) => partInputs(db, ticks, pair, asked, now);
  return cache === null ? foldParts(parts, await inputsOf(parts), size, threshold) : cache.window(ticks, pair, parts, size, threshold, inputsOf, workers);
}

/**
 * The window split where its closed UTC days can be kept (docs/spreads.md, "Closed days"): the
 * replayed stretch before the first closed day, the closed days, the replayed stretch after the
 * last, each folded until the next one's first instant (the last until the window's end). No closed
 * day (a window shorter than a day, or none closed yet): one replayed stretch.
 */
function partsOfWindow(since: number, until: number, now: number): WindowPart[] {
  const days = closedDaysOf(since, until, now);
  const first = days[0];
  const last = days.at(-1);
  if (first === undefined || last === undefined) return [{ since, until, end: until, day: false }];
  return [
    ...(since < first ? [{ since, until: first - 1, end: first, day: false }] : []),
    ...days.map((day) => ({ since: day, until: day + DAY_MS - 1, end: day + DAY_MS, day: true })),
    { since: last + DAY_MS, until, end: until, day: false },
  ];
}

/**
 * The series of a window, in batches: replayed, or (a grid whose step a closed day keeps) the grid
 * points of the window's folded parts. The same points either way (test/spreads-days.test.ts).
 */
async function* windowSeries(db: Db, ticks: TickReader, pair: ResolvedPair, window: SeriesWindow, now: number, cache: SpreadDayCache | null): AsyncGenerator<SpreadPoint[]> {
  const step = window.step;
  if (step === undefined || !KEPT_GRID_STEPS.includes(step)) {
    const [a, b, rows] = await pairInputs(db, ticks, pair, window.since, window.until, now);
    yield* priceSeries(a, b, rows, window);
    return;
  }
  for (const folded of await foldedParts(db, ticks, pair, partsOfWindow(window.since, window.until, now), window.size, window.threshold, now, cache)) {
    yield [...(folded.grids.get(step) ?? [])];
  }
}

/** The closed days of the pair page's longest window up to `now`, as parts of a window. */
function pageWindowDays(now: number): WindowPart[] {
  return closedDaysOf(now - PAIR_PAGE_WINDOW_MS, now, now).map((day) => ({ since: day, until: day + DAY_MS - 1, end: day + DAY_MS, day: true }));
}

/**
 * One pair's closed days of the page's longest window folded ahead at the page's opening size and
 * threshold 0, one at a time (as `foldDaysAhead` folds the latest pairs'): asked when the pair's
 * page opens (./days-ahead.ts `foldPairOnOpen`), so that the page's 7-day view, asked next, finds
 * its days folded or folding (docs/spreads.md, "Folded ahead"). Kept days whose inputs hold cost
 * their check.
 */
export async function foldPairDaysAhead(db: Db, ticks: TickReader, refA: string, refB: string, now: number, cache: SpreadDayCache = spreadDays): Promise<void> {
  const parts = pageWindowDays(now);
  if (parts.length === 0) return;
  const pair = await resolvePricedPair(db, refA, refB, undefined, now);
  await foldedParts(db, ticks, pair, parts, PAIR_PAGE_SIZE, 0, now, cache, 1);
}

/** Pairs whose closed days are folded ahead (each the pair page's longest window: about six days kept of the cache's 96). */
export const AHEAD_PAIRS = 4;
/** Current matches read to find them (most are of venues whose books are not recorded). */
const AHEAD_CANDIDATES = 200;

/**
 * The closed days of the pair page's longest window up to `now`, folded ahead for the page's
 * default size and threshold, for the latest current matches of two markets whose books are
 * recorded (each read with the market of the venue registered first as `a`, as docs/spreads.md
 * names the demo pair): kept days whose inputs hold cost their check, newly closed days are folded and
 * kept. Returns the pairs.
 */
export async function foldDaysAhead(db: Db, ticks: TickReader, now: number, cache: SpreadDayCache = spreadDays): Promise<ResolvedPair[]> {
  const parts = pageWindowDays(now);
  if (parts.length === 0) return [];
  const order = recordedVenues().map((venue) => venue.id);
  const folded: ResolvedPair[] = [];
  for (const [refA, refB] of await currentMatches(db, AHEAD_CANDIDATES)) {
    if (folded.length >= AHEAD_PAIRS) break;
    let pair: ResolvedPair;
    try {
      pair = await resolvePricedPair(db, refA, refB, undefined, now);
      if (pair.a.recorder === pair.b.recorder) continue;
      if (order.indexOf(pair.a.recorder) > order.indexOf(pair.b.recorder)) pair = await resolvePricedPair(db, refB, refA, undefined, now);
    } catch (error) {
      // A market whose books are not recorded has no spread to fold.
      if (isAppError(error) && error.code === "not_found") continue;
      throw error;
    }
    // One day at a time: one of the engine's two stream slots stays free for a page asked meanwhile (its partial days, and the days this fold has not started).
    await foldedParts(db, ticks, pair, parts, PAIR_PAGE_SIZE, 0, now, cache, 1);
    folded.push(pair);
  }
  return folded;
}

/**
 * The pair two path segments name, each side with its market's own fee versions (read from its
 * venue's fields, kept dated in market_fees; the schedule table is the fallback where none apply).
 */
export async function resolvePricedPair(db: Db, refA: string, refB: string, pricing: "identity" | "complement" | undefined, now: number, readers: FeeReaders = defaultFeeReaders()): Promise<ResolvedPair> {
  const pair = await resolvePair(db, refA, refB, pricing);
  const outcomes = await currentOutcomes(db, [pair.a, pair.b]);
  const withFees = async (side: PairSide): Promise<PairSide> => ({
    ...side,
    marketFees: await marketFeeVersions(db, side, readers, now),
    outcome: outcomes.get(outcomeKey(side.venue, side.venueMarketId)),
  });
  const [a, b] = await Promise.all([withFees(pair.a), withFees(pair.b)]);
  return { ...pair, a, b };
}

/** What a side's outcome pays per contract, once its venue stated it (the winner, or the settlement value of the market's first outcome). */
function paysOf(side: PairSide): number | null {
  const outcome = side.outcome;
  if (outcome === undefined || !["determined", "settled"].includes(outcome.state)) return null;
  if (outcome.settlementValue !== null) {
    const first = outcome.outcomeIds[0];
    if (side.outcomeId === first) return outcome.settlementValue;
    if (outcome.outcomeIds.length === 2) return Math.round((1 - outcome.settlementValue) * 1e6) / 1e6;
  }
  if (outcome.winningOutcomeId !== null) return side.outcomeId === outcome.winningOutcomeId ? 1 : 0;
  return null;
}

function settlementOf(side: PairSide) {
  const outcome = side.outcome;
  if (outcome === undefined) return null;
  return { state: outcome.state, winningOutcomeId: outcome.winningOutcomeId, pays: paysOf(side), closedAt: outcome.closedAt?.getTime() ?? null, settledAt: outcome.settledAt?.getTime() ?? null };
}

function feePublic(fee: MarketFee) {
  return fee.known
    ? { known: true, schedule: fee.schedule, takerRate: fee.rule.takerRate, exponent: fee.rule.exponent, basis: fee.rule.basis, note: fee.rule.note }
    : { known: false, schedule: null, takerRate: null, exponent: null, basis: null, note: fee.reason };
}

export function pairPublicOf(pair: ResolvedPair, at: number): PairPublic {
  const side = (s: PairSide) => ({
    marketId: s.marketId,
    exchange: s.exchange,
    venueMarketId: s.venueMarketId,
    title: s.title,
    category: s.category,
    outcomeId: s.outcomeId,
    outcomeLabel: s.outcomeLabel,
    fee: feePublic(marketFeeAt(s, at)),
    settlement: settlementOf(s),
  });
  const aPays = paysOf(pair.a);
  const bPays = paysOf(pair.b);
  const closed = aPays === null || bPays === null ? null : { aPays, bPays, difference: Math.round((aPays - bPays) * 1e6) / 1e6 };
  return { a: side(pair.a), b: side(pair.b), relation: pair.relation, confidence: pair.confidence, pricing: pair.pricing, closed };
}

/**
 * GET /v0/pairs/{a}/{b}/spreads: the pair's spread over a window, oldest first, paged. At every
 * change of either book (or on a grid): both books' best levels, the gross spread both ways and
 * the executable spread for `size` after both venues' fees; unknown where either book is.
 */
export async function getPairSpreads(db: Db, ticks: TickReader, refA: string, refB: string, query: SpreadsQuery, now = Date.now(), readers?: FeeReaders, cache: SpreadDayCache | null = spreadDays): Promise<SpreadsPage> {
  const range = spreadWindow(query.since, query.until, now);
  const step = query.interval === undefined ? undefined : spreadIntervals[query.interval];
  const cursorAt = query.cursor?.[1];
  if (cursorAt !== undefined && (cursorAt < range.since || cursorAt > range.until || (step !== undefined && cursorAt % step !== 0))) {
    throw new InvalidParameterError("cursor", "cursor does not belong to this since/until/interval");
  }
  const pair = await resolvePricedPair(db, refA, refB, query.pricing, now, readers);
  const since = cursorAt ?? range.since;
  const window: SeriesWindow = { since, until: range.until, step, size: query.size, threshold: query.minSpread ?? 0, initial: cursorAt === undefined };
  const data: SpreadPoint[] = [];
  let nextCursor: string | null = null;
  page: for await (const points of windowSeries(db, ticks, pair, window, now, cache)) {
    for (const point of points) {
      if (query.minSpread !== undefined && (point.best === null || point.best < query.minSpread)) continue;
      data.push(point);
      if (data.length >= query.limit) {
        const next = step === undefined ? point.t + 1 : point.t + step;
        if (next <= range.until) nextCursor = encodeCursor(["s", next]);
        break page;
      }
    }
  }
  return spreadsPage.parse({
    data,
    meta: {
      pair: pairPublicOf(pair, range.until),
      count: data.length,
      limit: query.limit,
      since: range.since,
      until: range.until,
      interval: query.interval ?? null,
      size: query.size,
      minSpread: query.minSpread ?? null,
      nextCursor,
    },
  });
}

/**
 * GET /v0/pairs/{a}/{b}/episodes: the stretches in which the net spread after fees for `size`
 * stayed above `minSpread` (default 0), and a summary per UTC day, from one pass over the window's
 * every-change series.
 */
export async function getPairEpisodes(db: Db, ticks: TickReader, refA: string, refB: string, query: EpisodesQuery, now = Date.now(), readers?: FeeReaders, cache: SpreadDayCache | null = spreadDays): Promise<EpisodesResponse> {
  const range = spreadWindow(query.since, query.until, now);
  const threshold = query.minSpread ?? 0;
  const pair = await resolvePricedPair(db, refA, refB, query.pricing, now, readers);
  // The window's parts, each folded on its own (closed days kept), then joined into what one pass over the window folds.
  const folded = await foldedParts(db, ticks, pair, partsOfWindow(range.since, range.until, now), query.size, threshold, now, cache);
  const stretches = folded.map((part) => part.stretch);
  const { episodes, days } = joinStretches(stretches, range.since, range.until);
  // Oldest first by start (then direction): a stable order for the cursor.
  const sorted = [...episodes].sort((x, y) => x.start - y.start || x.direction.localeCompare(y.direction));
  const cursor = query.cursor;
  const after = cursor === undefined ? sorted : sorted.filter((e) => e.start > cursor[1] || (e.start === cursor[1] && e.direction > cursor[2]));
  const listed = after.slice(0, query.limit);
  const last = listed.at(-1);
  const nextCursor = after.length > query.limit && last !== undefined ? encodeCursor(["e", last.start, last.direction]) : null;
  return episodesResponse.parse({
    data: { episodes: listed, days },
    meta: { pair: pairPublicOf(pair, range.until), since: range.since, until: range.until, size: query.size, minSpread: threshold, count: episodes.length, limit: query.limit, nextCursor },
  });
}

/**
 * GET /v0/fees: every version of each venue's fee schedule (the fallback table), the one in force
 * at `at` marked; with `market`, that market's own fee as read from its venue's fields, every dated
 * version, and the fee a spread of it is priced with at `at`.
 */
export async function listFeeSchedules(db: Db, at: number, marketRef?: string, now = Date.now(), readers?: FeeReaders) {
  let market = null;
  if (marketRef !== undefined) {
    const found = await getMarketOrThrow(db, marketRef);
    const subject: FeeSubject & { contractAddress: string | null; synthetic: boolean } = {
      venue: found.exchange,
      venueMarketId: found.venueMarketId,
      category: found.category,
      contractAddress: found.contractAddress,
      synthetic: found.status === SYNTHETIC_STATUS,
    };
    const versions = await marketFeeVersions(db, subject, readers ?? defaultFeeReaders(), now);
    const stored = await storedMarketFees(db, subject.venue, subject.venueMarketId);
    market = {
      venue: subject.venue,
      venueMarketId: subject.venueMarketId,
      inForce: feePublic(marketFeeAt({ ...subject, marketFees: versions }, at)),
      versions,
      readAt: stored?.readAt.getTime() ?? null,
      error: stored?.error ?? null,
    };
  }
  return feesResponse.parse({
    data: allScheduleVersions().map((version) => ({
      venue: version.venue,
      id: version.id,
      effectiveFrom: version.effectiveFrom,
      inForce: scheduleAt(version.venue, at)?.id === version.id,
      source: version.source,
      rounding: version.rounding,
      maker: version.maker,
      rules: version.rules.map(({ match, rule }) => ({
        kalshiSeries: match.kalshiSeries === undefined ? null : [...match.kalshiSeries],
        categories: match.categories === undefined ? null : [...match.categories],
        ...rule,
      })),
    })),
    meta: { at, market },
  });
}
