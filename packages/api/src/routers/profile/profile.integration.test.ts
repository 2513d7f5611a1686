// Profile settings against the real database and the real S3 server: names, unique usernames,
// avatar checks and notification preferences.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AVATAR_MAX_BYTES, NOTIFICATION_DEFAULTS, SETTINGS_MSG } from "@promptly/shared";
import { createHarness, type Harness } from "../../../testing/harness.ts";
import { createAccountWithPassword, outcome, signedIn } from "../../../testing/security-support.ts";

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const image = (format: "png" | "jpeg" | "gif" | "webp", width = 32, height = 32) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();
const upload = (bytes: Buffer, fileName = "avatar.png", contentType = "image/png") => ({
  fileName,
  contentType,
  dataBase64: bytes.toString("base64"),
});
const storedKey = async (userId: string) =>
  (await h.database.db.profile.findUniqueOrThrow({ where: { userId }, select: { avatarKey: true } })).avatarKey;

describe("profile.get / profile.update", () => {
  it("reads and saves full name and username; the email is read-only", async () => {
    const account = await createAccountWithPassword(h, { fullName: "Ada" });
    const { api } = await signedIn(h, account);
    expect(await api.profile.get()).toEqual({ email: account.email, fullName: "Ada", username: null, avatarUrl: null });
    const saved = await api.profile.update({ fullName: "  Ada Lovelace ", username: "ada", email: "x@evil.test" } as never);
    expect(saved).toEqual({ email: account.email, fullName: "Ada Lovelace", username: "ada", avatarUrl: null });
    expect((await h.database.db.user.findUniqueOrThrow({ where: { id: account.id } })).email).toBe(account.email);
    // Empty fields clear the values.
    expect(await api.profile.update({ fullName: "", username: "" })).toMatchObject({ fullName: null, username: null });
  });

  it("refuses a username someone else has, with a clear message, changing nothing", async () => {
    const [first, second] = [await createAccountWithPassword(h), await createAccountWithPassword(h, { fullName: "Second" })];
    await (await signedIn(h, first)).api.profile.update({ fullName: "First", username: "taken-name" });
    const { api } = await signedIn(h, second);
    expect(await outcome(api.profile.update({ fullName: "Changed", username: "taken-name" }))).toEqual({
      code: "CONFLICT",
      message: SETTINGS_MSG.usernameTaken,
    });
    expect(await api.profile.get()).toMatchObject({ fullName: "Second", username: null });
    // Keeping one's own username is not a conflict.
    expect(await (await signedIn(h, first)).api.profile.update({ fullName: "First", username: "taken-name" })).toMatchObject({ username: "taken-name" });
  });

  it.each([
    ["username with a space", { fullName: "A", username: "a b" }, "Username can only contain letters, numbers, dots, hyphens and underscores"],
    ["full name over 100 characters", { fullName: "x".repeat(101), username: "" }, "Full name cannot exceed 100 characters"],
  ])("refuses a %s", async (_, input, message) => {
    const { api } = await signedIn(h, await createAccountWithPassword(h));
    expect(await outcome(api.profile.update(input))).toEqual({ code: "BAD_REQUEST", message });
  });

  it("needs a fully signed-in session", async () => {
    expect((await outcome(h.client().api.profile.get())).code).toBe("UNAUTHORIZED");
    const pending = await signedIn(h, await createAccountWithPassword(h), { twoFactorVerified: false });
    expect((await outcome(pending.api.profile.update({ fullName: "x", username: "" }))).code).toBe("UNAUTHORIZED");
  });
});

