"""The lines of a large input worth matching, found by Hyperscan (the ``hyperscan`` wheel).

One caseless pass over the raw bytes finds every line that could count: a line
where a message template or clue could match (the longest piece of its literal
parts, single-spaced), a facet keyword (ASCII or not, as a substring), a version
detector's needle, or a marker: an ANSI escape or spacing other than one plain
space, after which the line is read against every template. Every expression is
a plain literal, which keeps the pass several times faster than with the
matcher's runs of spaces written as classes. Every step of the matcher
reads one line at a time, so matching those lines alone, with their true line
numbers, gives the same result as matching the whole text; the full-text tail is
still taken from the end of the whole input. Without the wheel (or for an index
it cannot serve) ``build`` gives None and the matcher reads every line.

Compiling the database takes about a second, so the compiled form is kept in the
user's cache directory (``PERFREF_CACHE`` or ``$XDG_CACHE_HOME/perfref``), keyed by
its patterns and the engine's version; a cache that cannot be read or written is
only slower.
"""

from __future__ import annotations

import hashlib

from .index import cache_dir, write_cached
from .templates import _words, ascii_lower

try:  # optional: the matcher reads every line without it
    import hyperscan
except ImportError:  # pragma: no cover - depends on the platform's wheel
    hyperscan = None


_ESCAPED = {c: f"\\x{c:02x}" for c in range(128) if not chr(c).isalnum()}


def _escape(text: str) -> str:
    """A literal as a Hyperscan expression: letters and digits as they are, every other byte as \\xHH."""
    if text.isascii():
        return text.translate(_ESCAPED)
    return "".join(c.translate(_ESCAPED) if c.isascii() else "".join(f"\\x{b:02x}" for b in c.encode()) for c in text)


def _pieces(lit: str) -> list[str]:
    """The parts of a literal that a matching line holds verbatim when each run of spaces between
    its words is one space: the matcher also takes no space after a colon, so the literal is cut there."""
    pieces, words = [], []
    for word in _words(lit):
        words.append(word)
        if word.endswith(":"):
            pieces.append(" ".join(words))
            words = []
    if words:
        pieces.append(" ".join(words))
    return [piece for piece in pieces if piece]


def spaced_literal_of(pattern: dict) -> str:
    """The template's longest literal part as the matcher reads it: one space is a run of spaces or
    tabs (none after a colon). An expression, not a literal: kept for the few templates read over a run."""
    lit = max((part["lit"] for seg in pattern["segments"] for part in seg if "lit" in part), key=len)
    words = _words(lit)
    out = [_escape(words[0])]
    for before, word in zip(words, words[1:]):
        out.append("[ \\t\\r\\f\\v]" + ("*" if before.endswith(":") else "+") + _escape(word))
    return "".join(out)


def over_run(pattern: dict) -> bool:
    return pattern.get("numbers", {}).get("over") == "run"


def literal_of(pattern: dict) -> str:
    """The literal a line must hold for the template to match it, unless the line holds a marker:
    the longest single-spaced piece of its literal parts (the longest is the rarest), lowercased."""
    return ascii_lower(max((piece for seg in pattern["segments"] for part in seg if "lit" in part
                            for piece in _pieces(part["lit"])), key=len))


# A line holding one of these may match a template without holding its literal as written: an ANSI
# escape (prepare strips escapes, so a word cut by one still counts), or spacing that is not one plain
# space (the matcher reads a template's space as any run of spaces, tabs, CR, FF or VT). Such a line is
# read against every template; keeping every other expression a plain literal keeps the pass fast.
ESCAPE = "\\x1b"
# (two spaces after a word, not indentation: a template's literal starts at a word)
MARKERS = (ESCAPE, "[^\\x20\\t\\r\\n\\f\\v]\\x20\\x20", _escape("\t"), _escape("\r"), _escape("\f"), _escape("\v"))


