import Link from "next/link";
import { NavLinks } from "./nav-links";
import { SignOutButton } from "./sign-out-button";
import { ThemeToggle } from "./theme-toggle";
import styles from "./app-header.module.css";

export interface HeaderAccount {
  email: string;
  plan: string;
  /** Shows the Accounts page in the navigation. */
  operator: boolean;
}

export function AppHeader({ account }: { account: HeaderAccount | undefined }) {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link href="/" className={styles.brand}>
          Brier
        </Link>
        {account !== undefined && <NavLinks className={styles.nav} operator={account.operator} />}
        <div className={styles.account}>
          <ThemeToggle />
          {account === undefined ? (
            <>
              <Link href="/signin">Sign in</Link>
              <Link href="/signup" className="button primary">
                Sign up
              </Link>
            </>
          ) : (
            <>
              <span className={styles.email} title={account.email}>
                {account.email}
              </span>
              <span className="badge" data-testid="plan-badge">
                {account.plan}
              </span>
              <SignOutButton />
            </>
          )}
        </div>
      </div>
    </header>
  );
}
