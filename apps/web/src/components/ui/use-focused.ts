import { useState, type FocusEvent } from "react";

/**
 * Whether a control has focus, with the focus and blur handlers that track it (each calling the
 * control's own). A control disabled while focused uses it to only say it is disabled: a native
 * `disabled` would drop focus to the page's body.
 */
export function useFocused<E extends Element>(onFocus?: (event: FocusEvent<E>) => void, onBlur?: (event: FocusEvent<E>) => void) {
  const [focused, setFocused] = useState(false);
  const handlers = {
    onFocus: (event: FocusEvent<E>) => {
      setFocused(true);
      onFocus?.(event);
    },
    onBlur: (event: FocusEvent<E>) => {
      setFocused(false);
      onBlur?.(event);
    },
  };
  return { focused, handlers };
}
