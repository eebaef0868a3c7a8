// Dark mode: follows the system until the reader picks a mode with the header's button; the
// pick is remembered (localStorage) and applied before the page paints (this script is not
// deferred). Without JavaScript the system's mode applies and the button stays hidden.
// It also marks the root "js" before the first paint: the controls that scripts switch on
// (this button, the overview's) take their place from the start, and nothing moves later.
(function () {
  var KEY = "sitegen-theme";
  var root = document.documentElement;
  root.classList.add("js");
  var stored = null;
  try { stored = localStorage.getItem(KEY); } catch (e) { /* storage blocked: follow the system */ }
  if (stored === "dark" || stored === "light") root.setAttribute("data-theme", stored);
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function isDark() {
    var theme = root.getAttribute("data-theme");
    return theme ? theme === "dark" : !!(system && system.matches);
  }

  function show(button) {
    var dark = isDark();
    button.setAttribute("aria-pressed", dark ? "true" : "false");
    button.textContent = dark ? "Dark mode: on" : "Dark mode: off";
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("theme-toggle");
    if (!button) return;
    button.hidden = false;
    show(button);
    button.addEventListener("click", function () {
      var next = isDark() ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(KEY, next); } catch (e) { /* not remembered, still applied */ }
      show(button);
    });
    if (system && system.addEventListener) {
      system.addEventListener("change", function () { show(button); });
    }
  });
})();
