// The protected area's guard: without a session, go to /auth/signin and remember where we were.
import { redirect, type ParsedLocation } from "@tanstack/react-router";
import { ensureMe } from "@/hooks/use-me";

export async function requireSession({ location }: { location: ParsedLocation }) {
  const me = await ensureMe();
  if (!me) throw redirect({ to: "/auth/signin", search: { redirect: location.href } });
  return { me };
}
