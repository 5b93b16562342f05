"""The Python twin of the browser's matcher (docs/assets/javascripts/match-worker.js).

Both read the same emitted match index (emit.match_index) and run the same
steps, so they rank every input the same way; tests/data/match-vectors.json
holds them to it.

1. Normalise: treat CR as a line break, keep the last ``input_cap``
   characters (starting at a whole line), strip ANSI escapes.
2. Find anchors by token lookup: the distinct words of the input meet the
   anchors of the templates; only lines holding an anchor run a template.
3. Score: a message template counts once (with its count of lines), a signal
   once, agreeing facets (stated or seen in the text) add a little, and lunr
   full-text similarity adds a capped amount.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field

from lunr.index import Index

from .templates import StepCounter, ascii_lower, inner_words, match_line

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
WORD = re.compile(r"[a-z0-9_]+")
RESULTS_SHOWN = 10


def round3(x: float) -> float:
    """Round as JavaScript's Math.round(x * 1000) / 1000 does (half up), for parity."""
    return math.floor(x * 1000 + 0.5) / 1000


# Every byte that is not [a-z0-9_] becomes a space, so bytes.split() yields the words:
# ten times faster than a regex over a large log. Non-ASCII bytes are separators,
# as non-ASCII characters are in the browser's /[a-z0-9_]+/.
_WORD_BYTES = bytes(c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789_" else 32 for c in range(256))


def words_of(lower: str) -> set[bytes]:
    """The distinct words (runs of [a-z0-9_]), as bytes: anchors and keywords are looked up in it."""
    return set(lower.encode("utf-8", "surrogatepass").translate(_WORD_BYTES).split())


@dataclass
class Prepared:
    text: str  # normalised, original case
    lower: str
    capped: bool
    skipped_lines: int  # lines dropped before the matched part (for line numbers)
    line_starts: list[int] = field(default_factory=list)
    words: set[bytes] = field(default_factory=set)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) - 1


def prepare(text: str, limits: dict) -> Prepared:
    capped, skipped = False, 0
    cap = limits["input_cap"]
    if "\r" in text:  # line breaks first, so the cap cuts at a line start whatever the breaks are
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > cap:
        cut = len(text) - cap
        newline = text.find("\n", cut - 1)
        start = newline + 1 if newline >= 0 else cut
        skipped = text.count("\n", 0, start)
        text = text[start:]
        capped = True
    if "\x1b" in text:
        text = ANSI_ESCAPE.sub("", text)
    prepared = Prepared(text, ascii_lower(text), capped, skipped)
    prepared.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    prepared.words = words_of(prepared.lower)
    return prepared


_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def _whole_word_offsets(lower: str, word: str):
    """Offsets where ``word`` stands as a whole token (str.find: far faster than a regex with lookbehind)."""
    size = len(word)
    at = lower.find(word)
    while at >= 0:
        if (at == 0 or lower[at - 1] not in _WORD_CHARS) and lower[at + size:at + size + 1] not in _WORD_CHARS:
            yield at
        at = lower.find(word, at + 1)


