export { readJsonBody } from "./body";
export { errorResponse, isVenueError, statusByCode, type Surface } from "./errors";
export { json } from "./respond";
export { withApiKey, withRequest, type KeyedContext, type Principal, type RequestContext, type RouteArgs } from "./with-api-key";
