/**
 * The functions user SQL may call on POST /v0/sql (docs/ticks.md lists them). Everything else is
 * refused before the engine runs the query: table functions, dictionaries, `joinGet`, settings
 * and introspection functions, file and network access. Names compare case-insensitively.
 * Operators appear here under the engine's own names (`equals`, `and`, `in`, `toIntervalDay`, …).
 */
const operators = `and or not xor equals notEquals less greater lessOrEquals greaterOrEquals plus minus multiply divide
  intDiv intDivOrZero modulo moduloOrZero negate in notIn globalIn globalNotIn like notLike ilike notILike match if multiIf
  isNull isNotNull isNotDistinctFrom coalesce ifNull nullIf assumeNotNull tuple tupleElement array arrayElement map
  CAST _CAST accurateCast accurateCastOrNull lambda between notBetween`;

const aggregates = `count countIf countDistinct sum sumIf avg avgIf min minIf max maxIf any anyIf anyLast anyLastIf
  argMin argMax argMinIf argMaxIf uniq uniqIf uniqExact uniqExactIf uniqCombined quantile quantiles quantileExact
  quantilesExact quantileTDigest quantileIf median medianExact stddevPop stddevSamp varPop varSamp corr covarPop covarSamp
  groupArray groupArrayIf groupUniqArray groupArraySorted topK sumWithOverflow avgWeighted first_value last_value
  any_value simpleLinearRegression deltaSum`;

const windows = `row_number rank dense_rank percent_rank cume_dist ntile lagInFrame leadInFrame nth_value`;

const dates = `now now64 today yesterday toDate toDate32 toDateTime toDateTime64 toDateOrNull toDateTimeOrNull
  toStartOfMinute toStartOfFiveMinutes toStartOfFiveMinute toStartOfTenMinutes toStartOfFifteenMinutes toStartOfHour
  toStartOfDay toStartOfWeek toStartOfMonth toStartOfQuarter toStartOfYear toStartOfInterval toStartOfSecond
  toStartOfMillisecond toMonday toYear toQuarter toMonth toWeek toDayOfMonth toDayOfWeek toDayOfYear toHour toMinute
  toSecond toUnixTimestamp toUnixTimestamp64Milli toUnixTimestamp64Micro fromUnixTimestamp fromUnixTimestamp64Milli
  toYYYYMM toYYYYMMDD toYYYYMMDDhhmmss dateDiff date_diff age dateAdd date_add dateSub date_sub timestampAdd
  timestampSub dateTrunc date_trunc addSeconds addMinutes addHours addDays addWeeks addMonths addYears subtractSeconds
  subtractMinutes subtractHours subtractDays subtractWeeks subtractMonths subtractYears toIntervalSecond
  toIntervalMinute toIntervalHour toIntervalDay toIntervalWeek toIntervalMonth toIntervalQuarter toIntervalYear
  toIntervalMillisecond formatDateTime parseDateTimeBestEffort parseDateTimeBestEffortOrNull parseDateTime64BestEffort
  parseDateTime64BestEffortOrNull toTimeZone toRelativeMinuteNum toRelativeHourNum toRelativeDayNum timeSlot`;

const maths = `abs round roundBankers floor ceil ceiling trunc truncate sqrt cbrt exp exp2 exp10 log ln log2 log10 log1p
  pow power greatest least sign e pi isNaN isFinite isInfinite ifNotFinite sin cos tan atan atan2 erf`;

const conversions = `toFloat64 toFloat64OrZero toFloat64OrNull toFloat32 toFloat32OrZero toFloat32OrNull toInt8 toInt16
  toInt32 toInt64 toInt32OrZero toInt64OrZero toInt64OrNull toUInt8 toUInt16 toUInt32 toUInt64 toUInt32OrZero
  toUInt64OrZero toUInt64OrNull toDecimal32 toDecimal64 toDecimal128 toDecimal64OrZero toDecimal64OrNull toString
  toFixedString toTypeName toNullable toLowCardinality reinterpretAsString`;

const strings = `length lengthUTF8 empty notEmpty lower upper lowerUTF8 upperUTF8 substring substr substringUTF8 concat
  concatWithSeparator startsWith endsWith position positionCaseInsensitive locate replaceAll replaceOne replaceRegexpAll
  replaceRegexpOne extract extractAll splitByChar splitByString trim trimBoth trimLeft trimRight leftPad rightPad
  reverse repeat hex unhex base64Encode base64Decode cityHash64 sipHash64 xxHash64 multiSearchAny countSubstrings
  like ilike match left right`;

const json = `JSONExtractString JSONExtractRaw JSONExtractFloat JSONExtractInt JSONExtractUInt JSONExtractBool
  JSONExtractArrayRaw JSONExtractKeys JSONExtractKeysAndValues JSONExtract JSONLength JSONHas JSONType isValidJSON
  JSON_VALUE JSON_QUERY JSON_EXISTS simpleJSONExtractString simpleJSONExtractFloat simpleJSONExtractRaw
  simpleJSONHas visitParamExtractString visitParamExtractFloat visitParamExtractRaw toJSONString`;

const arrays = `arrayMap arrayFilter arraySum arrayCount arrayExists arrayAll arrayFirst arrayLast arrayFirstIndex
  arraySort arrayReverseSort arrayReverse arraySlice arrayZip arrayEnumerate arrayJoin arrayConcat arrayStringConcat
  arrayMin arrayMax arrayAvg arrayCumSum arrayDifference arrayDistinct arrayUniq arrayProduct arrayCompact arrayFlatten
  arrayPushBack arrayPushFront arrayPopBack arrayPopFront arrayResize has hasAll hasAny indexOf range emptyArrayString
  tupleElement untuple`;

export const allowedFunctions: ReadonlySet<string> = new Set(
  [operators, aggregates, windows, dates, maths, conversions, strings, json, arrays]
    .join(" ")
    .split(/\s+/)
    .filter((name) => name !== "")
    .map((name) => name.toLowerCase()),
);

export function isAllowedFunction(name: string): boolean {
  return allowedFunctions.has(name.toLowerCase());
}