class Matcher:
    """Holds one loaded match index; ``match`` is pure and can be called many times."""

    def __init__(self, index: dict):
        self.index = index
        self.limits = index["limits"]
        self.scoring = index["scoring"]
        self.by_anchor: dict[str, list[int]] = {}
        for number, pattern in enumerate(index["patterns"]):
            self.by_anchor.setdefault(pattern["anchor"], []).append(number)
        self.keywords: dict[str, list[tuple[str, str]]] = {}
        for facet, values in index["facets"].items():
            for value, spec in values.items():
                for word in spec["keywords"]:
                    self.keywords.setdefault(word, []).append((facet, value))
        self._required = [frozenset(inner_words(p["segments"])) for p in index["patterns"]]
        self._anchor_words = {a.encode(): a for a in self.by_anchor}
        self._keyword_words = {k.encode(): v for k, v in self.keywords.items()}
        self.fulltext = Index.load(index["fulltext"]) if index["fulltext"] else None

    # ---- step 2: templates ----

    def find_patterns(self, prepared: Prepared, counter: StepCounter | None = None) -> dict[int, dict]:
        """Every matched pattern: its first line, span and how many lines matched."""
        found: dict[int, dict] = {}
        line_cap = self.limits["line_cap"]
        for anchor in sorted(self._anchor_words[w] for w in prepared.words & self._anchor_words.keys()):
            lines: list[int] = []
            for at in _whole_word_offsets(prepared.lower, anchor):
                line = prepared.line_of(at)
                if at + len(anchor) - prepared.line_starts[line] > line_cap:
                    continue
                if not lines or lines[-1] != line:
                    lines.append(line)
            texts = {}
            for line in lines:
                begin = prepared.line_starts[line]
                end = prepared.lower.find("\n", begin)
                end = len(prepared.lower) if end < 0 else end
                texts[line] = prepared.lower[begin:min(end, begin + line_cap)]
            line_words: dict[int, set[str]] = {}
            for number in self.by_anchor[anchor]:
                segments = self.index["patterns"][number]["segments"]
                required = self._required[number]
                for line in lines:
                    if required:
                        # a shortcut only: a line without one of the template's inner words cannot match
                        words = line_words.get(line)
                        if words is None:
                            words = line_words[line] = set(WORD.findall(texts[line]))
                        if not required <= words:
                            continue
                    begin = prepared.line_starts[line]
                    span = match_line(segments, texts[line], counter)
                    if span is None:
                        continue
                    hit = found.get(number)
                    if hit is None:
                        found[number] = {
                            "line": line + 1 + prepared.skipped_lines,
                            "start": span[0],
                            "end": span[1],
                            "text": prepared.text[begin:begin + len(texts[line])],
                            "count": 1,
                        }
                    else:
                        hit["count"] += 1
        return found

    # ---- step 3: context and full text ----

    def revealed_facets(self, prepared: Prepared) -> set[tuple[str, str]]:
        return {fv for word in prepared.words & self._keyword_words.keys() for fv in self._keyword_words[word]}

    def fulltext_scores(self, prepared: Prepared) -> dict[int, float]:
        tail = prepared.lower[-self.limits["fulltext_chars"]:]
        terms: list[str] = []
        for word in WORD.findall(tail):
            if len(word) >= 3 and not word.isdigit() and word not in terms:
                terms.append(word)
                if len(terms) == self.limits["fulltext_terms"]:
                    break
        if not terms or self.fulltext is None:
            return {}
        query = self.fulltext.create_query()
        for term in terms:
            query.term(term, use_pipeline=True)
        return {int(r["ref"]): r["score"] for r in self.fulltext.query(query)}

    def match(self, text: str, stated: dict[str, str] | None = None) -> dict:
        stated = {k: v for k, v in (stated or {}).items() if v}
        prepared = prepare(text, self.limits)
        found = self.find_patterns(prepared)
        revealed = self.revealed_facets(prepared)
        fulltext = self.fulltext_scores(prepared)
        scoring = self.scoring
        results = []
        for number, ref in enumerate(self.index["refs"]):
            evidence = []
            messages, signal_weight = 0, 0
            for p_number, hit in sorted(found.items(), key=lambda kv: (kv[1]["line"], kv[0])):
                pattern = self.index["patterns"][p_number]
                if pattern["ref"] != number:
                    continue
                evidence.append({"kind": pattern["kind"], "template": pattern["text"], **hit})
                if pattern["kind"] == "message":
                    messages += 1
                else:
                    signal_weight += pattern["weight"]
            evidence.sort(key=lambda e: (e["kind"] != "message", e["line"]))
            similarity = fulltext.get(number, 0.0)
            if not evidence and similarity < scoring["weak_min"]:
                continue
            agree = []
            boost = 0
            for facet, value in sorted(stated.items()):
                if value in ref["facets"].get(facet, []):
                    agree.append({"facet": facet, "value": value, "stated": True})
                    boost += scoring["stated_facet"]
            for facet, value in sorted(revealed):
                if value in ref["facets"].get(facet, []) and stated.get(facet) != value:
                    agree.append({"facet": facet, "value": value, "stated": False})
                    boost += scoring["revealed_facet"]
            weak = min(round3(similarity), scoring["weak_cap"])
            score = round3(messages * scoring["message"] + signal_weight + boost + weak)
            strength = "message" if messages else "context" if signal_weight >= scoring["context_min"] else "weak"
            results.append({
                "id": ref["id"], "slug": ref["slug"], "title": ref["title"], "url": ref["url"],
                "score": score, "strength": strength, "evidence": evidence, "context": agree,
                "fulltext": weak, "checks": ref["checks"],
            })
        results.sort(key=lambda r: (-r["score"], r["id"]))
        return {
            "capped": prepared.capped,
            "skipped_lines": prepared.skipped_lines,
            "lines": len(prepared.line_starts),
            "revealed": [{"facet": f, "value": v} for f, v in sorted(revealed)],
            "confident": any(r["strength"] != "weak" for r in results),
            "results": results[:RESULTS_SHOWN],
        }
