import { AppError } from "@/lib/errors";
import { withRequest } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Any other /v0 path: a JSON 404 in the surface's error shape, not an HTML page
const notFound = withRequest<{ path: string[] }>(async ({ request }) => {
  throw new AppError("not_found", `No route ${request.method} ${new URL(request.url).pathname}. See GET /v0/openapi.json.`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
