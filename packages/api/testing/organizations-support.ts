// The organizations integration tests' own helper: a signed-in client for an account. Accounts and
// organizations come from the harness (createAccount, createOrganization).
import type { Harness, TestAccount, TestClient } from "./harness.ts";

export { createAccount, createOrganization, outcome, type TestAccount } from "./harness.ts";

/** A browser-like client signed in as `account`. */
export const signedIn = (h: Harness, account: TestAccount): Promise<TestClient> => h.signedInClient(account.id);
