import { router } from "../../trpc.ts";
import { me } from "./me.ts";
import { signUp } from "./sign-up.ts";
import { signUpWithInvite } from "./sign-up-with-invite.ts";
import { verifyEmail } from "./verify-email.ts";
import { resendVerification } from "./resend-verification.ts";
import { signIn } from "./sign-in.ts";
import { sendMagicLink } from "./send-magic-link.ts";
import { signInWithMagicLink } from "./sign-in-with-magic-link.ts";
import { requestPasswordReset } from "./request-password-reset.ts";
import { resetPassword } from "./reset-password.ts";
import { signOut } from "./sign-out.ts";
import { verifyTwoFactor } from "./verify-two-factor.ts";
import { verifyRecoveryCode } from "./verify-recovery-code.ts";

export const authRouter = router({
  me,
  signUp,
  signUpWithInvite,
  verifyEmail,
  resendVerification,
  signIn,
  sendMagicLink,
  signInWithMagicLink,
  requestPasswordReset,
  resetPassword,
  signOut,
  verifyTwoFactor,
  verifyRecoveryCode,
});
