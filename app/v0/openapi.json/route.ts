import { openApiDocument } from "@/lib/catalog/openapi";
import { json, withRequest } from "@/lib/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// GET /v0/openapi.json — the /v0 catalog surface as OpenAPI 3.1, generated from the validating zod schemas
export const GET = withRequest(async () => json(openApiDocument()));
