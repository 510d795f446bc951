import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { Providers } from "@/components/shell/providers";
import { getSessionAccount } from "@/lib/auth/page-session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Brier", template: "%s · Brier" },
  description: "Prediction-market data: one catalog across venues, venue pass-through, order-book history in SQL.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f7f8fa" },
    { media: "(prefers-color-scheme: dark)", color: "#0f1216" },
  ],
};

// Applies the saved theme before first paint, so a dark-theme reader never sees a light flash.
const themeScript = `try{var t=localStorage.getItem("brier-theme");if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

export default async function RootLayout({ children }: { children: ReactNode }) {
  const account = await getSessionAccount();
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        <a className="visually-hidden" href="#main">
          Skip to content
        </a>
        <AppHeader account={account === undefined ? undefined : { email: account.email, plan: account.plan, operator: account.operator }} />
        <Providers>
          <main id="main" className="container">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
