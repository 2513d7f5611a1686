// The OTLP protobuf reader and the reading of spans into generations, on bytes written here by field
// number (the real exporters' bytes are read in the server's ingestion test).
import { describe, expect, it } from "vitest";
import { INGEST_MSG } from "@promptly/shared";
import { DomainError } from "../../errors.ts";
import { OTLP_MAX_NODES, decodeOtlpProtobuf, otlpRequestOf, parseOtlpJson, plainValue, type AnyValue, type KeyValue } from "./otlp.ts";
import { SPAN_ATTRIBUTES_READ, generationsFromOtlp } from "./sources.ts";

// A minimal protobuf writer: each field as tag + value.
const varint = (value: bigint) => {
  const bytes: number[] = [];
  let v = BigInt.asUintN(64, value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    bytes.push(byte);
  } while (v);
  return Buffer.from(bytes);
};
const tag = (field: number, wire: number) => varint(BigInt((field << 3) | wire));
const bytesField = (field: number, value: Buffer | string) => {
  const data = typeof value === "string" ? Buffer.from(value) : value;
  return Buffer.concat([tag(field, 2), varint(BigInt(data.length)), data]);
};
const varintField = (field: number, value: bigint) => Buffer.concat([tag(field, 0), varint(value)]);
const fixed64Field = (field: number, value: bigint) => {
  const data = Buffer.alloc(8);
  data.writeBigUInt64LE(value);
  return Buffer.concat([tag(field, 1), data]);
};
const doubleField = (field: number, value: number) => {
  const data = Buffer.alloc(8);
  data.writeDoubleLE(value);
  return Buffer.concat([tag(field, 1), data]);
};
/** A KeyValue as field `field` of its message (Resource's and KeyValueList's 1, Span's 9). */
const keyValue = (key: string, value: Buffer, field = 1) => bytesField(field, Buffer.concat([bytesField(1, key), bytesField(2, value)]));
const attribute = (key: string, value: Buffer) => keyValue(key, value, 9);
const string = (text: string) => bytesField(1, text);

function request(spanFields: Buffer[]) {
  const span = Buffer.concat(spanFields);
  const scopeSpans = Buffer.concat([bytesField(1, bytesField(1, "my-app")), bytesField(2, span)]);
  const resource = keyValue("deployment.environment", string("production"));
  const resourceSpans = Buffer.concat([bytesField(1, resource), bytesField(2, scopeSpans), bytesField(3, "schema")]);
  return bytesField(1, resourceSpans);
}

const traceId = Buffer.from("0af7651916cd43dd8448eb211c80319c", "hex");
const spanId = Buffer.from("b7ad6b7169203331", "hex");
const start = 1_796_505_336_115_000_000n;
const baseSpan = [
  bytesField(1, traceId),
  bytesField(2, spanId),
  bytesField(5, "chat"),
  varintField(6, 3n),
  fixed64Field(7, start),
  fixed64Field(8, start + 1_250_000_000n),
  varintField(99, 7n), // a field a newer proto may add: skipped
];

