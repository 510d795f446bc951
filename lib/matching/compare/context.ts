/**
 * Context comparator: the typed concepts that locate or scope a question (place, office,
 * competition, asset, measure, organisation; a party when no option is named).
 */
import type { Features } from "../extract";
import { contextTypes, type ConceptType } from "../lexicon";
import type { Cmp } from "./types";

export const typeLabel: Record<ConceptType, string> = {
  state: "state",
  country: "country",
  city: "place",
  party: "party",
  office: "office",
  competition: "competition",
  asset: "asset",
  indicator: "measure",
  org: "organisation",
};

/** Context types where a value on one side only still makes a different question (another asset or measure). */
const scopeOnOneSide = new Set<ConceptType>(["state", "office", "asset", "indicator"]);

/**
 * Context a question may leave unsaid without asking something else: a team's city ("the Owls"
 * for "the Springfield Owls"). Stated on one side only it is evidence the identity decision weighs.
 * (A state or an office on one side only was measured as evidence too and lost validation recall
 * at the precision target: they stay differences.)
 */
const descriptorOnOneSide = new Set<ConceptType>(["city"]);

/** One context type and each side's values. */
export interface ContextValues {
  type: ConceptType;
  a: string[];
  b: string[];
}

export interface ContextComparison {
  /** Types both state differently, and scope types one side states alone: another question. */
  diffs: ContextValues[];
  /** Values both state alike. */
  agreed: string[];
  /** Same league, another stage: a title win (`sub`) implies the conference win (`sup`). */
  stage: Cmp | null;
  /** Descriptors one side states and the other leaves unsaid (evidence, not a difference). */
  oneSide: ContextValues[];
}

/** A conference without its league ("west conference" for "nba west conference"). */
const conferenceOnly = (v: string) => v.replace(/^.*?\b(\w+ conference)$/, "$1");

/** The context comparator. */
export function compareContexts(a: Features, b: Features): ContextComparison {
  const diffs: ContextValues[] = [];
  const oneSide: ContextValues[] = [];
  const agreed: string[] = [];
  let stage: Cmp | null = null;
  const types = new Set<ConceptType>([...contextTypes, ...(a.pick === null && b.pick === null ? (["party"] as const) : [])]);
  for (const type of types) {
    const va = a.concepts[type] ?? [];
    const vb = b.concepts[type] ?? [];
    if (va.length === 0 && vb.length === 0) continue;
    if (va.length === 0 || vb.length === 0) {
      if (scopeOnOneSide.has(type)) diffs.push({ type, a: va, b: vb });
      else if (descriptorOnOneSide.has(type)) oneSide.push({ type, a: va, b: vb });
      continue;
    }
    let shared = va.filter((v) => vb.includes(v));
    // A conference one side names with its league and the other without it is the same conference.
    if (shared.length === 0 && type === "competition") shared = va.filter((v) => v.endsWith("conference") && vb.some((w) => conferenceOnly(w) === conferenceOnly(v)));
    if (shared.length > 0) {
      agreed.push(...shared);
      continue;
    }
    if (type === "competition") {
      // Same league, different stage: a title win implies the conference win that leads to it.
      const stageOf = (vs: string[]) => (vs.some((v) => v.endsWith("title")) ? "title" : vs.some((v) => v.includes("conference")) ? "conference" : null);
      const league = (vs: string[]) => vs.map((v) => v.split(" ")[0]);
      const sa = stageOf(va);
      const sb = stageOf(vb);
      if (sa !== null && sb !== null && sa !== sb && league(va).some((l) => league(vb).includes(l))) {
        stage = sa === "title" ? "sub" : "sup";
        continue;
      }
    }
    diffs.push({ type, a: va, b: vb });
  }
  return { diffs, agreed, stage, oneSide };
}
