/** Longest `q` / `query` the catalog search accepts; the browser's search box cuts at the same length. Pure: shared by the API's schema and the browser. */
export const MAX_QUERY_LENGTH = 200;
