// The caller's bookmarks and star ratings of prompts.
import type { DbOrTx } from "@promptly/db";
import type { Caller } from "../access/access.ts";

export async function addBookmark(db: DbOrTx, caller: Caller, promptId: string, now: Date) {
  await db.$executeRaw`
    INSERT INTO prompt_bookmarks (user_id, prompt_id, created_at) VALUES (${caller.userId}::uuid, ${promptId}::uuid, ${now})
    ON CONFLICT DO NOTHING`;
  return { bookmarked: true };
}

export async function removeBookmark(db: DbOrTx, caller: Caller, promptId: string) {
  await db.promptBookmark.deleteMany({ where: { userId: caller.userId, promptId } });
  return { bookmarked: false };
}

/** Sets the caller's stars; the answer is the prompt's new average. */
export async function setRating(db: DbOrTx, caller: Caller, promptId: string, stars: number | null, now: Date) {
  if (stars === null) await db.promptRating.deleteMany({ where: { userId: caller.userId, promptId } });
  else {
    await db.$executeRaw`
      INSERT INTO prompt_ratings (user_id, prompt_id, stars, created_at, updated_at)
      VALUES (${caller.userId}::uuid, ${promptId}::uuid, ${stars}, ${now}, ${now})
      ON CONFLICT (user_id, prompt_id) DO UPDATE SET stars = EXCLUDED.stars, updated_at = EXCLUDED.updated_at`;
  }
  const row = await db.prompt.findUniqueOrThrow({ where: { id: promptId }, select: { ratingAverage: true, ratingCount: true } });
  return { myRating: stars, ratingAverage: row.ratingAverage, ratingCount: row.ratingCount };
}
