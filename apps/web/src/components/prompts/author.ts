// How a prompt or a version names its author: their name, 'Unnamed User' without one, and
// 'Former member' once the account is gone (the rows keep no author then).
import { memberDisplayName } from "@promptly/shared";

export const authorName = (author: { fullName: string | null } | null) => (author ? memberDisplayName(author.fullName) : "Former member");
