/**
 * The feature factory: the one place where the comparators' structured results become the
 * evidence vector the fitted models read (confidence.ts's `Evidence`; decision.ts's
 * `decisionFeatures` and calibration's `featureNames` pick from it). A new feature is an entry of
 * `evidenceFeatures` (confidence.ts) and one line here.
 */
import { emptyEvidence, type Evidence } from "../confidence";
import type { ContextComparison } from "./context";
import type { FormComparison } from "./form";
import type { OptionComparison } from "./option";
import type { QuantityComparison } from "./quantity";
import type { RulesComparison } from "./rules";
import type { SeasonComparison, TimeComparison } from "./time";
import type { WordingComparison } from "./words";

/**
 * What the comparators answered about a pair, stage by stage. A stage the orchestrator did not
 * reach (it stopped at a conflict) is absent; `wording` is the plain first reading until the full
 * one replaces it.
 */
export interface Comparison {
  similarity: number;
  wording: WordingComparison;
  context: ContextComparison;
  /** The context conflict the pair was answered on (another place, office or measure). */
  contextConflict?: boolean;
  option?: OptionComparison;
  quantity?: QuantityComparison;
  time?: TimeComparison;
  season?: SeasonComparison;
  form?: FormComparison;
  /** `form.disjunctive` counted: only where everything else reads the same. */
  disjunctiveCounted?: boolean;
  rules?: RulesComparison;
  /** Names one side states that the other's own names imply across the catalog (names.ts, `namesImplied`). */
  implied?: { a: string[]; b: string[] };
}

const flag = (b: boolean | undefined) => (b === true ? 1 : 0);

/** The evidence vector of a comparison. */
export function evidenceOf(c: Comparison): Evidence {
  const ev = emptyEvidence(c.similarity);
  ev.unmatchedNames = c.wording.names.a.length + c.wording.names.b.length;
  ev.unmatchedWords = c.wording.words.a.length + c.wording.words.b.length;
  ev.paraphrased = c.wording.paraphrased.a.length + c.wording.paraphrased.b.length;
  ev.namesFromHierarchy = (c.implied?.a.length ?? 0) + (c.implied?.b.length ?? 0);
  ev.contextOneSide = c.context.oneSide.length;
  ev.contextDiff = flag(c.contextConflict);
  ev.abbreviated = flag(c.option?.abbreviated);
  ev.optionOneSide = flag(c.option?.state === "oneSide" && c.option.inOtherQuestion);
  ev.tick = flag(c.quantity?.tick);
  ev.dateInferred = flag(c.time?.filled?.source === "rules");
  ev.dateFromResolution = flag(c.time?.filled?.source === "resolution");
  ev.looseTime = flag(c.time?.kind === "value" && c.time.state === "same" && c.time.loose);
  ev.dateOneSide = flag(c.time?.state === "oneSide");
  ev.timeDiff = flag((c.time?.state === "conflict" && c.time.cmp === "disjoint" && c.time.kind !== "touchVsAt") || c.season?.state === "conflict");
  ev.ordinalOneSide = flag(c.form?.ordinals === "oneSide");
  ev.disjunctive = flag(c.disjunctiveCounted);
  ev.sourcesDiffer = flag(c.rules?.sources === "conflict");
  ev.ruleDifferences = c.rules?.differences.length ?? 0;
  ev.settlementSame = c.rules?.same.length ?? 0;
  ev.settlementOneSide = c.rules?.oneSide.length ?? 0;
  ev.stationUnknown = flag(c.rules?.stationUnknown);
  return ev;
}
