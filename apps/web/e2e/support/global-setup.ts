// The first account of a fresh installation becomes a super user: create it here, before any test,
// so that every account the tests create is an ordinary one whatever order the files run in.
import { createAccount } from "./accounts.ts";

export default async function globalSetup() {
  await createAccount({ email: "root@example.test", superUser: true, fullName: "Root Admin" });
}
