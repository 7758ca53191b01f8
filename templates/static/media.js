// Roost: never the browser's broken-image sign (SPEC 9). An image that fails to load (a host
// gone, an expired link, a file missing from a copied site) shows the theme's placeholder
// instead. "error" does not bubble, so this listens on the document in the capture phase;
// it is loaded in the <head> without defer so it is listening before any image can fail.
// No inline handlers: the pages' CSP forbids them.
(function () {
  "use strict";
  document.addEventListener("error", function (event) {
    var img = event.target;
    if (!img || img.tagName !== "IMG" || img.hasAttribute("data-placeholder")) return;
    img.setAttribute("data-placeholder", "");   // once: a missing placeholder is not retried
    img.removeAttribute("srcset");
    img.src = /(^|\s)avatar(\s|$)/.test(img.className) ? "static/avatar.svg" : "static/picture.svg";
  }, true);
})();
