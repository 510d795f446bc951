/** Formatting of values: for the dashboard's pages (pure, browser- and server-safe), and times on the API's wire (isoOrNull). */

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const integer = new Intl.NumberFormat("en-US");

/**
 * A probability price in cents, the dashboard's one price unit: 0.63 -> "63¢", 0.634 -> "63.4¢",
 * 0.0015 -> "0.15¢". Digits follow the price itself (the API already rounds to the venue's tick),
 * so a Kalshi 0.15 never shows as 15.000000000000002.
 */
export function formatPrice(price: number | null | undefined): string {
  if (price === null || price === undefined || !Number.isFinite(price)) return "–";
  return `${formatCents(price * 100)}¢`;
}

function formatCents(cents: number): string {
  const digits = Math.abs(cents) < 1 && cents !== 0 ? 2 : 1;
  const rounded = Number(cents.toFixed(digits));
  return rounded.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** A 24 h price change in cents (the price's unit): +0.021 -> "+2.1¢". Sign carried for colour. */
export function formatChange(change: number | null | undefined): { text: string; tone: "up" | "down" | "muted" } {
  if (change === null || change === undefined || !Number.isFinite(change) || Math.abs(change) < 0.00005) {
    return { text: "0¢", tone: "muted" };
  }
  const cents = change * 100;
  return { text: `${cents > 0 ? "+" : "−"}${formatCents(Math.abs(cents))}¢`, tone: cents > 0 ? "up" : "down" };
}

/** A size or count as an integer with thousands separators: 1234.56 -> "1,235". */
export function formatSize(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : integer.format(Math.round(value));
}

export function formatVolume(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return `$${compact.format(value)}`;
}

export function formatInteger(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : integer.format(value);
}

export function formatBytes(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  const units = ["B", "KiB", "MiB", "GiB"];
  let n = value;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? n : n.toFixed(1)} ${units[unit]}`;
}

/** A date in UTC, unambiguous for a reader in any zone: "2026-03-01 14:00 UTC". */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return "–";
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return "–";
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function formatDate(value: string | null | undefined): string {
  if (value === null || value === undefined) return "–";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? "–" : date.toISOString().slice(0, 10);
}

/** "3 min ago" style age of a timestamp relative to now. */
export function formatAge(value: string | Date | null | undefined, now: number = Date.now()): string {
  if (value === null || value === undefined) return "never";
  const time = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (Number.isNaN(time)) return "–";
  return formatSecondsAgo((now - time) / 1000);
}

/** "3 min ago" for an age in seconds. */
export function formatSecondsAgo(age: number): string {
  const seconds = Math.max(0, Math.round(age));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

/** A stored timestamp as ISO 8601 UTC for the API (the one wire format of times); null stays null. */
export function isoOrNull(value: Date | string | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}

/**
 * A market's title as shown: pmxt-core titles a Polymarket market `<event title> - <question>`,
 * which reads "X? - X?" when the event holds one market asking its own title; then the question
 * alone. Any other title is shown as the venue sent it.
 */
export function marketTitle(title: string): string {
  const middle = title.length % 2 === 1 ? (title.length - 3) / 2 : -1;
  if (middle > 0 && title.slice(middle, middle + 3) === " - " && title.slice(0, middle) === title.slice(middle + 3)) return title.slice(0, middle);
  return title;
}

/**
 * The count axis: a whole step of 1, 2 or 5 × 10^n giving at most five intervals, and a top that
 * is a multiple of it, so every tick is a round number (0/20/40/60, never 0/13/25/38/50).
 */
export function countAxis(max: number): { top: number; ticks: number[] } {
  const raw = Math.max(1, max / 5);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? 10 * power;
  const top = Math.max(step, Math.ceil(max / step) * step);
  return { top, ticks: Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step) };
}
