// How a person is named and pictured when little is known (spec 2: user menu, avatars, member table).

/** Full name, else the part of the email before the @, else 'User'. */
export function displayName(fullName: string | null | undefined, email: string | null | undefined): string {
  const name = fullName?.trim();
  if (name) return name;
  const local = email?.split("@")[0]?.trim();
  return local || "User";
}

/** First letters of the words of the full name, else the first two letters of the email, else 'U'. */
export function initials(fullName: string | null | undefined, email: string | null | undefined): string {
  const words = fullName?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (words.length) return words.map((word) => word[0]!.toUpperCase()).join("");
  const address = email?.trim();
  if (address) return address.slice(0, 2).toUpperCase();
  return "U";
}
