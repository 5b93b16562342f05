/* A link to a place inside a folded section opens the fold: a ticket that cites
 * #what-the-sources-support or an anchor inside a closed <details> lands on text
 * the reader can see. Runs on load, on every hash change and after each instant
 * navigation (document$). */
(function () {
  "use strict"
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1))
    var target = id && document.getElementById(id)
    if (!target) return
    // a section heading whose body is folded right under it
    var next = target.nextElementSibling
    if (/^H[1-6]$/.test(target.tagName) && next && next.tagName === "DETAILS") next.open = true
    var opened = false
    for (var node = target.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) {
        node.open = true
        opened = true
      }
    }
    if (opened) target.scrollIntoView()
  }
  window.addEventListener("hashchange", reveal)
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(reveal)
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", reveal)
  else reveal()
})()
