"use client";
import { useState } from "react";
import { signOutSession } from "@/lib/browser/auth-client";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await signOutSession();
        } finally {
          // A full navigation (not router.push) drops every cached query of the signed-out account.
          // eslint-disable-next-line @next/next/no-location-assign-relative-destination
          window.location.assign("/signin");
        }
      }}
    >
      Sign out
    </button>
  );
}
