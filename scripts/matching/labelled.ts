/**
 * The labelled matching sets (test/fixtures/matching, test/fixtures/matching-real,
 * test/fixtures/matching-real2) and the two whole catalogs of catalogs-2025-02: loading them,
 * serving them through the loopback fake venue into the real catalog ingestion, and dealing them by
 * topic into folds for cross-validation.
 *
 * A topic is the Polymarket events and Kalshi events joined by any labelled pair; a topic is wholly
 * in one fold, so no event is seen both when fitting and when validating a fold.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

export const setNames = ["template", "real", "real2"] as const;
export type SetName = (typeof setNames)[number];
/** Folds of the cross-validation (every labelled pair is validated once, by a model fitted on the others). */
export const FOLDS = 5;

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
  /** The topic of each labelled Polymarket market (`<set>:<first event of the topic>`). */
  topicOf: Map<string, string>;
  /** The fold (0..FOLDS-1) of each labelled Polymarket market. */
  foldOf: Map<string, number>;
}

export const pairId = (conditionId: string, ticker: string) => `${conditionId}|${ticker}`;

/**
 * Topics dealt into folds: ordered by a hash of their name (no order of the file or of the labels
 * decides), then dealt round-robin so the folds hold as many topics each as they can.
 */
function dealFolds(topics: Iterable<string>, folds: number): Map<string, number> {
  const hash = (t: string) => createHash("sha256").update(t).digest("hex");
  const ordered = [...new Set(topics)].sort((a, b) => (hash(a) < hash(b) ? -1 : 1));
  return new Map(ordered.map((t, i) => [t, i % folds]));
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
  const topicOf = new Map<string, string>();
  for (const [cid, event] of pmEvent) topicOf.set(cid, `${name}:${find(event)}`);
  const dealt = dealFolds(topicOf.values(), FOLDS);
  const foldOf = new Map([...topicOf].map(([cid, topic]) => [cid, dealt.get(topic) ?? 0]));
  return {
    name,
    dir,
    pairs: labels.pairs,
    labelOf: new Map(labels.pairs.map((p) => [pairId(p.polymarket.conditionId, p.kalshi.ticker), p])),
    categoryOf,
    topicOf,
    foldOf,
  };
}

export function readFixture(set: LabelledSet, file: string): unknown {
  return JSON.parse(readFileSync(path.join(set.dir, file), "utf8"));
}