def literals(index: dict) -> set[str] | None:
    """Every literal a line may need to hold to count (lowercased); None when a caseless byte pass cannot be exact."""
    found = {literal_of(pattern) for pattern in index["patterns"]}
    for values in index["facets"].values():
        for spec in values.values():
            for word in spec["keywords"]:
                if not word.isascii() and (word.upper() != word or word.lower() != word):
                    return None  # a cased non-ASCII keyword: the byte pass folds ASCII case only
                found.add(ascii_lower(word))  # a phrase ("out of memory") with other spacing holds a marker
    for detector in index["version_detectors"]:
        found.add(ascii_lower(detector["needle"]))
    return found


def covering(found: set[str]) -> dict[str, str]:
    """Each literal -> the shortest literal inside it ("pytorch" -> "torch"): a line that holds one
    holds the other, so the pass looks for the short ones only (half as many, and fewer reports)."""
    kept: list[str] = []
    cover = {}
    for literal in sorted(found, key=lambda text: (len(text), text)):
        inside = next((short for short in kept if short in literal), None)
        if inside is None:
            kept.append(literal)
        cover[literal] = inside or literal
    return cover


def expressions(index: dict, cover: dict[str, str]) -> list[str]:
    """The expressions of the pass: the covering literals, the markers and the series' spaced literals."""
    out = {_escape(literal) for literal in set(cover.values())}
    out.update(spaced_literal_of(pattern) for pattern in index["patterns"] if over_run(pattern))
    out.update(MARKERS)
    return sorted(out)


class Prefilter:
    """Picks, in one pass over the bytes of whole lines, the lines the matcher must read."""

    def __init__(self, database, patterns: list[str], index: dict, cover: dict[str, str]):
        self.database = database
        self.id_of = {pattern: number for number, pattern in enumerate(patterns)}
        # per template: the expression a line it matches holds (unless the line holds a marker)
        self.literal_ids = [self.id_of[_escape(cover[literal_of(p)])] for p in index["patterns"]]
        self.any_template = frozenset(self.id_of[marker] for marker in MARKERS)
        # the templates read over the run (numbers.over == "run"), found with any spacing: their lines
        # are never folded into one, since each copy's place in the run counts
        self.series = frozenset(self.id_of[spaced_literal_of(p)] for p in index["patterns"] if over_run(p))

    def select(self, data) -> dict[int, set[int]]:
        """The lines (LF-separated) that hold a match: start offset -> the numbers of the expressions found, in order."""
        lines: dict[int, set[int]] = {}
        line = [0, -1, None]  # the start, the end and the expressions of the last line hit

        def on_match(number, _start, end, _flags, _context):
            if not line[0] < end <= line[1]:
                start = data.rfind(b"\n", 0, end) + 1
                stop = data.find(b"\n", end)
                line[0], line[1] = start, len(data) if stop < 0 else stop
                line[2] = lines.setdefault(start, set())
            line[2].add(number)
            return None

        self.database.scan(data, match_event_handler=on_match)
        starts = list(lines)
        if any(b <= a for a, b in zip(starts, starts[1:])):  # the engine may report out of order
            lines = dict(sorted(lines.items()))
        return lines


def build(index: dict) -> Prefilter | None:
    """A prefilter for this index, or None (no engine, or an index it cannot serve exactly)."""
    if hyperscan is None:
        return None
    found = literals(index)
    if not found:
        return None
    cover = covering(found)
    patterns = expressions(index, cover)
    flags = hyperscan.HS_FLAG_CASELESS
    key = hashlib.sha256("\n".join([getattr(hyperscan, "__version__", ""), str(flags), *patterns]).encode()).hexdigest()[:32]
    path = cache_dir() / f"prefilter-{key}.hsdb"
    try:
        database = hyperscan.loadb(path.read_bytes(), hyperscan.HS_MODE_BLOCK)
        database.scratch = hyperscan.Scratch(database)  # a loaded database comes without one
        return Prefilter(database, patterns, index, cover)
    except Exception:  # absent, unreadable or made by another build of the engine: compile
        pass
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    try:
        database.compile(expressions=[p.encode() for p in patterns], ids=list(range(len(patterns))),
                         elements=len(patterns), flags=[flags] * len(patterns))
    except Exception:
        return None  # an expression the engine refuses: read every line
    write_cached(path, hyperscan.dumpb(database))
    return Prefilter(database, patterns, index, cover)
