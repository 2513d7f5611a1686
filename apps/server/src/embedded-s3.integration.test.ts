// The embedded S3 server listens on loopback, where any local process (or a web page's no-cors
// request) can reach it: it serves only requests signed with its credentials (AWS Signature V4, in
// the Authorization header or a presigned URL).
import { randomUUID } from "node:crypto";
import { Client } from "minio";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createS3Storage } from "@promptly/api/testing";

const s3 = inject("s3");
const endpoint = new URL(s3.endpoint);
const bucket = `signed-${randomUUID().slice(0, 8)}`;
const key = "avatars/someone.png";

const clientWith = (secretKey: string, accessKey = s3.accessKey) =>
  new Client({ endPoint: endpoint.hostname, port: Number(endpoint.port), useSSL: false, accessKey, secretKey, region: "us-east-1", pathStyle: true });

const storage = createS3Storage({ ...s3, region: "us-east-1", bucket });

beforeAll(async () => {
  await storage.put(key, Buffer.from("the original"), "image/png");
});

const read = async (stream: NodeJS.ReadableStream) => {
  let text = "";
  for await (const chunk of stream) text += chunk;
  return text;
};

describe("the embedded S3 server serves signed requests only", () => {
  it("the app's client (its access key and secret) stores, reads, lists and removes", async () => {
    const object = await storage.get(key);
    expect(object && (await read(object.body))).toBe("the original");
    expect(await storage.list("avatars/")).toEqual([key]);
    await storage.put("avatars/other.png", Buffer.from("x"), "image/png");
    await storage.remove("avatars/other.png");
    expect(await storage.get("avatars/other.png")).toBeNull();
    await expect(storage.health()).resolves.toBeUndefined();
    // Names whose path encoding SigV4 normalises: spaces, reserved and non-ASCII characters.
    const odd = "avatars/an odd (name)+ü~*!.png";
    await storage.put(odd, Buffer.from("odd"), "image/png");
    const stored = await storage.get(odd);
    expect(stored && (await read(stored.body))).toBe("odd");
    await storage.remove(odd);
  });

  it("an unsigned GET of an object, of the bucket list and of the service: 403", async () => {
    for (const path of [`/${bucket}/${key}`, `/${bucket}`, "/"]) {
      const response = await fetch(`${s3.endpoint}${path}`);
      expect(response.status, path).toBe(403);
      expect(await response.text(), path).not.toContain("the original");
    }
  });

  it("an unsigned PUT or DELETE: 403, and the object is unchanged", async () => {
    const put = await fetch(`${s3.endpoint}/${bucket}/${key}`, { method: "PUT", body: "replaced", headers: { "content-type": "image/png" } });
    expect(put.status).toBe(403);
    const created = await fetch(`${s3.endpoint}/${bucket}/avatars/planted.png`, { method: "PUT", body: "planted" });
    expect(created.status).toBe(403);
    const removed = await fetch(`${s3.endpoint}/${bucket}/${key}`, { method: "DELETE" });
    expect(removed.status).toBe(403);
    const object = await storage.get(key);
    expect(object && (await read(object.body))).toBe("the original");
    expect(await storage.get("avatars/planted.png")).toBeNull();
  });

  it("a client with a wrong secret (the library's well-known default among them) or another access key is refused", async () => {
    for (const client of [clientWith("S3RVER"), clientWith(`${s3.secretKey}x`), clientWith(s3.secretKey, "SOMEONE")]) {
      await expect(client.getObject(bucket, key)).rejects.toMatchObject({ code: expect.stringMatching(/AccessDenied|SignatureDoesNotMatch|InvalidAccessKeyId/) });
      await expect(client.putObject(bucket, key, Buffer.from("replaced"))).rejects.toThrow();
      await expect(client.listBuckets()).rejects.toThrow();
    }
    const object = await storage.get(key);
    expect(object && (await read(object.body))).toBe("the original");
  });

  it("a presigned GET URL works; altered, for another object, or signed with a wrong secret, it is refused", async () => {
    const url = await clientWith(s3.secretKey).presignedGetObject(bucket, key, 60);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("the original");

    const otherObject = url.replace(`/${key}?`, "/avatars/another.png?");
    const longer = url.replace(/X-Amz-Expires=\d+/, "X-Amz-Expires=600000");
    const forged = await clientWith("S3RVER").presignedGetObject(bucket, key, 60);
    for (const altered of [otherObject, longer, forged]) expect((await fetch(altered)).status, altered).toBe(403);
  });

  it("a presigned PUT URL works for its object only", async () => {
    const url = await clientWith(s3.secretKey).presignedPutObject(bucket, "avatars/uploaded.png", 60);
    expect((await fetch(url, { method: "PUT", body: "uploaded" })).status).toBe(200);
    const object = await storage.get("avatars/uploaded.png");
    expect(object && (await read(object.body))).toBe("uploaded");
    expect((await fetch(url.replace("uploaded.png?", "elsewhere.png?"), { method: "PUT", body: "x" })).status).toBe(403);
  });
});
