/* "Copy link for a ticket" on reference pages: each button holds its text in
 * data-copy-text (Markdown, Jira or plain URL); a click copies it and says so. */
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
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest("button[data-copy-format]")
    if (!button) return
    var group = button.closest(".perf-cite") || button.parentNode
    var status = group.querySelector(".perf-cite__status")
    copyText(button.getAttribute("data-copy-text")).then(
      function () { say(status, "Copied the " + button.textContent + " link.") },
      function () { say(status, "Could not copy: select the address bar instead.") }
    )
  })
})()
