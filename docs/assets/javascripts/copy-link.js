/* "Copy link for a ticket" on reference pages: each button holds its text in
 * data-copy-text (Markdown, Jira or plain URL); a click copies it and says so. */
(function () {
  "use strict"
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text)
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea")
      area.value = text
      area.setAttribute("readonly", "")
      area.style.position = "fixed"
      area.style.opacity = "0"
      document.body.appendChild(area)
      area.select()
      var ok = document.execCommand("copy")
      document.body.removeChild(area)
      ok ? resolve() : reject(new Error("copy failed"))
    })
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest("button[data-copy-format]")
    if (!button) return
    var status = button.parentNode.querySelector(".perf-cite__status")
    copyText(button.getAttribute("data-copy-text")).then(
      function () { status.textContent = "Copied the " + button.textContent + " link." },
      function () { status.textContent = "Could not copy: select the address bar instead." }
    )
  })
})()
