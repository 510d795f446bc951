/**
 * Invented markets for the matching tests: a Polymarket-style market ("<event> - <question>", the
 * group label as Yes label, the question itself unless a label is given) and a Kalshi-style one
 * (the event title, yes_sub_title, the rule sentence). `pmInput`/`kxInput` give the venue-shaped
 * input; `pm`/`kx` give it read by the real extractor.
 */
import { extractFeatures, type Features, type MatchInput } from "@/lib/matching/extract";

let n = 0;

export function pmInput(eventTitle: string, question: string, label: string | null = null, extra: Partial<MatchInput> = {}): MatchInput {
  n += 1;
  return {
    id: `pm-${n}`,
    venue: "polymarket",
    eventId: `pe-${n}`,
    category: "Politics",
    title: `${eventTitle} - ${question}`,
    eventTitle,
    yesLabel: label ?? question,
    description: null,
    resolutionDate: new Date("2026-12-31T12:00:00Z"),
    ...extra,
  };
}

export function kxInput(eventTitle: string, label: string, rule: string, extra: Partial<MatchInput> = {}): MatchInput {
  n += 1;
  return {
    id: `kx-${n}`,
    venue: "kalshi",
    eventId: `ke-${n}`,
    category: "Politics",
    title: eventTitle,
    eventTitle,
    yesLabel: label,
    description: `If ${rule}, then the market resolves to Yes.`,
    resolutionDate: new Date("2027-01-07T15:00:00Z"),
    ...extra,
  };
}

export const pm = (eventTitle: string, question: string, extra: Partial<MatchInput> = {}): Features => extractFeatures(pmInput(eventTitle, question, null, extra));

export const kx = (eventTitle: string, label: string, rule: string, extra: Partial<MatchInput> = {}): Features => extractFeatures(kxInput(eventTitle, label, rule, extra));
