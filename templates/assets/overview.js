/* The overview's boards at any per-user target, pricing tier, filter and sort.
   Progressive enhancement: the page is complete without it at the headline point. It reads
   only the numbers embedded in the page (#overview-data) and keeps the choice in the address
   (#target=75&tier=retail), so that it can be shared. Figures are computed and shown as the
   site's Python does (frontier.best_at, cost per million tokens, energy; display.py). */
(function () {
  "use strict";
  var block = document.getElementById("overview-data");
  var form = document.getElementById("board-controls");
  if (!block || !form || !window.URLSearchParams) return;
  var data = JSON.parse(block.textContent);
  var fields = ["target", "tier", "vendor", "engine", "precision", "source"];
  var filters = ["vendor", "engine", "precision", "source"];
  // the first direction of each sort: higher is better for throughput, configs and dates
  var FIRST = { rank: 1, gpu: 1, throughput: -1, cost: 1, energy: 1, engine: 1, precision: 1,
                configs: -1, date: -1 };
  var SOURCES = { measured: "measured", all_in: "all-in" };
  var sort = { key: "throughput", dir: -1 };

  function group(digits) { return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function fixed(v, decimals) {
    var parts = v.toFixed(decimals).split(".");
    return group(parts[0]) + (parts.length > 1 ? "." + parts[1] : "");
  }
  function halfEven(v) {  // Python's round()
    var r = Math.round(v);
    return v - Math.floor(v) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }
  function tokens(v) { return Math.abs(v) < 100 ? fixed(v, 1) : group(String(halfEven(v))); }
  function dollars(v) {
    if (v >= 1 || v === 0) return "$" + fixed(v, 2);
    return "$" + v.toFixed(1 - Math.floor(Math.log10(v)));
  }
  function significant(v) {
    return v === 0 ? "0" : fixed(v, Math.max(0, 2 - Math.floor(Math.log10(Math.abs(v)))));
  }

  // a control the page leaves out (the source filter, with one source) chooses nothing
  function value(name) { var select = form.elements[name]; return select ? select.value : ""; }
  function chosen() {
    var select = form.elements.target;
    return { i: select.selectedIndex, tier: value("tier"), vendor: value("vendor"),
             engine: value("engine"), precision: value("precision"), source: value("source") };
  }

  /* A row at the choice: the best of its curves that pass the filters (ties: the first), as
     frontier.best_at reads the ladder; null where no curve passes. */
  function figures(row, c) {
    if (c.vendor && row.vendor !== c.vendor) return null;
    var best = null, any = false;
    row.curves.forEach(function (curve) {
      if ((c.engine && curve.engine !== c.engine) || (c.precision && curve.precision !== c.precision)) return;
      if (c.source && curve.families.indexOf(c.source) < 0) return;
      any = true;
      var v = curve.throughput_per_gpu[c.i];
      if (v !== null && (best === null || v > best.throughput)) best = { throughput: v, curve: curve };
    });
    if (!any) return null;
    if (best === null) return { row: row, throughput: null };
    // the configs' measured power where the rung's points have it, else the GPU's all-in power
    var measured = best.curve.measured_power_w[c.i], price = row.prices[c.tier];
    best.watts = measured !== null ? measured : row.all_in_power_w;
    best.source = measured !== null ? "measured" : "all_in";
    best.row = row;
    best.cost = price === undefined ? null : price / (best.throughput * 3600) * 1e6;
    best.joules = best.watts === null ? null : best.watts / best.throughput;
    return best;
  }

  function put(cell, text, className) {
    cell.textContent = "";
    if (!className) { cell.textContent = text; return; }
    var span = document.createElement("span");
    span.className = className;
    span.textContent = text;
    cell.appendChild(span);
  }
  function show(tr, f, rank) {
    var cells = tr.children, reached = f.throughput !== null;
    put(cells[0], rank ? String(rank) : "-");
    put(cells[2], reached ? tokens(f.throughput) : "not reached", reached ? "" : "reason");
    if (!reached) put(cells[3], "-");
    else put(cells[3], f.cost === null ? "no price" : dollars(f.cost), f.cost === null ? "reason" : "");
    if (!reached) put(cells[4], "-");
    else if (f.joules === null) put(cells[4], "no power known", "reason");
    else {
      put(cells[4], significant(f.joules) + " J");
      cells[4].appendChild(document.createElement("br"));
      var note = document.createElement("span");
      note.className = "engine";
      note.textContent = significant(3.6e6 / f.joules / 1e6) + "M tokens/kWh, " + SOURCES[f.source];
      cells[4].appendChild(note);
    }
    put(cells[5], reached ? data.engines[f.curve.engine] : "-");
    put(cells[6], reached ? data.precisions[f.curve.precision] : "-");
  }

  function key(f) {
    var reached = f.throughput !== null;
    switch (sort.key) {
      case "gpu": return f.row.name;
      case "cost": return reached ? f.cost : null;
      case "energy": return reached ? f.joules : null;
      case "engine": return reached ? data.engines[f.curve.engine] : null;
      case "precision": return reached ? data.precisions[f.curve.precision] : null;
      case "configs": return f.row.configs;
      case "date": return f.row.last_date;
      default: return f.throughput;  // rank and throughput
    }
  }
  function compare(a, b) {
    var x = key(a.f), y = key(b.f);
    if (x === null || y === null) return (x === null) - (y === null) || a.rank - b.rank;
    var d = typeof x === "string" ? x.localeCompare(y) : x - y;
    return d * (sort.key === "rank" ? -sort.dir : sort.dir) || a.rank - b.rank;
  }

  function render() {
    var c = chosen(), shown = 0, total = 0;
    document.querySelectorAll("table.leaderboard").forEach(function (table) {
      var tbody = table.tBodies[0], items = [], left = [];
      Array.prototype.forEach.call(tbody.rows, function (tr) {
        var f = figures(data.rows[+tr.getAttribute("data-row")], c);
        tr.hidden = f === null;
        total += 1;
        if (f) items.push({ tr: tr, f: f });
        else left.push(tr);
      });
      // the rank: tokens/s per GPU, best first, unreached last, ties by GPU slug
      items.sort(function (a, b) {
        var x = a.f.throughput, y = b.f.throughput;
        if (x === null || y === null) return (x === null) - (y === null) || (a.f.row.gpu < b.f.row.gpu ? -1 : 1);
        return y - x || (a.f.row.gpu < b.f.row.gpu ? -1 : 1);
      });
      items.forEach(function (item, i) { item.rank = i + 1; });
      items.slice().sort(compare).forEach(function (item) {
        show(item.tr, item.f, item.f.throughput === null ? 0 : item.rank);
        tbody.appendChild(item.tr);
      });
      left.forEach(function (tr) { tbody.appendChild(tr); });  // filtered out: after the shown
      shown += items.length;
      var board = table.closest(".model-board");
      board.querySelector(".board-empty").hidden = items.length > 0;
      board.querySelector(".scroll").hidden = items.length === 0;
      table.querySelectorAll("th[data-sort]").forEach(function (th) {
        if (th.getAttribute("data-sort") === sort.key) {
          th.setAttribute("aria-sort", sort.dir < 0 ? "descending" : "ascending");
        } else th.removeAttribute("aria-sort");
      });
    });
    var target = form.elements.target.options[c.i].text, tier = data.tiers[c.tier];
    document.querySelectorAll(".js-target").forEach(function (s) { s.textContent = target; });
    document.querySelectorAll(".js-tier").forEach(function (s) { s.textContent = tier; });
    var chosenFilters = filters.filter(value).map(function (name) {
      var select = form.elements[name];
      return select.options[select.selectedIndex].text;
    });
    form.querySelector(".board-status").textContent = "Ranked at " + target + ", costs at the " +
      tier + " tier" + (chosenFilters.length ? ", " + chosenFilters.join(", ") + " only" : "") + ": " +
      shown + " of " + total + " results shown.";
  }

  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    fields.forEach(function (name) {
      var select = form.elements[name], wanted = params.get(name);
      if (!select) return;
      var ok = Array.prototype.some.call(select.options, function (o) { return o.value === wanted; });
      if (ok) select.value = wanted;
    });
    var by = params.get("sort");
    if (Object.prototype.hasOwnProperty.call(FIRST, by)) {
      sort.key = by;
      sort.dir = params.get("order") === "asc" ? 1 : params.get("order") === "desc" ? -1 : FIRST[by];
    }
  }
  function writeHash() {
    var params = new URLSearchParams();
    fields.forEach(function (name) { if (value(name)) params.set(name, value(name)); });
    if (sort.key !== "throughput" || sort.dir !== -1) {
      params.set("sort", sort.key);
      params.set("order", sort.dir < 0 ? "desc" : "asc");
    }
    history.replaceState(null, "", "#" + params.toString());
  }

  document.querySelectorAll("table.leaderboard th[data-sort]").forEach(function (th) {
    var button = document.createElement("button");
    button.type = "button";
    while (th.firstChild) button.appendChild(th.firstChild);
    th.appendChild(button);
    button.addEventListener("click", function () {
      var name = th.getAttribute("data-sort");
      sort.dir = sort.key === name ? -sort.dir : FIRST[name];
      sort.key = name;
      render();
      writeHash();
    });
  });
  form.addEventListener("change", function () { render(); writeHash(); });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  window.addEventListener("hashchange", function () { readHash(); render(); });
  readHash();
  form.hidden = false;
  render();
})();
