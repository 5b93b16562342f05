/* The log matcher, off the main thread: the browser twin of scripts/catalogue/match.py.
 *
 * A classic worker. The page sends {type: "init", index: url, tells: url} first; the
 * worker loads the match index (assets/match-index.js, which sets self.__matchIndex)
 * with importScripts and answers {type: "ready", facets, refs}. The look-alike notes
 * (assets/match-tells.js) load only when a result first needs one.
 * Then every {type: "match", id, text, stated} gets {type: "result", id, result, ms},
 * where result is exactly what Matcher.match in match.py returns for the same input.
 * A log file comes as {type: "match", id, file, stated} instead of text: the worker
 * reads it (UTF-8) so that the page never holds it (see match-page.js).
 *
 * Steps (each mirrors the Python function named beside it):
 * 1. prepare(): keep the last input_cap characters from a whole line, strip ANSI
 *    escapes, treat CR as a line break, lowercase A-Z only (offsets never move).
 * 2. findPatterns(): anchors are found as whole tokens by one regular expression; only lines
 *    holding an anchor run a template (matchLine, a port of templates.match_line).
 * 3. revealedVersions(): lines such as "NCCL version 2.21.5" (match.revealed_versions).
 * 4. match(): messages once each, signals once each, generic lines and triage
 *    references, agreeing facets, BM25F full text (fulltext.py: terms, scores),
 *    the rank bands and tellApart (match.tell_apart).
 *
 * JavaScript strings count UTF-16 units, Python counts code points: offsets differ
 * only on lines with characters outside the Basic Multilingual Plane (the full-text
 * tail counts code points, as Python does: lastChars).
 */
