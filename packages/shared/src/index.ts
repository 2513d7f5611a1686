export * from "./constants.ts";
export * from "./messages.ts";
export * from "./validation.ts";
export * from "./permissions.ts";
export * from "./people.ts";
