"use client";
import { useSyncExternalStore } from "react";

type Theme = "light" | "dark";

function currentTheme(): Theme {
  const set = document.documentElement.dataset.theme;
  if (set === "light" || set === "dark") return set;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  window.addEventListener("brier-theme", onChange);
  media.addEventListener("change", onChange);
  return () => {
    window.removeEventListener("brier-theme", onChange);
    media.removeEventListener("change", onChange);
  };
}

/** Switches between light and dark; the choice is kept in localStorage and applied before paint by the layout. */
export function ThemeToggle() {
  const theme = useSyncExternalStore(subscribe, currentTheme, () => undefined);
  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      style={{ minWidth: "2.25rem", padding: "0.4rem 0.5rem" }}
      onClick={() => {
        document.documentElement.dataset.theme = next;
        try {
          localStorage.setItem("brier-theme", next);
        } catch {
          // Private mode: the theme still applies to this page.
        }
        window.dispatchEvent(new Event("brier-theme"));
      }}
    >
      <span aria-hidden="true">{theme === "dark" ? "☀" : "☾"}</span>
    </button>
  );
}
