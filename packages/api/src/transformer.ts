// The tRPC data transformer: superjson on the wire, with a fast path for what our procedures return.
//
// superjson's generic walker (class registry, custom rules, identity tracking, a path array per node)
// was a third of the server's CPU time on list procedures: 1,000 organization rows took about 11 ms to
// serialise against 3 ms for plain JSON (bench: organizations). Answers made only of plain objects,
// arrays, strings, finite numbers, booleans, null and valid Dates are written here in superjson's exact
// format ({ json, meta: { values, v: 1 } }); anything else (undefined, Map, Set, bigint, NaN, -0, class
// instances, errors, an object met twice, ...) goes to superjson itself, so the output is always the one
// superjson would produce (meta.values may list the same paths in another order) and any superjson client
// reads it. Decoding is superjson's, behind a check of the envelope's shape.
import superjson from "superjson";

type SuperJSONResult = ReturnType<typeof superjson.serialize>;
type Annotations = Record<string, ["Date"]>;

/** Returned by the walker when a value needs superjson's own handling. */
const FALLBACK: unique symbol = Symbol("fallback");

/** superjson's path segment escaping (pathstringifier.escapeKey); most keys need none. */
const escapeKey = (key: string) =>
  key.includes(".") || key.includes("\\") ? key.replace(/\\/g, "\\\\").replace(/\./g, "\\.") : key;

class Walk {
  readonly annotations: Annotations = {};
  hasAnnotations = false;
  private readonly seen = new Set<object>();
  /** Escaped segments of the path to the value being written. */
  private readonly path: string[] = [];

  value(value: unknown): unknown {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        return Number.isFinite(value) && !Object.is(value, -0) ? value : FALLBACK;
      case "object":
        if (value === null) return null;
        if (this.seen.has(value)) return FALLBACK; // superjson records referential equality
        this.seen.add(value);
        if (Array.isArray(value)) return this.array(value);
        if (value instanceof Date) return this.date(value);
        return this.object(value);
      default:
        return FALLBACK;
    }
  }

  private array(array: unknown[]): unknown {
    const out = new Array<unknown>(array.length);
    for (let index = 0; index < array.length; index++) {
      if (!(index in array)) return FALLBACK; // holes
      this.path.push(String(index));
      const item = this.value(array[index]);
      this.path.pop();
      if (item === FALLBACK) return FALLBACK;
      out[index] = item;
    }
    return out;
  }

  private date(date: Date): unknown {
    if (Object.getPrototypeOf(date) !== Date.prototype || Number.isNaN(date.getTime())) return FALLBACK;
    if (this.path.length === 0) return FALLBACK; // a bare Date: superjson's root annotation form
    this.annotations[this.path.join(".")] = ["Date"];
    this.hasAnnotations = true;
    return isoString(date);
  }

  private object(object: object): unknown {
    const prototype = Object.getPrototypeOf(object);
    if ((prototype !== Object.prototype && prototype !== null) || object === Object.prototype) return FALLBACK;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(object)) {
      // superjson refuses these (prototype pollution) with its own error.
      if (key === "__proto__" || key === "constructor" || key === "prototype") return FALLBACK;
      this.path.push(escapeKey(key));
      const item = this.value((object as Record<string, unknown>)[key]);
      this.path.pop();
      if (item === FALLBACK) return FALLBACK;
      out[key] = item;
    }
    return out;
  }
}

/** The fast path alone: superjson's result, or null when the value needs superjson's own handling. */
export function serializeFast(value: unknown): SuperJSONResult | null {
  const walk = new Walk();
  const json = walk.value(value);
  if (json === FALLBACK) return null;
  return walk.hasAnnotations
    ? ({ json, meta: { values: walk.annotations, v: 1 } } as SuperJSONResult)
    : ({ json } as SuperJSONResult);
}

/**
 * The walker writing JSON text itself: the same values as `Walk` with JSON.stringify's output, without
 * the copy of the answer and the annotations object in between (on a 500-team list those copies were
 * most of the garbage collector's work).
 */
class TextWalk {
  /** Paths of the Dates met, in order. */
  readonly dates: string[] = [];
  private readonly seen = new Set<object>();
  private readonly path: string[] = [];
  /** Each key's path segment and its JSON with the colon: the rows of a list repeat the same keys. */
  private readonly keys = new Map<string, { segment: string; json: string }>();

