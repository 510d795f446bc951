export { readJsonBody } from "./body";
export { errorResponse, isVenueError, statusByCode, type Surface } from "./errors";
export { json, jsonText, rateLimitHeaders } from "./respond";
export { JsonReply, type ApiRequest, type Reply } from "./reply";
export { bearerToken } from "./bearer";
export { withCronSecret } from "./with-cron-secret";
export { withApiKey, withRequest, type KeyedContext, type RequestContext, type RouteArgs, type RouteHandler } from "./with-api-key";
