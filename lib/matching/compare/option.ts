/**
 * Option comparator: the named option Yes stands for (a candidate, a team, a state of a
 * multi-outcome event) on each side.
 */
import type { Features } from "../extract";
import type { AttributeState } from "./types";

/** Named options: same, the same written shorter ("Springfield A" for "Springfield Atoms"), or different. */
export function comparePicks(a: string[], b: string[]): "same" | "abbrev" | "different" {
  if (a.join(" ") === b.join(" ")) return "same";
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 0) return "different";
  // Positional: every word of the shorter is the longer's word or its initial letters.
  let positional = true;
  for (let i = 0; i < short.length; i += 1) {
    const s = short[i] ?? "";
    const l = long[i] ?? "";
    const [x, y] = s.length <= l.length ? [s, l] : [l, s];
    if (!(x === y || (y.startsWith(x) && (x.length <= 3 || x.length >= y.length - 3)))) {
      positional = false;
      break;
    }
  }
  if (positional) return "abbrev";
  // A surname alone ("Quill" for "Ada Quill").
  const longSet = new Set(long);
  if (short.length === 1 && (short[0] ?? "").length > 3 && longSet.has(short[0] ?? "") && long.at(-1) === short[0]) return "abbrev";
  return "different";
}

export interface OptionComparison {
  /**
   * `same` (written alike or one abbreviating the other: see `abbreviated`), `conflict` (another
   * option), `oneSide` (a label on one side only: `inOtherQuestion` says whether the other's
   * question names it), `absent`.
   */
  state: AttributeState;
  abbreviated: boolean;
  inOtherQuestion: boolean;
  a: string[] | null;
  b: string[] | null;
}

/** The option comparator. */
export function compareOption(a: Features, b: Features): OptionComparison {
  const base = { abbreviated: false, inOtherQuestion: false, a: a.pick, b: b.pick };
  if (a.pick !== null && b.pick !== null) {
    const p = comparePicks(a.pick, b.pick);
    return { ...base, state: p === "different" ? "conflict" : "same", abbreviated: p === "abbrev" };
  }
  if (a.pick === null && b.pick === null) return { ...base, state: "absent" };
  // The option on one side, phrased inside the other's question, is the same option: all its
  // words, or its last word (a surname, a team's nickname) when that word is distinctive.
  const other = a.pick === null ? a : b;
  const pickTokens = a.pick ?? b.pick ?? [];
  const last = pickTokens.at(-1) ?? "";
  const inOtherQuestion = pickTokens.length > 0 && (pickTokens.every((t) => other.topic.includes(t)) || (last.length > 3 && other.topic.includes(last)));
  return { ...base, state: "oneSide", inOtherQuestion };
}
