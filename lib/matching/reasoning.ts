/**
 * Reading a stored match's `reasoning` for display (no server code: the dashboard imports it).
 * The engine writes one sentence of clauses joined by "; ", then a closing sentence saying what
 * the relation means; clauses that name a difference say so ("different ...", "... differ",
 * "... vs ...", "not the same question: ...", "Not an identity: ..."). Anything unrecognised is
 * shown whole rather than dropped.
 */

const DIFFERENCE = /\bdiffer(s|ent)?\b|\bvs\b|not the same question|not an identity|one side only|negated|any of several/i;

/** The part of an overlap's reasoning that says why it is not an identity, or null when there is nothing to say. */
export function whyNotIdentity(relation: string, reasoning: string | null): string | null {
  if (relation !== "overlap" || reasoning === null || reasoning.trim() === "") return null;
  const explicit = /Not an identity: [^]*$/.exec(reasoning);
  if (explicit !== null) return explicit[0].replace(/^Not an identity: /, "").trim();
  const sentences = reasoning.split(/(?<=\.)\s+(?=[A-Z])/);
  const clauses = sentences.flatMap((s) => s.replace(/\.$/, "").split("; ")).filter((c) => DIFFERENCE.test(c));
  const named = clauses.map((c) => c.replace(/^not the same question: /i, "").trim()).filter((c) => c !== "");
  if (named.length > 0) return capitalize(named.join("; "));
  return sentences[0]?.trim() ?? null;
}

/** A fitted confidence as the probability it is: "93%" (never 100% unless it is 1). */
export function formatProbability(confidence: number): string {
  const percent = confidence * 100;
  if (percent > 99 && percent < 100) return "> 99%";
  if (percent > 0 && percent < 1) return "< 1%";
  return `${Math.round(percent)}%`;
}

/** What Yes stands for on a market, when its Yes outcome says more than "Yes" and more than the title. */
export function yesStandsFor(market: { title: string; outcomes: ReadonlyArray<{ label: string }> }): string | null {
  const label = market.outcomes[0]?.label.trim();
  if (label === undefined || label === "" || /^yes$/i.test(label) || label === market.title.trim()) return null;
  return label;
}

function capitalize(s: string): string {
  return s.length === 0 ? s : `${s[0]?.toUpperCase() ?? ""}${s.slice(1)}`;
}
