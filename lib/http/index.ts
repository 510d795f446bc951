export { readJsonBody } from "./body";
export { errorResponse, isVenueError, statusByCode, type Surface } from "./errors";
export { json, rateLimitHeaders } from "./respond";
export { bearerToken } from "./bearer";
export { withCronSecret } from "./with-cron-secret";
export { withApiKey, withRequest, type KeyedContext, type RequestContext, type RouteArgs } from "./with-api-key";
