/**
 * What a comparator answers: how attribute A relates to attribute B. Each comparator of this
 * folder compares one attribute of two markets' extracted features and returns a structured
 * result; the orchestrator (classify.ts) combines them, the feature factory (features.ts) turns
 * them into the decision's evidence vector, and text is rendered from them only for display.
 */

/** How one attribute of A relates to B's: the same, nested either way, never both, or partly. */
export type Cmp = "equal" | "sub" | "sup" | "disjoint" | "overlap";

export const flip = (c: Cmp): Cmp => (c === "sub" ? "sup" : c === "sup" ? "sub" : c);

/** Two attributes' relations combined into the pair's (a conflict anywhere is a conflict). */
export function combine(x: Cmp, y: Cmp): Cmp {
  if (x === "disjoint" || y === "disjoint") return "disjoint";
  if (x === "equal") return y;
  if (y === "equal") return x;
  if (x === y) return x;
  return "overlap";
}

/**
 * The three answers per attribute: both state it and it reads the same (`same`), both state it
 * differently (`conflict`), one side states it and the other leaves it unsaid (`oneSide`); or
 * neither states it (`absent`).
 */
export type AttributeState = "same" | "conflict" | "oneSide" | "absent";

/** The attributes a difference can be about. */
export const attributes = ["context", "option", "quantity", "time", "season", "names", "positions", "wording", "date", "negation", "criteria", "rules", "ambiguity"] as const;
export type Attribute = (typeof attributes)[number];

/**
 * One difference between two markets, as data: what attribute, whether both state it differently
 * (`conflict`) or one side only (`oneSide`), a label (the context type, the rule term) and each
 * side's values, A's then B's. `ambiguity` says a market reads the same as several of the other
 * venue's (`a` holds how many others). Rendered as text by reasoning.ts for display only.
 */
export interface Difference {
  attribute: Attribute;
  state: "conflict" | "oneSide";
  label?: string;
  a: string[];
  b: string[];
}

/** The same difference read from B's side. */
export function invertDifference(d: Difference): Difference {
  return d.attribute === "ambiguity" ? d : { ...d, a: d.b, b: d.a };
}
