/** The databases a DDL migration writes into (each migration file takes them; lib/ticks/ddl/index.ts lists the files). */
export interface TickDdlDatabases {
  /** The published database (the SQL reader's). */
  database: string;
  /** Brier's internal database (lib/ticks/migrate.ts internalDatabase). */
  internal: string;
}
