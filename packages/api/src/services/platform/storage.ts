import { Client } from "minio";
import { AVATAR_BUCKET } from "@promptly/shared";

interface StoredObject {
  body: NodeJS.ReadableStream;
  contentType: string;
  size: number;
  etag: string;
}

export interface Storage {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  remove(key: string): Promise<void>;
  /** Keys under `prefix`, e.g. a user's avatar files. */
  list(prefix: string): Promise<string[]>;
  /** Creates the bucket when it is missing ("create the bucket user-avatars if missing"). */
  ensureBucket(): Promise<void>;
  health(): Promise<void>;
}

export interface S3Config {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket?: string;
}

export function createS3Storage(config: S3Config): Storage {
  const url = new URL(config.endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    useSSL: url.protocol === "https:",
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region,
    pathStyle: true,
  });
  const bucket = config.bucket ?? AVATAR_BUCKET;
  let bucketReady: Promise<void> | null = null;

  const ensureBucket = () => {
    bucketReady ??= (async () => {
      if (!(await client.bucketExists(bucket))) await client.makeBucket(bucket, config.region);
    })().catch((error) => {
      bucketReady = null;
      throw error;
    });
    return bucketReady;
  };

  return {
    ensureBucket,
    async put(key, body, contentType) {
      await ensureBucket();
      await client.putObject(bucket, key, body, body.length, { "Content-Type": contentType });
    },
    async get(key) {
      try {
        const stat = await client.statObject(bucket, key);
        const body = await client.getObject(bucket, key);
        return {
          body,
          size: stat.size,
          etag: stat.etag,
          contentType: String(stat.metaData?.["content-type"] ?? "application/octet-stream"),
        };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "NoSuchKey" || code === "NotFound" || code === "NoSuchBucket") return null;
        throw error;
      }
    },
    async remove(key) {
      await client.removeObject(bucket, key);
    },
    async list(prefix) {
      await ensureBucket();
      const keys: string[] = [];
      for await (const item of client.listObjectsV2(bucket, prefix, true)) if (item.name) keys.push(item.name);
      return keys;
    },
    async health() {
      await client.listBuckets();
    },
  };
}
