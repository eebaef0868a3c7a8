/* The changes page's filter by model and GPU. Progressive enhancement: without it the page
   lists every entry; it only hides the rows (data-model, data-gpu) that do not match. */
(function () {
  "use strict";
  var form = document.getElementById("change-filter");
  if (!form) return;
  var rows = document.querySelectorAll("table.changes > tbody > tr");
  var status = form.querySelector(".change-status");
  var empty = document.querySelector(".change-empty");

  function apply() {
    var model = form.elements.model.value, gpu = form.elements.gpu.value, shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var match = (!model || row.getAttribute("data-model") === model) &&
                  (!gpu || row.getAttribute("data-gpu") === gpu);
      row.hidden = !match;
      if (match) shown++;
    }
    status.textContent = shown + " of " + rows.length + " changes shown.";
    if (empty) empty.hidden = shown > 0;
  }

  form.addEventListener("change", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.hidden = false;
  apply();
})();
