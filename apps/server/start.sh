#!/bin/sh
# The production start (npm start, the Docker image, the benchmarks): the built server with the
# memory settings it is measured with. Under load, V8 grows its heap lazily and glibc keeps one
# malloc arena per thread and keeps freed large blocks; bounded, a server with external services
# stays under 200 MB of RSS (`npm run bench -- auth`: about 175 MB under auth.me at 50 connections,
# 192 MB at the peak of four clients signing in, with one argon2id buffer of 19 MiB):
# - an 8 MB young generation (V8's default is 16): 16 gave about 4% more throughput and 20-25 MB more
#   RSS under load, 4 saved no more memory and cost about 8% of throughput;
# - old space capped at 128 MB (about 50 MB are live at rest), so full collections run before it grows;
# - Prisma's query compiler (WebAssembly) compiled per function on first use, not all at start-up, and
#   by the baseline compiler only (--liftoff-only): optimizing it took about 50 MB of malloc'd memory
#   that glibc never gave back, for queries that run once per shape (Prisma caches the plans);
# - two malloc arenas instead of one per thread (start-up compilation left about 30 MB in them);
# - blocks of 128 kB and more always mapped on their own, so they go back to the system when freed
#   (glibc's moving threshold otherwise keeps each sign-in's 19 MiB argon2id buffer in the heap).
# Not --optimize-for-size: 25 MB less, at half the throughput.
# PROMPTLY_HEAP_MB raises the old-space cap for an installation with unusually large answers.
# Arguments are more options for node (the bench passes --cpu-prof).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
exec node --max-semi-space-size=8 --max-old-space-size="${PROMPTLY_HEAP_MB:-128}" --wasm-lazy-compilation --liftoff-only \
  "$@" "$(dirname "$0")/dist/main.mjs"
