// OTLP/HTTP trace requests (ExportTraceServiceRequest) as JSON or protobuf, read into one shape: the
// protobuf wire format is read here by field number (opentelemetry-proto v1), unknown fields skipped by
// wire type so newer senders keep working; ids become hex, 64-bit times decimal strings.
import { z } from "zod";
import { DomainError } from "../../errors.ts";
import { INGEST_MSG, MAX_JSON_DEPTH, jsonBeyond } from "@promptly/shared";

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string | number }
  | { doubleValue: number | string }
  | { arrayValue: { values?: AnyValue[] } }
  | { kvlistValue: { values?: KeyValue[] } }
  | { bytesValue: string }
  | Record<string, never>;
export interface KeyValue { key: string; value?: AnyValue }
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name?: string;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { scope?: { name?: string; version?: string }; spans?: OtlpSpan[] }[] }[];
}
declare const held: unique symbol;
/**
 * A request known to be of the OTLP shape: only the protobuf reader and otlpRequestOf (a JSON body held
 * to it) make one, so a body that skipped the check cannot be read as one (generationsFromOtlp takes no other).
 */
export type HeldOtlpRequest = OtlpRequest & { readonly [held]: true };

// The shape an OTLP JSON request must have to be read: lists where lists go, objects where objects
// go. Fields are optional (an exporter leaves empty ones out, or sends null) and unknown ones pass, so
// newer senders keep working; ids and times are checked as the spans are read (each refusal names what
// was wrong). Anything else is refused whole with the one 400 the SDKs log.
const keyValues = z.array(z.looseObject({ key: z.unknown().optional(), value: z.looseObject({}).nullish() }).nullish());
const otlpSpan = z.looseObject({
  traceId: z.unknown().optional(),
  spanId: z.unknown().optional(),
  startTimeUnixNano: z.unknown().optional(),
  endTimeUnixNano: z.unknown().optional(),
  attributes: keyValues.nullish(),
  // Protobuf's JSON mapping may name the code instead of numbering it.
  status: z.looseObject({ code: z.union([z.number(), z.string()]).nullish(), message: z.unknown().optional() }).nullish(),
});
const otlpRequestSchema = z.looseObject({
  resourceSpans: z
    .array(
      z.looseObject({
        resource: z.looseObject({ attributes: keyValues.nullish() }).nullish(),
        scopeSpans: z.array(z.looseObject({ spans: z.array(otlpSpan).nullish() }).nullish()).nullish(),
      }).nullish(),
    )
    .nullish(),
});

/** A request as read (JSON.parse, or the protobuf reader) held to the OTLP shape; else INVALID with the message the SDKs log. */
export function otlpRequestOf(body: unknown): HeldOtlpRequest {
  // A JSON array names no resource spans: accepted with nothing in it, as it always was.
  const parsed = otlpRequestSchema.safeParse(Array.isArray(body) ? {} : body);
  if (!parsed.success) throw new DomainError("INVALID", INGEST_MSG.notOtlp);
  return parsed.data as OtlpRequest as HeldOtlpRequest;
}

const MAX_DEPTH = 16;
const bad = () => new DomainError("INVALID", INGEST_MSG.notOtlp);

/**
 * What one request may decode: a few bytes each, a flood of empty spans, attributes or values would
 * cost a hundred times their size in objects (a 5 KB gzip'd request held hundreds of MB). A span, a
 * scope's or a resource's spans count as CONTAINER_NODES (each makes several objects); in JSON, every
 * object, array and comma counts. Far above real traffic: a 5 MB request of the densest real spans
 * (five short attributes each) counts about 180,000 in protobuf and 285,000 in JSON.
 */
export const OTLP_MAX_NODES = 1_000_000;
/**
 * Attributes kept of a span or a resource: the first 128 of those read (the OpenTelemetry SDKs' default
 * attributeCountLimit), the others (never kept) not counted: a span sent with a higher limit, such as a
 * long chat's flattened gen_ai.prompt.N.* attributes, still has the ones read wherever they stand.
 */
export const MAX_ATTRIBUTES = 128;
/** Values read of an array or a key-value list: the first 1,024, the rest dropped. */
const MAX_VALUES = 1_024;
const CONTAINER_NODES = 4;
const tooMany = () => new DomainError("INVALID", INGEST_MSG.tooManyNodes(OTLP_MAX_NODES));

