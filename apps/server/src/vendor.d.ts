declare module "s3rver" {
  interface S3rverOptions {
    address?: string;
    port?: number;
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: Buffer[] }[];
  }
  /** The part of Koa's context a middleware in front of s3rver's own uses. */
  interface S3rverContext {
    req: import("node:http").IncomingMessage;
    status: number;
    type: string;
    body: unknown;
  }
  export default class S3rver {
    constructor(options?: S3rverOptions);
    /** Koa's middleware list (s3rver is a Koa application), composed when the server starts. */
    middleware: ((ctx: S3rverContext, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
