"""The lines of a large input worth matching, found by Hyperscan (the ``hyperscan`` wheel).

One caseless pass over the raw bytes finds every line that could count: a line
where a message template or clue could match (its longest literal part, with the
runs of spaces the matcher allows), a facet keyword (ASCII or not, as a
substring), a version detector's needle, or an ANSI escape (prepare strips
escapes, so a word cut by one is matched as today). Every step of the matcher
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
import os
import tempfile
from pathlib import Path

from .templates import _words

try:  # optional: the matcher reads every line without it
    import hyperscan
except ImportError:  # pragma: no cover - depends on the platform's wheel
    hyperscan = None


def _escape(text: str) -> str:
    """A literal for Hyperscan: letters and digits as they are, every other byte as \\xHH."""
    return "".join(c if c.isascii() and c.isalnum() else "".join(f"\\x{b:02x}" for b in c.encode()) for c in text)


def lit_regex(lit: str) -> str:
    """A template literal as the matcher reads it: one space is a run of spaces or tabs (none after a colon)."""
    words = _words(lit)
    out = [_escape(words[0])]
    for before, word in zip(words, words[1:]):
        out.append("[ \\t\\r\\f\\v]" + ("*" if before.endswith(":") else "+") + _escape(word))
    return "".join(out)


def literal_of(pattern: dict) -> str:
    """The expression a line must match for the template to match it: any line the template
    matches holds each of its literal parts; the longest is the rarest."""
    return lit_regex(max((part["lit"] for seg in pattern["segments"] for part in seg if "lit" in part), key=len))


ESCAPE = "\\x1b"


def expressions(index: dict) -> list[str] | None:
    """The patterns that pick the lines worth matching; None when a caseless byte pass cannot be exact."""
    found = {literal_of(pattern) for pattern in index["patterns"]}
    for values in index["facets"].values():
        for spec in values.values():
            for word in spec["keywords"]:
                if not word.isascii() and (word.upper() != word or word.lower() != word):
                    return None  # a cased non-ASCII keyword: the byte pass folds ASCII case only
                # a phrase ("out of memory"): its words with any run of spaces or tabs between them
                found.add("[ \\t]+".join(_escape(w) for w in word.split(" ")) if " " in word else _escape(word))
    for detector in index["version_detectors"]:
        found.add(_escape(detector["needle"]))
    found.add(ESCAPE)
    return sorted(found)


def _cache_dir() -> Path:
    base = os.environ.get("PERFREF_CACHE")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "perfref"


class Prefilter:
    """Picks, in one pass over the bytes of whole lines, the lines the matcher must read."""

    def __init__(self, database, patterns: list[str], index: dict):
        self.database = database
        self.id_of = {pattern: number for number, pattern in enumerate(patterns)}
        self.escape = self.id_of[ESCAPE]
        # the expressions of templates read over the run (numbers.over == "run"): their lines are never
        # folded into one, since each copy's place in the run counts
        self.series = frozenset(self.id_of[literal_of(p)] for p in index["patterns"]
                                if p.get("numbers", {}).get("over") == "run")

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
    patterns = expressions(index)
    if not patterns:
        return None
    flags = hyperscan.HS_FLAG_CASELESS
    key = hashlib.sha256("\n".join([getattr(hyperscan, "__version__", ""), str(flags), *patterns]).encode()).hexdigest()[:32]
    path = _cache_dir() / f"prefilter-{key}.hsdb"
    try:
        database = hyperscan.loadb(path.read_bytes(), hyperscan.HS_MODE_BLOCK)
        database.scratch = hyperscan.Scratch(database)  # a loaded database comes without one
        return Prefilter(database, patterns, index)
    except Exception:  # absent, unreadable or made by another build of the engine: compile
        pass
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    try:
        database.compile(expressions=[p.encode() for p in patterns], ids=list(range(len(patterns))),
                         elements=len(patterns), flags=[flags] * len(patterns))
    except Exception:
        return None  # an expression the engine refuses: read every line
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as tmp:
            tmp.write(hyperscan.dumpb(database))
        os.replace(tmp.name, path)
    except OSError:
        pass
    return Prefilter(database, patterns, index)
