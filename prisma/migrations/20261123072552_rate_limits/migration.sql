-- CreateTable
-- UNLOGGED by hand (Prisma's schema cannot say it): rate-limit counters need not survive a crash (the
-- table is emptied then, which only forgives the windows in progress), and their writes skip the WAL.
CREATE UNLOGGED TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);
