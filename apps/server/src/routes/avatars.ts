// Avatars are served through the app, never by a public bucket policy: not every S3 server has one
// (the embedded one does not).
import { Router } from "express";
import { avatarFileContentType, type ApiServices } from "@promptly/api";

export function avatarRoute(services: ApiServices) {
  const router = Router();
  router.get("/:file", async (req, res, next) => {
    try {
      const file = req.params.file;
      // Only names the server writes (avatars/{userId}-{timestamp}.{ext}); anything else is not an avatar.
      const contentType = avatarFileContentType(file);
      if (!contentType) return res.status(404).end();
      const object = await services.storage.get(`avatars/${file}`);
      if (!object) return res.status(404).end();
      const etag = `"${object.etag}"`;
      // Keys are never reused (they carry a timestamp), so a cached avatar never goes stale.
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("ETag", etag);
      res.setHeader("X-Content-Type-Options", "nosniff");
      if (req.get("if-none-match") === etag) {
        (object.body as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        return res.status(304).end();
      }
      res.setHeader("Content-Type", contentType);
      res.setHeader("Content-Length", String(object.size));
      object.body.on("error", (error) => (res.headersSent ? res.destroy(error as Error) : next(error)));
      object.body.pipe(res);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