/**
 * One request's decoding: one cursor over its bytes, every nested message read in place between its
 * start and its end (each read bounded by the end of the message it stands in, so a length running past
 * its message is malformed, as it is past the request); the spans, attributes and values it may still
 * decode (every one counts, kept or dropped), and the attribute keys kept (all when not said).
 */
class Decoding {
  pos = 0;
  private left = OTLP_MAX_NODES;
  private view: DataView | undefined;
  readonly buf: Buffer;
  readonly keptKeys: KeptKeys | undefined;
  constructor(bytes: Uint8Array, readonly keys?: ReadonlySet<string>) {
    this.keptKeys = keys && keptKeys(keys);
    // A Buffer view of the same bytes (no copy), for its hex, base64 and UTF-8 slices.
    this.buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  counted(nodes = 1) {
    if ((this.left -= nodes) < 0) throw tooMany();
  }
  /**
   * A varint as a number, for tags and lengths: read without BigInt while it fits in 35 bits (every
   * real tag and length); a longer one is read again by varint() and converted, as it always was.
   */
  uint(end: number): number {
    const start = this.pos;
    let result = 0;
    let multiplier = 1;
    for (let index = 0; index < 5; index++) {
      if (this.pos >= end) throw bad();
      const byte = this.buf[this.pos++]!;
      result += (byte & 0x7f) * multiplier;
      if (!(byte & 0x80)) return result;
      multiplier *= 128;
    }
    this.pos = start;
    return Number(this.varint(end));
  }
  varint(end: number): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= end) throw bad();
      const byte = this.buf[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
      if (shift > 63n) throw bad();
    }
  }
  /** A bool's varint: true when any of its bits is set (no BigInt), at most ten bytes as varint() reads. */
  bool(end: number): boolean {
    let set = 0;
    for (let index = 0; index < 10; index++) {
      if (this.pos >= end) throw bad();
      const byte = this.buf[this.pos++]!;
      set |= byte & 0x7f;
      if (!(byte & 0x80)) return set !== 0;
    }
    throw bad();
  }
  /**
   * An int64 as its number when safe, else its decimal string: read without BigInt while it fits in 49
   * bits (every real count); a longer one (a negative one takes ten bytes) read again by varint().
   */
  int64(end: number): number | string {
    const start = this.pos;
    let result = 0;
    let multiplier = 1;
    for (let index = 0; index < 7; index++) {
      if (this.pos >= end) throw bad();
      const byte = this.buf[this.pos++]!;
      result += (byte & 0x7f) * multiplier;
      if (!(byte & 0x80)) return result;
      multiplier *= 128;
    }
    this.pos = start;
    const int = BigInt.asIntN(64, this.varint(end));
    return Number.isSafeInteger(Number(int)) ? Number(int) : int.toString();
  }
  /** A tag: its field number `>>> 3`, its wire type `& 7`. */
  tag(end: number): number {
    const tag = this.uint(end);
    // A field number holds 29 bits: a longer tag is malformed (`>>> 3` would read its low 32 bits as another field).
    if (tag > 0xffffffff) throw bad();
    return tag;
  }
  /** A length-delimited field's end, the cursor left at its start. */
  delimited(end: number): number {
    const length = this.uint(end);
    const stop = this.pos + length;
    if (stop > end) throw bad();
    return stop;
  }
  /** A string field (UTF-8, a leading byte-order mark dropped as TextDecoder drops it). */
  text(end: number): string {
    const stop = this.delimited(end);
    const start = this.pos;
    this.pos = stop;
    return this.textOf(start, stop);
  }
  textOf(start: number, stop: number): string {
    const buf = this.buf;
    if (stop - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
    return buf.toString("utf8", start, stop);
  }
  /** A bytes field, written in `encoding` (ids in hex, bytes values in base64). */
  bytes(end: number, encoding: "hex" | "base64"): string {
    const stop = this.delimited(end);
    const start = this.pos;
    this.pos = stop;
    return this.buf.toString(encoding, start, stop);
  }
  private dataView(): DataView {
    return (this.view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength));
  }
  fixed64(end: number): bigint {
    if (this.pos + 8 > end) throw bad();
    const value = this.dataView().getBigUint64(this.pos, true);
    this.pos += 8;
    return value;
  }
  double(end: number): number {
    if (this.pos + 8 > end) throw bad();
    const value = this.dataView().getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }
  skip(wire: number, end: number) {
    if (wire === 0) this.varint(end);
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) {
      // The length first: `this.pos += …uint()` would read pos before the varint moved it.
      const length = this.uint(end);
      this.pos += length;
    }
    else if (wire === 5) this.pos += 4;
    else throw bad();
    if (this.pos > end) throw bad();
  }
}

