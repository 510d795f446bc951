import { sql, type SQL } from "drizzle-orm";

/*
 * JSON text written by the database exactly as `JSON.stringify` writes the same values, so an
 * answer built in SQL can be sent without a pass through JavaScript objects (lib/catalog/list.ts,
 * docs/performance.md). Strings, booleans and nulls already agree (`row_to_json`, `to_json`:
 * PostgreSQL escapes the same characters as JSON.stringify, control characters as lowercase \u00xx);
 * numbers do not.
 */

/**
 * A float8 as `JSON.stringify` writes the same double. PostgreSQL (12+, extra_float_digits >= 1)
 * and V8 both write the shortest digits that read back as the same double, and agree on plain
 * notation where PostgreSQL uses it: decimal exponents -4 to 14. Outside it PostgreSQL writes
 * `1e-05`, `1e-07`, `1e+15` where JSON.stringify writes `0.00001`, `1e-7`, `1000000000000000`
 * (JS: plain for 1e-6 <= |x| < 1e21), so those are rewritten from PostgreSQL's digits and
 * exponent by JavaScript's rule (ECMA-262 Number::toString). From 2^53 up the digits may differ
 * too: JavaScript takes a shorter decimal lying exactly halfway to a neighbouring double when it
 * reads back as this one (ties to even), PostgreSQL's shortest does not (48916882066987460 against
 * 4.8916882066987456e+16). Finding those digits in SQL made every statement ~3 ms longer to plan
 * per number, so such a number (a volume of 9e15 or more) is written as a marked
 * JSON string, `"\u0000` and PostgreSQL's digits, which `finishJsonNumbers` rewrites: `\u0000`
 * never occurs otherwise in PostgreSQL's JSON (text cannot hold U+0000). `-0` is `0`, null is
 * `null`; NaN and ±Infinity (never stored: the writers keep finite numbers only) are `null`, as JSON.stringify writes them. `value` is
 * repeated: pass a column or a plain reference. The common path is a few comparisons and one
 * float8out; the rest is plain expressions (no subquery: cheap to plan).
 */
export function jsonNumber(value: SQL): SQL<string> {
  const text = sql`${value}::text`;
  const exponent = sql`split_part(${text}, 'e', 2)::int`;
  const digits = sql`replace(replace(split_part(${text}, 'e', 1), '-', ''), '.', '')`;
  const sign = sql`case when ${value} < 0 then '-' else '' end`;
  return sql<string>`(case when ${value} is null or ${value} in ('NaN'::float8, 'Infinity'::float8, '-Infinity'::float8) then 'null'
    when ${value} = 0 then '0'
    when strpos(${text}, 'e') = 0 then ${text}
    when abs(${value}) >= 9007199254740992::float8 then '"\\u0000' || ${text} || '"'
    when ${exponent} >= 21 or ${exponent} <= -7 then regexp_replace(${text}, 'e([+-])0+', 'e\\1')
    when ${exponent} < 0 then ${sign} || '0.' || repeat('0', -${exponent} - 1) || ${digits}
    when length(${digits}) <= ${exponent} + 1 then ${sign} || ${digits} || repeat('0', ${exponent} + 1 - length(${digits}))
    else ${sign} || left(${digits}, ${exponent} + 1) || '.' || substr(${digits}, ${exponent} + 2) end)`;
}

const MARK = '"\\u0000';
const MARKED = /"\\u0000([^"]*)"/g;

/** JSON text from the database with `jsonNumber`'s marked numbers written as JSON.stringify writes them (the text as it is when none). */
export function finishJsonNumbers(text: string): string {
  return text.includes(MARK) ? text.replace(MARKED, (_, digits: string) => JSON.stringify(Number(digits))) : text;
}
