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
export interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { scope?: { name?: string; version?: string }; spans?: OtlpSpan[] }[] }[];
}

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
export function otlpRequestOf(body: unknown): OtlpRequest {
  // A JSON array names no resource spans: accepted with nothing in it, as it always was.
  const parsed = otlpRequestSchema.safeParse(Array.isArray(body) ? {} : body);
  if (!parsed.success) throw new DomainError("INVALID", INGEST_MSG.notOtlp);
  return parsed.data as OtlpRequest;
}

const MAX_DEPTH = 16;
const utf8 = new TextDecoder();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const bad = () => new DomainError("INVALID", INGEST_MSG.notOtlp);

class Reader {
  private pos = 0;
  private view: DataView | undefined;
  constructor(private readonly buf: Uint8Array) {}
  done() {
    return this.pos >= this.buf.length;
  }
  /**
   * A varint as a number, for tags and lengths: read without BigInt while it fits in 35 bits (every
   * real tag and length); a longer one is read again by varint() and converted, as it always was.
   */
  private uint(): number {
    const start = this.pos;
    let result = 0;
    let multiplier = 1;
    for (let index = 0; index < 5; index++) {
      if (this.pos >= this.buf.length) throw bad();
      const byte = this.buf[this.pos++]!;
      result += (byte & 0x7f) * multiplier;
      if (!(byte & 0x80)) return result;
      multiplier *= 128;
    }
    this.pos = start;
    return Number(this.varint());
  }
  private dataView(): DataView {
    return (this.view ??= new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength));
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length) throw bad();
      const byte = this.buf[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
      if (shift > 63n) throw bad();
    }
  }
  tag(): [number, number] {
    const tag = this.uint();
    // A field number holds 29 bits: a longer tag is malformed (`>>> 3` would read its low 32 bits as another field).
    if (tag > 0xffffffff) throw bad();
    return [tag >>> 3, tag & 7];
  }
  bytes(): Uint8Array {
    const length = this.uint();
    if (this.pos + length > this.buf.length) throw bad();
    const bytes = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return bytes;
  }
  fixed64(): bigint {
    if (this.pos + 8 > this.buf.length) throw bad();
    const value = this.dataView().getBigUint64(this.pos, true);
    this.pos += 8;
    return value;
  }
  double(): number {
    if (this.pos + 8 > this.buf.length) throw bad();
    const value = this.dataView().getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }
  skip(wire: number) {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) {
      // The length first: `this.pos += …varint()` would read pos before the varint moved it.
      const length = this.uint();
      this.pos += length;
    }
    else if (wire === 5) this.pos += 4;
    else throw bad();
    if (this.pos > this.buf.length) throw bad();
  }
}

type Fields = Record<number, (reader: Reader, wire: number) => void>;
function message(buf: Uint8Array, fields: Fields) {
  const reader = new Reader(buf);
  while (!reader.done()) {
    const [field, wire] = reader.tag();
    const read = fields[field];
    if (read) read(reader, wire);
    else reader.skip(wire);
  }
}

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

/** One request's decoding: the spans, attributes and values it may still decode (every one counts, kept or dropped), and the attribute keys kept (all when not said). */
interface Decoding {
  left: number;
  keys?: ReadonlySet<string>;
}
function counted(decoding: Decoding, nodes = 1) {
  if ((decoding.left -= nodes) < 0) throw tooMany();
}

/** A span's or resource's attributes field: each counted, only the keys kept read (the others' values never decoded), MAX_ATTRIBUTES of them at most. */
function attributesInto(list: KeyValue[], decoding: Decoding) {
  let kept = 0;
  return (reader: Reader) => {
    counted(decoding);
    const bytes = reader.bytes();
    if (kept >= MAX_ATTRIBUTES) return;
    const kv = keyValue(bytes, decoding, 0, decoding.keys);
    if (!kv) return;
    kept += 1;
    list.push(kv);
  };
}

/** An array's or key-value list's values field: each counted, the first MAX_VALUES read. */
function valuesInto<T>(list: T[], decoding: Decoding, read: (bytes: Uint8Array) => T | undefined) {
  return (reader: Reader) => {
    counted(decoding);
    const bytes = reader.bytes();
    if (list.length >= MAX_VALUES) return;
    const value = read(bytes);
    if (value) list.push(value);
  };
}