(function () {
  "use strict"

  var ANSI_ESCAPE = /\x1b\[[0-9;?]*[\x20-\x2f]*[\x40-\x7e]|\x1b[\x40-\x5a\x5c-\x5f]/g
  var WORD_RE = /[a-z0-9_]+/g
  var DIGITS_ONLY = /^[0-9]+$/
  var ASCII_WORD = /^[a-z0-9_]+$/
  var NON_ASCII = /[^\x00-\x7f]/
  var STOP_WORDS = new Set(("the and for with that this from are was were not but you your its has have had can may will " +
    "into than then them they their there when where which while what who how all any one two out " +
    "use used using does did been being also more most other only over such same each both very " +
    "via per too off our " +
    "is to in of on at it be we my me as an by if or so no do up us he go am").split(" "))
  var BANDS = { message: 0, context: 1, symptom: 2, weak: 3 }
  var NON_ASCII = /[^\x00-\x7f]/
  var UPPER_RUN = /[A-Z]+/g
  var NON_ASCII_RUN = /[^\x00-\x7f]+/g
  var RESULTS_SHOWN = 10
  var WORDS_SHOWN = 3 // learned words quoted as a triage reference's evidence (match.py)
  var NL = 10

  /* Math.round(x * 1000) / 1000 with half up; match.py's round3 is defined to equal it. */
  function round3(x) {
    return Math.floor(x * 1000 + 0.5) / 1000
  }

  function isWordCode(c) {
    // [a-z0-9_]: the input is already lowercased, as in Python
    return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95
  }

  function isSpaceCode(c) {
    // " \t\r\f\v", templates._SPACE
    return c === 32 || c === 9 || c === 13 || c === 12 || c === 11
  }

  function asciiLower(text) {
    var lower = text.toLowerCase()
    if (!NON_ASCII.test(text)) return lower
    // toLowerCase changes other letters too ("É"): put back every character outside ASCII
    if (lower.length !== text.length) return text.replace(UPPER_RUN, function (s) { return s.toLowerCase() })
    var parts = [], from = 0, m
    NON_ASCII_RUN.lastIndex = 0
    while ((m = NON_ASCII_RUN.exec(text)) !== null) {
      parts.push(lower.slice(from, m.index), m[0])
      from = m.index + m[0].length
    }
    parts.push(lower.slice(from))
    return parts.join("")
  }

  /* bisect.bisect_right(starts, offset) - 1 */
  function lineOf(starts, offset) {
    var lo = 0, hi = starts.length
    while (lo < hi) {
      var mid = (lo + hi) >>> 1
      if (offset < starts[mid]) hi = mid
      else lo = mid + 1
    }
    return lo - 1
  }

  function countNewlines(text, end) {
    var count = 0, at = text.indexOf("\n")
    while (at >= 0 && at < end) {
      count++
      at = text.indexOf("\n", at + 1)
    }
    return count
  }

  /* match.prepare */
  /* match.prepare; firstLine: a piece of a streamed input (no cap), after that many lines. */
  function prepare(text, limits, firstLine) {
    var capped = false, skipped = firstLine || 0
    var cap = limits.input_cap
    // line breaks first, so the cap cuts at a line start whatever the breaks are
    if (text.indexOf("\r") >= 0) text = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n")
    if (firstLine === undefined && text.length > cap) {
      var cut = text.length - cap
      var newline = text.indexOf("\n", cut - 1)
      var start = newline >= 0 ? newline + 1 : cut
      skipped = countNewlines(text, start)
      text = text.slice(start)
      capped = true
    }
    if (text.indexOf("\x1b") >= 0) text = text.replace(ANSI_ESCAPE, "")
    return { text: text, lower: asciiLower(text), capped: capped, skipped: skipped, starts: lineStarts(text) }
  }

  /* templates.readable: "Xid {n} on {*}" -> "Xid ‹number› on ‹any text›"; {{ and }} are braces. */
  function readable(template, names) {
    return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, function (all, name) {
      if (name === undefined) return all.charAt(0)
      var colon = name.indexOf(":") // a captured number reads by its name: {n:free} -> ‹free›
      return colon < 0 ? names[name] : "\u2039" + name.slice(colon + 1) + "\u203a"
    })
  }

  /* match.LineJoiner: push() gives the piece of a chunk that ends at its last
   * line break (or null), end() what is left. A CR at a chunk's end waits for the next. */
  function LineJoiner() {
    this.carry = ""
  }
  LineJoiner.prototype.push = function (chunk) {
    var text = this.carry + chunk
    this.carry = ""
    if (text.endsWith("\r")) {
      text = text.slice(0, -1)
      this.carry = "\r"
    }
    if (text.indexOf("\r") >= 0) text = text.replace(/\r\n/g, "\n").replace(/\r/g, "\n")
    var cut = text.lastIndexOf("\n") + 1
    this.carry = text.slice(cut) + this.carry
    return cut ? text.slice(0, cut) : null
  }
  LineJoiner.prototype.end = function () {
    var rest = this.carry
    this.carry = ""
    return rest ? rest.replace(/\r/g, "\n") : null
  }

  /* LineJoiner for bytes (a file read as Uint8Array chunks), as match.py's LineJoiner does it for bytes. */
  var EMPTY = new Uint8Array(0)
  function concatBytes(a, b) {
    var out = new Uint8Array(a.length + b.length)
    out.set(a, 0)
    out.set(b, a.length)
    return out
  }
  function crToLf(bytes) { // CR LF -> LF, a lone CR -> LF
    var out = new Uint8Array(bytes.length), n = 0
    for (var i = 0; i < bytes.length; i++) {
      if (bytes[i] !== 13) out[n++] = bytes[i]
      else if (bytes[i + 1] !== 10) out[n++] = 10
    }
    return out.subarray(0, n)
  }
  function ByteLineJoiner() {
    this.carry = EMPTY
  }
  /* The pieces of a chunk that end at line breaks: the carried part and the chunk's first line
   * joined (a small copy), then the rest of the chunk as it was read (no copy). */
  ByteLineJoiner.prototype.pieces = function (chunk) {
    var first = chunk.indexOf(10)
    if (this.carry.length === 0 || first < 0 || chunk.indexOf(13) >= 0 || this.carry.indexOf(13) >= 0) {
      var piece = this.push(chunk)
      return piece === null ? [] : [piece]
    }
    var head = this.push(chunk.subarray(0, first + 1)), rest = this.push(chunk.subarray(first + 1))
    return rest === null ? [head] : [head, rest]
  }
  ByteLineJoiner.prototype.push = function (chunk) {
    var text = this.carry.length ? concatBytes(this.carry, chunk) : chunk
    var heldCR = text.length > 0 && text[text.length - 1] === 13
    if (heldCR) text = text.subarray(0, text.length - 1)
    if (text.indexOf(13) >= 0) text = crToLf(text)
    var cut = text.lastIndexOf(10) + 1
    this.carry = heldCR ? concatBytes(text.subarray(cut), new Uint8Array([13])) : text.slice(cut)
    return cut ? text.subarray(0, cut) : null
  }
  ByteLineJoiner.prototype.end = function () {
    var rest = this.carry
    this.carry = EMPTY
    return rest.length ? crToLf(rest) : null
  }

  /* The lines of a file worth reading: match.py's prefilter, in the browser. One pass over the
   * bytes (an Aho-Corasick automaton, ASCII letters folded) picks every line that holds a literal a
   * line must hold to count: the longest single-spaced piece of each template's literal parts (the
   * matcher takes no space after a colon, so literals are cut there), every facet keyword, every
   * version needle, and the markers after which a line is read against every template (an ANSI
   * escape, which prepare strips; spacing other than one plain space). Every later step reads one
   * line at a time, so matching the lines picked, with their numbers, gives what matching every line
   * gives; the counts and the full-text tail are the whole piece's. */
  function longestPiece(segments) {
    var best = ""
    segments.forEach(function (seg) {
      seg.forEach(function (part) {
        if (part.lit === undefined) return
        var words = [], pieces = []
        part.lit.split(" ").forEach(function (word) {
          words.push(word)
          if (word.endsWith(":")) { pieces.push(words.join(" ")); words = [] }
        })
        if (words.length) pieces.push(words.join(" "))
        pieces.forEach(function (piece) { if (piece.length > best.length) best = piece })
      })
    })
    return asciiLower(best)
  }
  /* templates.keywords_of: a symptom's English words also in their -ing and -ed forms ("slow": slowing,
   * slowed; "freeze": freezing), as the matchers read a facet value's keywords. */
  function keywordsOf(facet, spec) {
    var out = spec.keywords.slice()
    if (facet !== "symptom") return out
    spec.keywords.forEach(function (word) {
      if (!/^[a-z]{4,}$/.test(word) || word.endsWith("ing") || word.endsWith("ed")) return
      var stem = word.endsWith("e") ? word.slice(0, -1) : word, forms = [stem + "ing", stem + "ed"]
      forms.forEach(function (form) { if (out.indexOf(form) < 0) out.push(form) })
    })
    return out
  }

  var MARKERS = ["\x1b", "  ", "\t", "\f", "\v"] // (CR never reaches the picker: lines are joined first)
  var PHRASE = /^[\x00-\x7f]* [\x00-\x7f]*$/ // an ASCII keyword of several words, also found hyphenated

  function LinePicker(index) {
    var literals = new Set(MARKERS)
    index.patterns.forEach(function (p) { literals.add(longestPiece(templateSegments(p.text))) })
    Object.keys(index.facets).forEach(function (facet) {
      Object.keys(index.facets[facet]).forEach(function (value) {
        keywordsOf(facet, index.facets[facet][value]).forEach(function (word) {
          literals.add(asciiLower(word).replace(/\*$/, "")) // the start of a word ("cuda_error_*") is a literal too
          if (PHRASE.test(word)) literals.add(asciiLower(word).split(" ").join("-")) // prefilter.literals
        })
      })
    })
    index.version_detectors.forEach(function (d) { literals.add(d.needle) })
    literals.delete("")
    // a literal that holds a shorter one adds nothing: a line with it holds the shorter (prefilter.covering)
    var kept = []
    Array.from(literals).sort(function (a, b) { return a.length - b.length || compareStrings(a, b) }).forEach(function (literal) {
      if (!kept.some(function (short) { return literal.indexOf(short) >= 0 })) kept.push(literal)
    })
    literals = kept
    var encoder = new TextEncoder(), children = [new Map()], out = [0]
    var classes = new Uint8Array(256), width = 1
    literals.forEach(function (literal) {
      var bytes = encoder.encode(literal), state = 0
      for (var k = 0; k < bytes.length; k++) {
        var b = bytes[k]
        if (!classes[b]) classes[b] = width++
        var next = children[state].get(b)
        if (next === undefined) {
          next = children.length
          children.push(new Map())
          out.push(0)
          children[state].set(b, next)
        }
        state = next
      }
      out[state] = 1
    })
    for (var c = 65; c <= 90; c++) classes[c] = classes[c + 32] // A-Z read as a-z
    var newline = classes[10] = width++ // no literal holds a line break: its class leads to NEWLINE
    var shift = Math.ceil(Math.log2(width)) // rows of a power of two: a shift, not a multiply, per byte
    var stride = 1 << shift
    var byClass = new Uint8Array(width) // a byte of each class, to follow the trie
    for (var b = 0; b < 256; b++) if (classes[b] && !(b >= 65 && b <= 90)) byClass[classes[b]] = b
    var states = children.length
    var goto = new Uint32Array(states * width), fail = new Uint32Array(states), final = new Uint8Array(out), queue = [0]
    for (var q = 0; q < queue.length; q++) {
      var s = queue[q]
      for (var cls = 1; cls < newline; cls++) {
        var child = children[s].get(byClass[cls])
        var fallback = s === 0 ? 0 : goto[fail[s] * width + cls]
        if (child === undefined) {
          goto[s * width + cls] = fallback
        } else {
          fail[child] = fallback
          if (final[fallback]) final[child] = 1
          goto[s * width + cls] = child
          queue.push(child)
        }
      }
    }
    // A line is picked at its first literal, so every final state is one: HIT. The other states are
    // numbered anew, and the table keeps their rows only: small enough to stay in the processor's cache.
    // HIT and NEWLINE come after them, so one comparison per byte finds either.
    var renumber = new Int32Array(states), live = 0
    for (s = 0; s < states; s++) renumber[s] = final[s] ? -1 : live++
    var HIT = live, NEWLINE = live + 1
    var table = NEWLINE < 65536 ? new Uint16Array(live * stride) : new Uint32Array(live * stride)
    for (s = 0; s < states; s++) {
      if (final[s]) continue
      var row = renumber[s] * stride
      for (cls = 0; cls < newline; cls++) {
        var target = goto[s * width + cls]
        table[row + cls] = final[target] ? HIT : renumber[target]
      }
      table[row + newline] = NEWLINE
    }
    this.table = table
    this.classes = classes
    this.shift = shift
    this.hit = HIT
  }

  /* The lines of ``bytes`` (LF line breaks) that hold a literal: their starts and ends, their
   * numbers (from 0) in the piece, and the piece's line breaks. */
  LinePicker.prototype.pick = function (bytes) {
    var table = this.table, classes = this.classes, shift = this.shift, hit = this.hit
    var starts = [], ends = [], numbers = [], line = 0, lineStart = 0, state = 0
    for (var i = 0, n = bytes.length; i < n; i++) {
      state = table[(state << shift) + classes[bytes[i]]]
      if (state < hit) continue
      if (state > hit) { // a line break
        line++
        lineStart = i + 1
        state = 0
      } else {
        var end = bytes.indexOf(10, i)
        if (end < 0) end = n
        starts.push(lineStart)
        ends.push(end)
        numbers.push(line)
        state = 0
        i = end - 1 // the line break, next, counts the line
      }
    }
    return { starts: starts, ends: ends, numbers: numbers, newlines: line }
  }

  var KEEP_BOM = new TextDecoder("utf-8", { ignoreBOM: true }) // as Python's decode: a BOM stays a character

  /* Characters as Python counts them: code points, where a JavaScript string counts UTF-16 units. */
  var PAIR = /[\ud800-\udbff][\udc00-\udfff]/g
  function charCount(text) {
    var pairs = text.length > 1 ? text.match(PAIR) : null
    return text.length - (pairs ? pairs.length : 0)
  }
  /* text[-n:] in Python. */
  function lastChars(text, n) {
    if (text.length <= n) return text
    var at = text.length
    for (var k = 0; k < n && at > 0; k++) {
      at--
      var c = text.charCodeAt(at)
      if (c >= 0xdc00 && c <= 0xdfff && at > 0) {
        var high = text.charCodeAt(at - 1)
        if (high >= 0xd800 && high <= 0xdbff) at--
      }
    }
    return text.slice(at)
  }

  /* match._tail: the last ``chars`` characters of the prepared text (as written), from the piece's last lines only. */
  function tailOf(bytes, chars) {
    for (var want = chars; ; want *= 4) {
      var cut = Math.max(0, bytes.length - want)
      var start = cut > 0 ? bytes.lastIndexOf(10, cut - 1) + 1 : 0
      var text = KEEP_BOM.decode(bytes.subarray(start))
      if (text.indexOf("\x1b") >= 0) text = text.replace(ANSI_ESCAPE, "")
      if (charCount(text) >= chars || start === 0) return lastChars(text, chars)
    }
  }

  /* match._prefiltered: a piece of a file (whole lines, from ByteLineJoiner), its picked lines
   * prepared, each with its number; the line breaks and the full-text tail are the whole piece's. */
  function preparePicked(bytes, limits, firstLine, picker) {
    var picked = picker.pick(bytes), size = 0, k
    for (k = 0; k < picked.starts.length; k++) size += picked.ends[k] - picked.starts[k] + 1
    var joined = new Uint8Array(size), at = 0
    for (k = 0; k < picked.starts.length; k++) {
      joined.set(bytes.subarray(picked.starts[k], picked.ends[k]), at)
      at += picked.ends[k] - picked.starts[k]
      joined[at++] = 10
    }
    // the picked lines end with a line break: an empty last line, numbered after the last picked
    var prep = prepare(KEEP_BOM.decode(joined), limits, firstLine)
    var last = picked.numbers.length ? picked.numbers[picked.numbers.length - 1] : 0
    prep.numbers = picked.numbers.concat([last + 1])
    prep.newlines = picked.newlines
    prep.tail = tailOf(bytes, limits.fulltext_chars)
    return prep
  }

  /* Prepared.number_of: a line's number (from 1) in the whole input. */
  function numberOf(prep, line) {
    return (prep.numbers ? prep.numbers[line] : line) + 1 + prep.skipped
  }

  /* match.Scan: the evidence read so far from one input. */
  function newScan(capped, skipped) {
    return { found: new Map(), revealed: new Map(), named: new Map(), versions: new Map(), namedAt: new Map(),
      tail: "", newlines: 0, capped: !!capped, skipped: skipped || 0 }
  }

  /* ---- Templates: a port of templates._match_segment and templates.match_line ---- */

  function charTable(chars) {
    var table = new Uint8Array(128)
    for (var k = 0; k < chars.length; k++) {
      var c = chars.charCodeAt(k)
      if (c < 128) table[c] = 1
    }
    return table
  }

  function compileClasses(classes) {
    var out = {}
    Object.keys(classes).forEach(function (name) {
      var spec = classes[name]
      out[name] = {
        chars: charTable(spec.chars),
        lead: charTable(spec.lead !== undefined ? spec.lead : spec.chars),
        prefix: spec.prefix || "",
        sign: !!spec.sign,
        max: spec.max
      }
    })
    return out
  }

  /* templates.compile_template for a template the build has validated: its segments, each a list of
   * parts, {lit} (lowercased) or {class, name?, stop?}; {*} starts a new segment. Cached by text. */
  var SEGMENTS = new Map()
  var PLACEHOLDER_AT = /\{([^{}]*)\}/y
  function templateSegments(template) {
    var cached = SEGMENTS.get(template)
    if (cached) return cached
    var text = template.trim().split(/\s+/).join(" "), tokens = [], literal = "", i = 0, m
    while (i < text.length) {
      var two = text.substr(i, 2)
      if (two === "{{" || two === "}}") { // a literal brace
        literal += text[i]
        i += 2
        continue
      }
      PLACEHOLDER_AT.lastIndex = i
      if ((m = PLACEHOLDER_AT.exec(text)) !== null) {
        if (literal) tokens.push({ lit: literal })
        literal = ""
        var colon = m[1].indexOf(":") // {n:free}: a number read by name
        tokens.push(colon >= 0 && colon + 1 < m[1].length ? { ph: "n", name: m[1].slice(colon + 1) }
          : { ph: colon >= 0 ? m[1].slice(0, colon) : m[1] })
        i += m[0].length
        continue
      }
      literal += text[i++]
    }
    if (literal) tokens.push({ lit: literal })
    var last = tokens[tokens.length - 1]
    // a sentence's final full stop is dropped when people quote a message inline
    if (last.lit !== undefined && last.lit.endsWith(".") && !last.lit.endsWith("..") && last.lit.length > 1) {
      tokens[tokens.length - 1] = { lit: last.lit.slice(0, -1) }
    }
    var segments = [[]]
    tokens.forEach(function (token, k) {
      if (token.ph === "*") return segments.push([])
      var segment = segments[segments.length - 1]
      if (token.ph !== undefined) return segment.push(token.name === undefined ? { "class": token.ph } : { "class": token.ph, name: token.name })
      var lit = token.lit.toLowerCase() // templates are ASCII
      if (k > 0 && tokens[k - 1].ph === "*") lit = lit.replace(/^ +/, "")
      if (k + 1 < tokens.length && tokens[k + 1].ph === "*") lit = lit.replace(/ +$/, "")
      if (lit) segment.push({ lit: lit })
    })
    segments = segments.filter(function (segment) { return segment.length })
    segments.forEach(function (segment) {
      for (var p = 0; p + 1 < segment.length; p++) if (segment[p].lit === undefined) segment[p].stop = segment[p + 1].lit[0]
    })
    SEGMENTS.set(template, segments)
    return segments
  }

  /* Each part becomes {words} (a literal split at its spaces: one space stands for a
   * run of whitespace) or {cls, stop}. The head is what match_line searches for. */
  function compileSegments(segments, classes) {
    return segments.map(function (seg) {
      var parts = seg.map(function (part) {
        if (part.lit !== undefined) return { words: part.lit.split(" ") }
        var spec = classes[part["class"]]
        if (!spec) throw new Error("unknown class " + part["class"])
        return { cls: spec, stop: part.stop ? part.stop.charCodeAt(0) : -1, name: part.name }
      })
      var first = seg[0].lit
      // A segment that starts with a class (a placeholder right after {*}) has no head;
      // templates.match_line raises KeyError on it, and matchLine throws when it gets there.
      var head = first === undefined ? null : first.split(" ", 1)[0] || first
      return { parts: parts, head: head }
    })
  }

  /* templates._match_segment; named numbers go into captures (name -> [start, end]) when given. */
  function matchSegment(parts, line, start, captures) {
    var i = start, n = line.length
    for (var p = 0; p < parts.length; p++) {
      var part = parts[p]
      var words = part.words
      if (words !== undefined) {
        for (var w = 0; w < words.length; w++) {
          if (w > 0) {
            // after a colon the space may be lost ("error:out of memory"), as in templates.py
            var spaced = i < n && isSpaceCode(line.charCodeAt(i))
            if (!spaced && words[w - 1].charAt(words[w - 1].length - 1) !== ":") return -1
            while (i < n && isSpaceCode(line.charCodeAt(i))) i++
          }
          var word = words[w]
          if (word.length) {
            if (!line.startsWith(word, i)) return -1
            i += word.length
          }
        }
        continue
      }
      var spec = part.cls, stop = part.stop, c
      if (spec.prefix) {
        if (!line.startsWith(spec.prefix, i)) return -1
        i += spec.prefix.length
      }
      if (spec.sign && i < n) {
        c = line.charCodeAt(i)
        if (c === 43 || c === 45) i++
      }
      if (i >= n) return -1
      c = line.charCodeAt(i)
      if (c >= 128 || !spec.lead[c] || c === stop) return -1
      var limit = Math.min(n, i + spec.max)
      var chars = spec.chars
      var begin = i
      i++
      while (i < limit) {
        c = line.charCodeAt(i)
        if (c >= 128 || !chars[c] || c === stop) break
        i++
      }
      if (captures && part.name !== undefined) captures[part.name] = [begin, i]
    }
    return i
  }

  /* Segments are found left to right, each at its leftmost place after the last. */
  function matchLine(segments, line, captures) {
    var pos = 0, firstStart = -1
    for (var s = 0; s < segments.length; s++) {
      var seg = segments[s]
      var searchFrom = pos, found = -1, end = -1
      if (seg.head === null) throw new TypeError("a template segment starts with a placeholder")
      for (;;) {
        var at = line.indexOf(seg.head, searchFrom)
        if (at < 0) return null
        end = matchSegment(seg.parts, line, at, captures)
        if (end >= 0) {
          found = at
          break
        }
        searchFrom = at + 1
      }
      if (firstStart < 0) firstStart = found
      pos = end
    }
    return [firstStart, pos]
  }

  /* ---- The matcher ---- */

  function Matcher(index) {
    this.index = index
    this.limits = index.limits
    this.scoring = index.scoring
    var classes = compileClasses(index.classes)
    this.byAnchor = new Map()
    this.segments = index.patterns.map(function (pattern, number) {
      var compiled = templateSegments(pattern.text)
      var anchor = pattern.anchor || anchorOf(compiled, this.limits.anchor_min)
      var group = this.byAnchor.get(anchor)
      if (!group) this.byAnchor.set(anchor, group = { numbers: [], heads: [], headOf: [] })
      var segments = compileSegments(compiled, classes), head = segments[0].head
      group.numbers.push(number)
      // the first segment's head, shared by the anchor's templates (-1: none, matchLine throws)
      if (head !== null && group.heads.indexOf(head) < 0) group.heads.push(head)
      group.headOf.push(head === null ? -1 : group.heads.indexOf(head))
      return segments
    }, this)
    this.anchors = Array.from(this.byAnchor.keys()).sort(compareStrings)
    this.keywords = new Map()
    this.partOf = new Map() // a value that is part of another (torch-compile of pytorch): naming it names that one too
    Object.keys(index.facets).forEach(function (facet) {
      var values = index.facets[facet]
      Object.keys(values).forEach(function (value) {
        if (values[value].part_of) this.partOf.set(facet + "\u0000" + value, [facet, values[value].part_of])
        keywordsOf(facet, values[value]).forEach(function (word) {
          var list = this.keywords.get(word)
          if (!list) this.keywords.set(word, list = [])
          list.push([facet, value])
        }, this)
      }, this)
    }, this)
    // each symptom's keywords, in order: the first place any of them stands is where the text names it
    this.symptomWords = new Map(Object.keys(index.facets.symptom).map(function (value) { return [value, []] }))
    this.keywords.forEach(function (pairs, word) {
      pairs.forEach(function (fv) { if (fv[0] === "symptom") this.symptomWords.get(fv[1]).push(word) }, this)
    }, this)
    this.symptomWords.forEach(function (words) { words.sort(compareStrings) })
    // One pass of one regular expression finds every anchor and keyword that stands
    // as a whole token ([a-z0-9_] on neither side), as match.py's token sets do.
    // (and the words of the phrases among the keywords: a phrase is looked for only where the text holds them all)
    var words = new Set(this.anchors)
    this.keywords.forEach(function (pairs, keyword) {
      keyword.split(" ").forEach(function (w) { if (ASCII_WORD.test(w)) words.add(w) })
    })
    var vocabulary = Array.from(words)
    // The words are [a-z0-9_]+ and the text is lowercased, so \b is exactly that boundary;
    // the alternation is a trie, which the regular expression engine runs fastest.
    this.vocabulary = vocabulary.length ? new RegExp("\\b" + trieSource(vocabulary) + "\\b", "g") : null
    this.detectors = index.version_detectors.map(function (d) {
      return { software: d.software, needle: d.needle, re: new RegExp(d.pattern, "g") }
    })
    this.slugRank = new Map(index.refs.map(function (ref, n) { return [ref.slug, n] }))
    this.triageMessage = index.patterns.map(function (p) { return p.kind === "message" && index.refs[p.ref].kind === "triage" })
    this.display = index.patterns.map(function (p) { return readable(p.text, index.readable) })
    // the words that name a cause's subject ("dataloader", "torch.save"), with the symptoms of its page
    this.subjects = []
    index.refs.forEach(function (ref, number) {
      if (ref.subject) this.subjects.push([number, ref.subject, new Set(ref.facets.symptom)])
    }, this)
  }

  /* templates.anchor_of: the first of the longest words of a template's literal text that touch no
   * placeholder (a segment ends where {*} stands; for a template that ends with {*} the index gives it). */
  function anchorOf(segments, least) {
    var anchor = null
    segments.forEach(function (segment, s) {
      segment.forEach(function (part, p) {
        if (part.lit === undefined) return
        var text = part.lit, re = /[a-z0-9_]+/g, m
        var afterPlaceholder = s > 0 || p > 0
        var beforePlaceholder = s < segments.length - 1 || p < segment.length - 1
        while ((m = re.exec(text)) !== null) {
          if (m[0].length >= least && !(m.index === 0 && afterPlaceholder) &&
              !(m.index + m[0].length === text.length && beforePlaceholder) &&
              (anchor === null || m[0].length > anchor.length)) anchor = m[0]
        }
      })
    })
    return anchor
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&")
  }

  /* A regular expression source matching exactly the given words, as a prefix trie. */
  function trieSource(words) {
    var root = new Map()
    words.forEach(function (word) {
      var node = root
      for (var k = 0; k < word.length; k++) {
        var next = node.get(word[k])
        if (!next) node.set(word[k], next = new Map())
        node = next
      }
      node.set("", null) // a word ends here
    })
    function emit(node) {
      var keys = Array.from(node.keys()).filter(function (k) { return k !== "" }).sort(compareStrings)
      if (!keys.length) return ""
      var alts = keys.map(function (k) { return escapeRegExp(k) + emit(node.get(k)) })
      if (node.has("")) return "(?:" + alts.join("|") + ")?"
      return alts.length === 1 ? alts[0] : "(?:" + alts.join("|") + ")"
    }
    return emit(root)
  }

  /* Every whole-token place of each anchor and keyword: word -> offsets, in order. */
  Matcher.prototype.scanTokens = function (lower) {
    var places = new Map(), re = this.vocabulary, m
    if (!re) return places
    re.lastIndex = 0
    while ((m = re.exec(lower)) !== null) {
      var list = places.get(m[0])
      if (list === undefined) places.set(m[0], list = [])
      list.push(m.index)
    }
    return places
  }

  function compareStrings(a, b) {
    return a < b ? -1 : a > b ? 1 : 0
  }

  /* match.merge_hit: the first line stands for a pattern, unless a later line's numbers hold
   * where the first's do not. */
  function mergeHit(found, number, hit) {
    var have = found.get(number)
    if (have === undefined) {
      found.set(number, hit)
      return
    }
    var count = have.count + hit.count
    if (hit.series) {
      have.series = have.series ? extendSeries(have.series, hit.series) : hit.series
    } else if (hit.numbers && hit.numbers.holds && !(have.numbers && have.numbers.holds)) {
      found.set(number, hit)
      have = hit
    }
    have.count = count
  }

  /* numbers.value_of: a captured number and the unit after it, [value, characters the unit takes]. */
  var UNIT_AFTER = /^[ \t]*([a-z]+)/
  function valueOf(numberText, rest, units) {
    var value = Number(numberText.replace(/,/g, ""))
    if (isNaN(value)) return null
    var m = UNIT_AFTER.exec(rest)
    if (m && Object.prototype.hasOwnProperty.call(units, m[1])) return [value * units[m[1]], m[0].length]
    return [value, 0]
  }

  function sideSum(side, values) {
    var total = 0
    for (var t = 0; t < side.length; t++) total += side[t][0] * (side[t][1] === null ? 1.0 : values[side[t][1]])
    return total
  }

  /* numbers.values_of: the captured numbers of one line with their units, or null. */
  function valuesOf(captures, lower, units) {
    var values = {}, names = Object.keys(captures)
    for (var k = 0; k < names.length; k++) {
      var span = captures[names[k]]
      var read = valueOf(lower.slice(span[0], span[1]), lower.slice(span[1]), units)
      if (read === null) return null
      values[names[k]] = read[0]
    }
    return values
  }

  /* numbers.extend: two series of one template, the second read after the first. */
  function extendSeries(series, later) {
    var w = series.window
    var last = series.last.concat(later.last)
    return { first: series.first.concat(later.first).slice(0, w), last: last.slice(Math.max(0, last.length - w)),
      lines: series.lines + later.lines, window: w }
  }

  /* numbers.shown: two decimals at most, rounded half up; Python's repr and String() agree on the digits. */
  function shownNumber(value) {
    return String(Math.floor(value * 100 + 0.5) / 100)
  }

  /* numbers.trend: what a run's series says under a condition over the run. */
  function trendNumbers(series, spec) {
    var values = { lines: series.lines }, text = { lines: String(series.lines) }
    Object.keys(series.first[0]).forEach(function (name) {
      ["first", "last"].forEach(function (end) {
        var window = series[end], total = 0
        for (var k = 0; k < window.length; k++) total += window[k][name]
        values[end + "_" + name] = total / window.length
        text[end + "_" + name] = shownNumber(total / window.length)
      })
    })
    return {
      holds: numbersHold(spec.when, values),
      says: spec.says.replace(/\{([^{}]*)\}/g, function (whole, name) {
        return Object.prototype.hasOwnProperty.call(text, name) ? text[name] : whole
      })
    }
  }

  /* match.numbers_of: what a matched pattern's numbers say, or undefined. */
  function numbersOf(pattern, hit) {
    return hit.series ? trendNumbers(hit.series, pattern.numbers) : hit.numbers
  }

  /* numbers.holds */
  function numbersHold(clauses, values) {
    for (var k = 0; k < clauses.length; k++) {
      var c = clauses[k], left = sideSum(c.left, values), right = sideSum(c.right, values)
      var ok = c.op === ">=" ? left >= right : c.op === "<=" ? left <= right : c.op === ">" ? left > right : left < right
      if (!ok) return false
    }
    return true
  }

  /* numbers.read: {holds, says} for one matched line, or null when a number cannot be read. */
  function readNumbers(captures, lower, original, spec, units) {
    var values = {}, shown = {}
    var names = Object.keys(captures)
    for (var k = 0; k < names.length; k++) {
      var span = captures[names[k]]
      var read = valueOf(lower.slice(span[0], span[1]), lower.slice(span[1]), units)
      if (read === null) return null
      values[names[k]] = read[0]
      shown[names[k]] = original.slice(span[0], span[1] + read[1])
    }
    return {
      holds: numbersHold(spec.when, values),
      says: spec.says.replace(/\{([^{}]*)\}/g, function (whole, name) {
        return Object.prototype.hasOwnProperty.call(shown, name) ? shown[name] : whole
      })
    }
  }

  /* match.Matcher.find_patterns: every matched pattern, its first line, span and count. */
  Matcher.prototype.findPatterns = function (prep, places, explained) {
    var lower = prep.lower, starts = prep.starts, patterns = this.index.patterns
    var lineCap = this.limits.line_cap
    var found = new Map()
    for (var a = 0; a < this.anchors.length; a++) {
      var anchor = this.anchors[a]
      var offsets = places.get(anchor)
      if (offsets === undefined) continue
      var lines = [], texts = []
      for (var o = 0; o < offsets.length; o++) {
        var line = lineOf(starts, offsets[o])
        if (offsets[o] + anchor.length - starts[line] > lineCap) continue
        if (lines.length && lines[lines.length - 1] === line) continue
        var begin = starts[line]
        var end = line + 1 < starts.length ? starts[line + 1] - 1 : lower.length
        lines.push(line)
        texts.push(lower.slice(begin, Math.min(end, begin + lineCap)))
      }
      var group = this.byAnchor.get(anchor), numbers = group.numbers
      // a shortcut only: a line without a template's first word cannot match it, and the templates
      // of one anchor often share that word, so each line is searched for it once (0 unknown, 1 has, 2 lacks)
      var has = new Uint8Array(group.heads.length * lines.length)
      for (var k = 0; k < numbers.length; k++) {
        var number = numbers[k]
        var segments = this.segments[number]
        var head = group.headOf[k], spec = patterns[number].numbers
        for (var l = 0; l < lines.length; l++) {
          var lowered = texts[l]
          if (head >= 0) {
            var cell = head * lines.length + l
            if (has[cell] === 0) has[cell] = lowered.indexOf(group.heads[head]) >= 0 ? 1 : 2
            if (has[cell] === 2) continue
          }
          var captures = spec ? {} : null
          var span = matchLine(segments, lowered, captures)
          if (span === null) continue
          var at = starts[lines[l]]
          var text = prep.text.slice(at, at + lowered.length)
          var hit = { line: numberOf(prep, lines[l]), start: span[0], end: span[1], text: text, count: 1 }
          if (spec && spec.over === "run") { // a series, read at the end of the run
            var values = valuesOf(captures, lowered, this.index.units)
            if (values !== null) hit.series = { first: [values], last: [values], lines: 1, window: spec.window }
          } else if (spec) {
            var read = readNumbers(captures, lowered, text, spec, this.index.units)
            if (read !== null) hit.numbers = read
          }
          mergeHit(found, number, hit)
          if (explained && this.triageMessage[number]) explained.add(lines[l])
        }
      }
    }
    return found
  }

  /* match.Matcher.revealed_facets, as [facet, value] pairs sorted like Python tuples. A keyword
   * of a script written without spaces (Chinese "超时") is found as a substring of the text.
   * after (a shortcut only, for a text that holds a subset of an earlier text's places): where each
   * keyword that is not one word first stood in the earlier text; one it lacked is not looked for. */
  Matcher.prototype.revealedFacets = function (places, lower, first, after) {
    var seen = new Map(), ascii = !NON_ASCII.test(lower), keywords = this.keywords
    // where each keyword that is not one word first stands goes into first (keywordSpans starts there)
    function found(keyword, at) {
      if (at >= 0 && first) first.set(keyword, at)
      return at >= 0
    }
    // the start of a word ("cuda_error_*"): a word that a whole keyword names is that keyword's
    function startsAWord(start, from) {
      from = lower.indexOf(start, from)
      if (from < 0) return -1
      var re = startRegExp(start), m
      re.lastIndex = from
      while ((m = re.exec(lower)) !== null) {
        if (!(keywords.has(m[0]) && ASCII_WORD.test(m[0]))) return m.index
      }
      return -1
    }
    function phraseAt(phrase, from) { // a phrase ("out of memory"), as whole words
      if (!phrase.split(" ").every(function (w) { return !ASCII_WORD.test(w) || places.has(w) })) return -1 // a shortcut only
      from = lower.indexOf(phrase.slice(0, phrase.indexOf(" ")), from)
      if (from < 0) return -1
      var re = phraseRegExp(phrase, "g"), m
      re.lastIndex = from
      m = re.exec(lower)
      return m ? m.index : -1
    }
    var present = null // the characters outside ASCII that the text holds
    function allPresent(word) {
      if (present === null) {
        present = new Set()
        var m
        NON_ASCII_RUN.lastIndex = 0
        while ((m = NON_ASCII_RUN.exec(lower)) !== null) for (var c = 0; c < m[0].length; c++) present.add(m[0][c])
      }
      for (var k = 0; k < word.length; k++) if (word.charCodeAt(k) >= 128 && !present.has(word[k])) return false
      return true
    }
    this.keywords.forEach(function (pairs, word) {
      if (ASCII_WORD.test(word)) {
        if (!places.has(word)) return
      } else {
        var star = word.endsWith("*"), phrase = !star && word.indexOf(" ") > 0 && !NON_ASCII.test(word)
        if (!star && !phrase && ascii) return // a keyword of another script, in a text that has none
        if (!star && !phrase && !allPresent(word)) return // a shortcut only: the text lacks one of its characters
        if (after && !after.has(word)) return
        var from = after ? after.get(word) : 0
        if (!found(word, star ? startsAWord(word.slice(0, -1), from)
          : phrase ? phraseAt(word, from) : lower.indexOf(word, from))) return
      }
      pairs.forEach(function (fv) { seen.set(fv[0] + "\u0000" + fv[1], fv) })
    })
    return Array.from(seen.values()).sort(function (x, y) {
      return compareStrings(x[0], y[0]) || compareStrings(x[1], y[1])
    })
  }

  /* A word that begins with start (match.Matcher._keyword_starts), global. */
  var STARTS = new Map()
  function startRegExp(start) {
    var re = STARTS.get(start)
    if (!re) STARTS.set(start, re = new RegExp("(?<![a-z0-9_])" + escapeRegExp(start) + "[a-z0-9_]+", "g"))
    return re
  }

  /* templates.phrase_pattern: the words of a phrase as whole tokens, separated by spaces or tabs, or a hyphen. */
  var PHRASES = new Map()
  function phraseRegExp(phrase, flags) {
    var key = (flags || "") + "\u0000" + phrase, re = PHRASES.get(key)
    if (!re) {
      re = new RegExp("(?<![a-z0-9_])" + phrase.split(" ").map(escapeRegExp).join("(?:[ \\t]+|-)") + "(?![a-z0-9_])", flags)
      PHRASES.set(key, re)
    }
    return re
  }

  /* Where a subject occurs in the lowered tail: [begin, end] pairs in order (match.py, subjects_named). */
  function subjectSpans(tail, phrase) {
    var spans = [], m
    var re = phraseRegExp(phrase, "g")
    re.lastIndex = 0
    while ((m = re.exec(tail)) !== null) spans.push([m.index, m.index + m[0].length])
    return spans
  }

  /* match.Matcher.subjects_named: the causes whose subject the end of the text names beside one of
   * their symptoms, each with its evidence (the first such place): cause number -> item. */
  Matcher.prototype.subjectsNamed = function (written, tail, lastLine) {
    var found = new Map()
    if (!this.subjects.length) return found
    var lines = tail.split("\n"), starts = lineStarts(tail)
    var first = lastLine - lines.length + 1, near = new Map(), self = this
    var spansOf = new Map() // phrase -> where it stands: once, however many pages name it
    function namedNear(line) { // the symptoms named on the line and its neighbours
      if (!near.has(line)) {
        var around = lines.slice(Math.max(0, line - 1), line + 2).join("\n")
        near.set(line, new Set(self.revealedFacets(self.scanTokens(around), around)
          .filter(function (fv) { return fv[0] === "symptom" }).map(function (fv) { return fv[1] })))
      }
      return near.get(line)
    }
    this.subjects.forEach(function (entry) {
      var number = entry[0], symptoms = entry[2], best = null
      entry[1].forEach(function (phrase) {
        if (!spansOf.has(phrase)) spansOf.set(phrase, subjectSpans(tail, phrase))
        var spans = spansOf.get(phrase)
        for (var k = 0; k < spans.length; k++) {
          if (best && spans[k][0] >= best.begin) break
          var line = lineOf(starts, spans[k][0])
          var both = Array.from(namedNear(line)).filter(function (v) { return symptoms.has(v) })
          if (both.length) {
            best = { begin: spans[k][0], end: spans[k][1], line: line, phrase: phrase, symptoms: both.sort(compareStrings) }
            break
          }
        }
      })
      if (best) {
        found.set(number, {
          kind: "subject", template: best.phrase, display: best.phrase, line: first + best.line,
          start: best.begin - starts[best.line], end: best.end - starts[best.line],
          text: written.slice(starts[best.line], starts[best.line] + lines[best.line].length),
          count: 1, symptoms: best.symptoms
        })
      }
    })
    return found
  }

  /* match.Matcher.hubs_by_words: the triage references whose learned words in the text weigh most, if
   * that reaches the threshold: reference number -> its terms in the text, heaviest first. */
  Matcher.prototype.hubsByWords = function (query) {
    var terms = this.index.symptom_words.terms, found = new Map(), sums = new Map(), chosen = new Map(), top = 0
    query.forEach(function (term) { // reference number -> [weight, term] of its words in the text
      if (!Object.prototype.hasOwnProperty.call(terms, term)) return
      var flat = terms[term]
      for (var k = 0; k < flat.length; k += 2) {
        if (!found.has(flat[k])) found.set(flat[k], [])
        found.get(flat[k]).push([flat[k + 1], term])
        sums.set(flat[k], (sums.get(flat[k]) || 0) + flat[k + 1])
      }
    })
    sums.forEach(function (total) { if (total > top) top = total })
    if (top < this.index.symptom_words.min) return chosen
    found.forEach(function (pairs, number) {
      if (sums.get(number) !== top) return
      chosen.set(number, pairs.sort(function (x, y) { return (y[0] - x[0]) || compareStrings(x[1], y[1]) })
        .map(function (pair) { return pair[1] }))
    })
    return chosen
  }

  /* match.line_starts */
  function lineStarts(text) {
    var starts = [0]
    for (var at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(at + 1)
    return starts
  }

  /* match.Matcher.words_place: evidence for a triage reference its learned words bring: the first three
   * words as written, on the line of the heaviest. */
  function wordsPlace(written, tail, lastLine, terms) {
    var shown = terms.slice(0, WORDS_SHOWN), places = new Map(), words = /[a-z0-9_]+/g, m
    while ((m = words.exec(tail)) !== null && places.size < shown.length) {
      wordsIn(m[0]).forEach(function (part) {
        var term = stem(part)
        if (shown.indexOf(term) >= 0 && !places.has(term)) places.set(term, [m.index, m.index + m[0].length])
      })
    }
    var starts = lineStarts(tail), span = places.get(shown[0]), line = lineOf(starts, span[0]), stop = tail.indexOf("\n", span[0])
    return {
      kind: "learned", template: shown.join(", "),
      display: shown.map(function (term) { return written.slice.apply(written, places.get(term)) }).join(", "),
      line: lastLine - starts.length + 1 + line, start: span[0] - starts[line], end: span[1] - starts[line],
      text: written.slice(starts[line], stop < 0 ? tail.length : stop), count: 1
    }
  }

  /* fulltext.stem */
  function stem(word) {
    var n = word.length
    if (n > 5 && word.endsWith("ing")) return word.slice(0, -3)
    if (n > 4 && word.endsWith("ed")) return word.slice(0, -2)
    if (n > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1)
    return word
  }

  var MACHINE_NUMBER = /^(?:0x[0-9a-f]*|(?=[a-f]*[0-9])(?=[0-9]*[a-f])[0-9a-f]{6,})$/ // fulltext.MACHINE_NUMBER
  function isTerm(word) {
    return word.length >= 2 && !DIGITS_ONLY.test(word) && !STOP_WORDS.has(word) && !MACHINE_NUMBER.test(word)
  }

  /* fulltext.words_in: the token, and each part of a name joined with underscores. */
  function wordsIn(token) {
    var found = isTerm(token) ? [token] : []
    if (token.indexOf("_") >= 0) {
      token.split("_").forEach(function (part) { if (isTerm(part)) found.push(part) })
    }
    return found
  }

  /* fulltext.terms: distinct index terms in order of first appearance; lines with boilerplate left out. */
  function fulltextTerms(lower, boilerplate) {
    var seen = new Set(), out = [], m
    if (boilerplate.some(function (b) { return lower.indexOf(b) >= 0 })) {
      lower = lower.split("\n").filter(function (line) {
        return !boilerplate.some(function (b) { return line.indexOf(b) >= 0 })
      }).join("\n")
    }
    WORD_RE.lastIndex = 0
    while ((m = WORD_RE.exec(lower)) !== null) {
      var words = wordsIn(m[0])
      for (var w = 0; w < words.length; w++) {
        var term = stem(words[w])
        if (!seen.has(term)) {
          seen.add(term)
          out.push(term)
        }
      }
    }
    WORD_RE.lastIndex = 0
    return out
  }

  /* fulltext.scores: per document, its integer weights for the query terms summed, then scaled. */
  function fulltextScores(index, query) {
    var sums = new Map(), out = new Map()
    for (var q = 0; q < query.length; q++) {
      var flat = Object.prototype.hasOwnProperty.call(index.postings, query[q]) ? index.postings[query[q]] : undefined
      if (flat === undefined) continue
      for (var k = 0, doc = 0; k < flat.length; k += 2) {
        doc += flat[k]  // documents are stored as gaps from the one before
        sums.set(doc, (sums.has(doc) ? sums.get(doc) : 0) + flat[k + 1])
      }
    }
    sums.forEach(function (total, doc) { out.set(doc, total / index.scale) })
    return out
  }

  /* match.Matcher.revealed_versions: per software, the release at the first place any of
   * its detectors finds (a substring test first, then the pattern on the lowered text). */
  Matcher.prototype.revealedVersions = function (prep) {
    var first = new Map()
    this.detectors.forEach(function (d) {
      var at = prep.lower.indexOf(d.needle)
      if (at < 0) return
      d.re.lastIndex = Math.max(0, at - 1)
      var m = d.re.exec(prep.lower)
      if (m && (!first.has(d.software) || m.index < first.get(d.software)[0])) first.set(d.software, [m.index, m[1]])
    })
    var found = new Map()
    first.forEach(function (hit, software) {
      found.set(software, { version: hit[1], line: numberOf(prep, lineOf(prep.starts, hit[0])) })
    })
    return found
  }

  /* match.version_key */
  function versionKey(version) {
    var parts = version.split(".")
    for (var k = 0; k < parts.length; k++) if (!/^[0-9]+$/.test(parts[k])) return null
    return parts.map(function (p) { return parseInt(p, 10) })
  }

  /* Python's list comparison: element by element, a prefix is smaller. */
  function compareKeys(a, b) {
    for (var k = 0; k < Math.min(a.length, b.length); k++) if (a[k] !== b[k]) return a[k] - b[k]
    return a.length - b.length
  }

  /* match.version_outside: [software, release] when every range of that software excludes it. */
  function versionOutside(ranges, revealed) {
    var names = Array.from(revealed.keys()).sort(compareStrings)
    for (var s = 0; s < names.length; s++) {
      var software = names[s], seen = revealed.get(software)
      var own = ranges.filter(function (r) { return r.software === software })
      var have = versionKey(seen.version)
      if (!own.length || have === null) continue
      var inside = false
      for (var k = 0; k < own.length; k++) {
        var r = own[k]
        var low = r.since !== undefined ? versionKey(r.since) : null
        var high = r.until !== undefined ? versionKey(r.until) : null
        if ((r.since !== undefined && low === null) || (r.until !== undefined && high === null)) { inside = true; break }
        if ((low === null || compareKeys(low, have) <= 0) && (high === null || compareKeys(have, high) < 0)) { inside = true; break }
      }
      if (!inside) return [software, seen.version]
    }
    return null
  }

  function inFacet(ref, facet, value) {
    var list = ref.facets[facet]
    return !!list && list.indexOf(value) >= 0
  }

  /* match.Matcher.named_symptoms: the symptoms named outside the lines a triage reference's message
   * explains, the lowered text with those lines blanked (same offsets) and its words' places:
   * [symptoms, rest, places]. */
  Matcher.prototype.namedSymptoms = function (prep, revealed, explained, places, first) {
    var symptoms = revealed.filter(function (fv) { return fv[0] === "symptom" })
    if (!explained.size || !symptoms.length) return [symptoms, prep.lower, places, first]
    var lower = prep.lower, starts = prep.starts, parts = [], at = 0
    Array.from(explained).sort(function (a, b) { return a - b }).forEach(function (line) {
      var end = line + 1 < starts.length ? starts[line + 1] - 1 : lower.length
      parts.push(lower.slice(at, starts[line]), " ".repeat(end - starts[line]))
      at = end
    })
    // blanking whole lines removes places and makes none, so the text's places and first places serve
    var rest = parts.join("") + lower.slice(at), restPlaces = placesOutside(places, starts, explained), restFirst = new Map()
    return [this.revealedFacets(restPlaces, rest, restFirst, first).filter(function (fv) { return fv[0] === "symptom" }),
      rest, restPlaces, restFirst]
  }

  /* The places (word -> offsets, in order) that stand on none of the given lines. */
  function placesOutside(places, starts, lines) {
    var out = new Map(), cut = Array.from(lines).sort(function (a, b) { return a - b })
    places.forEach(function (offsets, word) {
      var kept = [], c = 0
      for (var k = 0; k < offsets.length; k++) {
        var at = offsets[k]
        while (c < cut.length && cut[c] + 1 < starts.length && starts[cut[c] + 1] <= at) c++ // lines wholly before it
        if (!(c < cut.length && starts[cut[c]] <= at)) kept.push(at)
      }
      if (kept.length) out.set(word, kept)
    })
    return out
  }

  /* match.Matcher.keyword_spans: where a keyword stands in a lowered text (places: its words', as
   * scanTokens gives them), in order, as revealedFacets reads it; each(begin, end) returns true to
   * stop. A keyword whose word the text lacks is not looked for. */
  Matcher.prototype.keywordSpans = function (lower, places, first, keyword, each) {
    var keywords = this.keywords, m, re, at, k
    if (keyword.endsWith("*")) {
      if (!first.has(keyword)) return
      re = startRegExp(keyword.slice(0, -1))
      re.lastIndex = first.get(keyword)
      while ((m = re.exec(lower)) !== null) {
        if (keywords.has(m[0]) && ASCII_WORD.test(m[0])) continue
        if (each(m.index, m.index + m[0].length)) return
      }
    } else if (NON_ASCII.test(keyword)) {
      if (!first.has(keyword)) return
      for (at = first.get(keyword); at >= 0; at = lower.indexOf(keyword, at + 1)) {
        if (each(at, at + keyword.length)) return
      }
    } else if (keyword.indexOf(" ") > 0) {
      if (!first.has(keyword)) return
      re = phraseRegExp(keyword, "g")
      re.lastIndex = first.get(keyword)
      while ((m = re.exec(lower)) !== null) {
        if (each(m.index, m.index + m[0].length)) return
      }
    } else {
      var offsets = places.get(keyword) || [] // every whole-token place, in order (scanTokens)
      for (k = 0; k < offsets.length; k++) {
        if (each(offsets[k], offsets[k] + keyword.length)) return
      }
    }
  }

  /* match.Matcher.named_place: the first place in a piece where words name a symptom, within line_cap. */
  Matcher.prototype.namedPlace = function (prep, rest, places, first, value) {
    var cap = this.limits.line_cap, best = null
    this.symptomWords.get(value).forEach(function (keyword) {
      this.keywordSpans(rest, places, first, keyword, function (begin, end) {
        if (best && begin >= best[0]) return true
        if (end - prep.starts[lineOf(prep.starts, begin)] <= cap) {
          best = [begin, end, keyword]
          return true
        }
        return false
      })
    }, this)
    if (!best) return null
    var line = lineOf(prep.starts, best[0]), lineStart = prep.starts[line]
    var stop = prep.lower.indexOf("\n", lineStart)
    if (stop < 0) stop = prep.lower.length
    return { keyword: best[2], line: numberOf(prep, line), start: best[0] - lineStart, end: best[1] - lineStart,
      text: prep.text.slice(lineStart, Math.min(stop, lineStart + cap)) }
  }

  /* match.Matcher.scan: add one prepared text (or piece of a stream) to what has been read. */
  Matcher.prototype.scan = function (prep, into) {
    var places = this.scanTokens(prep.lower), explained = new Set()
    this.findPatterns(prep, places, explained).forEach(function (hit, number) { mergeHit(into.found, number, hit) })
    var first = new Map() // where each phrase and word start first stands
    var revealed = this.revealedFacets(places, prep.lower, first)
    revealed.forEach(function (fv) { into.revealed.set(fv[0] + "\u0000" + fv[1], fv) })
    var namedRest = this.namedSymptoms(prep, revealed, explained, places, first)
    namedRest[0].forEach(function (fv) { into.named.set(fv[0] + "\u0000" + fv[1], fv) })
    namedRest[0].map(function (fv) { return fv[1] }).sort(compareStrings).forEach(function (value) {
      if (into.namedAt.has(value)) return
      var place = this.namedPlace(prep, namedRest[1], namedRest[2], namedRest[3], value)
      if (place) into.namedAt.set(value, place)
    }, this)
    this.revealedVersions(prep).forEach(function (seen, software) {
      if (!into.versions.has(software)) into.versions.set(software, seen)
    })
    var chars = this.limits.fulltext_chars
    // only the end of a piece can reach the tail: never join (and so copy) a whole chunk
    into.tail = lastChars(into.tail + (prep.tail !== undefined ? prep.tail : lastChars(prep.text, chars)), chars)
    into.newlines += prep.newlines !== undefined ? prep.newlines : prep.starts.length - 1
    return into
  }

  /* match.Matcher.match: a pasted text, beyond input_cap characters its last part. */
  Matcher.prototype.match = function (text, stated, said) {
    var prep = prepare(String(text), this.limits)
    return this.result(this.scan(prep, newScan(prep.capped, prep.skipped)), stated, said)
  }

  /* match.Matcher.result: rank the references on what was read. */
  Matcher.prototype.result = function (scan, stated, said) {
    var given = {}
    Object.keys(stated || {}).forEach(function (k) { if (stated[k]) given[k] = stated[k] })
    var found = scan.found
    // releases the user states (line null) come before those the log reveals
    var versions = new Map(scan.versions)
    Object.keys(said || {}).forEach(function (k) { if (said[k]) versions.set(k, { version: said[k], line: null }) })
    var revealed = Array.from(scan.revealed.values()).sort(function (x, y) {
      return compareStrings(x[0], y[0]) || compareStrings(x[1], y[1])
    })
    var tail = asciiLower(scan.tail) // the tail is kept as written: the evidence quotes it
    var query = fulltextTerms(tail, this.index.fulltext.boilerplate).slice(0, this.limits.fulltext_terms)
    var similarity = fulltextScores(this.index.fulltext, query)
    var best = 0.0, closest = 0 // how many pages share the best score: "the closest page" must be one
    similarity.forEach(function (v) { if (v > best) best = v })
    similarity.forEach(function (v) { if (v === best) closest += 1 })
    var scoring = this.scoring, index = this.index
    var hits = Array.from(found.entries()).sort(function (x, y) {
      return (x[1].line - y[1].line) || (x[0] - y[0])
    })
    var statedFacets = Object.keys(given).sort(compareStrings)
    var symptoms = this.symptomLines(hits)
    var counted = index.refs.map(function (ref, number) { return this.evidenceOf(number, hits, versions, symptoms) }, this)
    // a cause whose subject is named beside its symptom: a clue that reaches context by itself
    var subjects = this.subjectsNamed(scan.tail, tail, scan.skipped + scan.newlines + 1)
    subjects.forEach(function (item, number) {
      counted[number] = [counted[number][0].concat([item]), counted[number][1], counted[number][2] + scoring.context_min, counted[number][3]]
    })
    // the hubs: triage references whose symptom the text names in words, outside the lines a
    // triage reference's message explains
    var named = Array.from(scan.named.values()).concat(revealed.filter(function (fv) { return fv[0] !== "symptom" }))
    named.forEach(function (fv) {
      var whole = this.partOf.get(fv[0] + "\u0000" + fv[1])
      if (whole) named.push(whole)
    }, this)
    var hubs = new Set()
    index.refs.forEach(function (ref, number) {
      if (ref.kind === "triage" && describes(ref, named, given)) hubs.add(number)
    })
    if (hubs.size === 0) { // no keyword names a symptom: the words that reports of one use may (learned.py)
      this.hubsByWords(query).forEach(function (words, number) {
        hubs.add(number)
        var item = wordsPlace(scan.tail, tail, scan.skipped + scan.newlines + 1, words)
        item.symptoms = index.refs[number].takes_in.slice(0, 1)
        counted[number] = [counted[number][0].concat([item]), counted[number][1], counted[number][2], counted[number][3]]
      })
    }
    // a hub the words of the text bring: where they stand, so the reader sees what the claim rests on
    hubs.forEach(function (number) {
      var best = null
      index.refs[number].takes_in.forEach(function (value) {
        var place = scan.namedAt.get(value)
        if (!place || !scan.named.has("symptom\u0000" + value)) return
        if (!best || place.line < best[0].line || (place.line === best[0].line &&
            (place.start < best[0].start || (place.start === best[0].start && compareStrings(value, best[1]) < 0)))) best = [place, value]
      })
      if (!best) return
      var place = best[0], evidence = counted[number][0]
      if (evidence.some(function (e) { return e.line === place.line })) return
      counted[number] = [evidence.concat([{
        kind: "named", template: place.keyword, display: place.text.slice(place.start, place.end), line: place.line,
        start: place.start, end: place.end, text: place.text, count: 1, symptoms: [best[1]]
      }]), counted[number][1], counted[number][2], counted[number][3]]
    })
    function far(hub) {
      var messages = counted[hub][1], weight = counted[hub][2], generic = counted[hub][3]
      return (similarity.has(hub) ? similarity.get(hub) : 0.0) < scoring.hub_far * best &&
        !(messages || generic || weight >= scoring.context_min)
    }
    // a text far closer to one cause page than to the hub of the symptom it names is about that
    // cause, unless the log prints one of the hub's messages, or enough of its clues to show it
    // by themselves (match.py, result)
    var hubsFar = hubs.size > 0 && Array.from(hubs).every(far)
    var results = [], strengths = []
    var beside = new Set() // causes in context by their words alone: shown after the symptom's hub
    index.refs.forEach(function (ref, number) {
      var evidence = counted[number][0], messages = counted[number][1], weight = counted[number][2]
      var generic = counted[number][3]
      var raw = similarity.has(number) ? similarity.get(number) : 0.0
      var triage = ref.kind === "triage"
      // a text that names the symptom in a few common words ("slow training") still finds its triage reference
      var described = hubs.has(number)
      if (!evidence.length && !described && raw < scoring.weak_min) return
      var agree = [], boost = 0
      statedFacets.forEach(function (facet) {
        var value = given[facet]
        if (inFacet(ref, facet, value)) {
          agree.push({ facet: facet, value: value, stated: true })
          boost += scoring.stated_facet
        }
      })
      revealed.forEach(function (fv) {
        if (inFacet(ref, fv[0], fv[1]) && given[fv[0]] !== fv[1]) {
          agree.push({ facet: fv[0], value: fv[1], stated: false })
          boost += scoring.revealed_facet
        }
      })
      var weak = best > 0 ? round3(scoring.fulltext * raw / best) : 0.0
      if (described) weight += scoring.described_symptom
      // the closest page is a candidate cause when the text is far closer to it than to the hub
      // of the symptom it names (or, naming no hub's symptom, names one of the page's and shows
      // evidence of the page's own), unless all it has is a line that many failures print
      // (match.py, result); with a clue of its own in the text, when the hubs are far
      function inContext(clues) {
        return clues - (triage ? 0 : generic) >= scoring.context_min ||
          (!generic && !triage && raw === best && best > 0 && closest === 1 &&
           ((sharesSymptom(ref, revealed) && (hubsFar || (hubs.size === 0 && evidence.length > 0))) || (clues > 0 && hubsFar)))
      }
      var strength
      if (messages || (triage && weight >= scoring.context_min)) strength = triage ? "symptom" : "message"
      else if (inContext(weight)) {
        strength = "context"
        // the closest page with nothing of its own in the text, or a page in context by its subject alone
        if (!evidence.length || (subjects.has(number) && !inContext(weight - scoring.context_min))) beside.add(ref.slug)
      } else strength = "weak"
      // a clue short of context is one more related word: in the weak band it counts for a share
      // of its weight (match.py, result)
      var clues = strength !== "weak" ? weight : scoring.weak_clue * weight
      var perMessage = triage ? scoring.symptom : scoring.message
      var score = round3(messages * perMessage + clues + boost + weak)
      strengths[number] = strength
      results.push({
        id: ref.id, slug: ref.slug, title: ref.title, url: index.ref_url.replace("{slug}", ref.slug), kind: ref.kind,
        score: score, strength: strength, label: index.strengths[strength],
        evidence: evidence, context: agree, fulltext: weak, checks: ref.checks
      })
    }, this)
    // a cause that a triage reference shown for the symptom routes to goes ahead of an equally
    // close stranger: the hub's page sends the reader to it next (match.py, result)
    var routes = new Set()
    index.refs.forEach(function (ref, number) {
      if (ref.kind === "triage" && strengths[number] === "symptom") ref.routes.forEach(function (n) { routes.add(n) })
    })
    var slugRank = this.slugRank
    results.forEach(function (result) {
      if (routes.has(slugRank.get(result.slug))) result.score = round3(result.score + scoring.routed)
    })
    // a cause in context by its words alone comes after the hub shown for the symptom (match.py, result)
    var hubShown = strengths.indexOf("symptom") >= 0
    function band(r) { return hubShown && beside.has(r.slug) ? BANDS.symptom : BANDS[r.strength] }
    results.sort(function (x, y) {
      return (band(x) - band(y)) || (beside.has(x.slug) - beside.has(y.slug)) || (y.score - x.score) ||
        compareStrings(x.id, y.id)
    })
    this.tellApart(results)
    return {
      capped: scan.capped,
      skipped_lines: scan.skipped,
      lines: scan.newlines + 1,
      revealed: revealed.map(function (fv) { return { facet: fv[0], value: fv[1] } }),
      versions: Array.from(versions.keys()).sort(compareStrings).map(function (k) {
        return { software: k, version: versions.get(k).version, line: versions.get(k).line }
      }),
      confident: results.some(function (r) { return r.strength !== "weak" }),
      results: results.slice(0, RESULTS_SHOWN)
    }
  }

  /* match.shares_symptom: the text names (in words) a symptom of this reference. */
  function sharesSymptom(ref, revealed) {
    return revealed.some(function (fv) { return fv[0] === "symptom" && ref.facets.symptom.indexOf(fv[1]) >= 0 })
  }

  /* match.describes: the text names a symptom the triage reference takes in, in words, in
   * a framework it covers (a text that names none is taken for PyTorch). revealed:
   * [facet, value] pairs. */
  function describes(ref, revealed, given) {
    var said = ref.takes_in.some(function (value) {
      return given.symptom === value || revealed.some(function (fv) { return fv[0] === "symptom" && fv[1] === value })
    })
    if (!said) return false
    var frameworks = revealed.filter(function (fv) { return fv[0] === "framework" }).map(function (fv) { return fv[1] })
    if (given.framework) frameworks.push(given.framework)
    if (!frameworks.length) frameworks.push("pytorch")
    return frameworks.some(function (f) { return ref.facets.framework.indexOf(f) >= 0 })
  }

  /* match.Matcher.evidence_of: one reference's matched patterns as evidence (specific messages
   * first), with [evidence, specific messages, clue weight, the weight of its generic lines]. */
  /* match.Matcher.symptom_lines: lines of a triage reference's message or of a line many failures print. */
  Matcher.prototype.symptomLines = function (hits) {
    var refs = this.index.refs, patterns = this.index.patterns, seen = new Set()
    hits.forEach(function (entry) {
      var pattern = patterns[entry[0]], hit = entry[1]
      if (pattern.kind !== "message") return
      var numbers = numbersOf(pattern, hit)
      var generic = numbers === undefined ? !!pattern.generic : !numbers.holds
      if (generic || refs[pattern.ref].kind === "triage") seen.add(hit.line)
    })
    return Array.from(seen).sort(function (a, b) { return a - b })
  }

  Matcher.prototype.evidenceOf = function (number, hits, versions, symptoms) {
    var nearLines = this.limits.near_lines, isCause = this.index.refs[number].kind === "cause"
    var scoring = this.scoring, index = this.index, patterns = index.patterns, display = this.display
    var evidence = [], messages = 0, weight = 0, generic = 0
    var genericLines = new Set() // a clue inside a line many failures print is part of that line, not more
    hits.forEach(function (entry) {
      var pattern = patterns[entry[0]], hit = entry[1]
      if (pattern.ref !== number) return
      var item = {
        kind: pattern.kind, template: pattern.text, display: display[entry[0]],
        line: hit.line, start: hit.start, end: hit.end, text: hit.text, count: hit.count
      }
      var numbers = numbersOf(pattern, hit)
      if (numbers !== undefined) item.numbers = numbers
      // a line whose numbers were read is this cause's evidence only when they hold
      var isGeneric = numbers === undefined ? !!pattern.generic : !numbers.holds
      if (pattern.versions_text !== undefined) item.versions = pattern.versions_text
      var outside = versionOutside(pattern.versions || [], versions)
      if (outside) {
        item.version_note = (versions.get(outside[0]).line === null ? "you run " : "the log shows ") +
          (index.software[outside[0]] || outside[0]) + " " + outside[1] + ", which does not print this wording"
      }
      if (isGeneric) item.generic = true
      evidence.push(item)
      if (pattern.kind !== "message") {
        if (genericLines.has(hit.line)) return
        weight += pattern.weight
        // a clue of this cause just before a symptom line: what the job was doing when it came
        var at = 0
        while (at < symptoms.length && symptoms[at] <= hit.line) at++
        if (isCause && at < symptoms.length && symptoms[at] - hit.line <= nearLines) {
          item.near = symptoms[at]
          weight += scoring.near_symptom
        }
      }
      else if (outside) weight += scoring.out_of_range
      else if (isGeneric) {
        generic = scoring.generic_message // however many generic lines: one symptom, counted once
        genericLines.add(hit.line)
      }
      else if (numbers !== undefined && pattern.numbers.counts === "context") weight += scoring.context_min
      else messages += 1
    })
    // a stable sort: specific messages first, then by line (Array.prototype.sort is stable)
    function later(e) { return (e.kind !== "message" || e.generic === true || e.version_note !== undefined) ? 1 : 0 }
    evidence.sort(function (x, y) { return (later(x) - later(y)) || (x.line - y.line) })
    return [evidence, messages, weight + generic, generic]
  }

  /* match.Matcher.tell_apart: a close runner-up that either names as a look-alike. */
  Matcher.prototype.tellApart = function (results) {
    if (results.length < 2) return
    var first = results[0], second = results[1]
    if (second.strength === "weak" || BANDS[first.strength] !== BANDS[second.strength]) return
    if (second.score < this.scoring.close * first.score) return
    var refs = this.index.refs
    var pairs = [[first, second], [second, first]]
    for (var p = 0; p < pairs.length; p++) {
      var self_ = pairs[p][0], other = pairs[p][1]
      var looks = refs[this.slugRank.get(self_.slug)].lookalikes
      for (var k = 0; k < looks.length; k++) {
        var look = looks[k]
        if (look.slug !== other.slug) continue
        // the note and its check: in the index itself (match-index.json), or in the notes' script
        var full = look.tell !== undefined ? look : this.tellOf(self_.slug, other.slug)
        if (full === undefined) return // the warm-up runs before the notes may load
        var note = { id: other.id, slug: other.slug, title: other.title, from: self_.id, tell: full.tell }
        if (full.check) {
          note.check = { id: full.check.id, title: full.check.title, url: self_.url + "#check-" + full.check.id }
        }
        first.versus = note
        return
      }
    }
  }

  /* A look-alike note ({tell, check}) from the script of notes, loaded on first need (once tellsUrl is set). */
  Matcher.prototype.tellOf = function (slug, other) {
    if (!this.tellsUrl) return undefined
    if (typeof self.__matchTells === "undefined") importScripts(this.tellsUrl)
    return self.__matchTells[slug][other]
  }

  /* ---- The worker's side of the conversation ---- */

  var matcher = null

  function sameOrigin(url) {
    try {
      return new URL(url, self.location.href).origin === self.location.origin
    } catch (err) {
      return false
    }
  }

  function init(data) {
    if (!sameOrigin(data.index) || !sameOrigin(data.tells)) throw new Error("the matcher loads files from its own site only")
    if (typeof self.__matchIndex === "undefined") importScripts(data.index)
    var index = self.__matchIndex
    matcher = new Matcher(index)
    // Warm up: the first run compiles the regular expressions and the hot functions,
    // so the reader's first paste does not pay for it.
    var sample = index.patterns.map(function (p) { return p.text }).join("\n")
    for (var k = 0; k < 3; k++) matcher.match(sample + "\n" + sample.toUpperCase(), {})
    matcher.tellsUrl = data.tells // after the warm-up, which must not fetch the look-alike notes
    var facets = {}
    Object.keys(index.facets).forEach(function (facet) {
      facets[facet] = Object.keys(index.facets[facet]).map(function (value) {
        return { value: value, label: index.facets[facet][value].label }
      })
    })
    return { type: "ready", facets: facets, refs: index.refs.length, limits: index.limits, software: index.software }
  }

  var CHUNK_BYTES = 4 * 1024 * 1024

  /* match.Matcher.match_stream for a File or Blob: read in chunks (Blob.slice), decoded as
   * one UTF-8 stream, joined at line breaks; progress(read, total) after each chunk. Memory
   * holds one chunk and the evidence, whatever the file's size. */
  Matcher.prototype.matchFile = function (blob, stated, said, progress) {
    var reader = new FileReaderSync(), picker = this.picker || (this.picker = new LinePicker(this.index))
    var lines = new ByteLineJoiner(), scan = newScan(false, 0), limits = this.limits, self_ = this
    function take(piece) {
      if (piece !== null) self_.scan(preparePicked(piece, limits, scan.skipped + scan.newlines, picker), scan)
    }
    for (var at = 0; at < blob.size; at += CHUNK_BYTES) {
      lines.pieces(new Uint8Array(reader.readAsArrayBuffer(blob.slice(at, Math.min(blob.size, at + CHUNK_BYTES))))).forEach(take)
      if (progress) progress(Math.min(blob.size, at + CHUNK_BYTES), blob.size)
    }
    take(lines.end())
    return this.result(scan, stated, said)
  }

  self.__Matcher = Matcher
  self.__LineJoiner = LineJoiner
  self.__prepare = prepare
  self.__matchLine = matchLine

  /* One message from the page, one answer (null for a message it does not know).
   * The worker's onmessage below uses it, and so does match-page.js where no worker
   * can start (a page opened from file://), after loading this file, the match index
   * and the look-alike notes with script elements: init then finds them loaded. */
  function answer(data, post) {
    try {
      if (data.type === "init") return init(data)
      if (data.type !== "match") return null
      if (!matcher) throw new Error("the match index is not loaded yet")
      var t0 = performance.now()
      var result = data.file !== undefined
        ? matcher.matchFile(data.file, data.stated || {}, data.versions || {}, post && function (read, total) {
          post({ type: "progress", id: data.id, read: read, total: total, ms: performance.now() - t0 })
        })
        : matcher.match(data.text, data.stated || {}, data.versions || {})
      return { type: "result", id: data.id, result: result, ms: performance.now() - t0 }
    } catch (err) {
      return { type: "error", id: data.id, message: String(err && err.message || err) }
    }
  }
  self.__matchAnswer = answer

  if (typeof self.postMessage === "function" && typeof self.importScripts === "function") {
    self.onmessage = function (ev) {
      var reply = answer(ev.data || {}, function (msg) { self.postMessage(msg) })
      if (reply) self.postMessage(reply)
    }
  }
})()
