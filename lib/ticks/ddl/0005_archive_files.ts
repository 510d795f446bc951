import type { TickDdlDatabases } from "./databases";

/**
 * What each archive file (one venue, one closed UTC hour, docs/history.md "Archive files") was
 * found to hold when it was last built: the manifest's row count and checksum, and the Parquet
 * file's size and SHA-256. Internal. A row is valid while the hour's raw row count and latest
 * receive time are unchanged (a late row rebuilds it); ReplacingMergeTree keeps the newest build.
 */
export const version = "0005_archive_files";

export const archiveFilesTable = "archive_files";

export const statements = ({ internal }: TickDdlDatabases): string[] => [
  `CREATE TABLE IF NOT EXISTS ${internal}.${archiveFilesTable}
  (
    venue LowCardinality(String),
    hour DateTime('UTC'),
    raw_rows UInt64 COMMENT 'rows of the hour in the table, duplicates included, when built',
    max_received_ms UInt64 COMMENT 'latest timestamp_received of the hour when built, epoch ms',
    rows UInt64 COMMENT 'distinct rows (the file rows and the manifest rows)',
    assets UInt64,
    checksum String COMMENT 'the manifest checksum of the hour (SHA-256 of the row lines), the ETag',
    bytes UInt64 COMMENT 'size of the Parquet file',
    sha256 String COMMENT 'SHA-256 of the Parquet file',
    built_at DateTime64(3) DEFAULT now64(3)
  )
  ENGINE = ReplacingMergeTree(built_at)
  ORDER BY (venue, hour)`,
];
