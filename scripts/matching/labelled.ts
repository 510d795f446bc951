/**
 * The labelled matching sets (test/fixtures/matching, test/fixtures/matching-real,
 * test/fixtures/matching-real2) and the two whole catalogs of catalogs-2025-02: loading them,
 * serving them through the loopback fake venue into the real catalog ingestion, and splitting them
 * by topic into a part the confidence is fitted on and a part kept for validation.
 *
 * The split is by topic: the Polymarket events and Kalshi events joined by any labelled pair form
 * one topic, and a topic is wholly on one side, so no event is seen in both parts.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

export const setNames = ["template", "real", "real2"] as const;
export type SetName = (typeof setNames)[number];
export type Split = "fit" | "validation";

export const setDirs: Record<SetName, string> = {
  template: path.resolve(__dirname, "../../test/fixtures/matching"),
  real: path.resolve(__dirname, "../../test/fixtures/matching-real"),
  real2: path.resolve(__dirname, "../../test/fixtures/matching-real2"),
};

/**
 * The two whole real catalogs of one week (36 MB, too large to keep in the repository): read where
 * MATCHING_CATALOGS_DIR points, by default the team's shared fixtures beside the checkout. Only the
 * bench's whole-catalog mode reads them.
 */
export const catalogsDir = process.env.MATCHING_CATALOGS_DIR ?? path.resolve(__dirname, "../../../shared/fixtures/catalogs-2025-02");

export interface LabelledPair {
  polymarket: { conditionId: string; eventTitle: string; question: string };
  kalshi: { ticker: string; event_ticker: string; title: string };
  relation: string;
  category: string;
  differs_in?: string[];
}

/**
 * Whether a stated relation agrees with the label. The real set labels a pair where one implies the
 * other as a related pair ("overlap", differs_in "implication") without saying which way: a
 * subset or superset claim on such a pair agrees with it. An unlisted pair is unrelated.
 */
export function claimIsRight(label: LabelledPair | undefined, relation: string): boolean {
  if (label === undefined) return false;
  if (label.relation === relation) return true;
  return (relation === "subset" || relation === "superset") && label.relation === "overlap" && (label.differs_in ?? []).includes("implication");
}

interface LabelsFile {
  pairs: LabelledPair[];
  polymarket_without_identity: Array<{ conditionId: string; eventTitle: string; category: string }>;
}

export interface LabelledSet {
  name: SetName | "catalogs";
  dir: string;
  pairs: LabelledPair[];
  /** Label of a (conditionId, ticker) pair. */
  labelOf: Map<string, LabelledPair>;
  /** Every Polymarket market the set labels (the markets queried), with its category. */
  categoryOf: Map<string, string>;
  /** The part each labelled Polymarket market is in. */
  splitOf: Map<string, Split>;
}

export const pairId = (conditionId: string, ticker: string) => `${conditionId}|${ticker}`;

/** One in three topics (by a hash of the topic's first event) is kept for validation. */
function splitOfTopic(topic: string): Split {
  const h = createHash("sha256").update(topic).digest();
  return (h[0] ?? 0) % 3 === 0 ? "validation" : "fit";
}

export function loadSet(name: SetName | "catalogs"): LabelledSet {
  const dir = name === "catalogs" ? catalogsDir : setDirs[name];
  const labels = JSON.parse(readFileSync(path.join(dir, "LABELS.json"), "utf8")) as LabelsFile;
  // Union-find over events: a labelled pair joins its Polymarket event and its Kalshi event.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while ((parent.get(root) ?? root) !== root) root = parent.get(root) ?? root;
    parent.set(x, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  };
  const pmEvent = new Map<string, string>();
  for (const p of labels.pairs) {
    const pe = `pm:${p.polymarket.eventTitle}`;
    pmEvent.set(p.polymarket.conditionId, pe);
    union(pe, `kx:${p.kalshi.event_ticker}`);
  }
  for (const p of labels.polymarket_without_identity) {
    pmEvent.set(p.conditionId, `pm:${p.eventTitle}`);
    find(`pm:${p.eventTitle}`);
  }
  const categoryOf = new Map<string, string>();
  for (const p of labels.pairs) categoryOf.set(p.polymarket.conditionId, p.category);
  for (const p of labels.polymarket_without_identity) categoryOf.set(p.conditionId, p.category);
  const splitOf = new Map<string, Split>();
  for (const [cid, event] of pmEvent) splitOf.set(cid, splitOfTopic(find(event)));
  return {
    name,
    dir,
    pairs: labels.pairs,
    labelOf: new Map(labels.pairs.map((p) => [pairId(p.polymarket.conditionId, p.kalshi.ticker), p])),
    categoryOf,
    splitOf,
  };
}

export function readFixture(set: LabelledSet, file: string): unknown {
  return JSON.parse(readFileSync(path.join(set.dir, file), "utf8"));
}
