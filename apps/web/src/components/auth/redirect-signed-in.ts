// The public auth area's guard: a signed-in person opening sign-in, sign-up or
// forgot-password is sent to /. The link pages (reset password, confirm email, magic link, two-factor,
// accept invite) stay reachable: they act on an emailed token or finish a sign-in.
import { redirect, type ParsedLocation } from "@tanstack/react-router";
import { ensureMe } from "@/hooks/use-me";

const SIGNED_OUT_ONLY = new Set(["/auth", "/auth/signin", "/auth/signup", "/auth/forgot-password"]);

export async function redirectSignedIn({ location }: { location: ParsedLocation }) {
  const path = location.pathname.replace(/\/+$/, "");
  if (!SIGNED_OUT_ONLY.has(path)) return;
  const me = await ensureMe();
  if (me) throw redirect({ to: "/" });
}
