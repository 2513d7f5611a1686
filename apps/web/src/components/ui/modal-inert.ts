// While a modal popup is open (dialog, sheet, menu, select), Radix hides the rest of the page from
// screen readers with aria-hidden and marks what it hid with data-aria-hidden. It also keeps focus and
// the pointer out of it, yet those elements stay focusable as far as the browser knows, which axe reports
// as aria-hidden-focus for menus and selects (it only trusts role=dialog to trap focus). Making the same
// elements inert states what is true: nothing there can be reached until the popup closes. Radix takes
// the mark off as the popup closes, a task before it returns focus, so the opener is focusable again.
// Imported for its effect by the primitives that hide the page.
const MARK = "data-aria-hidden";
const madeInert = new WeakSet<HTMLElement>();

function follow(element: Node) {
  // Focus guards (Radix's edges of the document) must stay focusable for the focus trap to work.
  if (!(element instanceof HTMLElement) || element.hasAttribute("data-radix-focus-guard")) return;
  if (element.getAttribute(MARK) === "true") {
    if (element.inert) return;
    element.inert = true;
    madeInert.add(element);
  } else if (madeInert.has(element)) {
    element.inert = false;
    madeInert.delete(element);
  }
}

new MutationObserver((records) => records.forEach((record) => follow(record.target))).observe(document.body, {
  subtree: true,
  attributes: true,
  attributeFilter: [MARK],
});