function anyValue(buf: Uint8Array, decoding: Decoding, depth: number): AnyValue {
  if (depth > MAX_DEPTH) throw bad();
  let value: AnyValue = {};
  message(buf, {
    1: (r) => (value = { stringValue: utf8.decode(r.bytes()) }),
    2: (r) => (value = { boolValue: r.varint() !== 0n }),
    3: (r) => {
      const int = BigInt.asIntN(64, r.varint());
      value = { intValue: Number.isSafeInteger(Number(int)) ? Number(int) : int.toString() };
    },
    4: (r) => (value = { doubleValue: r.double() }),
    5: (r) => {
      const values: AnyValue[] = [];
      message(r.bytes(), { 1: valuesInto(values, decoding, (bytes) => anyValue(bytes, decoding, depth + 1)) });
      value = { arrayValue: { values } };
    },
    6: (r) => {
      const values: KeyValue[] = [];
      message(r.bytes(), { 1: valuesInto(values, decoding, (bytes) => keyValue(bytes, decoding, depth + 1)) });
      value = { kvlistValue: { values } };
    },
    7: (r) => (value = { bytesValue: Buffer.from(r.bytes()).toString("base64") }),
  });
  return value;
}

/** A KeyValue; undefined when `keys` says which are kept and its key is not one (its value then not decoded). */
function keyValue(buf: Uint8Array, decoding: Decoding, depth: number, keys?: ReadonlySet<string>): KeyValue | undefined {
  let key = "";
  let value: Uint8Array | undefined;
  message(buf, { 1: (r) => (key = utf8.decode(r.bytes())), 2: (r) => (value = r.bytes()) });
  if (keys && !keys.has(key)) return undefined;
  return value ? { key, value: anyValue(value, decoding, depth) } : { key };
}

function span(buf: Uint8Array, decoding: Decoding): OtlpSpan {
  const s: OtlpSpan & { attributes: KeyValue[] } = { traceId: "", spanId: "", attributes: [], status: {} };
  message(buf, {
    1: (r) => (s.traceId = hex(r.bytes())),
    2: (r) => (s.spanId = hex(r.bytes())),
    4: (r) => {
      const bytes = r.bytes();
      if (bytes.length) s.parentSpanId = hex(bytes);
    },
    5: (r) => (s.name = utf8.decode(r.bytes())),
    7: (r, wire) => (wire === 1 ? (s.startTimeUnixNano = r.fixed64().toString()) : r.skip(wire)),
    8: (r, wire) => (wire === 1 ? (s.endTimeUnixNano = r.fixed64().toString()) : r.skip(wire)),
    9: attributesInto(s.attributes, decoding),
    15: (r) => message(r.bytes(), { 2: (q) => (s.status!.message = utf8.decode(q.bytes())), 3: (q) => (s.status!.code = Number(q.varint())) }),
  });
  return s;
}

/**
 * Reads a protobuf ExportTraceServiceRequest; a truncated or malformed one is refused (INVALID), as is
 * one past OTLP_MAX_NODES. `keys`: the attribute keys kept (those read of it), the others dropped undecoded.
 */
export function decodeOtlpProtobuf(buf: Uint8Array, keys?: ReadonlySet<string>): OtlpRequest {
  const decoding: Decoding = { left: OTLP_MAX_NODES, keys };
  const resourceSpans: NonNullable<OtlpRequest["resourceSpans"]> = [];
  try {
    message(buf, {
      1: (r) => {
        counted(decoding, CONTAINER_NODES);
        const rs: NonNullable<OtlpRequest["resourceSpans"]>[number] = { resource: { attributes: [] }, scopeSpans: [] };
        message(r.bytes(), {
          1: (q) => message(q.bytes(), { 1: attributesInto(rs.resource!.attributes!, decoding) }),
          2: (q) => {
            counted(decoding, CONTAINER_NODES);
            const ss: { scope: { name?: string; version?: string }; spans: OtlpSpan[] } = { scope: {}, spans: [] };
            message(q.bytes(), {
              1: (a) => message(a.bytes(), { 1: (b) => (ss.scope.name = utf8.decode(b.bytes())), 2: (b) => (ss.scope.version = utf8.decode(b.bytes())) }),
              2: (a) => {
                counted(decoding, CONTAINER_NODES);
                ss.spans.push(span(a.bytes(), decoding));
              },
            });
            rs.scopeSpans!.push(ss);
          },
        });
        resourceSpans.push(rs);
      },
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw bad();
  }
  return { resourceSpans };
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
