// The outbound address rule on IP literals (providers' base URLs and webhooks' URLs alike): every way of
// writing an inside address is refused, a public one is not.
import { describe, expect, it } from "vitest";
import { outboundAllowed } from "./outbound.ts";

describe("the outbound address rule", () => {
  it.each([
    ["loopback", "127.0.0.1"],
    ["a private network", "10.1.2.3"],
    ["link-local (cloud metadata)", "169.254.169.254"],
    ["IPv6 loopback", "[::1]"],
    ["IPv6 unspecified", "[::]"],
    ["IPv4-mapped loopback", "[::ffff:127.0.0.1]"],
    ["IPv4-compatible loopback", "[::127.0.0.1]"],
    ["IPv4-compatible loopback, hexadecimal", "[::7f00:1]"],
    ["IPv4-compatible metadata address", "[::169.254.169.254]"],
    ["IPv4-compatible public address (a deprecated form, never routed)", "[::8.8.8.8]"],
    ["IPv4-translated loopback", "[::ffff:0:127.0.0.1]"],
    ["IPv4-translated loopback, hexadecimal", "[::ffff:0:7f00:1]"],
    ["IPv4-translated private network", "[0:0:0:0:ffff:0:a01:203]"],
    ["IPv4-translated public address (never routed on the internet)", "[::ffff:0:8.8.8.8]"],
    ["NAT64 to a private network", "[64:ff9b::10.0.0.1]"],
    ["6to4 to a private network", "[2002:c0a8:1::1]"],
    ["IPv6 site-local (deprecated, still routed inside some networks)", "[fec0::1]"],
    ["IPv6 site-local, its last block", "[feff:ffff::1]"],
    ["IPv6 discard-only", "[100::1]"],
  ])("refuses %s (%s)", async (_, host) => {
    expect(await outboundAllowed(`http://${host}:8080/v1`, false)).toBe(false);
    expect(await outboundAllowed(`http://${host}:8080/v1`, true)).toBe(true);
  });

  it.each([
    ["a public IPv4 address", "8.8.8.8"],
    ["a public IPv6 address", "[2606:4700:4700::1111]"],
    ["an IPv4-mapped public address", "[::ffff:8.8.8.8]"],
    ["NAT64 to a public address", "[64:ff9b::8.8.8.8]"],
  ])("accepts %s (%s)", async (_, host) => {
    expect(await outboundAllowed(`http://${host}/v1`, false)).toBe(true);
  });
});
