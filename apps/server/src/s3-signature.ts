// AWS Signature Version 4 as S3 checks it, for the embedded S3 server: s3rver serves anonymous
// requests and does not verify V4 signatures at all, so this is checked in front of it.
// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export interface S3Credentials {
  accessKey: string;
  secretKey: string;
}

const ALGORITHM = "AWS4-HMAC-SHA256";
/** How far a header-signed request's time may be from ours, as S3 allows. */
const MAX_SKEW_MS = 15 * 60_000;
/** The longest a presigned URL may live, as S3 allows (a week). */
const MAX_PRESIGNED_SECONDS = 7 * 24 * 60 * 60;

const AUTHORIZATION = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

interface Signed {
  credential: string;
  signedHeaders: string[];
  signature: string;
  amzDate: string;
  payloadHash: string;
}

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters. */
const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest();

/** The query's pairs, decoded; null when its percent-encoding is malformed. */
function queryPairs(query: string): [string, string][] | null {
  try {
    return query
      .split("&")
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf("=");
        return at < 0 ? [decodeURIComponent(pair), ""] : [decodeURIComponent(pair.slice(0, at)), decodeURIComponent(pair.slice(at + 1))];
      });
  } catch {
    return null;
  }
}

function timeOf(amzDate: string): number {
  const m = AMZ_DATE.exec(amzDate);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) : Number.NaN;
}

/**
 * Why `req` is not signed with `credentials`, or null when it is: by its Authorization header or as
 * a presigned URL, for this method, path, query and signed headers. The payload's hash is taken as
 * the client states it (the body is not read here).
 */
export function sigV4Refusal(req: IncomingMessage, credentials: S3Credentials, now = Date.now()): string | null {
  const url = req.url ?? "/";
  const at = url.indexOf("?");
  const rawPath = at < 0 ? url : url.slice(0, at);
  const pairs = queryPairs(at < 0 ? "" : url.slice(at + 1));
  if (!pairs) return "The query string is not valid percent-encoding";
  const query = new Map(pairs);
  const authorization = req.headers.authorization;

  let signed: Signed;
  if (authorization !== undefined && query.has("X-Amz-Signature")) return "Only one authentication mechanism is allowed";
  if (authorization !== undefined) {
    const m = AUTHORIZATION.exec(authorization.trim());
    if (!m) return "The Authorization header is not an AWS Signature Version 4";
    const amzDate = String(req.headers["x-amz-date"] ?? "");
    const payloadHash = req.headers["x-amz-content-sha256"];
    if (typeof payloadHash !== "string") return "The x-amz-content-sha256 header is missing";
    signed = { credential: m[1]!, signedHeaders: m[2]!.split(";"), signature: m[3]!, amzDate, payloadHash };
    const time = timeOf(amzDate);
    if (Number.isNaN(time)) return "The x-amz-date header is missing or malformed";
    if (Math.abs(now - time) > MAX_SKEW_MS) return "The request time is too far from the server's";
  } else if (query.has("X-Amz-Signature")) {
    if (query.get("X-Amz-Algorithm") !== ALGORITHM) return "The presigned URL is not an AWS Signature Version 4";
    const amzDate = query.get("X-Amz-Date") ?? "";
    const expires = Number(query.get("X-Amz-Expires"));
    const signature = query.get("X-Amz-Signature") ?? "";
    if (!/^[0-9a-f]{64}$/.test(signature)) return "The presigned URL's signature is malformed";
    signed = {
      credential: query.get("X-Amz-Credential") ?? "",
      signedHeaders: (query.get("X-Amz-SignedHeaders") ?? "").split(";"),
      signature,
      amzDate,
      payloadHash: "UNSIGNED-PAYLOAD",
    };
    const time = timeOf(amzDate);
    if (Number.isNaN(time)) return "The presigned URL's X-Amz-Date is malformed";
    if (!Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGNED_SECONDS) return "The presigned URL's X-Amz-Expires is out of range";
    if (time - now > MAX_SKEW_MS) return "The presigned URL is not valid yet";
    if (now > time + expires * 1000) return "The presigned URL has expired";
  } else {
    return "The request is not signed";
  }

  const [accessKey, date, region, service, terminator, ...rest] = signed.credential.split("/");
  if (accessKey !== credentials.accessKey) return "The access key is not known";
  if (!region || service !== "s3" || terminator !== "aws4_request" || rest.length > 0 || date !== signed.amzDate.slice(0, 8)) {
    return "The credential scope is malformed";
  }
  if (!signed.signedHeaders.includes("host")) return "The Host header must be signed";
  const headerLines: string[] = [];
  for (const name of signed.signedHeaders) {
    const values = req.headersDistinct[name];
    if (!values) return `The signed header ${name} is missing`;
    headerLines.push(`${name}:${values.map((value) => value.trim().replace(/\s+/g, " ")).join(",")}\n`);
  }

  let canonicalPath: string;
  try {
    canonicalPath = rawPath.split("/").map((segment) => encode(decodeURIComponent(segment))).join("/");
  } catch {
    return "The path is not valid percent-encoding";
  }
  const canonicalQuery = pairs
    .filter(([name]) => authorization !== undefined || name !== "X-Amz-Signature")
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalRequest = [
    req.method ?? "GET", canonicalPath, canonicalQuery, headerLines.join(""), signed.signedHeaders.join(";"), signed.payloadHash,
  ].join("\n");

  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = [ALGORITHM, signed.amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretKey}`, date), region), "s3"), "aws4_request");
  const expected = hmac(key, stringToSign);
  if (!timingSafeEqual(expected, Buffer.from(signed.signature, "hex"))) return "The signature does not match";
  return null;
}
