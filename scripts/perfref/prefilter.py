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
import re

from .index import cache_dir, write_cached
from .templates import _words, ascii_lower, keywords_of, pattern_segments

try:  # optional: the matcher reads every line without it
    import hyperscan
except ImportError:  # pragma: no cover - depends on the platform's wheel
    hyperscan = None


_WORD = re.compile(r"[a-z0-9_]+")
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
    lit = max((part["lit"] for seg in pattern_segments(pattern) for part in seg if "lit" in part), key=len)
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
    return ascii_lower(max((piece for seg in pattern_segments(pattern) for part in seg if "lit" in part
                            for piece in _pieces(part["lit"])), key=len))


# A line holding one of these may match a template without holding its literal as written: an ANSI
# escape (prepare strips escapes, so a word cut by one still counts), or spacing that is not one plain
# space (the matcher reads a template's space as any run of spaces, tabs, CR, FF or VT). Such a line is
# read against every template; keeping every other expression a plain literal keeps the pass fast.
ESCAPE = "\\x1b"
# (two spaces after a word, not indentation: a template's literal starts at a word)
MARKERS = (ESCAPE, "[^\\x20\\t\\r\\n\\f\\v]\\x20\\x20", _escape("\t"), _escape("\r"), _escape("\f"), _escape("\v"))


def context_words(index: dict) -> dict[str, list[tuple[str, str]]]:
    """The keywords that only say which framework or hardware a text is about (single ASCII words
    of no symptom): where they stand never counts, only that they occur as words somewhere, so the
    pass reports each once per piece instead of picking every line that holds one."""
    pairs: dict[str, list[tuple[str, str]]] = {}
    for facet, values in index["facets"].items():
        for value, spec in values.items():
            for word in keywords_of(facet, spec):
                if _WORD.fullmatch(ascii_lower(word)):  # as the matcher reads words; any other keyword stays a literal
                    pairs.setdefault(ascii_lower(word), []).append((facet, value))
    return {word: found for word, found in pairs.items() if all(facet != "symptom" for facet, _ in found)}


def literals(index: dict, context: dict) -> set[str] | None:
    """Every literal a line may need to hold to count (lowercased); None when a caseless byte pass cannot be exact."""
    found = {literal_of(pattern) for pattern in index["patterns"]}
    for facet, values in index["facets"].items():
        for spec in values.values():
            for word in keywords_of(facet, spec):
                if not word.isascii() and (word.upper() != word or word.lower() != word):
                    return None  # a cased non-ASCII keyword: the byte pass folds ASCII case only
                word = ascii_lower(word).removesuffix("*")  # the start of a word ("cuda_error_*") is a literal too
                if word not in context:
                    found.add(word)  # a phrase ("out of memory") with other spacing holds a marker
                    if " " in word and word.isascii():
                        found.add(word.replace(" ", "-"))  # or is written with hyphens (templates.phrase_pattern)
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


def expressions(index: dict, cover: dict[str, str], context: dict) -> list[str]:
    """The expressions of the pass: the covering literals, the markers and the series' spaced literals,
    then the context words (as whole words: the matcher's words are runs of [a-z0-9_])."""
    lines = {_escape(literal) for literal in set(cover.values())}
    lines.update(spaced_literal_of(pattern) for pattern in index["patterns"] if over_run(pattern))
    lines.update(MARKERS)
    return sorted(lines) + [context_expression(word) for word in sorted(context)]


def context_expression(word: str) -> str:
    return "\\b" + _escape(word) + "\\b"


