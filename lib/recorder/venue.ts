import type { Db } from "@/lib/db";
import type { ResolutionSink } from "@/lib/outcomes/sink";
import type { ResolutionRecord } from "@/lib/outcomes/types";
import type { TickStores } from "@/lib/ticks";
import type { FeeScheduleVersion } from "./fee-schedule";

/**
 * What a recorded venue is, described once in its own folder (`lib/recorder/<venue>/venue.ts`) and
 * registered in one list (`lib/recorder/registry.ts`) that ticks' readers, history, spreads, jobs and
 * status read instead of naming venues (docs/architecture.md, "Adding a recorded venue").
 */
export interface RecordedVenue {
  /** The catalog's venue id of its markets (`markets.venue`), and the live bus's venue. */
  id: string;
  /** The venue's name in sentences ("Kalshi"). */
  label: string;
  /** Its published book table (same columns as every recorded venue's: lib/ticks/ddl). */
  table: string;
  /** Its section of GET /v0/status. */
  statusKey: string;
  /**
   * Which field of a catalog market is the tick table's `market`: the contract address (the
   * Polymarket condition id; a market without one is not recorded) or the venue's market id (the
   * Kalshi ticker).
   */
  keyedBy: "contractAddress" | "venueMarketId";
  /**
   * Markets of venues that record nothing themselves but carry a contract address are read from
   * this venue's table (the offline demo's mock venue writes Polymarket-shaped books). At most one
   * venue says so.
   */
  recordsUnlistedVenues?: boolean;
  recorder: VenueRecorder;
  /** Its fees: the schedules as data and the reader of a market's own fee fields. */
  fees?: VenueFees;
  /** The REST half of its outcome reader (the push half rides on its channel: `recorder.start`). */
  outcomes?: VenueOutcomes;
  /** The reader of the settlement terms its markets state as fields (strikes, secondary rules, sources). */
  settlement?: VenueSettlement;
}

/** A catalog market, as far as a recorded venue needs it to find its rows. */
export interface CatalogMarketRef {
  venue: string;
  venueMarketId: string;
  contractAddress: string | null;
}

export interface VenueStart {
  stores: TickStores;
  db: Db;
  mode: "in-process" | "separate process";
  /** Where its channel's resolution messages go (the outcome reader's push half). */
  outcomes?: ResolutionSink;
}

export interface VenueRecorder {
  /** Whether this deployment starts it (its settings). */
  enabled(): boolean;
  /** Before readiness: start-up work readiness waits for (its name), or undefined when it starts in the background. */
  startupTask?: string;
  /** Starts the process's recorder of this venue once; rejects when it cannot start (a venue may instead record nothing and say why in its status). */
  start(context: VenueStart): Promise<void>;
  stop(): Promise<void>;
  /** Its section of GET /v0/status, without the journal's heartbeat (status adds it). */
  status(db: Db): Promise<Record<string, unknown>>;
  /** A line for the separate recorder process's periodic log. */
  report(): Record<string, unknown>;
}

/** A venue's REST GET (lib/recorder/rest.ts clients). */
export type VenueGet = (path: string, query: Record<string, string>) => Promise<unknown>;

/** One dated version of a market's own fee, as the venue's fields state it (stored by lib/spreads/market-fees.ts). */
export interface VenueFeeVersion {
  from: number | null;
  takerRate: string | null;
  exponent: 1 | 2;
  note: string;
}

export interface VenueFees {
  /** The venue's published schedules, each version dated (the fallback where a market's own fee is not read). */
  schedule: readonly FeeScheduleVersion[];
  /** Where the venue states each market's own fee: how it is read. */
  market?: MarketFeeReader;
}

export interface MarketFeeReader {
  /** Its key among the fee readers a caller hands spreads (tests hand loopback GETs under it). */
  reader: string;
  /** The process's reader: the venue's REST client, at most `timeoutMs` a request. */
  defaultReader(timeoutMs: number): VenueGet;
  /** The market's own fee versions read through `get`; undefined when the market cannot be read (no key to read it by). */
  read(get: VenueGet, market: CatalogMarketRef, now: number): Promise<VenueFeeVersion[] | undefined>;
}

/** A sweep of a venue's closed markets (all of them when `since` is undefined; else those closed since), recorded through `record`; resolves to the markets read. */
export type OutcomeSweep = (record: (records: ResolutionRecord[]) => Promise<unknown>, since: Date | undefined) => Promise<number>;

export interface VenueOutcomes {
  /** The process's sweep, on one REST client of the venue. */
  reader(): OutcomeSweep;
}

/**
 * The settlement terms one market states as fields rather than in its rules' text: a strike's kind
 * and its floor and cap (Kalshi's `strike_type`, `floor_strike`, `cap_strike`, `functional_strike`),
 * rules beside the main ones (`rules_secondary`) and the named sources (Kalshi's series' and
 * event's `settlement_sources`, Polymarket's `resolutionSource`). A field the venue leaves out is
 * left out.
 */
export interface VenueSettlementFields {
  strikeType?: string;
  floorStrike?: number;
  capStrike?: number;
  functionalStrike?: string;
  rulesSecondary?: string;
  sources?: Array<{ name?: string; url?: string }>;
}

/** A sweep of a venue's open markets' settlement fields, each keyed by the catalog's `venueMarketId`. */
export type SettlementSweep = () => Promise<Array<{ venueMarketId: string; fields: VenueSettlementFields }>>;

export interface VenueSettlement {
  /** The process's sweep, on one REST client of the venue; `redirectUrl` sends it to another host (the loopback fake of a bench). */
  reader(options?: { redirectUrl?: string }): SettlementSweep;
}
