// Where focus goes back when a dialog closes: to what opened it. Radix does this itself,
// unless the opener was an entry of a menu or a popover that is gone by then; focus then fell to
// <body>. This remembers, as the dialog opens, the opener or, for such an entry, the button of its
// menu (the one control whose popup is open), and focuses it when the dialog closes.
import { useRef } from "react";

const POPUP = "[role=menu], [role=listbox], [data-radix-popper-content-wrapper]";

/**
 * The last control outside any popup that opens one (a menu button, a switcher), as it is pressed or
 * focused: Radix menu buttons keep focus from moving to them on press, so focus alone would miss them.
 */
let lastPopupOpener: HTMLElement | null = null;
const notePopupOpener = (event: Event) => {
  const opener = event.target instanceof Element ? event.target.closest<HTMLElement>('[aria-haspopup], [role="combobox"]') : null;
  if (opener && !opener.closest(POPUP)) lastPopupOpener = opener;
};
document.addEventListener("focusin", notePopupOpener, true);
document.addEventListener("pointerdown", notePopupOpener, true);

function openerOf(active: Element | null): HTMLElement | null {
  if (active instanceof HTMLElement && active !== document.body && !active.closest(POPUP)) return active;
  // The entry that opened the dialog is in a popup, or already gone with it: its popup's button.
  return lastPopupOpener?.isConnected ? lastPopupOpener : null;
}

/** Handlers for a Radix dialog's content: `onOpenAutoFocus` notes the opener, `onCloseAutoFocus` returns to it. */
export function useReturnFocus(props: { onOpenAutoFocus?: (event: Event) => void; onCloseAutoFocus?: (event: Event) => void }) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus(event: Event) {
      opener.current = openerOf(document.activeElement);
      props.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus(event: Event) {
      props.onCloseAutoFocus?.(event);
      if (event.defaultPrevented) return;
      const target = opener.current;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
