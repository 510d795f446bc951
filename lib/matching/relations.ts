/** The relations a match states, read from market A to market B. */
export const relations = ["identity", "subset", "superset", "overlap", "disjoint"] as const;
export type Relation = (typeof relations)[number];

/** The same relation read from market B to market A. */
export function invertRelation(relation: Relation): Relation {
  return relation === "subset" ? "superset" : relation === "superset" ? "subset" : relation;
}
