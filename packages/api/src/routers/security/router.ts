import { router } from "../../trpc.ts";
import { changePassword } from "./change-password.ts";
import { disableTwoFactor } from "./disable-two-factor.ts";
import { enableTwoFactor } from "./enable-two-factor.ts";
import { overview } from "./overview.ts";
import { setupTwoFactor } from "./setup-two-factor.ts";
import { updateSessionTimeout } from "./update-session-timeout.ts";

export const securityRouter = router({
  overview,
  changePassword,
  updateSessionTimeout,
  setupTwoFactor,
  enableTwoFactor,
  disableTwoFactor,
});