  value(value: unknown): string | typeof FALLBACK {
    switch (typeof value) {
      case "string":
        // Most strings need no escaping: quoted as they are, without JSON.stringify's call per string.
        return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
      case "boolean":
        return value ? "true" : "false";
      case "number":
        return Number.isFinite(value) && !Object.is(value, -0) ? JSON.stringify(value) : FALLBACK;
      case "object":
        if (value === null) return "null";
        if (this.seen.has(value)) return FALLBACK;
        this.seen.add(value);
        if (Array.isArray(value)) return this.array(value);
        if (value instanceof Date) return this.date(value);
        return this.object(value);
      default:
        return FALLBACK;
    }
  }

  private array(array: unknown[]): string | typeof FALLBACK {
    let out = "[";
    for (let index = 0; index < array.length; index++) {
      if (!(index in array)) return FALLBACK;
      this.path.push(String(index));
      const item = this.value(array[index]);
      this.path.pop();
      if (item === FALLBACK) return FALLBACK;
      out += index === 0 ? item : `,${item}`;
    }
    return `${out}]`;
  }

  private date(date: Date): string | typeof FALLBACK {
    if (Object.getPrototypeOf(date) !== Date.prototype || Number.isNaN(date.getTime())) return FALLBACK;
    // At the root, or as a key of the root (an object orders integer-like keys first): the object's way.
    if (this.path.length < 2) return FALLBACK;
    this.dates.push(this.path.join("."));
    return `"${isoString(date)}"`;
  }

  private object(object: object): string | typeof FALLBACK {
    const prototype = Object.getPrototypeOf(object);
    if ((prototype !== Object.prototype && prototype !== null) || object === Object.prototype) return FALLBACK;
    let out = "{";
    let first = true;
    for (const key of Object.keys(object)) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") return FALLBACK;
      let known = this.keys.get(key);
      if (!known) {
        known = { segment: escapeKey(key), json: `${JSON.stringify(key)}:` };
        this.keys.set(key, known);
      }
      this.path.push(known.segment);
      const item = this.value((object as Record<string, unknown>)[key]);
      this.path.pop();
      if (item === FALLBACK) return FALLBACK;
      out += first ? known.json + item : `,${known.json}${item}`;
      first = false;
    }
    return `${out}}`;
  }
}

/** A character JSON.stringify writes escaped (a quote, a backslash, a control character, a lone surrogate's half). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** "00" to "99": the two-digit fields of a timestamp. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));
const MS_PER_DAY = 86_400_000;

/**
 * date.toISOString(), computed from the time value in half the builtin's time (writing a 500-team list,
 * whose rows have two dates each, the builtin was a quarter of the work). Years 0 to 9999; others are the builtin's.
 * The calendar date from a day count is the civil-from-days algorithm (proleptic Gregorian, eras of 400 years).
 */
export function isoString(date: Date): string {
  const time = date.getTime();
  if (time < -62_167_219_200_000 || time > 253_402_300_799_999) return date.toISOString();
  const days = Math.floor(time / MS_PER_DAY);
  let ms = time - days * MS_PER_DAY;
  const hours = Math.floor(ms / 3_600_000);
  ms -= hours * 3_600_000;
  const minutes = Math.floor(ms / 60_000);
  ms -= minutes * 60_000;
  const seconds = Math.floor(ms / 1000);
  ms -= seconds * 1000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const yearText = year >= 1000 ? String(year) : String(year).padStart(4, "0");
  const msText = ms >= 100 ? String(ms) : ms >= 10 ? `0${ms}` : `00${ms}`;
  return `${yearText}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${msText}Z`;
}

/**
 * JSON.stringify(serialize(value)) written directly, or null when the value needs superjson's own
 * handling (the caller then stringifies `serialize(value)`).
 */
export function serializeToJsonText(value: unknown): string | null {
  const walk = new TextWalk();
  const json = walk.value(value);
  if (json === FALLBACK) return null;
  if (walk.dates.length === 0) return `{"json":${json}}`;
  let values = "";
  for (let index = 0; index < walk.dates.length; index++) values += `${index === 0 ? "" : ","}${JSON.stringify(walk.dates[index])}:["Date"]`;
  return `{"json":${json},"meta":{"values":{${values}},"v":1}}`;
}