describe("decodeOtlpProtobuf", () => {
  it("reads ids as hex, times as decimal strings and every kind of attribute value", () => {
    const decoded = decodeOtlpProtobuf(
      request([
        ...baseSpan,
        attribute("s", string("text")),
        attribute("b", varintField(2, 1n)),
        attribute("i", varintField(3, -5n)),
        attribute("big", varintField(3, 2n ** 60n)),
        attribute("d", doubleField(4, 0.25)),
        attribute("a", bytesField(5, Buffer.concat([bytesField(1, string("x")), bytesField(1, varintField(3, 2n))]))),
        attribute("kv", bytesField(6, keyValue("inner", string("y")))),
        bytesField(15, Buffer.concat([bytesField(2, "rate limited"), varintField(3, 2n)])),
      ]),
    );
    const span = decoded.resourceSpans![0]!.scopeSpans![0]!.spans![0]!;
    expect(span).toMatchObject({ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", name: "chat", startTimeUnixNano: String(start), status: { code: 2, message: "rate limited" } });
    const values = Object.fromEntries(span.attributes!.map((kv) => [kv.key, plainValue(kv.value)]));
    expect(values).toEqual({ s: "text", b: true, i: -5, big: String(2n ** 60n), d: 0.25, a: ["x", 2], kv: { inner: "y" } });
    expect(decoded.resourceSpans![0]!.resource!.attributes).toEqual([{ key: "deployment.environment", value: { stringValue: "production" } }]);
  });

  it("refuses truncated or malformed bytes as INVALID", () => {
    const whole = request(baseSpan);
    for (const bytes of [whole.subarray(0, whole.length - 3), Buffer.from([0x0a, 0xff, 0xff, 0x01]), Buffer.from([0x0b])]) {
      expect(() => decodeOtlpProtobuf(bytes)).toThrow(DomainError);
    }
  });

  it("refuses a tag beyond 32 bits (a field number holds 29) as malformed, never as the field of its low bits", () => {
    const resourceSpans = bytesField(1, Buffer.concat([bytesField(2, bytesField(2, Buffer.concat(baseSpan)))])).subarray(1);
    expect(decodeOtlpProtobuf(Buffer.concat([varint(0x0an), resourceSpans])).resourceSpans).toHaveLength(1);
    for (const high of [2n ** 32n, 2n ** 35n, 2n ** 63n]) {
      expect(() => decodeOtlpProtobuf(Buffer.concat([varint(high + 0x0an), resourceSpans])), String(high)).toThrow(INGEST_MSG.notOtlp);
    }
  });

  it("reads tags and lengths written longer than they need (up to ten bytes), as protobuf allows, the same as the short ones", () => {
    // A varint of `value` padded to `size` bytes: each but the last with its continuation bit.
    const padded = (value: number, size: number) => Buffer.from(Array.from({ length: size }, (_, index) => (Math.floor(value / 128 ** index) & 0x7f) | (index < size - 1 ? 0x80 : 0)));
    const resourceSpans = Buffer.concat([bytesField(1, keyValue("deployment.environment", string("production"))), bytesField(2, bytesField(2, Buffer.concat(baseSpan)))]);
    const short = Buffer.concat([padded(0x0a, 1), padded(resourceSpans.length, 2), resourceSpans]);
    for (const [tagSize, lengthSize] of [[2, 2], [5, 5], [6, 7], [10, 10]]) {
      expect(decodeOtlpProtobuf(Buffer.concat([padded(0x0a, tagSize!), padded(resourceSpans.length, lengthSize!), resourceSpans]))).toEqual(decodeOtlpProtobuf(short));
    }
  });
});

describe("decodeOtlpProtobuf against the bytes written here", () => {
  // Each value written here beside what it must read as; lists of them nested by the same two hands.
  type Written = [bytes: Buffer, read: AnyValue];
  const arrayOf = (items: Written[]): Written => [
    bytesField(5, Buffer.concat(items.map(([bytes]) => bytesField(1, bytes)))), { arrayValue: { values: items.map(([, read]) => read) } },
  ];
  const kvlistOf = (entries: [string, Written | undefined][]): Written => [
    bytesField(6, Buffer.concat(entries.map(([key, value]) => bytesField(1, Buffer.concat([bytesField(1, key), ...(value ? [bytesField(2, value[0])] : [])]))))),
    { kvlistValue: { values: entries.map(([key, value]) => (value ? { key, value: value[1] } : { key })) } },
  ];
  const scalars: Written[] = [
    [string("héllo ✓ 日本"), { stringValue: "héllo ✓ 日本" }],
    // A leading byte-order mark is dropped, as TextDecoder always read it.
    [bytesField(1, Buffer.from([0xef, 0xbb, 0xbf, 0x78])), { stringValue: "x" }],
    [varintField(2, 1n), { boolValue: true }],
    [varintField(2, 0n), { boolValue: false }],
    [varintField(3, 0n), { intValue: 0 }],
    [varintField(3, -5n), { intValue: -5 }],
    [varintField(3, 2n ** 49n + 3n), { intValue: 562_949_953_421_315 }],
    [varintField(3, 2n ** 60n), { intValue: "1152921504606846976" }],
    [varintField(3, -(2n ** 63n)), { intValue: "-9223372036854775808" }],
    [doubleField(4, -1.5e300), { doubleValue: -1.5e300 }],
    [bytesField(7, Buffer.from([0, 255, 16])), { bytesValue: "AP8Q" }],
    [Buffer.alloc(0), {}],
    // A field a newer proto may add, then the value: the field skipped.
    [Buffer.concat([fixed64Field(12, 1n), string("after")]), { stringValue: "after" }],
  ];
  const nested = kvlistOf([
    ["list", arrayOf([...scalars, arrayOf([kvlistOf([["deep", arrayOf(scalars.slice(0, 3))]])]), arrayOf([])])],
    ["map", kvlistOf(scalars.map((value, index) => [`k${index}`, value]))],
    ["none", undefined],
    ["empty", kvlistOf([])],
  ]);

  it("reads every kind of value, nested in lists and key-value lists, as written, kept keys or all", () => {
    const kept = [
      ["langfuse.observation.input", nested],
      ["langfuse.observation.output", arrayOf([nested, ...scalars])],
      ...scalars.map((value): [string, Written] => ["gen_ai.usage.cost", value]),
    ] as [string, Written][];
    const others = [["gen_ai.prompt.0.content", nested], ["http.method", [string("POST"), { stringValue: "POST" }]]] as [string, Written][];
    const bytes = request([
      ...baseSpan, bytesField(4, spanId),
      ...kept.flatMap(([key, [value]], index) => [attribute(key, value), attribute(others[index % 2]![0], others[index % 2]![1][0])]),
      bytesField(15, Buffer.concat([bytesField(2, "rate limited"), varintField(3, 2n)])),
    ]);
    const read = (pairs: [string, Written][]) => pairs.map(([key, [, value]]) => ({ key, value }));
    const all = kept.flatMap(([key, value], index) => [[key, value], others[index % 2]!] as [string, Written][]);
    const expected = (attributes: KeyValue[]) => ({
      resourceSpans: [{
        resource: { attributes: [{ key: "deployment.environment", value: { stringValue: "production" } }] },
        scopeSpans: [{ scope: { name: "my-app" }, spans: [{
          traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", parentSpanId: "b7ad6b7169203331", name: "chat",
          startTimeUnixNano: "1796505336115000000", endTimeUnixNano: "1796505337365000000", attributes, status: { code: 2, message: "rate limited" },
        }] }],
      }],
    });
    expect(decodeOtlpProtobuf(bytes)).toEqual(expected(read(all)));
    expect(decodeOtlpProtobuf(bytes, SPAN_ATTRIBUTES_READ)).toEqual(expected(read(kept)));
    // The same bytes from a Uint8Array that is no Buffer, inside a larger buffer.
    const outer = new Uint8Array(bytes.length + 10);
    outer.set(bytes, 5);
    expect(decodeOtlpProtobuf(outer.subarray(5, 5 + bytes.length))).toEqual(expected(read(all)));
  });

  it("reads the largest time and a kept key whatever bytes stand around it, and refuses a nested length past its message", () => {
    const last = request([bytesField(1, traceId), bytesField(2, spanId), fixed64Field(7, 2n ** 64n - 1n), attribute("\ufeffuser.id", string("u")), attribute("user.ix", string("v"))]);
    const span = decodeOtlpProtobuf(last, SPAN_ATTRIBUTES_READ).resourceSpans![0]!.scopeSpans![0]!.spans![0]!;
    expect(span).toMatchObject({ startTimeUnixNano: "18446744073709551615", attributes: [{ key: "user.id", value: { stringValue: "u" } }] });
    // A KeyValue whose value's length runs past the KeyValue (though not past the request).
    const overrun = Buffer.concat([bytesField(1, "user.id"), tag(2, 2), varint(5n), string("u")]);
    expect(() => decodeOtlpProtobuf(request([...baseSpan, bytesField(9, overrun), bytesField(5, "padding")]), SPAN_ATTRIBUTES_READ)).toThrow(INGEST_MSG.notOtlp);
  });
});

describe("what one request may decode", () => {
  const promptAttributes = (index: number) => [
    attribute("promptly.prompt.name", string("support/reply")), attribute("promptly.prompt.version", varintField(3, BigInt(index % 10 ? 1 : 2))),
    attribute("gen_ai.request.model", string(index % 3 ? "gpt-4o-mini" : "gpt-4o")), attribute("gen_ai.usage.input_tokens", varintField(3, BigInt(200 + (index % 400)))),
    attribute("gen_ai.usage.output_tokens", varintField(3, BigInt(50 + (index % 300)))),
  ];

  it("reads 5 MB of the densest real spans (five short attributes each), protobuf or JSON", () => {
    const spans = Array.from({ length: 20_000 }, (_, index) => {
      const id = Buffer.alloc(8);
      id.writeUInt32BE(index + 1, 4);
      return bytesField(2, Buffer.concat([bytesField(1, traceId), bytesField(2, id), bytesField(5, "chat"), varintField(6, 3n), fixed64Field(7, start), fixed64Field(8, start + 1n), ...promptAttributes(index)]));
    });
    const protobuf = bytesField(1, Buffer.concat([bytesField(1, keyValue("service.name", string("checkout"))), bytesField(2, Buffer.concat([bytesField(1, bytesField(1, "my-app")), ...spans]))]));
    expect(protobuf.length).toBeGreaterThan(4_500_000);
    expect(decodeOtlpProtobuf(protobuf, SPAN_ATTRIBUTES_READ).resourceSpans![0]!.scopeSpans![0]!.spans).toHaveLength(20_000);
    const json = Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: Array.from({ length: 9_500 }, (_, index) => ({
      traceId: "0af7651916cd43dd8448eb211c80319c", spanId: String(index + 1).padStart(16, "0"), name: "chat", kind: 3, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 1n),
      attributes: [["promptly.prompt.name", { stringValue: "support/reply" }], ["promptly.prompt.version", { intValue: 1 }], ["gen_ai.request.model", { stringValue: "gpt-4o-mini" }],
        ["gen_ai.usage.input_tokens", { intValue: 200 + (index % 400) }], ["gen_ai.usage.output_tokens", { intValue: 50 + (index % 300) }]].map(([key, value]) => ({ key, value })),
      status: { code: 0 },
    })) }] }] }));
    expect(json.length).toBeGreaterThan(5_000_000);
    expect(generationsFromOtlp(otlpRequestOf(parseOtlpJson(json)), new Date()).generations).toHaveLength(9_500);
  });

  it("refuses a request past a million spans, attributes and values whole, with the reason, without building them", () => {
    const refusal = INGEST_MSG.tooManyNodes(OTLP_MAX_NODES);
    const flood = (bytes: number[], count: number) => Buffer.alloc(bytes.length * count, Buffer.from(bytes));
    // Empty attributes, empty array values, empty spans: two bytes each.
    expect(() => decodeOtlpProtobuf(request([...baseSpan, flood([0x4a, 0x00], 1_000_001)]))).toThrow(refusal);
    expect(() => decodeOtlpProtobuf(request([...baseSpan, attribute("promptly.prompt.name", bytesField(5, flood([0x0a, 0x00], 1_000_001)))]))).toThrow(refusal);
    expect(() => decodeOtlpProtobuf(bytesField(1, bytesField(2, flood([0x12, 0x00], 250_001))))).toThrow(refusal);
    expect(() => parseOtlpJson(Buffer.from(`[${"{},".repeat(500_000)}{}]`))).toThrow(refusal);
    // Strings are skipped: what they hold is not counted.
    expect(parseOtlpJson(Buffer.from(JSON.stringify({ resourceSpans: [], note: "{},".repeat(500_000) })))).toMatchObject({ resourceSpans: [] });
  });

  it("reads the attributes it knows wherever they stand among others (128 of them at most), only those, and the first 1,024 values of a list", () => {
    const noise = Array.from({ length: 300 }, (_, index) => attribute(`gen_ai.prompt.${index}.content`, string("x")));
    const named = (before: number) => request([...baseSpan, ...noise.slice(0, before), attribute("promptly.prompt.name", string("p"))]);
    const received = new Date();
    expect(generationsFromOtlp(decodeOtlpProtobuf(named(127), SPAN_ATTRIBUTES_READ), received)).toMatchObject({ generations: [{ promptName: "p" }], dropped: 0 });
    // A span sent with a higher attribute limit (a long chat's flattened messages): its prompt is still read.
    expect(generationsFromOtlp(decodeOtlpProtobuf(named(300), SPAN_ATTRIBUTES_READ), received)).toMatchObject({ generations: [{ promptName: "p" }], dropped: 0 });
    // At most 128 attributes kept, of those read.
    const repeated = request([...baseSpan, ...Array.from({ length: 128 }, () => attribute("user.id", string("u"))), attribute("promptly.prompt.name", string("p"))]);
    expect(generationsFromOtlp(decodeOtlpProtobuf(repeated, SPAN_ATTRIBUTES_READ), received)).toEqual({ generations: [], dropped: 1 });
    // Only the attributes read are decoded (the 127 others are not kept).
    expect(decodeOtlpProtobuf(named(127), SPAN_ATTRIBUTES_READ).resourceSpans![0]!.scopeSpans![0]!.spans![0]!.attributes).toEqual([{ key: "promptly.prompt.name", value: { stringValue: "p" } }]);
    // The same in JSON: a known attribute after 300 others is read; after 128 known ones it is not.
    const json = (keys: string[]) => ({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", startTimeUnixNano: String(start),
      attributes: [...keys.map((key) => ({ key, value: { stringValue: "x" } })), { key: "promptly.prompt.name", value: { stringValue: "p" } }] }] }] }] });
    expect(generationsFromOtlp(otlpRequestOf(json(Array.from({ length: 300 }, (_, index) => `k${index}`))), received).generations).toHaveLength(1);
    expect(generationsFromOtlp(otlpRequestOf(json(Array.from({ length: 128 }, () => "user.id"))), received)).toEqual({ generations: [], dropped: 1 });
    const list = bytesField(5, Buffer.concat(Array.from({ length: 2_000 }, (_, index) => bytesField(1, varintField(3, BigInt(index))))));
    const input = decodeOtlpProtobuf(request([...baseSpan, attribute("langfuse.observation.input", list)]), SPAN_ATTRIBUTES_READ).resourceSpans![0]!.scopeSpans![0]!.spans![0]!.attributes![0]!;
    expect(plainValue(input.value)).toEqual(Array.from({ length: 1_024 }, (_, index) => index));
    expect(plainValue({ arrayValue: { values: Array.from({ length: 2_000 }, (_, index) => ({ intValue: index })) } })).toHaveLength(1_024);
  });
});

