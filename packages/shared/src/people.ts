// How a person is named and pictured when little is known (user menu, avatars, member table).

/** Full name, else the part of the email before the @, else 'User'. */
export function displayName(fullName: string | null | undefined, email: string | null | undefined): string {
  const name = fullName?.trim();
  if (name) return name;
  const local = email?.split("@")[0]?.trim();
  return local || "User";
}

/**
 * The initials of the full name (its first and last words': two letters fit every avatar, whatever
 * the name's length), else the first two letters of the email, else 'U'.
 */
export function initials(fullName: string | null | undefined, email: string | null | undefined): string {
  const words = fullName?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (words.length) return [words[0]!, ...(words.length > 1 ? [words.at(-1)!] : [])].map((word) => [...word][0]!.toUpperCase()).join("");
  const address = email?.trim();
  if (address) return address.slice(0, 2).toUpperCase();
  return "U";
}
