// The client's copy of the server's error table (it imports no server code) stays the table itself.
import { describe, expect, it } from "vitest";
import { ERROR_STATUS as SERVER_ERROR_STATUS } from "@promptly/api";
import { ERROR_STATUS } from "./errors.ts";

describe("the client's error statuses", () => {
  it("are the server's, code for code", () => {
    expect(ERROR_STATUS).toEqual(SERVER_ERROR_STATUS);
  });
});
