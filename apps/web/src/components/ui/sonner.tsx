// The toast viewport with the defaults: at most 3 visible, gone after about 4.5 s.
import { Toaster as Sonner, type ToasterProps } from "sonner";
import { TOAST_DURATION_MS, TOAST_LIMIT } from "@promptly/shared";

export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      visibleToasts={TOAST_LIMIT}
      duration={TOAST_DURATION_MS}
      position="bottom-right"
      closeButton
      richColors
      toastOptions={{ classNames: { description: "!text-inherit" } }}
      {...props}
    />
  );
}
