// A count with its noun, as the pages' sentences and charts' labels read it: the number in en-US, the noun
// one or many.

/** "1 day", "8 days", "1,000 generations"; `many` for a noun whose plural is not `one` + "s" ("runtime fetches"). */
export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
