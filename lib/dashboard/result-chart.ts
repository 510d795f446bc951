import { parseSqlTime, toNumber, type SqlAnswer } from "./sql-patterns";

/**
 * A SQL result is chartable when it has a time column (Date/DateTime type) and at least one
 * numeric column: one line per numeric column (at most 6), points in time order.
 */
export function chartableSeries(answer: SqlAnswer): { name: string; points: { time: number; value: number }[] }[] | undefined {
  const columns = answer.meta.columns;
  const time = columns.find((c) => /^(Nullable\()?(Date|DateTime)/.test(c.type));
  if (time === undefined) return undefined;
  const numeric = columns.filter((c) => c !== time && /^(Nullable\()?(U?Int|Float|Decimal)/.test(c.type)).slice(0, 6);
  if (numeric.length === 0) return undefined;
  return numeric.map((column) => ({
    name: column.name,
    points: answer.data
      .map((row) => ({ time: parseSqlTime(row[time.name]), value: toNumber(row[column.name]) }))
      .filter((p): p is { time: number; value: number } => p.time !== undefined && p.value !== undefined)
      .sort((a, b) => a.time - b.time),
  }));
}
