// The reference page of every HTTP API at /api/docs: /api/v1 from its OpenAPI document, /api/public
// from its route table and MCP from its server's tool registry (api-docs/catalog.ts), rendered once per
// process as plain HTML (api-docs/page.ts) with no script, so nothing leaves this origin.
import { Router } from "express";
import type { ApiServices } from "@promptly/api";
import { apiCatalog } from "./api-docs/catalog.ts";
import { apiDocsPage } from "./api-docs/page.ts";

export function apiDocsRoute(services: ApiServices): Router {
  const router = Router();
  let page: Promise<string> | null = null;
  router.get("/", async (req, res) => {
    // Built by the first request (the MCP SDK loads then, not at start-up); a failure is tried again by the next.
    page ??= apiCatalog(services, req).then((catalog) => apiDocsPage(catalog, services.config.appUrl.replace(/\/$/, "")));
    const html = await page.catch((error: unknown) => {
      page = null;
      throw error;
    });
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(html);
  });
  return router;
}
