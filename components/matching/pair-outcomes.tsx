import type { z } from "zod";
import type { pairOutcomesField } from "@/lib/matching/shapes";

type PairOutcomes = z.infer<typeof pairOutcomesField>;

const settled = (value: number | null) => (value === null ? "open" : value === 1 ? "Yes" : value === 0 ? "No" : `${Math.round(value * 100)}%`);

/**
 * How the two markets of a pair settled, beside its relation: nothing while either is open, both
 * settlements once resolved, and for an identity whose markets resolved differently a plain
 * "proven false identity" (lib/matching/outcome-audit.ts).
 */
export function PairOutcomesNote({ outcomes, relation }: { outcomes: PairOutcomes | undefined; relation: string }) {
  // A pair read from an answer that carries no audit (not every matching route attaches it yet) shows nothing.
  if (outcomes === undefined || outcomes.verdict === "unresolved") return null;
  if (outcomes.verdict === "disagreed" && relation === "identity") {
    return (
      <span className="badge" style={{ background: "var(--down)", color: "white" }} data-testid="proven-false-identity" title="Both markets resolved and their Yes settled differently: they were not the same question">
        proven false identity: settled {settled(outcomes.a)} / {settled(outcomes.b)}
      </span>
    );
  }
  return (
    <span className="muted small" data-testid="pair-settled">
      settled {settled(outcomes.a)} / {settled(outcomes.b)}
    </span>
  );
}
