import { config } from "@/lib/config";

/**
 * One-line JSON logs on stderr. Callers pass structured fields; secrets (keys, passwords,
 * credentials, Authorization headers) are never passed, and known secret-bearing field
 * names are redacted as a second line of defence.
 */

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const secretField = /authorization|password|secret|credential|token|apikey|api_key|private/i;

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = secretField.test(key) ? "[redacted]" : value;
  }
  return out;
}

function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (order[level] < order[config.logLevel]) return;
  const line = { time: new Date().toISOString(), level, msg: message, ...redact(fields) };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { error: error.message, stack: error.stack };
  return { error: String(error) };
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};
