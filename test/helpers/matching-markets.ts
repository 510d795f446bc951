/**
 * Invented markets for the comparator tests, read by the real extractor: a Polymarket-style
 * market ("<event> - <question>", the group label as Yes label) and a Kalshi-style one (the event
 * title, yes_sub_title, the rule sentence).
 */
import { extractFeatures, type Features, type MatchInput } from "@/lib/matching/extract";

let n = 0;

export function pm(eventTitle: string, question: string, extra: Partial<MatchInput> = {}): Features {
  n += 1;
  return extractFeatures({
    id: `pm-${n}`,
    venue: "polymarket",
    eventId: `pe-${n}`,
    category: "Politics",
    title: `${eventTitle} - ${question}`,
    eventTitle,
    yesLabel: question,
    description: null,
    resolutionDate: new Date("2026-12-31T12:00:00Z"),
    ...extra,
  });
}

export function kx(eventTitle: string, label: string, rule: string, extra: Partial<MatchInput> = {}): Features {
  n += 1;
  return extractFeatures({
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
  });
}
