// The embedded mail catcher holds every reset, magic-link and confirmation token: it answers its own
// page only, on loopback only. No other web origin may read it (CORS, a rebound host name, a
// WebSocket opened by a foreign page), and it carries the app's security headers.
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { describe, expect, inject, it } from "vitest";

const mailbox = new URL(inject("mailboxUrl"));
const port = Number(mailbox.port);

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so Host and Origin can be anything (fetch sets Host from the URL and no Origin). */
function raw(options: { method?: string; path: string; host?: string; headers?: Record<string, string> }) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path,
        headers: { host: options.host ?? mailbox.host, ...options.headers },
      },
      (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    // A WebSocket handshake the server accepts: the test sees 101 and closes the socket.
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
    });
    req.on("error", reject);
    req.end();
  });
}

const corsHeaders = (headers: RawAnswer["headers"]) => Object.keys(headers).filter((name) => name.startsWith("access-control-"));

describe("the mail catcher answers its own page only", () => {
  it("its own page and REST API still work, with the app's security headers and no CORS", async () => {
    for (const path of ["/", "/email"]) {
      const answer = await raw({ path });
      expect(answer.status, path).toBe(200);
      expect(corsHeaders(answer.headers), path).toEqual([]);
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(answer.headers["cross-origin-opener-policy"]).toBe("same-origin");
      // Its page frames each mail's HTML itself; nobody else may frame it.
      expect(answer.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(answer.headers["content-security-policy"]).toContain("frame-ancestors 'self'");
    }
    const listed = await fetch(`${mailbox.origin}/email`);
    expect(Array.isArray(await listed.json())).toBe(true);
  });

  it("a request from another web origin gets no Access-Control-Allow-Origin and no mail", async () => {
    const answer = await raw({ path: "/email", headers: { origin: "https://evil.example" } });
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(corsHeaders(answer.headers)).toEqual([]);
    expect(answer.status).toBe(403);
    expect(answer.body).not.toMatch(/\[|token/);
  });

  it("a CORS preflight is not granted", async () => {
    const answer = await raw({
      method: "OPTIONS",
      path: "/email/all",
      headers: { origin: "https://evil.example", "access-control-request-method": "DELETE" },
    });
    expect(corsHeaders(answer.headers)).toEqual([]);
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  it("a foreign Host (a DNS-rebinding page) is refused", async () => {
    for (const host of ["evil.example", `evil.example:${port}`]) {
      const answer = await raw({ path: "/email", host });
      expect(answer.status, host).toBe(421);
      expect(answer.body).not.toMatch(/\[/);
    }
  });

  it("the live feed of new mail (a WebSocket, which CORS does not cover) opens for its own page only", async () => {
    const handshake = (headers: Record<string, string>) =>
      raw({
        path: "/socket.io/?EIO=4&transport=websocket",
        headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", ...headers },
      });
    expect((await handshake({ origin: mailbox.origin })).status).toBe(101);
    expect((await handshake({ origin: "https://evil.example" })).status).toBe(403);
    expect((await handshake({ origin: "https://evil.example", host: "evil.example" })).status).toBe(403);
  });

  it("listens on 127.0.0.1 only: not on ::1 nor on the machine's network addresses", async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal)
      .map((address) => address!.address);
    for (const host of ["::1", ...others]) {
      const outcome = await new Promise<string>((resolve) => {
        const socket = connect({ host, port, timeout: 2000 }, () => {
          socket.destroy();
          resolve("connected");
        });
        socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
        socket.on("timeout", () => {
          socket.destroy();
          resolve("timeout");
        });
      });
      expect(outcome, host).not.toBe("connected");
    }
  });
});
