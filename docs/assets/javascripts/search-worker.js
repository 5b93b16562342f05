/* Wraps Material's search worker. Pasted error text is full of tokens that
 * lunr's query parser misreads: "--max-num-seqs" is two "prohibited" markers
 * and fails silently, a quoted phrase becomes an AND of required words (stop
 * words included, so nothing matches), and camelCase is split in the index but
 * not in the query. This listener runs before Material's and rewrites the
 * query text only; everything else passes through untouched. */
(function () {
  "use strict"
  var QUERY = 2 // SearchMessageType.QUERY in Material 9.x
  var name = new URL(self.location.href).searchParams.get("worker") || ""
  if (!/^search\.[0-9a-f]+\.min\.js$/.test(name)) throw new Error("search-worker.js: bad worker name")

  function cleanQuery(query) {
    return query
      .replace(/"/g, " ") // phrases are not supported by lunr: search the words
      .replace(/(^|\s)[-+~^:*]+(?=\S)/g, "$1") // leading presence/boost markers: --flag, +term
      .replace(/([a-z0-9])([A-Z][a-z])/g, "$1 $2") // camelCase, as the index separator splits it
      .replace(/[:~^]+(\s|$)/g, "$1") // trailing operators lunr would parse
  }

  self.addEventListener("message", function (ev) {
    if (ev.data && ev.data.type === QUERY && typeof ev.data.data === "string") ev.data.data = cleanQuery(ev.data.data)
  })
  importScripts("workers/" + name)
})()
