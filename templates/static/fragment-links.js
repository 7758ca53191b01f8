// Roost: links to a part of the same page ("#main", the favorites map's numbered points).
// Every page has <base href> (so the site works from file:// and under any sub-path), which
// makes a plain "#main" point at the site's root, and "u/mina/favorites/index.html#place-2"
// reload the page when it was opened at its folder's URL. Such links scroll to and focus
// their target here instead, and the address keeps the page's own URL.
(function () {
  "use strict";
  function samePage(link) {
    // (An SVG link's href is an object, not its text: read the attribute.)
    var url = new URL(link.getAttribute("href"), document.baseURI);
    if (!url.hash) return null;
    var here = new URL(window.location.href);
    var strip = function (path) { return path.replace(/index\.html$/, ""); };
    var fragmentOnly = link.getAttribute("href").charAt(0) === "#";
    if (!fragmentOnly && strip(url.pathname) !== strip(here.pathname)) return null;
    return document.getElementById(decodeURIComponent(url.hash.slice(1)));
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest ? event.target.closest("a[href]") : null;
    if (!link) return;
    var target = samePage(link);
    if (!target) return;
    event.preventDefault();
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus();
    target.scrollIntoView({ block: "start" });
    if (window.history && window.history.replaceState) {
      // The page's own address (a bare "#id" would resolve against <base>).
      var here = window.location.href.split("#")[0];
      try { window.history.replaceState(null, "", here + "#" + target.id); } catch (e) { /* file:// may refuse */ }
    }
  });
})();
