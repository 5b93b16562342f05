/* Wraps Material's search worker. Pasted error text is full of tokens that
 * lunr's query parser misreads: "--max-num-seqs" is two "prohibited" markers
 * and fails silently, a quoted phrase becomes an AND of required words (stop
 * words included, so nothing matches), and camelCase is split in the index but
 * not in the query. This listener runs before Material's and rewrites the
 * query text only; everything else passes through untouched. */
(function () {
  "use strict"
  var QUERY = 2 // SearchMessageType.QUERY in Material 9.x
  // In the offline build opened from file://, the iframe-worker shim runs this file in
  // an iframe whose location is the page's: read the name from this script's own URL
  // (less the "?<timestamp>" the shim appends) and load Material's worker beside it.
  var here = typeof document !== "undefined" && document.currentScript ? document.currentScript.src : self.location.href
  var name = (new URL(here).searchParams.get("worker") || "").replace(/\?\d+$/, "")
  if (!/^search\.[0-9a-f]+\.min\.js$/.test(name)) throw new Error("search-worker.js: bad worker name")

  var ID_QUERY = /^\s*perf[\s_-]*0*(\d{1,4})\s*$/i // PERF-0003, perf-3, perf 3

  function cleanQuery(query) {
    // An ID becomes its four digits, a term only the owning page carries as a tag
    // (scripts/catalogue/render.py, search_tags); pages that merely link to it do not.
    var id = ID_QUERY.exec(query)
    if (id) return ("000" + id[1]).slice(-4)
    return query
      .replace(/"/g, " ") // phrases are not supported by lunr: search the words
      .replace(/(^|\s)[-+~^:*]+(?=\S)/g, "$1") // leading presence/boost markers: --flag, +term
      .replace(/([a-z0-9])([A-Z][a-z])/g, "$1 $2") // camelCase, as the index separator splits it
      .replace(/[:~^]+(\s|$)/g, "$1") // trailing operators lunr would parse
  }

  self.addEventListener("message", function (ev) {
    if (ev.data && ev.data.type === QUERY && typeof ev.data.data === "string") ev.data.data = cleanQuery(ev.data.data)
  })
  importScripts(new URL("workers/" + name, here).href)
})()
