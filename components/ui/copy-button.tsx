"use client";
import { useState } from "react";

/** Copies a value to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label = "Copy", className }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={className}
      aria-label={`${label}: ${value.length > 40 ? `${value.slice(0, 40)}…` : value}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Clipboard API refused (insecure context): select-and-copy fallback.
          const area = document.createElement("textarea");
          area.value = value;
          document.body.append(area);
          area.select();
          document.execCommand("copy");
          area.remove();
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </button>
  );
}
