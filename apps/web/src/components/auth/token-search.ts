/** ?token=… of an emailed link, kept as the exact string (never parsed as a number or JSON). */
export function tokenSearch(search: Record<string, unknown>): { token?: string } {
  const token = search.token;
  if (typeof token === "string" && token.length > 0) return { token };
  if (typeof token === "number") return { token: String(token) };
  return {};
}
