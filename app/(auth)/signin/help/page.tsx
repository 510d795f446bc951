import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Signing in" };

// What to do when an operator made the account (admin CLI or the Accounts page): the same
// answer for every visitor, so the page never says whether an email has an account.
export default function SignInHelpPage() {
  return (
    <div className="card stack" style={{ maxWidth: 640, margin: "2rem auto" }}>
      <h1>Signing in to an account made for you</h1>
      <p>
        An account that the service&apos;s operator created for you (for example with an API key) has no password until one is set, so it cannot sign in
        with email and password yet, and signing up with its email answers that the account exists.
      </p>
      <p>Ask your operator to set a password for it. They can do it while the service runs, in either of two ways:</p>
      <ul>
        <li>
          on the dashboard&apos;s <strong>Accounts</strong> page (operators only): <em>Set password</em> on your account;
        </li>
        <li>
          with the admin CLI: <code>npm run --silent admin -- set-password --email you@example.com --generate</code> (prints a new password), or with
          the password on standard input.
        </li>
      </ul>
      <p>
        If you signed up yourself and forgot the password, the operator can set a new one the same way. Signing in with GitHub works for an
        account whose email matches your GitHub address, where the operator turned GitHub sign-in on.
      </p>
      <p>
        <Link href="/signin">Back to sign in</Link>
      </p>
    </div>
  );
}
