import { describe, expect, it } from "vitest";
import { MSG } from "./messages.ts";
import { detectImageFormat, normalizeRecoveryCode, recoveryCodeInput, twoFactorCodeInput, updateProfileWithAvatarInput } from "./settings.ts";

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("detectImageFormat (leading bytes only)", () => {
  it.each([
    [bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0), "png"],
    [bytes(0xff, 0xd8, 0xff, 0xe0), "jpeg"],
    [bytes("GIF89a", 1, 0), "gif"],
    [bytes("GIF87a"), "gif"],
    [bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "), "webp"],
    [bytes("RIFF", 0, 0, 0, 0, "WAVEfmt "), null],
    [bytes('<svg xmlns="http://www.w3.org/2000/svg">'), null],
    [bytes('<?xml version="1.0"?><svg>'), null],
    [bytes("This is a text file"), null],
    [bytes(0x89, "PNG"), null],
    [bytes(), null],
  ])("%s -> %s", (input, expected) => {
    expect(detectImageFormat(input)).toBe(expected);
  });
});

describe("two-factor code input (exactly 6 characters)", () => {
  it.each([
    ["123456", true],
    [" 123456 ", true],
    ["12345", false],
    ["1234567", false],
    ["12a456", false],
    ["", false],
  ])("%j valid: %s", (code, valid) => {
    const result = twoFactorCodeInput.safeParse({ code });
    expect(result.success).toBe(valid);
    if (!result.success) expect(result.error.issues[0]!.message).toBe(MSG.enterSixDigitCode);
  });
});

describe("recovery codes", () => {
  it.each([
    ["abcde-fghij", "abcdefghij"],
    [" ABCDE FGHIJ ", "abcdefghij"],
    ["abcdefghij", "abcdefghij"],
  ])("%j normalises to %j", (input, expected) => {
    expect(normalizeRecoveryCode(recoveryCodeInput.parse({ code: input }).code)).toBe(expected);
  });
});

describe("profile update input", () => {
  it("takes an optional avatar and refuses one over 2 MB by its base64 length", () => {
    expect(updateProfileWithAvatarInput.safeParse({ fullName: "A", username: "a" }).success).toBe(true);
    const big = { fileName: "a.png", contentType: "image/png", dataBase64: "A".repeat(2_796_205) };
    const result = updateProfileWithAvatarInput.safeParse({ fullName: "A", username: "a", avatar: big });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe("The avatar must be 2 MB or smaller.");
  });
});
