/* sitegen charts: the list under a chart becomes switches that show or hide each series.
   Without this script every series is drawn and the list is a plain legend. Loads nothing. */
(function () {
  "use strict";

  function setShown(svg, index, shown) {
    svg.querySelectorAll('[data-series="' + index + '"]').forEach(function (el) {
      el.classList.toggle("series-off", !shown);
    });
  }

  function highlight(svg, index) {
    svg.classList.toggle("series-focus", index !== null);
    svg.querySelectorAll("[data-series]").forEach(function (el) {
      el.classList.toggle("series-hl", el.getAttribute("data-series") === index);
    });
  }

  function button(label, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "series-all";
    b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function enhance(figure) {
    var svg = figure.querySelector("svg.chart");
    var list = figure.querySelector(".series-list");
    if (!svg || !list) return;
    var switches = [];
    list.querySelectorAll("li[data-series]").forEach(function (item) {
      var index = item.getAttribute("data-series");
      var b = document.createElement("button");
      b.type = "button";
      b.className = "series-switch";
      b.setAttribute("aria-pressed", "true");
      b.setAttribute("data-series", index);
      while (item.firstChild) b.appendChild(item.firstChild);
      item.appendChild(b);
      b.addEventListener("click", function () {
        var shown = b.getAttribute("aria-pressed") !== "true";
        b.setAttribute("aria-pressed", shown ? "true" : "false");
        setShown(svg, index, shown);
      });
      ["mouseenter", "focus"].forEach(function (type) {
        b.addEventListener(type, function () { highlight(svg, index); });
      });
      ["mouseleave", "blur"].forEach(function (type) {
        b.addEventListener(type, function () { highlight(svg, null); });
      });
      switches.push(b);
    });
    function all(shown) {
      switches.forEach(function (b) {
        b.setAttribute("aria-pressed", shown ? "true" : "false");
        setShown(svg, b.getAttribute("data-series"), shown);
      });
    }
    var tools = document.createElement("p");
    tools.className = "series-tools";
    tools.appendChild(document.createTextNode("Select a name to switch its line off or on. "));
    tools.appendChild(button("Show all", function () { all(true); }));
    tools.appendChild(document.createTextNode(" "));
    tools.appendChild(button("Hide all", function () { all(false); }));
    list.parentNode.insertBefore(tools, list);
  }

  document.querySelectorAll("figure.chart-figure").forEach(enhance);
})();
