import Link from "next/link";
import { Suspense } from "react";
import { CatalogBrowser } from "@/components/catalog/catalog-browser";
import { SkeletonRows } from "@/components/ui/query-state";
import { categories } from "@/lib/catalog/categories";
import { catalogVenues } from "@/lib/catalog/venues";
import { getSessionAccount } from "@/lib/auth/page-session";

// Home: the catalog browser for a signed-in analyst, a short introduction otherwise.
export default async function Home() {
  const account = await getSessionAccount();
  if (account === undefined) {
    return (
      <div className="stack" style={{ maxWidth: 720, margin: "2rem auto" }}>
        <h1>Brier: prediction-market data</h1>
        <p>
          One catalog across venues, a pass-through to every venue&apos;s API, Polymarket&apos;s and Kalshi&apos;s order-book
          history in SQL, and the spread between markets that ask the same question. The dashboard uses the same API your
          programs do.
        </p>
        <div className="row">
          <Link href="/signup" className="button primary">
            Create an account
          </Link>
          <Link href="/signin" className="button">
            Sign in
          </Link>
        </div>
      </div>
    );
  }
  return (
    <Suspense fallback={<SkeletonRows rows={12} />}>
      <CatalogBrowser exchanges={catalogVenues()} categories={[...categories]} />
    </Suspense>
  );
}