class Prefilter:
    """Picks, in one pass over the bytes of whole lines, the lines the matcher must read."""

    def __init__(self, database, escaped, patterns: list[str], index: dict, cover: dict[str, str], context: dict):
        self.database, self.escaped = database, escaped
        self.id_of = {pattern: number for number, pattern in enumerate(patterns)}
        # the context words come last: an expression numbered from here on reveals facets, not a line
        self.first_context = len(patterns) - len(context)
        self.context_pairs = {self.id_of[context_expression(word)]: pairs for word, pairs in context.items()}
        # per template: the expression a line it matches holds (unless the line holds a marker)
        self.literal_ids = [self.id_of[_escape(cover[literal_of(p)])] for p in index["patterns"]]
        self.any_template = frozenset(self.id_of[marker] for marker in MARKERS)
        # the templates read over the run (numbers.over == "run"), found with any spacing: their lines
        # are never folded into one, since each copy's place in the run counts
        self.series = frozenset(self.id_of[spaced_literal_of(p)] for p in index["patterns"] if over_run(p))

    def select(self, data, end: int | None = None) -> tuple[dict[int, set[int]], set[tuple[str, str]]]:
        """The lines (LF-separated) of ``data[:end]`` that hold a match: start offset -> the numbers of the
        expressions found, in order; and the (facet, value) pairs the context words reveal."""
        end = len(data) if end is None else end
        lines: dict[int, set[int]] = {}
        line = [0, -1, None]  # the start, the end and the expressions of the last line hit
        escaped = data.find(b"\x1b", 0, end) >= 0  # context words are then picked with their lines, as literals
        first_context = len(self.id_of) if escaped else self.first_context
        context: set[int] = set()

        def on_match(number, _start, at, _flags, _context):
            if number >= first_context:
                context.add(number)
                return None
            if not line[0] < at <= line[1]:
                start = data.rfind(b"\n", 0, at) + 1
                stop = data.find(b"\n", at, end)
                line[0], line[1] = start, end if stop < 0 else stop
                line[2] = lines.setdefault(start, set())
            line[2].add(number)
            return None

        view = data if end == len(data) else memoryview(data)[:end]
        (self.escaped if escaped else self.database).scan(view, match_event_handler=on_match)
        starts = list(lines)
        if any(b <= a for a, b in zip(starts, starts[1:])):  # the engine may report out of order
            lines = dict(sorted(lines.items()))
        return lines, {pair for number in context for pair in self.context_pairs[number]}


def _database(patterns: list[str], flags: list[int]):
    """The compiled expressions, from the cache when an earlier run compiled the same; None if the engine refuses one."""
    key = hashlib.sha256("\n".join([getattr(hyperscan, "__version__", ""), *map(str, flags), *patterns]).encode()).hexdigest()[:32]
    path = cache_dir() / f"prefilter-{key}.hsdb"
    try:
        database = hyperscan.loadb(path.read_bytes(), hyperscan.HS_MODE_BLOCK)
        database.scratch = hyperscan.Scratch(database)  # a loaded database comes without one
        return database
    except Exception:  # absent, unreadable or made by another build of the engine: compile
        pass
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    try:
        database.compile(expressions=[p.encode() for p in patterns], ids=list(range(len(patterns))),
                         elements=len(patterns), flags=flags)
    except Exception:
        return None
    write_cached(path, hyperscan.dumpb(database))
    return database


def build(index: dict) -> Prefilter | None:
    """A prefilter for this index, or None (no engine, or an index it cannot serve exactly)."""
    if hyperscan is None:
        return None
    context = context_words(index)
    found = literals(index, context)
    if not found:
        return None
    cover = covering(found)
    patterns = expressions(index, cover, context)
    caseless, lines = hyperscan.HS_FLAG_CASELESS, len(patterns) - len(context)
    # once per piece is enough for a context word; in a piece with ANSI escapes the word is read from
    # its lines instead (an escape stripped by the matcher can join a word to its neighbour)
    database = _database(patterns, [caseless] * lines + [caseless | hyperscan.HS_FLAG_SINGLEMATCH] * len(context))
    escaped = _database(patterns[:lines] + [_escape(word) for word in sorted(context)], [caseless] * len(patterns))
    if database is None or escaped is None:
        return None  # an expression the engine refuses: read every line
    return Prefilter(database, escaped, patterns, index, cover, context)
