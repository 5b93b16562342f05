/* Catalogue filters on /references/: one select per facet, combined with AND,
 * kept in the address (?symptom=hang&framework=vllm) so a view can be linked.
 * Without JavaScript the plain list stays. Bound to document$ for instant navigation. */
(function () {
  "use strict"
  function setup() {
    var form = document.getElementById("catalogue-filters")
    var list = document.getElementById("catalogue-list")
    if (!form || !list || form.dataset.ready) return
    form.dataset.ready = "1"
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-facet]"))
    var items = Array.prototype.slice.call(list.querySelectorAll("li[data-ref-id]"))
    var count = document.getElementById("catalogue-count")
    var empty = document.getElementById("catalogue-empty")

    function apply(updateUrl) {
      var shown = 0
      var params = new URLSearchParams(location.search)
      items.forEach(function (item) {
        var ok = selects.every(function (select) {
          var want = select.value
          return !want || (item.getAttribute("data-" + select.dataset.facet) || "").split(" ").indexOf(want) >= 0
        })
        item.hidden = !ok
        if (ok) shown++
      })
      selects.forEach(function (select) {
        if (select.value) params.set(select.dataset.facet, select.value)
        else params.delete(select.dataset.facet)
      })
      count.textContent = shown + " of " + items.length + " references"
      empty.hidden = shown !== 0
      if (updateUrl) {
        var query = params.toString()
        history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash)
      }
    }

    var params = new URLSearchParams(location.search)
    selects.forEach(function (select) {
      var value = params.get(select.dataset.facet)
      if (value && select.querySelector('option[value="' + CSS.escape(value) + '"]')) select.value = value
      select.addEventListener("change", function () { apply(true) })
    })
    form.addEventListener("reset", function () { setTimeout(function () { apply(true) }, 0) })
    form.hidden = false
    apply(false)
  }
  if (typeof document$ !== "undefined") document$.subscribe(setup)
  else document.addEventListener("DOMContentLoaded", setup)
})()