// Each message below is read from the cursor to `end` by field number, a field it does not know skipped by
// its wire type; a field read more than once keeps its last value (as protobuf merges a message's scalars).

/**
 * A span's or resource's attributes field (the cursor at its tag's end) into `list`: each counted, only
 * the keys kept read (the others' values never decoded), MAX_ATTRIBUTES of them at most of those read
 * since `from` (the list's length when the message holding them began).
 */
function attributeInto(d: Decoding, end: number, list: KeyValue[], from: number) {
  d.counted();
  const stop = d.delimited(end);
  if (list.length - from >= MAX_ATTRIBUTES) {
    d.pos = stop;
    return;
  }
  const kv = keyValue(d, stop, 0, d.keys);
  d.pos = stop;
  if (kv) list.push(kv);
}

function anyValue(d: Decoding, end: number, depth: number): AnyValue {
  if (depth > MAX_DEPTH) throw bad();
  let value: AnyValue = {};
  while (d.pos < end) {
    const tag = d.tag(end);
    switch (tag >>> 3) {
      case 1:
        value = { stringValue: d.text(end) };
        break;
      case 2:
        value = { boolValue: d.bool(end) };
        break;
      case 3:
        value = { intValue: d.int64(end) };
        break;
      case 4:
        value = { doubleValue: d.double(end) };
        break;
      case 5:
        value = { arrayValue: { values: valuesOf(d, d.delimited(end), depth, false) as AnyValue[] } };
        break;
      case 6:
        value = { kvlistValue: { values: valuesOf(d, d.delimited(end), depth, true) as KeyValue[] } };
        break;
      case 7:
        value = { bytesValue: d.bytes(end, "base64") };
        break;
      default:
        d.skip(tag & 7, end);
    }
  }
  return value;
}

/** An ArrayValue's or KeyValueList's values (field 1): each counted, the first MAX_VALUES read, one level deeper. */
function valuesOf(d: Decoding, end: number, depth: number, keyValues: boolean): (AnyValue | KeyValue)[] {
  const values: (AnyValue | KeyValue)[] = [];
  while (d.pos < end) {
    const tag = d.tag(end);
    if (tag >>> 3 !== 1) {
      d.skip(tag & 7, end);
      continue;
    }
    d.counted();
    const stop = d.delimited(end);
    if (values.length < MAX_VALUES) values.push(keyValues ? keyValue(d, stop, depth + 1)! : anyValue(d, stop, depth + 1));
    d.pos = stop;
  }
  return values;
}

type KeptKeys = Map<number, { bytes: Buffer; key: string }[]>;
/**
 * The keys kept, by their UTF-8 bytes' length: a key read is matched on its bytes and answered as the
 * kept string itself, so an attribute not kept is skipped without its key decoded. Only for keys whose
 * bytes say them exactly (a key holding U+FFFD or a lone surrogate is not one: invalid bytes read as it),
 * else undefined and keys are decoded. Read once per set: the sets passed are constants.
 */
const keptKeysOf = new WeakMap<ReadonlySet<string>, KeptKeys | undefined>();
function keptKeys(keys: ReadonlySet<string>): KeptKeys | undefined {
  if (keptKeysOf.has(keys)) return keptKeysOf.get(keys);
  let byLength: KeptKeys | undefined = new Map();
  for (const key of keys) {
    const bytes = Buffer.from(key, "utf8");
    if (key.includes("\uFFFD") || bytes.toString("utf8") !== key) {
      byLength = undefined;
      break;
    }
    byLength.set(bytes.length, [...(byLength.get(bytes.length) ?? []), { bytes, key }]);
  }
  keptKeysOf.set(keys, byLength);
  return byLength;
}

/** The kept key the bytes from `start` to `end` say (a leading byte-order mark dropped, as text() drops it), else undefined. */
function keptKey(buf: Buffer, start: number, end: number, kept: KeptKeys): string | undefined {
  if (end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf) start += 3;
  const candidates = kept.get(end - start);
  if (!candidates) return undefined;
  for (let candidate = 0; candidate < candidates.length; candidate++) {
    const { bytes, key } = candidates[candidate]!;
    // From the end: the keys kept share their prefixes (langfuse.observation.*, gen_ai.usage.*).
    let index = bytes.length - 1;
    while (index >= 0 && bytes[index] === buf[start + index]) index--;
    if (index < 0) return key;
  }
  return undefined;
}

