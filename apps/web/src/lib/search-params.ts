// The route table's URL search parameters, read without a schema library: the route table loads with
// the first page, and zod would add about 40 kB gzip to it. Each reader keeps a value of its kind and
// drops anything else (a filter that does not apply), as `schema.optional().catch(undefined)` did;
// search-params.test.ts holds them to those zod schemas.

/** A reader of one search parameter: the value when it is of the kind, otherwise undefined. */
type Reader<T> = (value: unknown) => T | undefined;

export const optionalString: Reader<string> = (value) => (typeof value === "string" ? value : undefined);

/** A string of `min` to `max` characters. */
export const optionalStringOfLength =
  (min: number, max: number): Reader<string> =>
  (value) =>
    typeof value === "string" && value.length >= min && value.length <= max ? value : undefined;

export const optionalBoolean: Reader<boolean> = (value) => (typeof value === "boolean" ? value : undefined);

/** A safe integer of at least `min`. */
export const optionalInteger =
  (min: number): Reader<number> =>
  (value) =>
    Number.isSafeInteger(value) && (value as number) >= min ? (value as number) : undefined;

/** One of `options` (strings or numbers, compared exactly). */
export const optionalOneOf =
  <const T extends string | number>(options: readonly T[]): Reader<T> =>
  (value) =>
    options.includes(value as T) ? (value as T) : undefined;

/** An array of strings (the whole array is dropped when one item is not a string). */
export const optionalStringArray: Reader<string[]> = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;

/** RFC 9562 UUIDs (any version, nil and max), the pattern of zod's z.uuid(). */
const UUID = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export const optionalUuid: Reader<string> = (value) => (typeof value === "string" && UUID.test(value) ? value : undefined);

/** A route's `validateSearch`: each named parameter through its reader; others are left out. */
export function searchOf<Shape extends Record<string, Reader<unknown>>>(shape: Shape) {
  return (search: Record<string, unknown>): { [Key in keyof Shape]?: ReturnType<Shape[Key]> & {} } => {
    const result: Record<string, unknown> = {};
    for (const [key, read] of Object.entries(shape)) {
      const value = read(search[key]);
      if (value !== undefined) result[key] = value;
    }
    return result as { [Key in keyof Shape]?: ReturnType<Shape[Key]> & {} };
  };
}
