#!/bin/sh
# The production start (npm start, the Docker image, the benchmarks): the built server with the
# memory settings it is measured with. Under load, V8 grows its heap lazily and glibc keeps one
# malloc arena per thread; bounded, a server with external services stays under 200 MB of RSS
# (`npm run bench -- auth`) at no measurable cost in throughput:
# - a 4 MB young generation (default 16): requests' garbage is collected sooner;
# - old space capped at 128 MB (about 50 MB are live at rest), so full collections run before it grows;
# - Prisma's query compiler (WebAssembly) compiled per function on first use, not all at start-up;
# - two malloc arenas instead of one per thread (start-up compilation left about 30 MB in them).
# PROMPTLY_HEAP_MB raises the old-space cap for an installation with unusually large answers.
# Arguments are more options for node (the bench passes --cpu-prof).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node --max-semi-space-size=4 --max-old-space-size="${PROMPTLY_HEAP_MB:-128}" --wasm-lazy-compilation \
  "$@" "$(dirname "$0")/dist/main.mjs"
