/** What `done` resolves to, or "late" when it takes longer than `ms` (its timer cleared either way). */
export async function within<T>(done: Promise<T>, ms: number): Promise<T | "late"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), Math.max(0, ms))));
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}