describe("generationsFromOtlp", () => {
  const received = new Date("2026-12-05T10:00:00Z");
  // A JSON body as the way in reads it: held to the OTLP shape, then read.
  const fromJson = (body: unknown) => generationsFromOtlp(otlpRequestOf(body), received);
  const span = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    resourceSpans: [{ scopeSpans: [{ spans: [{
      traceId: "0af7651916cd43dd8448eb211c80319c", spanId: "b7ad6b7169203331", startTimeUnixNano: String(start), endTimeUnixNano: String(start + 2_000_000_000n),
      attributes: Object.entries(attributes).map(([key, value]) => ({ key, value: typeof value === "number" ? { intValue: value } : { stringValue: String(value) } })),
      ...extra,
    }] }] }],
  });

  it("reads Langfuse's attributes first, the GenAI conventions after, and drops a span naming no prompt", () => {
    const { generations, dropped } = fromJson(
      span({
        "langfuse.observation.prompt.name": "support/reply", "langfuse.observation.prompt.version": 3, "gen_ai.request.model": "gpt-4o-mini",
        "langfuse.observation.usage_details": '{"input":10,"output":5,"total":15}', "gen_ai.usage.input_tokens": 99,
        "langfuse.observation.cost_details": '{"input":0.001,"output":0.002}', "langfuse.observation.completion_start_time": '"2026-12-05T10:00:00.250Z"',
        "langfuse.observation.level": "ERROR", "langfuse.observation.status_message": "boom", "langfuse.environment": "staging", "user.id": "u", "session.id": "s",
      }),
    );
    expect(dropped).toBe(0);
    expect(generations[0]).toMatchObject({
      observationId: "b7ad6b7169203331", promptName: "support/reply", version: 3, model: "gpt-4o-mini", inputTokens: 10, outputTokens: 5, status: "error",
      errorMessage: "boom", environment: "staging", userRef: "u", sessionRef: "s", completionStartAt: new Date("2026-12-05T10:00:00.250Z"),
    });
    expect(generations[0]!.cost).toBeCloseTo(0.003, 12);
    expect(generations[0]!.endedAt!.getTime() - generations[0]!.startedAt!.getTime()).toBe(2000);
    expect(fromJson(span({ "http.method": "GET" }))).toEqual({ generations: [], dropped: 1 });
    // The span's error status counts when no level is said.
    expect(fromJson(span({ "promptly.prompt.name": "p" }, { status: { code: 2, message: "down" } })).generations[0]).toMatchObject({ status: "error", errorMessage: "down", version: null });
  });

  it("refuses ids that are not hex, a span with no start, and what is not a request", () => {
    const bad = span({ "promptly.prompt.name": "p" });
    bad.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.traceId = "zz";
    expect(() => fromJson(bad)).toThrow(/traceId/);
    const noStart = span({ "promptly.prompt.name": "p" });
    noStart.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.startTimeUnixNano = "0";
    expect(() => fromJson(noStart)).toThrow(DomainError);
    expect(() => fromJson({ resourceSpans: "x" })).toThrow(DomainError);
  });

  it("holds a JSON body to the OTLP shape: what is not a list or an object where one goes is refused whole with the SDKs' 400", () => {
    const refused = (body: unknown) => {
      try {
        fromJson(body);
      } catch (error) {
        return error instanceof DomainError && error.code === "INVALID" && error.message === INGEST_MSG.notOtlp;
      }
      return false;
    };
    const named = () => span({ "promptly.prompt.name": "p" });
    const withSpan = (change: (spanRow: Record<string, unknown>) => void) => {
      const body = named();
      change(body.resourceSpans[0]!.scopeSpans[0]!.spans[0]! as unknown as Record<string, unknown>);
      return body;
    };
    for (const body of [
      null, "x", 5,
      { resourceSpans: [{ scopeSpans: "x" }] },
      { resourceSpans: [{ scopeSpans: [{ spans: {} }] }] },
      { resourceSpans: [{ scopeSpans: [{ spans: [null] }] }] },
      { resourceSpans: [{ resource: { attributes: {} } }] },
      withSpan((row) => (row["attributes"] = "a=b")),
      // An attribute's value that is not an AnyValue object (it used to fail the request with a 500).
      withSpan((row) => (row["attributes"] = [{ key: "promptly.prompt.name", value: "p" }])),
      withSpan((row) => (row["status"] = "error")),
    ]) expect(refused(body), JSON.stringify(body)).toBe(true);
  });

  it("reads an attribute's JSON value of the wrong type as no value, never failing: a list that is not one, an entry that is not a KeyValue, a string that is not one", () => {
    for (const value of [{ arrayValue: null }, { arrayValue: { values: "x" } }, { kvlistValue: null }, { kvlistValue: { values: 5 } }]) {
      expect(plainValue(value as never), JSON.stringify(value)).toEqual("arrayValue" in value ? [] : {});
    }
    expect(plainValue({ kvlistValue: { values: [null, 5, { key: 7 }, { key: "k", value: { stringValue: "v" } }] } } as never)).toEqual({ k: "v" });
    expect(plainValue({ arrayValue: { values: [null, 5, { stringValue: "v" }] } } as never)).toEqual([undefined, undefined, "v"]);
    for (const value of [{ stringValue: [[1]] }, { stringValue: 5 }, { boolValue: "yes" }, { intValue: {} }, { doubleValue: [] }, { bytesValue: 1 }]) {
      expect(plainValue(value as never), JSON.stringify(value)).toBeUndefined();
    }
    const body = span({ "promptly.prompt.name": "p" });
    body.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push(
      { key: "langfuse.observation.input", value: { kvlistValue: { values: [null] } } } as never, { key: "langfuse.observation.output", value: { arrayValue: null } } as never,
    );
    expect(fromJson(body).generations[0]).toMatchObject({ promptName: "p", input: {}, output: [] });
  });

  it("accepts what exporters send: fields left out or null, unknown fields, a named status code, nothing at all", () => {
    const body = span({ "promptly.prompt.name": "p" }, { droppedAttributesCount: 0, events: [], links: null, status: { code: "STATUS_CODE_UNSET" }, parentSpanId: null });
    expect(fromJson({ ...body, extra: true }).generations).toHaveLength(1);
    expect(fromJson({ resourceSpans: [{ resource: null, scopeSpans: [{ scope: { name: "x" }, spans: null }] }, null] })).toEqual({ generations: [], dropped: 0 });
    expect(fromJson({})).toEqual({ generations: [], dropped: 0 });
    expect(fromJson([])).toEqual({ generations: [], dropped: 0 });
    // An attribute without a key, or with no value, is skipped.
    const loose = span({ "promptly.prompt.name": "p" });
    loose.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push({ key: 7 } as never, { key: "empty" } as never);
    expect(fromJson(loose).generations).toHaveLength(1);
  });
});
