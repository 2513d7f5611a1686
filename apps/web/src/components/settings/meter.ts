// Tailwind classes of the meter colours.
import type { MeterColor } from "@promptly/shared";

export const METER_CLASSES: Record<MeterColor, string> = {
  red: "bg-red-500",
  yellow: "bg-yellow-500",
  blue: "bg-blue-500",
  green: "bg-green-500",
};
