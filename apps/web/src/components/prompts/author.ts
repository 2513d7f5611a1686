// How a prompt, a version, a comment or a review names its author: displayName (the name, else the
// address's local part) and 'Former member' once the account is gone (the rows keep no author then).
import { displayName } from "@promptly/shared";

export const authorName = (author: { fullName: string | null; email?: string | null } | null) =>
  author ? displayName(author.fullName, author.email ?? null) : "Former member";
