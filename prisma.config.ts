// Prisma 7 CLI configuration. The app itself never needs the CLI at run time:
// migrations are applied by @promptly/db (see README, "Migrations").
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/promptly" },
});
