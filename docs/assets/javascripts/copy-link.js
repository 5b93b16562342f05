/* "Copy link for a ticket" on reference pages and on /match/ results: each button
 * holds its text in data-copy-text (Markdown, Jira or plain URL); a click copies it
 * and says so. A build without SITE_URL marks its groups data-rebase="<default URL>":
 * the copied text then names the address the page is really served from. */
(function () {
  "use strict"
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text)
    return new Promise(function (resolve, reject) {
      // Fallback for plain-http previews: copy from a hidden textarea, then give
      // focus back to the button so that keyboard users keep their place.
      var focused = document.activeElement
      var area = document.createElement("textarea")
      area.value = text
      area.setAttribute("readonly", "")
      area.style.position = "fixed"
      area.style.opacity = "0"
      document.body.appendChild(area)
      area.select()
      var ok = false
      try { ok = document.execCommand("copy") } catch (e) { ok = false }
      document.body.removeChild(area)
      if (focused && focused.focus) focused.focus()
      ok ? resolve() : reject(new Error("copy failed"))
    })
  }
  function say(status, text) {
    if (!status) return
    // Clear first, so that a second click on the same button is announced again.
    status.textContent = ""
    window.setTimeout(function () { status.textContent = text }, 50)
  }
  /* The site's root as served: the path up to its last "/references/" (every page with
   * copy buttons lives there, as references/<slug>/ or, offline, references/<slug>.html). */
  function servedRoot() {
    var path = location.pathname
    var at = path.lastIndexOf("/references/")
    return location.origin + (at >= 0 ? path.slice(0, at + 1) : "/")
  }
  function textOf(button, group) {
    var text = button.getAttribute("data-copy-text")
    var canonical = group.getAttribute("data-rebase")
    return canonical && location.protocol !== "file:" ? text.split(canonical).join(servedRoot()) : text
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest("button[data-copy-format]")
    if (!button) return
    var group = button.closest(".perf-cite") || button.parentNode
    var status = group.querySelector(".perf-cite__status")
    copyText(textOf(button, group)).then(
      function () { say(status, "Copied the " + button.textContent + " link.") },
      function () { say(status, "Could not copy: select the address bar instead.") }
    )
  })
})()
