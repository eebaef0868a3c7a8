/* A model x GPU page's ladders at the reader's own $ per GPU-hour. Progressive enhancement:
   the page shows the pricing tiers without it. Each ladder row carries its unrounded
   throughput (data-throughput-per-gpu); a ladder whose workload has known input and output
   lengths carries them (data-isl, data-osl) for the input and output columns. Costs are
   computed and shown as frontier.cost_per_million_tokens and display.dollars do. */
(function () {
  "use strict";
  var form = document.querySelector("form.own-price");
  if (!form) return;
  var input = form.elements.price;
  var saved = new Map();  // cell -> its static content, put back when the price is cleared

  function group(digits) { return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function dollars(v) {
    if (v >= 1 || v === 0) {
      var parts = v.toFixed(2).split(".");
      return "$" + group(parts[0]) + "." + parts[1];
    }
    return "$" + v.toFixed(1 - Math.floor(Math.log10(v)));
  }
  function cost(price, throughput) { return price / (throughput * 3600) * 1e6; }

  function keep(node) {
    if (!saved.has(node)) saved.set(node, Array.prototype.slice.call(node.childNodes));
  }
  function restore(node) {
    if (!saved.has(node)) return;
    node.textContent = "";
    saved.get(node).forEach(function (child) { node.appendChild(child); });
  }

  function update() {
    var price = Number(input.value);
    var own = input.value.trim() !== "" && isFinite(price) && price > 0;
    document.querySelectorAll("table.ladder").forEach(function (table) {
      var isl = Number(table.getAttribute("data-isl")), osl = Number(table.getAttribute("data-osl"));
      var shares = { cost: 1, "cost-input": isl / (isl + osl), "cost-output": osl / (isl + osl) };
      table.querySelectorAll("tr[data-throughput-per-gpu]").forEach(function (tr) {
        var throughput = Number(tr.getAttribute("data-throughput-per-gpu"));
        Object.keys(shares).forEach(function (kind) {
          var cell = tr.querySelector("td." + kind);
          if (!cell) return;
          keep(cell);
          if (own) cell.textContent = dollars(cost(price, throughput * shares[kind]));
          else restore(cell);
        });
      });
    });
    document.querySelectorAll(".price-basis").forEach(function (basis) {
      keep(basis);
      if (own) basis.textContent = "your price, " + dollars(price) + " per GPU-hour";
      else restore(basis);
    });
  }

  form.addEventListener("submit", function (event) { event.preventDefault(); });
  input.addEventListener("input", update);
  form.hidden = false;
  if (input.value) update();  // a price the browser kept from an earlier visit
})();