describe("avatar upload (real S3 server)", () => {
  it.each(["png", "jpeg", "gif", "webp"] as const)("accepts a %s, re-encodes it and stores it under avatars/{userId}-{timestamp}", async (format) => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const saved = await api.profile.update({ fullName: "A", username: "", avatar: upload(await image(format), `me.${format}`, `image/${format}`) });
    const ext = format === "jpeg" ? "jpg" : format;
    expect(saved.avatarUrl).toMatch(new RegExp(`^/avatars/${account.id}-\\d{13}\\.${ext}$`));
    const key = (await storedKey(account.id))!;
    expect(saved.avatarUrl).toBe(`/${key}`);
    const object = (await h.services.storage.get(key))!;
    expect(object.contentType).toBe(`image/${format}`);
    const chunks: Buffer[] = [];
    for await (const chunk of object.body as AsyncIterable<Buffer>) chunks.push(chunk);
    expect((await sharp(Buffer.concat(chunks)).metadata()).format).toBe(format);
  });

  it("strips metadata such as EXIF and GPS when re-encoding", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    const withExif = await sharp(await image("jpeg"))
      .withExif({ IFD0: { Copyright: "secret-owner", Make: "Camera" }, IFD3: { GPSLatitudeRef: "N" } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    await api.profile.update({ fullName: "A", username: "", avatar: upload(withExif, "photo.jpg", "image/jpeg") });
    const object = (await h.services.storage.get((await storedKey(account.id))!))!;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body as AsyncIterable<Buffer>) chunks.push(chunk);
    const stored = Buffer.concat(chunks);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes("secret-owner")).toBe(false);
  });

  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
  const cases: [string, () => Promise<ReturnType<typeof upload>>, string][] = [
    ["a text file renamed .png", async () => upload(Buffer.from("just some text, not an image\n"), "notes.png", "image/png"), SETTINGS_MSG.avatarType],
    ["an SVG image", async () => upload(svg, "icon.svg", "image/svg+xml"), SETTINGS_MSG.avatarType],
    ["an SVG renamed .png", async () => upload(svg, "icon.png", "image/png"), SETTINGS_MSG.avatarType],
    ["a truncated PNG", async () => upload((await image("png")).subarray(0, 40), "cut.png"), SETTINGS_MSG.avatarUnreadable],
    ["a file just over 2 MB", async () => {
      const png = await image("png");
      return upload(Buffer.concat([png, Buffer.alloc(AVATAR_MAX_BYTES + 1 - png.length)]), "big.png");
    }, SETTINGS_MSG.avatarTooLarge],
    ["a 3 MB file", async () => upload(Buffer.alloc(3 * 1024 * 1024, 1), "huge.png"), SETTINGS_MSG.avatarTooLarge],
    ["an image wider than 4096 px", async () => upload(await image("png", 4097, 1), "wide.png"), SETTINGS_MSG.avatarTooManyPixels],
    ["an image taller than 4096 px", async () => upload(await image("png", 1, 4097), "tall.png"), SETTINGS_MSG.avatarTooManyPixels],
  ];

  it.each(cases)("refuses %s with a clear message and keeps the old avatar and profile", async (_, make, message) => {
    const account = await createAccountWithPassword(h, { fullName: "Before" });
    const { api } = await signedIn(h, account);
    const first = await api.profile.update({ fullName: "Before", username: "", avatar: upload(await image("png")) });
    const result = await outcome(api.profile.update({ fullName: "After", username: "", avatar: await make() }));
    expect(result).toEqual({ code: "BAD_REQUEST", message });
    expect(await api.profile.get()).toEqual(first);
    expect(await h.services.storage.get((await storedKey(account.id))!)).not.toBeNull();
  });

  it("removes the replaced avatar file after a new one is saved", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    await api.profile.update({ fullName: "A", username: "", avatar: upload(await image("png")) });
    const oldKey = (await storedKey(account.id))!;
    h.clock.advance(1000);
    await api.profile.update({ fullName: "A", username: "", avatar: upload(await image("webp"), "b.webp", "image/webp") });
    const newKey = (await storedKey(account.id))!;
    expect(newKey).not.toBe(oldKey);
    expect(await h.services.storage.list(`avatars/${account.id}-`)).toEqual([newKey]);
  });

  it("keeps the old avatar and removes the new file when the username conflicts", async () => {
    const holder = await createAccountWithPassword(h);
    await (await signedIn(h, holder)).api.profile.update({ fullName: "H", username: "holder-name" });
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    await api.profile.update({ fullName: "A", username: "", avatar: upload(await image("png")) });
    const before = await storedKey(account.id);
    expect((await outcome(api.profile.update({ fullName: "A", username: "holder-name", avatar: upload(await image("gif"), "x.gif") }))).code).toBe("CONFLICT");
    expect(await storedKey(account.id)).toBe(before);
    // The file stored for the refused change is gone again: only the old avatar is left.
    expect(await h.services.storage.list(`avatars/${account.id}-`)).toEqual([before]);
  });
});

describe("notification preferences", () => {
  it("starts from the spec defaults and stores changes on the server", async () => {
    const account = await createAccountWithPassword(h);
    const { api } = await signedIn(h, account);
    expect(await api.profile.notificationPreferences()).toEqual(NOTIFICATION_DEFAULTS);
    expect(NOTIFICATION_DEFAULTS).toEqual({ emailNotifications: true, pushNotifications: false, inAppNotifications: true, marketingEmails: false });
    const changed = { emailNotifications: false, pushNotifications: true, inAppNotifications: false, marketingEmails: true };
    expect(await api.profile.updateNotificationPreferences(changed)).toEqual(changed);
    // Another browser of the same user sees them.
    expect(await (await signedIn(h, account)).api.profile.notificationPreferences()).toEqual(changed);
    // Other users keep their own.
    expect(await (await signedIn(h, await createAccountWithPassword(h))).api.profile.notificationPreferences()).toEqual(NOTIFICATION_DEFAULTS);
  });
});
