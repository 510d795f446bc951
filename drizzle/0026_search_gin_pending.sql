-- The search GIN indexes keep a pending list of 64 kB at most (PostgreSQL's least; 4 MB by default): every
-- search through the index reads the whole list of rows written since its last merge, 4.1-4.3 ms for a
-- 20-row word with 15,000 rows pending at 1M markets, 0.15-0.19 ms with 64 kB (300 rows), and an insert
-- costs what it did (docs/performance.md, "Search at 1M, third pass"). ALTER, not the DROP and CREATE
-- drizzle-kit writes for a changed storage parameter: no rebuild; then the list already pending is merged.
ALTER INDEX "markets_search_vector_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "events_search_vector_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
SELECT gin_clean_pending_list('markets_search_vector_idx');--> statement-breakpoint
SELECT gin_clean_pending_list('events_search_vector_idx');
