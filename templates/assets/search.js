// Site search: Pagefind's UI (pagefind/pagefind-ui.js, made by the build with the index) in
// the header's box, which stays hidden without JavaScript, without the UI's script, and on a
// page opened from a file (the index is fetched, which a file:// page cannot do). The bundle and
// the site's root are found from the page's own relative links, so the search works under any
// path the site is served at.
(function () {
  function start() {
    var box = document.getElementById("site-search");
    if (!box || typeof window.PagefindUI !== "function" || location.protocol === "file:") return;
    var root = new URL(box.getAttribute("data-root"), document.baseURI).pathname;
    var bundle = new URL(box.getAttribute("data-bundle"), document.baseURI).pathname;
    new window.PagefindUI({
      element: box,
      bundlePath: bundle,
      baseUrl: root,
      showImages: false,
      showSubResults: false
    });
    // Pagefind names its field by a title alone (a tooltip): give it a name of its own
    var input = box.querySelector("input");
    if (input) input.setAttribute("aria-label", "Search this site");
    box.hidden = false;
    // Escape empties the field, which closes the results
    box.addEventListener("keydown", function (event) {
      var field = box.querySelector("input");
      if (event.key !== "Escape" || !field || !field.value) return;
      field.value = "";
      field.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
