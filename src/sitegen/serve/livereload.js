// sitegen serve: reload this page when the site is rebuilt; show build problems over it.
// Injected only by the preview server; built files never contain it.
(function () {
  "use strict";
  var me = document.currentScript;
  var version = me ? me.getAttribute("data-version") : "";
  var scrollKey = "sitegen-serve-scroll:" + location.pathname;
  var overlayId = "sitegen-problems";

  var saved = sessionStorage.getItem(scrollKey);
  if (saved !== null) {
    sessionStorage.removeItem(scrollKey);
    window.scrollTo(0, Number(saved));
  }

  function hideProblems() {
    var old = document.getElementById(overlayId);
    if (old) old.remove();
  }

  function showProblems(problems) {
    hideProblems();
    var box = document.createElement("div");
    box.id = overlayId;
    box.setAttribute("role", "alert");
    box.style.cssText =
      "position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;z-index:2147483647;" +
      "margin:0;padding:1em 1.5em;background:#fff4f4;color:#5a0000;" +
      "border-top:4px solid #c00;font:14px/1.5 ui-monospace,monospace;" +
      "box-shadow:0 -4px 16px rgba(0,0,0,.2)";
    var title = document.createElement("strong");
    title.textContent =
      "The site does not build: showing the last good version. Fix these and the page updates.";
    box.appendChild(title);
    var list = document.createElement("ul");
    list.style.cssText = "margin:.5em 0 0;padding-left:1.2em";
    problems.forEach(function (problem) {
      var item = document.createElement("li");
      item.className = "sitegen-problem";
      item.textContent = problem.text;
      list.appendChild(item);
    });
    box.appendChild(list);
    document.body.appendChild(box);
  }

  var events = new EventSource("/__sitegen/events");
  events.addEventListener("build", function (event) {
    var state = JSON.parse(event.data);
    if (state.problems.length) {
      showProblems(state.problems);
    } else if (state.version !== version) {
      events.close();
      sessionStorage.setItem(scrollKey, String(window.scrollY));
      location.reload();
    } else {
      hideProblems();
    }
  });
})();
