import Link from "next/link";

/** The link from a matched pair (Compare's rows, the market page's "Same question elsewhere") to its pair page. */
export function PairSpreadLink({ a, b }: { a: string; b: string }) {
  return (
    <Link className="small" href={`/pairs/${encodeURIComponent(a)}/${encodeURIComponent(b)}`} data-testid="pair-spread-link" title="Both recorded books on one clock: the spread after fees over time">
      Spread over time
    </Link>
  );
}
