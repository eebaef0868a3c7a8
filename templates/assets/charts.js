/* sitegen charts: the list under a chart becomes switches that show or hide each series; a
   chart whose points are of several node classes (data-nodes) gets a filter by GPU count; a
   hovered or focused point shows its tip, drawn from the point's <title> ("; " between lines).
   Without this script every series and point is drawn, the list is a plain legend and a point's
   title is the browser's own tooltip. Loads nothing. */
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

  var SVG = "http://www.w3.org/2000/svg";
  var NODES = [
    ["single", "Single node (up to 8 GPUs)"],
    ["multi", "Multi-node (more than 8 GPUs)"],
    ["disagg", "Disaggregated"]
  ];

  // the filter by GPU count: a switch a node class present, hiding its markers and points;
  // a series left without a shown point hides its line too
  function filterNodes(figure) {
    var svg = figure.querySelector("svg.chart");
    if (!svg) return;
    var present = NODES.filter(function (n) {
      return svg.querySelector('.pt[data-nodes="' + n[0] + '"]') !== null;
    });
    if (present.length < 2) return;
    var off = {};
    function apply() {
      svg.querySelectorAll("[data-nodes]").forEach(function (el) {
        el.classList.toggle("nodes-off", !!off[el.getAttribute("data-nodes")]);
      });
      svg.querySelectorAll(".series[data-series]").forEach(function (g) {
        var index = g.getAttribute("data-series");
        var any = false;
        svg.querySelectorAll('.pt[data-series="' + index + '"]').forEach(function (pt) {
          if (!off[pt.getAttribute("data-nodes")]) any = true;
        });
        g.classList.toggle("nodes-off", !any);
      });
    }
    var tools = document.createElement("p");
    tools.className = "series-tools node-filter";
    tools.appendChild(document.createTextNode("Configs shown: "));
    present.forEach(function (n) {
      var count = svg.querySelectorAll('.pt[data-nodes="' + n[0] + '"]').length;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "series-switch";
      b.setAttribute("aria-pressed", "true");
      b.setAttribute("data-nodes", n[0]);
      b.textContent = n[1] + " (" + count + ")";
      b.addEventListener("click", function () {
        off[n[0]] = b.getAttribute("aria-pressed") === "true";
        b.setAttribute("aria-pressed", off[n[0]] ? "false" : "true");
        apply();
      });
      tools.appendChild(b);
      tools.appendChild(document.createTextNode(" "));
    });
    var caption = figure.querySelector("figcaption");  // first in the legend, in its type
    if (caption) caption.insertBefore(tools, caption.firstChild);
    else svg.parentNode.insertBefore(tools, svg.nextSibling);
  }

  // one tip a chart, over every point: the point's title lines in a box beside it, inside the
  // box its points group names (data-tip-box: right and bottom edges)
  function showTip(svg, pt) {
    var title = pt.querySelector("title");
    var group = pt.closest(".points");
    if (!title || !group) return;
    var tip = svg.querySelector("g.tip");
    if (!tip) {
      tip = document.createElementNS(SVG, "g");
      tip.setAttribute("class", "tip");
      tip.appendChild(document.createElementNS(SVG, "rect")).setAttribute("rx", "4");
      tip.appendChild(document.createElementNS(SVG, "text"));
      svg.appendChild(tip);
    }
    var text = tip.lastChild;
    while (text.firstChild) text.removeChild(text.firstChild);
    var lines = title.textContent.split("; ");
    lines.forEach(function (line, i) {
      var span = text.appendChild(document.createElementNS(SVG, "tspan"));
      span.setAttribute("x", "6");
      span.setAttribute("y", String(19 + 16 * i));
      span.textContent = line;
    });
    tip.style.visibility = "visible";
    var width = Math.ceil(text.getBBox().width) + 12;
    var height = 10 + 16 * lines.length;
    var edges = (group.getAttribute("data-tip-box") || "").split(" ").map(Number);
    var at = pt.getBBox();
    var px = at.x + at.width / 2, py = at.y + at.height / 2;
    var tx = px + 10 + width < edges[0] ? px + 10 : px - 10 - width;
    var ty = Math.min(Math.max(py - height / 2, 4), edges[1] - height - 4);
    tip.firstChild.setAttribute("width", String(width));
    tip.firstChild.setAttribute("height", String(height));
    tip.setAttribute("transform", "translate(" + tx.toFixed(1) + "," + ty.toFixed(1) + ")");
  }

  function hideTip(svg) {
    var tip = svg.querySelector("g.tip");
    if (tip) tip.style.visibility = "hidden";
  }

  function tips(svg) {
    function over(event) {
      var pt = event.target.closest && event.target.closest(".pt");
      if (pt) showTip(svg, pt);
    }
    function out(event) {
      if (event.target.closest && event.target.closest(".pt")) hideTip(svg);
    }
    svg.addEventListener("mouseover", over);
    svg.addEventListener("focusin", over);
    svg.addEventListener("mouseout", out);
    svg.addEventListener("focusout", out);
  }

  document.querySelectorAll("figure.chart-figure").forEach(function (figure) {
    enhance(figure);
    filterNodes(figure);
  });
  document.querySelectorAll("svg.chart").forEach(tips);
})();
