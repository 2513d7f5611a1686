// The reference page of the runtime API at /api/docs: Scalar's packaged viewer, served from our own
// files (no CDN), rendering /api/v1/openapi.json. No inline script: the page loads the viewer and a
// small start script, both from this origin, so the app's script-src 'self' holds here too.
import { createRequire } from "node:module";
import { Router } from "express";

const require = createRequire(import.meta.url);
const VIEWER = require.resolve("@scalar/api-reference/browser/standalone.js");

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Promptly runtime API reference</title>
</head>
<body>
<div id="app"></div>
<script src="/api/docs/viewer.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

// Nothing leaves this origin: no web fonts from Scalar's servers, no telemetry, no request proxy, no AI agent.
const START = `Scalar.createApiReference("#app", {
  url: "/api/v1/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: "never",
});
`;

export function apiDocsRoute(): Router {
  const router = Router();
  router.get("/", (_req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(PAGE);
  });
  router.get("/start.js", (_req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("application/javascript").send(START);
  });
  router.get("/viewer.js", (_req, res) => {
    res.sendFile(VIEWER, { maxAge: "1d", headers: { "Content-Type": "application/javascript; charset=utf-8" } });
  });
  return router;
}
