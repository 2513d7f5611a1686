// The signed-in person as the app shows them (auth.me).
import { z } from "zod";
import { Prisma } from "@promptly/db";
import { APP_ROLES } from "@promptly/shared";

/** Public URL of a stored avatar; avatars are served by the app under /avatars/. */
export const avatarUrl = (avatarKey: string | null | undefined) => (avatarKey ? `/${avatarKey}` : null);
/** avatarUrl in a statement, over the column of the avatar key: for answers PostgreSQL writes (or reads whole) itself. */
export const avatarUrlSql = (avatarKey: Prisma.Sql) => Prisma.sql`CASE WHEN ${avatarKey} <> '' THEN '/' || ${avatarKey} END`;

export const me = z.object({
  user: z.object({ id: z.string(), email: z.string(), emailVerified: z.boolean(), lastSignInAt: z.date().nullable(), createdAt: z.date() }),
  profile: z.object({ fullName: z.string().nullable(), username: z.string().nullable(), avatarUrl: z.string().nullable() }),
  role: z.enum(APP_ROLES),
  isSuperUser: z.boolean(),
  /** True on the call that created the missing `user` role row (the web shows 'Access level set'). */
  roleCreated: z.boolean(),
});
export type Me = z.infer<typeof me>;