/** A KeyValue; undefined when `keys` says which are kept and its key is not one (its value then not decoded). */
function keyValue(d: Decoding, end: number, depth: number, keys?: ReadonlySet<string>): KeyValue | undefined {
  let keyStart = -1;
  let keyEnd = -1;
  let valueStart = -1;
  let valueEnd = -1;
  while (d.pos < end) {
    const tag = d.tag(end);
    switch (tag >>> 3) {
      case 1:
        keyEnd = d.delimited(end);
        keyStart = d.pos;
        d.pos = keyEnd;
        break;
      case 2:
        valueEnd = d.delimited(end);
        valueStart = d.pos;
        d.pos = valueEnd;
        break;
      default:
        d.skip(tag & 7, end);
    }
  }
  let key: string | undefined;
  if (keys && d.keptKeys) {
    key = keyStart < 0 ? (keys.has("") ? "" : undefined) : keptKey(d.buf, keyStart, keyEnd, d.keptKeys);
    if (key === undefined) return undefined;
  } else {
    key = keyStart < 0 ? "" : d.textOf(keyStart, keyEnd);
    if (keys && !keys.has(key)) return undefined;
  }
  if (valueStart < 0) return { key };
  d.pos = valueStart;
  const value = anyValue(d, valueEnd, depth);
  d.pos = end;
  return { key, value };
}

function status(d: Decoding, end: number, s: NonNullable<OtlpSpan["status"]>) {
  while (d.pos < end) {
    const tag = d.tag(end);
    switch (tag >>> 3) {
      case 2:
        s.message = d.text(end);
        break;
      case 3:
        // uint() reads what varint() would, as a number.
        s.code = d.uint(end);
        break;
      default:
        d.skip(tag & 7, end);
    }
  }
}

function span(d: Decoding, end: number): OtlpSpan {
  const s: OtlpSpan & { attributes: KeyValue[] } = { traceId: "", spanId: "", attributes: [], status: {} };
  while (d.pos < end) {
    const tag = d.tag(end);
    const wire = tag & 7;
    switch (tag >>> 3) {
      case 1:
        s.traceId = d.bytes(end, "hex");
        break;
      case 2:
        s.spanId = d.bytes(end, "hex");
        break;
      case 4: {
        const parent = d.bytes(end, "hex");
        if (parent) s.parentSpanId = parent;
        break;
      }
      case 5:
        s.name = d.text(end);
        break;
      case 7:
        if (wire === 1) s.startTimeUnixNano = d.fixed64(end).toString();
        else d.skip(wire, end);
        break;
      case 8:
        if (wire === 1) s.endTimeUnixNano = d.fixed64(end).toString();
        else d.skip(wire, end);
        break;
      case 9:
        attributeInto(d, end, s.attributes, 0);
        break;
      case 15:
        status(d, d.delimited(end), s.status!);
        break;
      default:
        d.skip(wire, end);
    }
  }
  return s;
}

type ResourceSpans = NonNullable<OtlpRequest["resourceSpans"]>[number];
type ScopeSpans = { scope: { name?: string; version?: string }; spans: OtlpSpan[] };

function resource(d: Decoding, end: number, attributes: KeyValue[]) {
  const from = attributes.length;
  while (d.pos < end) {
    const tag = d.tag(end);
    if (tag >>> 3 === 1) attributeInto(d, end, attributes, from);
    else d.skip(tag & 7, end);
  }
}

function scope(d: Decoding, end: number, scope: ScopeSpans["scope"]) {
  while (d.pos < end) {
    const tag = d.tag(end);
    switch (tag >>> 3) {
      case 1:
        scope.name = d.text(end);
        break;
      case 2:
        scope.version = d.text(end);
        break;
      default:
        d.skip(tag & 7, end);
    }
  }
}

function scopeSpans(d: Decoding, end: number): ScopeSpans {
  const ss: ScopeSpans = { scope: {}, spans: [] };
  while (d.pos < end) {
    const tag = d.tag(end);
    switch (tag >>> 3) {
      case 1:
        scope(d, d.delimited(end), ss.scope);
        break;
      case 2: {
        d.counted(CONTAINER_NODES);
        const stop = d.delimited(end);
        ss.spans.push(span(d, stop));
        break;
      }
      default:
        d.skip(tag & 7, end);
    }
  }
  return ss;
}

