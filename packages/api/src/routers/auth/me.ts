import { optionalViewerProcedure } from "../../procedures.ts";
import { me as meShape } from "../../services/identity/account.ts";
import { loadMe } from "../../services/identity/auth.ts";

/** The signed-in user, or null when signed out (or still waiting for the second factor). */
export const me = optionalViewerProcedure.output(meShape.nullable()).query(({ ctx }) => (ctx.signedInUser ? loadMe(ctx.db, ctx.signedInUser) : null));
