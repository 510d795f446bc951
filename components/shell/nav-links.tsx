"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";

const links = [
  { href: "/", label: "Catalog", match: (p: string) => p === "/" || p.startsWith("/markets") || p.startsWith("/events") },
  { href: "/compare", label: "Compare", match: (p: string) => p.startsWith("/compare") },
  { href: "/sql", label: "SQL", match: (p: string) => p.startsWith("/sql") },
  { href: "/archive", label: "Archive", match: (p: string) => p.startsWith("/archive") },
  { href: "/console", label: "Pass-through", match: (p: string) => p.startsWith("/console") },
  { href: "/status", label: "Status", match: (p: string) => p.startsWith("/status") },
  { href: "/settings", label: "Settings", match: (p: string) => p.startsWith("/settings") },
];
const operatorLinks = [
  { href: "/accounts", label: "Accounts", match: (p: string) => p.startsWith("/accounts") },
  { href: "/review", label: "Review", match: (p: string) => p.startsWith("/review") },
];

export function NavLinks({ className, operator = false }: { className?: string; operator?: boolean }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className={className}>
      {(operator ? [...links, ...operatorLinks] : links).map((link) => (
        <Link key={link.href} href={link.href} aria-current={link.match(pathname) ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
