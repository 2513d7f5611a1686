// Avatars are served through the app (no public bucket policy; see ENVIRONMENT.md).
import { Router } from "express";
import type { ApiServices } from "@promptly/api";

/** Keys look like avatars/{userId}-{timestamp}.{ext}; anything else is not an avatar. */
const AVATAR_KEY = /^[0-9a-f-]{36}-\d{10,16}\.(png|jpg|jpeg|gif|webp)$/;

/** The type follows the key's extension: the server wrote both after re-encoding the image. */
const CONTENT_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

export function avatarRoute(services: ApiServices) {
  const router = Router();
  router.get("/:file", async (req, res, next) => {
    try {
      const file = req.params.file;
      const match = AVATAR_KEY.exec(file);
      if (!match) return res.status(404).end();
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
      res.setHeader("Content-Type", CONTENT_TYPES[match[1]!]!);
      res.setHeader("Content-Length", String(object.size));
      object.body.on("error", (error) => (res.headersSent ? res.destroy(error as Error) : next(error)));
      object.body.pipe(res);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