function resourceSpans(d: Decoding, end: number): ResourceSpans {
  const rs: ResourceSpans = { resource: { attributes: [] }, scopeSpans: [] };
  while (d.pos < end) {
    const tag = d.tag(end);
    switch (tag >>> 3) {
      case 1:
        resource(d, d.delimited(end), rs.resource!.attributes!);
        break;
      case 2: {
        d.counted(CONTAINER_NODES);
        const stop = d.delimited(end);
        rs.scopeSpans!.push(scopeSpans(d, stop));
        break;
      }
      default:
        d.skip(tag & 7, end);
    }
  }
  return rs;
}

/**
 * Reads a protobuf ExportTraceServiceRequest; a truncated or malformed one is refused (INVALID), as is
 * one past OTLP_MAX_NODES. `keys`: the attribute keys kept (those read of it), the others dropped undecoded.
 */
export function decodeOtlpProtobuf(buf: Uint8Array, keys?: ReadonlySet<string>): HeldOtlpRequest {
  const d = new Decoding(buf, keys);
  const end = buf.length;
  const list: NonNullable<OtlpRequest["resourceSpans"]> = [];
  try {
    while (d.pos < end) {
      const tag = d.tag(end);
      if (tag >>> 3 === 1) {
        d.counted(CONTAINER_NODES);
        const stop = d.delimited(end);
        list.push(resourceSpans(d, stop));
      } else d.skip(tag & 7, end);
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw bad();
  }
  return { resourceSpans: list } as HeldOtlpRequest;
}

/** How an OTLP/HTTP body is encoded, by its Content-Type's media type (its parameters aside): the one decision of both the reading and the answer. */
export function otlpEncodingOf(contentType: string): "json" | "protobuf" | undefined {
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (mediaType === "application/json") return "json";
  if (mediaType === "application/x-protobuf" || mediaType === "application/protobuf") return "protobuf";
  return undefined;
}

/**
 * An OTLP JSON body parsed, refused unparsed (INVALID) when it nests deeper than MAX_JSON_DEPTH or holds
 * more than OTLP_MAX_NODES values: counted as its objects, arrays and commas (strings skipped, escapes
 * honoured), so nothing is built, or recursed on, first.
 */
export function parseOtlpJson(body: Buffer): unknown {
  const beyond = jsonBeyond(body, MAX_JSON_DEPTH, OTLP_MAX_NODES);
  if (beyond === "many") throw tooMany();
  if (beyond === "deep") throw new DomainError("INVALID", INGEST_MSG.tooDeep);
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw bad();
  }
}

/** An AnyValue's list (an array's values, a key-value list's), as sent in JSON: anything but a list read as none. */
const listOf = (list: unknown): unknown[] => (list && typeof list === "object" && Array.isArray((list as { values?: unknown }).values) ? (list as { values: unknown[] }).values : []);

/**
 * An attribute's value as JavaScript: strings, numbers (a 64-bit int beyond 2^53 stays a string), booleans,
 * arrays, objects. A JSON value of the wrong type (a string that is not one, a list that is not a list, an
 * entry that is not a KeyValue) is read as no value, never failing the request.
 */
export function plainValue(value: AnyValue | undefined, depth = 0): unknown {
  if (!value || typeof value !== "object" || depth > MAX_DEPTH) return undefined;
  if ("stringValue" in value) return typeof value.stringValue === "string" ? value.stringValue : undefined;
  if ("boolValue" in value) return typeof value.boolValue === "boolean" ? value.boolValue : undefined;
  if ("intValue" in value) {
    if (typeof value.intValue !== "string" && typeof value.intValue !== "number") return undefined;
    const number = Number(value.intValue);
    return Number.isSafeInteger(number) ? number : String(value.intValue);
  }
  if ("doubleValue" in value) return typeof value.doubleValue === "number" || typeof value.doubleValue === "string" ? Number(value.doubleValue) : undefined;
  if ("arrayValue" in value) return listOf(value.arrayValue).slice(0, MAX_VALUES).map((item) => plainValue(item as AnyValue, depth + 1));
  if ("kvlistValue" in value) {
    const entries = listOf(value.kvlistValue).slice(0, MAX_VALUES) as (KeyValue | null)[];
    return Object.fromEntries(entries.flatMap((kv) => (kv && typeof kv === "object" && typeof kv.key === "string" ? [[kv.key, plainValue(kv.value, depth + 1)]] : [])));
  }
  if ("bytesValue" in value) return typeof value.bytesValue === "string" ? value.bytesValue : undefined;
  return undefined;
}
