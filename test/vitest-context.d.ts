// What test/global-setup.ts provides to every test file (read with `inject(name)`).
import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    databaseServerUrl: string;
    s3: { endpoint: string; accessKey: string; secretKey: string };
    smtp: { host: string; port: number };
    mailboxUrl: string;
  }
}