/**
 * serializeToJsonText's text of a list of objects whose JSON is already written (`pieces`: each one or
 * more objects' JSON joined by commas, as PostgreSQL's row_to_json writes them, in the list's order) and
 * whose `dateKeys` hold Dates written as toISOString: the annotations list each item's dates in the order
 * the walker meets them. In parts, whose concatenation is the text: the pieces go to the answer's bytes
 * as they are, never joined into one string (a large list's would stay in memory until a full collection).
 */
export function listJsonText(list: { count: number; pieces: readonly string[] }, dateKeys: readonly string[]): string[] {
  const parts = ['{"json":['];
  for (let index = 0; index < list.pieces.length; index++) {
    if (index > 0) parts.push(",");
    parts.push(list.pieces[index]!);
  }
  if (list.count === 0 || dateKeys.length === 0) {
    parts.push("]}");
    return parts;
  }
  // Each key's path after the item's index, as JSON.stringify writes the whole path (the index is digits).
  const suffixes = dateKeys.map((key) => `${JSON.stringify(`.${escapeKey(key)}`).slice(1)}:["Date"]`);
  let values = "";
  for (let index = 0; index < list.count; index++) {
    for (const suffix of suffixes) values += `${values ? ",\"" : "\""}${index}${suffix}`;
  }
  parts.push('],"meta":{"values":{', values, '},"v":1}}');
  return parts;
}

export function serialize(value: unknown): SuperJSONResult {
  return serializeFast(value) ?? superjson.serialize(value);
}

/** The answer to a request whose superjson envelope is malformed, whatever superjson itself tripped on. */
export const MALFORMED_ENVELOPE = "The request input is not a valid superjson envelope";

/** The annotations superjson can apply without a registry (we register no class, symbol or custom rule). */
const SIMPLE_TYPES = new Set(["undefined", "bigint", "Date", "regexp", "set", "map", "Error", "URL", "number"]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One annotation: a simple type's name, or a typed array's ["typed-array", name]. */
function isAnnotation(value: unknown): boolean {
  if (typeof value === "string") return SIMPLE_TYPES.has(value);
  return Array.isArray(value) && value.length === 2 && value[0] === "typed-array" && typeof value[1] === "string";
}

/** superjson's annotation tree: [annotation] or [annotation, { key: tree }]. */
function isTree(value: unknown): boolean {
  if (!Array.isArray(value) || value.length < 1 || value.length > 2 || !isAnnotation(value[0])) return false;
  return value.length === 1 || isChildren(value[1]);
}

function isChildren(value: unknown): boolean {
  return isRecord(value) && Object.values(value).every(isTree);
}

/**
 * Whether `meta` has the shape superjson writes. superjson trusts it: a class annotation written as
 * `["class", "Foo"]` instead of `[["class", "Foo"]]` recurses until the stack overflows, other shapes
 * throw its internal errors, whose text would reach the client.
 */
function isWellFormedMeta(meta: unknown): boolean {
  if (meta === undefined || meta === null) return true;
  if (!isRecord(meta)) return false;
  const { values, referentialEqualities } = meta;
  if (values !== undefined && !(isTree(values) || isChildren(values))) return false;
  if (referentialEqualities === undefined) return true;
  const pathLists = (value: unknown) => isRecord(value) && Object.values(value).every((paths) => Array.isArray(paths) && paths.every((path) => typeof path === "string"));
  return Array.isArray(referentialEqualities)
    ? referentialEqualities.length >= 1 && referentialEqualities.length <= 2 && Array.isArray(referentialEqualities[0])
      && referentialEqualities[0].every((path) => typeof path === "string") && (referentialEqualities.length === 1 || pathLists(referentialEqualities[1]))
    : pathLists(referentialEqualities);
}

/** superjson's deserialize, refusing a malformed envelope with our own words (tRPC answers 400 with them). */
function deserialize<T = unknown>(payload: SuperJSONResult): T {
  if (isRecord(payload) && !isWellFormedMeta(payload.meta)) throw new Error(MALFORMED_ENVELOPE);
  try {
    return superjson.deserialize<T>(payload);
  } catch {
    throw new Error(MALFORMED_ENVELOPE);
  }
}

export const transformer = {
  serialize,
  deserialize,
};
