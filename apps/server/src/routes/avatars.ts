// Avatars are served through the app (no public bucket policy; see ENVIRONMENT.md).
import { Router } from "express";
import type { ApiServices } from "@promptly/api";

/** Keys look like avatars/{userId}-{timestamp}.{ext}; anything else is not an avatar. */
const AVATAR_KEY = /^[0-9a-f-]{36}-\d{10,16}\.(png|jpg|jpeg|gif|webp)$/;

export function avatarRoute(services: ApiServices) {
  const router = Router();
  router.get("/:file", async (req, res, next) => {
    try {
      const file = req.params.file;
      if (!AVATAR_KEY.test(file)) return res.status(404).end();
      const object = await services.storage.get(`avatars/${file}`);
      if (!object) return res.status(404).end();
      // Keys are never reused (they carry a timestamp), so a cached avatar never goes stale.
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Content-Type", object.contentType);
      res.setHeader("Content-Length", String(object.size));
      res.setHeader("ETag", `"${object.etag}"`);
      object.body.pipe(res);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
