"""The Python twin of the browser's matcher (docs/assets/javascripts/match-worker.js).

Both read the same emitted match index (emit.match_index) and run the same
steps, so they rank every input the same way; tests/data/match-vectors.json
holds them to it.

1. Normalize: treat CR as a line break, keep the last ``input_cap``
   characters (starting at a whole line), strip ANSI escapes. With the
   ``hyperscan`` wheel, a stream (and a pasted text of PREFILTER_MIN or more)
   keeps only the lines prefilter.py picks, each distinct line once, with its
   true number and its copies; every later step reads one line at a time, so
   the result is the same. match-worker.js picks the lines of a file likewise
   (its LinePicker: the same literals and markers, framework and hardware words
   as literals too, every copy kept); a pasted text it reads whole.
2. Find anchors by token lookup: the distinct words of the input meet the
   anchors of the templates; only lines holding an anchor run a template.
3. Versions: lines such as "NCCL version 2.21.5" reveal releases; a message
   whose ranges exclude the revealed release counts for less, and says so.
4. Score: a message template counts once (with its count of lines), a signal
   once; a line that many failures print (``generic``) is context on a cause;
   a triage reference's messages show its symptom. Agreeing facets (stated or
   seen in the text) add a little, and BM25F full text over the whole page
   adds up to ``scoring.fulltext`` in proportion to the best page. Clues that
   fall short of context (the weak band) count for ``scoring.weak_clue`` of
   their weight: their words are in the page's full text already. A cause's
   ``subject`` (words for what it is about: "dataloader") named within a line
   of a word for one of its symptoms ("too slow") is a clue that reaches
   context, read in the same end of the text that full text reads.
5. Rank: causes with a message first, then causes the context supports (its
   signals, or the page closest to a text that names a symptom, when the text
   is far closer to it than to that symptom's triage reference; a page with a
   clue of its own in the text need not list the symptom named), then the
   triage references of the symptoms (a generic line, a phrase, the symptom
   named in words: its evidence is the first place the words stand, kind
   ``named``), then related words only. A cause in context by its words
   alone (its subject, or the closest page with no clue or line of its own)
   comes right after the triage reference shown for the symptom (it leads when
   none is shown). Within a band, a cause that a
   triage reference shown for the symptom routes to gains ``scoring.routed``
   (the hub's page sends the reader there next); when the runner-up is close and
   one names the other as a look-alike, the first result says what tells them
   apart.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from . import fulltext as ft
from . import numbers as nums
from . import prefilter as pf
from .templates import StepCounter, ascii_lower, index_anchor, inner_words, keywords_of, match_line, pattern_segments, phrase_pattern, readable
from .versions import version_key

ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
WORD = re.compile(r"[a-z0-9_]+")
RESULTS_SHOWN = 10
WORDS_SHOWN = 3  # learned words quoted as a triage reference's evidence
# A pasted text this long is matched on the lines the prefilter picks (a stream always is).
PREFILTER_MIN = 1 << 20
# lines of a stream remembered as matched (their copies are counted, not matched again): memory stays bounded
KNOWN_LINES, KNOWN_LINE_BYTES = 50_000, 1024


def round3(x: float) -> float:
    """Round as JavaScript's Math.round(x * 1000) / 1000 does (half up), for parity."""
    return math.floor(x * 1000 + 0.5) / 1000


# Every byte that is not [a-z0-9_] becomes a space, so bytes.split() yields the words:
# ten times faster than a regex over a large log. Non-ASCII bytes are separators,
# as non-ASCII characters are in the browser's /[a-z0-9_]+/.
_WORD_BYTES = bytes(c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789_" else 32 for c in range(256))


def words_of(lower: str) -> set[bytes]:
    """The distinct words (runs of [a-z0-9_]), as bytes: anchors and keywords are looked up in it."""
    try:
        data = lower.encode()
    except UnicodeEncodeError:  # a lone surrogate (from a broken paste)
        data = lower.encode("utf-8", "surrogatepass")
    return set(data.translate(_WORD_BYTES).split())


@dataclass
class Prepared:
    text: str  # normalized, original case
    lower: str
    capped: bool
    skipped_lines: int  # lines dropped before the matched part (for line numbers)
    line_starts: list[int] = field(default_factory=list)
    words: set[bytes] = field(default_factory=set)
    # prefiltered: each distinct line picked, once, with the place of its first copy in the whole text,
    # its copies, and the prefilter's expressions found in it (None: every line is here)
    numbers: list[int] | None = None
    repeats: list[int] | None = None
    found: list[set[int]] | None = None
    contents: list[bytes] | None = None  # the distinct lines picked, as read
    again: dict[bytes, int] = field(default_factory=dict)  # lines an earlier piece matched: their copies here
    matched: dict[int, list[int]] = field(default_factory=dict)  # line -> the templates that matched it
    newlines: int = 0  # line breaks of the whole text
    revealed: set = field(default_factory=set)  # (facet, value) pairs the prefilter's context words revealed
    tail: str = ""  # the last fulltext_chars of the whole prepared text, as written (lowering keeps every offset)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) - 1

    def number_of(self, line: int) -> int:
        """The line's number (from 1) in the whole input."""
        return (line if self.numbers is None else self.numbers[line]) + 1 + self.skipped_lines


def prepare(text: str, limits: dict, first_line: int | None = None, prefilter: pf.Prefilter | None = None,
            known: dict | None = None) -> Prepared:
    """A text ready to match. ``first_line``: a piece of a streamed input (no cap), after that many lines.

    With a ``prefilter`` (and a piece of a stream, or a long text), only the lines it
    picks are kept, each with its number; the counts and the full-text tail are the whole text's.
    """
    capped, skipped = False, first_line or 0
    cap = limits["input_cap"]
    if "\r" in text:  # line breaks first, so the cap cuts at a line start whatever the breaks are
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if first_line is None and len(text) > cap:
        cut = len(text) - cap
        newline = text.find("\n", cut - 1)
        start = newline + 1 if newline >= 0 else cut
        skipped = text.count("\n", 0, start)
        text = text[start:]
        capped = True
    if prefilter is not None and (first_line is not None or len(text) >= PREFILTER_MIN):
        try:
            data = text.encode()
        except UnicodeEncodeError:  # a lone surrogate (from a broken paste): read every line
            pass
        else:
            return _prefiltered(data, limits, capped, skipped, prefilter, known)
    return _finish(text, limits, capped, skipped)


def prepare_bytes(data: bytes, limits: dict, first_line: int, prefilter: pf.Prefilter | None = None,
                  known: dict | None = None) -> Prepared:
    """A piece of a stream read as bytes (whole lines, LF line breaks, from LineJoiner), as prepare() makes it.

    UTF-8, bad bytes replaced: decoding whole lines one by one gives what decoding the stream gives.
    """
    if prefilter is not None:
        return _prefiltered(data, limits, False, first_line, prefilter, known)
    return _finish(data.decode("utf-8", "replace"), limits, False, first_line)


def _finish(text: str, limits: dict, capped: bool, skipped: int, numbers: list[int] | None = None,
            newlines: int | None = None, tail: str | None = None) -> Prepared:
    if "\x1b" in text:
        text = ANSI_ESCAPE.sub("", text)
    prepared = Prepared(text, ascii_lower(text), capped, skipped, numbers=numbers)
    prepared.line_starts = line_starts(text)
    prepared.words = words_of(prepared.lower)
    prepared.newlines = len(prepared.line_starts) - 1 if newlines is None else newlines
    prepared.tail = prepared.text[-limits["fulltext_chars"]:] if tail is None else tail
    return prepared


def _prepared_text(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    return ANSI_ESCAPE.sub("", text) if "\x1b" in text else text


def _tail(data: bytes, chars: int, end: int) -> str:
    """The last ``chars`` characters of the prepared text of ``data[:end]``, from its last lines only.

    Escapes never span a line break, so preparing whole lines at the end gives the end of the prepared whole.
    """
    want = chars
    while True:
        cut = max(0, end - want)
        start = data.rfind(b"\n", 0, cut) + 1
        text = _prepared_text(data[start:end])
        if len(text) >= chars or start == 0:
            return text[-chars:]
        want *= 4


@dataclass
class Picked:
    """The lines of one piece the prefilter picks, each distinct line once (a line a series reads: every
    copy), in order: its bytes, its line in the piece (from 0), its copies and the expressions found in it;
    with the piece's line breaks, the (facet, value) pairs its context words reveal and its full-text tail.
    It depends on the piece alone, so another process can make it (reader.py)."""

    parts: list[bytes]
    numbers: list[int]
    repeats: list[int]
    found: list[set[int]]
    last: int  # the line of the last line picked (0 when none)
    newlines: int
    revealed: set
    tail: str


def pick(data: bytes, chars: int, prefilter: pf.Prefilter, end: int | None = None) -> Picked:
    """The lines of ``data[:end]`` (whole lines, LF line breaks) worth matching; ``chars``: the tail's length.
    ``end`` spares a reader the copy of a slice."""
    end = len(data) if end is None else end
    parts, numbers, repeats, found = [], [], [], []
    distinct: dict[bytes, int] = {}
    line, previous = 0, 0
    selected, revealed = prefilter.select(data, end)
    series_ids = prefilter.series
    for start, expressions in selected.items():
        line += data.count(b"\n", previous, start)
        previous = start
        stop = data.find(b"\n", start, end)
        text = data[start:end] if stop < 0 else data[start:stop]
        series = bool(expressions & series_ids)  # a line a series reads: every copy is its own line
        at = None if series else distinct.get(text)
        if at is None:
            if not series:
                distinct[text] = len(parts)
            parts.append(text)
            numbers.append(line)
            repeats.append(1)
            found.append(expressions)
        else:
            repeats[at] += 1
    newlines = line + data.count(b"\n", previous, end)
    return Picked(parts, numbers, repeats, found, line, newlines, revealed, _tail(data, chars, end))


def _prefiltered(data: bytes, limits: dict, capped: bool, skipped: int, prefilter: pf.Prefilter,
                 known: dict | None = None) -> Prepared:
    return prepare_picked(pick(data, limits["fulltext_chars"], prefilter), limits, capped, skipped, prefilter, known)


def prepare_picked(picked: Picked, limits: dict, capped: bool, skipped: int, prefilter: pf.Prefilter,
                   known: dict | None = None) -> Prepared:
    """The picked lines, prepared, with their numbers and the whole piece's counts.

    A line printed many times is matched once: every step reads one line at a time, so its
    copies add to its count only (a template's first line is the first copy's). ``known``: the lines
    earlier pieces of the stream matched (line -> templates): their copies here only add to the counts.
    """
    parts, numbers, repeats, found = [], [], [], []
    again: dict[bytes, int] = {}
    for text, line, copies, expressions in zip(picked.parts, picked.numbers, picked.repeats, picked.found):
        if known is not None and text in known and not expressions & prefilter.series:
            again[text] = again.get(text, 0) + copies
            continue
        parts.append(text)
        numbers.append(line)
        repeats.append(copies)
        found.append(expressions)
    parts.append(b"")  # the reduced text ends with a line break: an empty last line
    numbers.append(picked.last + 1)
    repeats.append(1)
    found.append(set())
    text = b"\n".join(parts).decode("utf-8", "replace")
    prepared = _finish(text, limits, capped, skipped, numbers, picked.newlines, picked.tail)
    prepared.repeats, prepared.found, prepared.contents, prepared.again = repeats, found, parts, again
    prepared.revealed = picked.revealed
    return prepared


class LineJoiner:
    """Pieces of a stream that end at a line break: a line is never cut in two.

    ``push`` takes the next chunk and gives the text up to its last line break (or
    None); ``end`` gives what is left. A CR at the end of a chunk waits for the next
    one, so a CR LF split between chunks stays one line break. Line breaks come out
    as LF, as prepare() makes them. Chunks are text, or bytes (all of one kind).
    match-worker.js has the same class.
    """

    def __init__(self) -> None:
        self.carry: str | bytes = ""

    def push(self, chunk: str | bytes) -> str | bytes | None:
        if isinstance(chunk, bytes) and b"\r" not in chunk and (not self.carry or b"\r" not in self.carry):
            # the common case of a large file (LF only), with one copy of the chunk instead of two
            cut = chunk.rfind(b"\n") + 1
            if not cut:
                self.carry = (self.carry or b"") + chunk
                return None
            piece = (self.carry or b"") + memoryview(chunk)[:cut]
            self.carry = chunk[cut:]
            return piece
        cr, lf = ("\r", "\n") if isinstance(chunk, str) else (b"\r", b"\n")
        text, self.carry = (self.carry + chunk if self.carry else chunk), chunk[:0]
        if text.endswith(cr):
            text, self.carry = text[:-1], cr
        if cr in text:
            text = text.replace(cr + lf, lf).replace(cr, lf)
        cut = text.rfind(lf) + 1
        self.carry = text[cut:] + self.carry
        return text[:cut] if cut else None

    def end(self) -> str | bytes | None:
        rest, self.carry = self.carry, self.carry[:0]
        if not rest:
            return None
        return rest.replace("\r", "\n") if isinstance(rest, str) else rest.replace(b"\r", b"\n")


def whole_lines(chunks: Iterable[str | bytes]) -> Iterator[str | bytes]:
    """The pieces of a stream of chunks, each ending at a line break (the last may not)."""
    lines = LineJoiner()
    for chunk in chunks:
        piece = lines.push(chunk)
        if piece is not None:
            yield piece
    rest = lines.end()
    if rest is not None:
        yield rest


@dataclass
class Scan:
    """The evidence read so far from one input: a whole text, or a file read piece by piece."""

    found: dict[int, dict] = field(default_factory=dict)  # pattern number -> first hit and count
    revealed: set = field(default_factory=set)  # (facet, value) pairs seen in the text
    named: set = field(default_factory=set)  # symptoms named outside the lines a triage reference's message explains
    versions: dict[str, dict] = field(default_factory=dict)  # software -> first {version, line}
    named_at: dict[str, dict] = field(default_factory=dict)  # symptom -> the first place words name it (named_place)
    tail: str = ""  # the last fulltext_chars of the prepared text, as written
    newlines: int = 0
    capped: bool = False
    skipped_lines: int = 0
    # prefiltered: each line already matched once (its bytes) -> the templates that matched it
    known: dict[bytes, tuple[int, ...]] = field(default_factory=dict)

    @property
    def next_line(self) -> int:
        """Lines before the next piece."""
        return self.skipped_lines + self.newlines


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

    def __init__(self, index: dict, prefilter: bool = True):
        """``prefilter``: pick the lines to match with Hyperscan when the wheel is installed (same results)."""
        self.index = index
        self.limits = index["limits"]
        self.scoring = index["scoring"]
        self.by_anchor: dict[str, list[int]] = {}
        for number, pattern in enumerate(index["patterns"]):
            self.by_anchor.setdefault(index_anchor(pattern), []).append(number)
        self.keywords: dict[str, list[tuple[str, str]]] = {}
        # a value that is part of another (torch-compile of pytorch): naming it names that one too
        self.part_of = {(facet, value): (facet, spec["part_of"]) for facet, values in index["facets"].items()
                        for value, spec in values.items() if spec.get("part_of")}
        for facet, values in index["facets"].items():
            for value, spec in values.items():
                for word in keywords_of(facet, spec):
                    self.keywords.setdefault(word, []).append((facet, value))
        self._segments = [pattern_segments(p) for p in index["patterns"]]
        self._required = [frozenset(inner_words(segments)) for segments in self._segments]
        self._required_bytes = [frozenset(w.encode() for w in words) for words in self._required]
        self._anchor_words = {a.encode(): a for a in self.by_anchor}
        self._keyword_words = {k.encode(): v for k, v in self.keywords.items()
                               if k.isascii() and " " not in k and not k.endswith("*")}
        # the start of a word ("cuda_error_*": CUDA_ERROR_ILLEGAL_ADDRESS, every error name the driver prints);
        # a word that a whole keyword names (cuda_error_out_of_memory) is that keyword's, not the start's
        self._start_of = {k: re.compile(r"(?<![a-z0-9_])" + re.escape(k[:-1]) + r"[a-z0-9_]+")
                          for k in sorted(self.keywords) if k.endswith("*")}
        # words of scripts written without spaces (Chinese "超时"): found as substrings
        self._keyword_texts = {k: v for k, v in self.keywords.items() if not k.isascii()}
        # phrases ("out of memory"): their words as whole tokens, separated by spaces or tabs or a hyphen
        self._phrase_of = {k: (k.split(" ", 1)[0].encode(), re.compile(phrase_pattern(k)))
                           for k in sorted(self.keywords) if k.isascii() and " " in k}
        # each symptom's keywords, in order: the first place any of them stands is where the text names it
        self._symptom_words = {value: sorted(k for k, pairs in self.keywords.items() if ("symptom", value) in pairs)
                               for value in index["facets"]["symptom"]}
        self.fulltext = index["fulltext"]
        self.detectors = [(d["software"], d["needle"], re.compile(d["pattern"])) for d in index["version_detectors"]]
        self.slug_rank = {ref["slug"]: n for n, ref in enumerate(index["refs"])}
        self._triage_message = [p["kind"] == "message" and index["refs"][p["ref"]]["kind"] == "triage"
                                for p in index["patterns"]]
        # the words that name a cause's subject ("dataloader", "torch.save"), with the symptoms of its page
        self._subjects = [(n, ref["subject"], frozenset(ref["facets"]["symptom"]))
                          for n, ref in enumerate(index["refs"]) if ref.get("subject")]
        self._subject_patterns = {phrase: re.compile(phrase_pattern(phrase)) for _, phrases, _ in self._subjects for phrase in phrases}
        self.prefilter = pf.build(index) if prefilter else None

    # ---- step 2: templates ----

    def find_patterns(self, prepared: Prepared, counter: StepCounter | None = None,
                      explained: set[int] | None = None) -> dict[int, dict]:
        """Every matched pattern: its first line, span and how many lines matched.

        ``explained`` receives the index (in the piece) of every line a triage reference's message matched.
        """
        found: dict[int, dict] = {}
        line_cap = self.limits["line_cap"]
        for anchor in sorted(self._anchor_words[w] for w in prepared.words & self._anchor_words.keys()):
            # a shortcut only: a template one of whose inner words the piece lacks cannot match in it
            numbers = [n for n in self.by_anchor[anchor] if self._required_bytes[n] <= prepared.words]
            if not numbers:
                continue
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
            for number in numbers:
                segments = self._segments[number]
                required = self._required[number]
                literal = self.prefilter.literal_ids[number] if prepared.found is not None else None
                for line in lines:
                    if literal is not None and literal not in prepared.found[line] and not prepared.found[line] & self.prefilter.any_template:
                        continue  # a shortcut only: the line lacks the template's longest literal part
                    if required:
                        # a shortcut only: a line without one of the template's inner words cannot match
                        # (a substring test first: it is far cheaper than splitting the line into words)
                        if not all(word in texts[line] for word in required):
                            continue
                        words = line_words.get(line)
                        if words is None:
                            words = line_words[line] = set(WORD.findall(texts[line]))
                        if not required <= words:
                            continue
                    begin = prepared.line_starts[line]
                    spec = self.index["patterns"][number].get("numbers")
                    captures = {} if spec else None
                    span = match_line(segments, texts[line], counter, captures)
                    if span is None:
                        continue
                    text = prepared.text[begin:begin + len(texts[line])]
                    hit = {"line": prepared.number_of(line), "start": span[0], "end": span[1],
                           "text": text, "count": 1 if prepared.repeats is None else prepared.repeats[line]}
                    if spec and spec["over"] == "run":  # a series, read at the end of the run (never deduplicated)
                        values = nums.values_of(captures, texts[line])
                        if values is not None:
                            hit["series"] = nums.series_of(values)
                    elif spec:
                        read = nums.read(captures, texts[line], text, spec)
                        if read is not None:
                            hit["numbers"] = read
                    merge_hit(found, number, hit)
                    if explained is not None and self._triage_message[number]:
                        explained.add(line)
                    if prepared.found is not None:
                        prepared.matched.setdefault(line, []).append(number)
        return found

    # ---- step 3: context and full text ----

    def revealed_facets(self, prepared: Prepared, first: dict | None = None) -> set[tuple[str, str]]:
        return self.revealed_in(prepared.lower, prepared.words, first) | prepared.revealed

    def revealed_in(self, lower: str, words: set[bytes], first: dict | None = None) -> set[tuple[str, str]]:
        """The (facet, value) pairs whose keywords a lowered text holds (``words``: its words, as words_of gives).

        ``first`` receives, for each phrase, word start and unspaced-script keyword found, where it first stands
        (keyword_spans starts there).
        """
        found = {fv for word in words & self._keyword_words.keys() for fv in self._keyword_words[word]}
        places = {}  # keyword -> where it first stands, for every keyword that is not one word
        for keyword, (lead, pattern) in self._phrase_of.items():
            if lead in words and (m := pattern.search(lower)):
                places[keyword] = m.start()
        for keyword, pattern in self._start_of.items():
            if keyword[:-1] in lower:
                at = next((m.start() for m in pattern.finditer(lower) if m.group().encode() not in self._keyword_words), -1)
                if at >= 0:
                    places[keyword] = at
        if not lower.isascii():
            places.update((text, at) for text in self._keyword_texts if (at := lower.find(text)) >= 0)
        for keyword in places:
            found.update(self.keywords[keyword])
        if first is not None:
            first.update(places)
        return found

    def named_symptoms(self, prepared: Prepared, revealed: set, explained: set[int],
                       first: dict) -> tuple[set[tuple[str, str]], str, set[bytes], dict]:
        """The symptoms the text names outside the lines a triage reference's message explains: the words of
        such a line (the kernel's "Out of memory: Killed process") belong to that message, not to another symptom.
        With them, the lowered text with those lines blanked (same offsets), its words and where its phrases
        first stand (``first``: the same for the whole piece, from revealed_facets): where the words stand."""
        symptoms = {fv for fv in revealed if fv[0] == "symptom"}
        if not explained or not symptoms:
            return symptoms, prepared.lower, prepared.words, first
        lower, starts, parts, at = prepared.lower, prepared.line_starts, [], 0
        for line in sorted(explained):
            end = starts[line + 1] - 1 if line + 1 < len(starts) else len(lower)
            parts += [lower[at:starts[line]], " " * (end - starts[line])]
            at = end
        rest = "".join(parts) + lower[at:]
        words, first = words_of(rest), {}
        return {fv for fv in self.revealed_in(rest, words, first) if fv[0] == "symptom"}, rest, words, first

    def keyword_spans(self, lower: str, words: set[bytes], first: dict, keyword: str) -> Iterator[tuple[int, int]]:
        """Where a keyword stands in a lowered text (``words``: its words, as words_of gives; ``first``: where
        each keyword that is not one word first stands, as revealed_in found it), in order, as revealed_in reads it."""
        if keyword.endswith("*"):
            if keyword in first:
                yield from (m.span() for m in self._start_of[keyword].finditer(lower, first[keyword])
                            if m.group().encode() not in self._keyword_words)
        elif not keyword.isascii():
            at = first.get(keyword, -1)
            while at >= 0:
                yield at, at + len(keyword)
                at = lower.find(keyword, at + 1)
        elif " " in keyword:
            if keyword in first:
                yield from (m.span() for m in self._phrase_of[keyword][1].finditer(lower, first[keyword]))
        elif keyword.encode() in words:
            yield from ((at, at + len(keyword)) for at in _whole_word_offsets(lower, keyword))

    def named_place(self, prepared: Prepared, rest: str, words: set[bytes], first: dict, value: str) -> dict | None:
        """The first place in a piece where words name a symptom (the keyword and its line), within the
        characters of a line that are matched (line_cap); None when every such place lies beyond them."""
        cap, best = self.limits["line_cap"], None
        for keyword in self._symptom_words[value]:
            for begin, end in self.keyword_spans(rest, words, first, keyword):
                if best is not None and begin >= best[0]:
                    break
                if end - prepared.line_starts[prepared.line_of(begin)] <= cap:
                    best = (begin, end, keyword)
                    break
        if best is None:
            return None
        begin, end, keyword = best
        line = prepared.line_of(begin)
        line_start = prepared.line_starts[line]
        stop = prepared.lower.find("\n", line_start)
        stop = len(prepared.lower) if stop < 0 else stop
        return {"keyword": keyword, "line": prepared.number_of(line), "start": begin - line_start, "end": end - line_start,
                "text": prepared.text[line_start:min(stop, line_start + cap)]}

    def subjects_named(self, written: str, tail: str, last_line: int) -> dict[int, dict]:
        """The causes whose subject the end of the text names beside one of their symptoms ("the dataloader
        is too slow"): a subject phrase on a line, and a word for a symptom of its page on that line or the
        next or the one before. Cause number -> the evidence (the first such place).

        ``written``: the last ``fulltext_chars`` of the text, as written (the evidence quotes it); ``tail``:
        the same lowered (same offsets); ``last_line``: the number of its last line.
        """
        if not self._subjects:
            return {}
        lines = tail.split("\n")
        starts = line_starts(tail)
        first = last_line - len(lines) + 1
        near: dict[int, frozenset] = {}  # line -> the symptoms named on it and its neighbours
        spans: dict[str, list[tuple[int, int]]] = {}  # phrase -> where it stands: once, however many pages name it
        found = {}
        for number, phrases, symptoms in self._subjects:
            best = None
            for phrase in phrases:
                if phrase not in spans:
                    spans[phrase] = [m.span() for m in self._subject_patterns[phrase].finditer(tail)]
                for begin, end in spans[phrase]:
                    if best is not None and begin >= best[0]:
                        break
                    line = bisect.bisect_right(starts, begin) - 1
                    if line not in near:
                        around = "\n".join(lines[max(0, line - 1):line + 2])
                        near[line] = frozenset(v for f, v in self.revealed_in(around, words_of(around)) if f == "symptom")
                    if near[line] & symptoms:
                        best = (begin, end, line, phrase)
                        break
            if best is not None:
                begin, end, line, phrase = best
                found[number] = {"kind": "subject", "template": phrase, "display": phrase, "line": first + line,
                                 "start": begin - starts[line], "end": end - starts[line],
                                 "text": written[starts[line]:starts[line] + len(lines[line])],
                                 "count": 1, "symptoms": sorted(near[line] & symptoms)}
        return found

    def hubs_by_words(self, query: list[str]) -> dict[int, list[str]]:
        """The triage references whose learned words in the text weigh most, if that reaches the threshold:
        reference number -> its terms in the text, heaviest first."""
        learned = self.index["symptom_words"]
        found: dict[int, list[tuple[int, str]]] = {}  # reference number -> (-weight, term) of its words in the text
        for term in query:
            flat = learned["terms"].get(term, ())
            for k in range(0, len(flat), 2):
                found.setdefault(flat[k], []).append((-flat[k + 1], term))
        sums = {number: -sum(weight for weight, _ in pairs) for number, pairs in found.items()}
        top = max(sums.values(), default=0)
        if top < learned["min"]:
            return {}
        return {number: [term for _, term in sorted(pairs)] for number, pairs in found.items() if sums[number] == top}

    @staticmethod
    def words_place(written: str, tail: str, last_line: int, terms: list[str]) -> dict:
        """Evidence for a triage reference its learned words bring: the first three words as written, on
        the line of the heaviest (``written``, ``tail``, ``last_line``: as subjects_named takes them)."""
        shown = terms[:WORDS_SHOWN]
        places: dict[str, tuple[int, int]] = {}
        for m in ft.WORD.finditer(tail):
            for part in ft.words_in(m.group()):
                term = ft.stem(part)
                if term in shown and term not in places:
                    places[term] = m.span()
            if len(places) == len(shown):
                break
        starts = line_starts(tail)
        begin, end = places[shown[0]]
        line = bisect.bisect_right(starts, begin) - 1
        stop = tail.find("\n", begin)
        return {"kind": "learned", "template": ", ".join(shown),
                "display": ", ".join(written[places[t][0]:places[t][1]] for t in shown),
                "line": last_line - len(starts) + 1 + line, "start": begin - starts[line], "end": end - starts[line],
                "text": written[starts[line]:len(tail) if stop < 0 else stop], "count": 1}

    def revealed_versions(self, prepared: Prepared) -> dict[str, dict]:
        """Per software, the release at the first place any of its detectors finds: {version, line}."""
        first: dict[str, tuple[int, str]] = {}
        for software, needle, pattern in self.detectors:
            at = prepared.lower.find(needle)
            m = pattern.search(prepared.lower, max(0, at - 1)) if at >= 0 else None
            if m and (software not in first or m.start() < first[software][0]):
                first[software] = (m.start(), m.group(1))
        return {software: {"version": version, "line": prepared.number_of(prepared.line_of(at))}
                for software, (at, version) in first.items()}

    def scan(self, prepared: Prepared, into: Scan) -> Scan:
        """Add one prepared text (or piece of a stream) to what has been read."""
        explained: set[int] = set()
        for number, hit in self.find_patterns(prepared, explained=explained).items():
            merge_hit(into.found, number, hit)
        for text, copies in prepared.again.items():  # lines an earlier piece matched, read again
            for number in into.known[text]:
                into.found[number]["count"] += copies
        if prepared.contents is not None and len(into.known) < KNOWN_LINES:
            for line, text in enumerate(prepared.contents[:-1]):
                # a line that a series reads is matched at every copy: its place in the run counts
                if len(text) <= KNOWN_LINE_BYTES and not prepared.found[line] & self.prefilter.series:
                    into.known.setdefault(text, tuple(prepared.matched.get(line, ())))
        first: dict[str, int] = {}
        revealed = self.revealed_facets(prepared, first)
        into.revealed |= revealed
        named, rest, words, first = self.named_symptoms(prepared, revealed, explained, first)
        into.named |= named
        for _, value in sorted(named):
            if value not in into.named_at:
                place = self.named_place(prepared, rest, words, first, value)
                if place is not None:
                    into.named_at[value] = place
        for software, seen in self.revealed_versions(prepared).items():
            into.versions.setdefault(software, seen)
        chars = self.limits["fulltext_chars"]
        into.tail = (into.tail + prepared.tail)[-chars:]  # never join a whole chunk
        into.newlines += prepared.newlines
        return into

    def match(self, text: str, stated: dict[str, str] | None = None, versions: dict[str, str] | None = None) -> dict:
        """Match a pasted text: beyond input_cap characters, its last part.

        ``stated``: facets the user knows (facet -> value); ``versions``: releases the
        user runs (software -> release), which count before any the log reveals.
        """
        prepared = prepare(text, self.limits, prefilter=self.prefilter)
        scan = self.scan(prepared, Scan(capped=prepared.capped, skipped_lines=prepared.skipped_lines))
        return self.result(scan, stated, versions)

    def match_stream(self, chunks: Iterable[str | bytes], stated: dict[str, str] | None = None,
                     versions: dict[str, str] | None = None, progress=None) -> dict:
        """Match a log of any size, read in chunks (text, or UTF-8 bytes): all of it, holding one piece at a time."""
        return self.match_pieces(whole_lines(chunks), stated, versions, progress)

    def match_pieces(self, pieces: Iterable[str | bytes | Picked], stated: dict[str, str] | None = None,
                     versions: dict[str, str] | None = None, progress=None) -> dict:
        """Match the pieces of a stream (as scan_piece takes them), in order."""
        scan = Scan()
        for piece in pieces:
            self.scan_piece(piece, scan)
            if progress:
                progress(scan)
        return self.result(scan, stated, versions)

    def scan_piece(self, piece: str | bytes | Picked, scan: Scan) -> Scan:
        """Add a piece of a stream (whole lines, from LineJoiner; text, or UTF-8 bytes; or the lines
        another process picked from such a piece) to what has been read; no cap."""
        if isinstance(piece, Picked):
            return self.scan(prepare_picked(piece, self.limits, False, scan.next_line, self.prefilter, scan.known), scan)
        if isinstance(piece, (bytes, bytearray, memoryview)):
            return self.scan(prepare_bytes(bytes(piece), self.limits, scan.next_line, self.prefilter, scan.known), scan)
        return self.scan(prepare(piece, self.limits, first_line=scan.next_line, prefilter=self.prefilter, known=scan.known), scan)

    def result(self, scan: Scan, stated: dict[str, str] | None = None, said: dict[str, str] | None = None) -> dict:
        """Rank the references on what was read."""
        stated = {k: v for k, v in (stated or {}).items() if v}
        found, revealed = scan.found, scan.revealed
        # releases the user states (line None) come before those the log reveals
        versions = {**scan.versions, **{k: {"version": v, "line": None} for k, v in (said or {}).items() if v}}
        tail = ascii_lower(scan.tail)
        query = ft.terms(tail, self.fulltext["boilerplate"])[: self.limits["fulltext_terms"]]
        similarity = ft.scores(self.fulltext, query)
        best = max(similarity.values(), default=0.0)
        closest = sum(value == best for value in similarity.values())  # "the closest page" must be one
        scoring = self.scoring
        hits = sorted(found.items(), key=lambda kv: (kv[1]["line"], kv[0]))
        symptoms = self.symptom_lines(hits)
        counted = [self.evidence_of(number, hits, versions, symptoms) for number in range(len(self.index["refs"]))]
        # a cause whose subject is named beside its symptom: a clue that reaches context by itself
        subjects = self.subjects_named(scan.tail, tail, scan.next_line + 1)
        for number, item in subjects.items():
            evidence, messages, weight, generic = counted[number]
            counted[number] = (evidence + [item], messages, weight + scoring["context_min"], generic)
        # the hubs: triage references whose symptom the text names in words
        # a symptom counts as named in words only outside the lines a triage reference's message explains
        named = scan.named | {fv for fv in revealed if fv[0] != "symptom"}
        named |= {self.part_of[fv] for fv in named if fv in self.part_of}
        hubs = {n for n, ref in enumerate(self.index["refs"]) if ref["kind"] == "triage" and describes(ref, named, stated)}
        if not hubs:  # no keyword names a symptom: the words that reports of one use may (learned.py)
            for number, words in self.hubs_by_words(query).items():
                hubs.add(number)
                item = self.words_place(scan.tail, tail, scan.next_line + 1, words)
                item["symptoms"] = self.index["refs"][number]["takes_in"][:1]
                evidence, messages, weight, generic = counted[number]
                counted[number] = (evidence + [item], messages, weight, generic)
        # a hub the words of the text bring: where they stand, so the reader sees what the claim rests on
        for number in hubs:
            places = sorted((scan.named_at[v]["line"], scan.named_at[v]["start"], v) for v in self.index["refs"][number]["takes_in"]
                            if ("symptom", v) in scan.named and v in scan.named_at)
            if not places:
                continue
            value = places[0][2]
            place = scan.named_at[value]
            evidence, messages, weight, generic = counted[number]
            if all(e["line"] != place["line"] for e in evidence):  # the hub's own line already shows it
                item = {"kind": "named", "template": place["keyword"], "display": place["text"][place["start"]:place["end"]],
                        "line": place["line"], "start": place["start"], "end": place["end"], "text": place["text"],
                        "count": 1, "symptoms": [value]}
                counted[number] = (evidence + [item], messages, weight, generic)

        def far(hub: int) -> bool:
            _, messages, weight, generic = counted[hub]
            return similarity.get(hub, 0.0) < scoring["hub_far"] * best and not (
                messages or generic or weight >= scoring["context_min"])

        # a text far closer to one cause page than to the hub of the symptom it names is about that
        # cause, unless the log prints one of the hub's messages, or enough of its clues to show it
        # by themselves (what makes a cause's context): then the hub is not far, however few words
        # of its page the text shares
        hubs_far = bool(hubs) and all(far(n) for n in hubs)
        results = []
        strengths: dict[int, str] = {}
        beside: set[str] = set()  # causes in context by their words alone: shown after the symptom's hub
        for number, ref in enumerate(self.index["refs"]):
            evidence, messages, weight, generic = counted[number]
            raw = similarity.get(number, 0.0)
            triage = ref["kind"] == "triage"
            # a text that names the symptom in a few common words ("slow training") still finds its triage reference
            described = number in hubs
            if not evidence and not described and raw < scoring["weak_min"]:
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
            weak = round3(scoring["fulltext"] * raw / best) if best > 0 else 0.0
            if described:
                weight += scoring["described_symptom"]
            # the closest page is a candidate cause of a symptom the text names, when the text is far
            # closer to it than to that symptom's hub, unless all it has is a line that many failures
            # print: that line belongs to the symptom's triage reference and counts towards a cause's
            # context only beside the page's own clues. With a clue of its own in the text, the closest
            # page is a candidate when the hubs are far, whatever symptom is named. With no hub named, the
            # closest page that shares a named symptom is a candidate only with evidence of its own: a few
            # words shared with it are no context (dev: 8 in 10 such claims were wrong)
            def in_context(clues: float) -> bool:
                return clues - (0 if triage else generic) >= scoring["context_min"] or (
                    not generic and not triage and raw == best > 0 and closest == 1
                    and (shares_symptom(ref, revealed) and (hubs_far or not hubs and bool(evidence)) or clues > 0 and hubs_far))

            if messages or (triage and weight >= scoring["context_min"]):
                strength = "symptom" if triage else "message"
            elif in_context(weight):
                strength = "context"
                # the closest page with nothing of its own in the text, or a page in context by its subject
                # alone: the words point at a place to look, after the hub of the symptom the text names
                if not evidence or number in subjects and not in_context(weight - scoring["context_min"]):
                    beside.add(ref["slug"])
            else:
                strength = "weak"
            # a clue short of context is one more related word (its words are in the page's full text
            # already): in the weak band it counts for a share of its weight
            clues = weight if strength != "weak" else scoring["weak_clue"] * weight
            per_message = scoring["symptom"] if triage else scoring["message"]
            score = round3(messages * per_message + clues + boost + weak)
            strengths[number] = strength
            results.append({
                "id": ref["id"], "slug": ref["slug"], "title": ref["title"], "url": self.index["ref_url"].replace("{slug}", ref["slug"]),
                "kind": ref["kind"],
                "score": score, "strength": strength, "label": self.index["strengths"][strength],
                "evidence": evidence, "context": agree, "fulltext": weak, "checks": ref["checks"],
            })
        # a cause that a triage reference shown for the symptom routes to goes ahead of an equally
        # close stranger: the hub's page sends the reader to it next
        routes = {n for number, ref in enumerate(self.index["refs"]) if ref["kind"] == "triage"
                  and strengths.get(number) == "symptom" for n in ref["routes"]}
        for result in results:
            if self.slug_rank[result["slug"]] in routes:
                result["score"] = round3(result["score"] + scoring["routed"])
        # a cause in context by its words alone comes after the hub shown for the symptom: the words
        # name a place to look ("the dataloader is slow"), the hub's decision path confirms it
        hub_shown = "symptom" in strengths.values()
        results.sort(key=lambda r: (BANDS["symptom"] if hub_shown and r["slug"] in beside else BANDS[r["strength"]],
                                    r["slug"] in beside, -r["score"], r["id"]))
        self.tell_apart(results)
        return {
            "capped": scan.capped,
            "skipped_lines": scan.skipped_lines,
            "lines": scan.newlines + 1,
            "revealed": [{"facet": f, "value": v} for f, v in sorted(revealed)],
            "versions": [{"software": k, **v} for k, v in sorted(versions.items())],
            "confident": any(r["strength"] != "weak" for r in results),
            "results": results[:RESULTS_SHOWN],
        }

    def symptom_lines(self, hits: list) -> list[int]:
        """The lines that show a symptom: a triage reference's message, or a line many failures print."""
        refs, patterns = self.index["refs"], self.index["patterns"]
        lines = set()
        for number, hit in hits:
            pattern = patterns[number]
            if pattern["kind"] != "message":
                continue
            numbers = numbers_of(pattern, hit)
            generic = pattern.get("generic", False) if numbers is None else not numbers["holds"]
            if generic or refs[pattern["ref"]]["kind"] == "triage":
                lines.add(hit["line"])
        return sorted(lines)

    def evidence_of(self, number: int, hits: list, versions: dict, symptoms: list[int] = ()) -> tuple[list[dict], int, int, int]:
        """One reference's matched patterns as evidence (specific messages first), with what they count:
        (evidence, specific messages, clue weight, the weight of its generic lines, counted once)."""
        scoring = self.scoring
        evidence = []
        messages, weight, generic = 0, 0, 0
        generic_lines = set()  # a clue inside a line many failures print is part of that line, not more
        for p_number, hit in hits:
            pattern = self.index["patterns"][p_number]
            if pattern["ref"] != number:
                continue
            item = {"kind": pattern["kind"], "template": pattern["text"], "display": readable(pattern["text"]), **hit}
            numbers = numbers_of(pattern, hit)
            if "series" in item:
                del item["series"]
                item["numbers"] = numbers
            if "versions_text" in pattern:
                item["versions"] = pattern["versions_text"]
            outside = version_outside(pattern.get("versions", []), versions)
            if outside:
                who = "you run" if versions[outside[0]]["line"] is None else "the log shows"
                item["version_note"] = (f"{who} {self.index['software'].get(outside[0], outside[0])} "
                                        f"{outside[1]}, which does not print this wording")
            # a line whose numbers were read is this cause's evidence only when they hold
            is_generic = pattern.get("generic", False) if numbers is None else not numbers["holds"]
            if is_generic:
                item["generic"] = True
            evidence.append(item)
            if pattern["kind"] != "message":
                if hit["line"] in generic_lines:
                    continue
                weight += pattern["weight"]
                # a clue of this cause in the lines just before a symptom line: what the job was doing
                # when the symptom came (saving a checkpoint before a watchdog timeout)
                at = bisect.bisect_right(symptoms, hit["line"])
                if self.index["refs"][number]["kind"] == "cause" and at < len(symptoms) \
                        and symptoms[at] - hit["line"] <= self.limits["near_lines"]:
                    item["near"] = symptoms[at]
                    weight += scoring["near_symptom"]
            elif outside:
                weight += scoring["out_of_range"]
            elif is_generic:
                generic = scoring["generic_message"]  # however many generic lines: one symptom, counted once
                generic_lines.add(hit["line"])
            elif numbers is not None and pattern["numbers"]["counts"] == "context":
                weight += scoring["context_min"]  # numbers that fit a few causes: a clue, not proof
            else:
                messages += 1
        evidence.sort(key=lambda e: (e["kind"] != "message" or "generic" in e or "version_note" in e, e["line"]))
        return evidence, messages, weight + generic, generic

    def tell_apart(self, results: list[dict]) -> None:
        """When the runner-up is close to the first, say what tells them apart (from either's look-alikes)."""
        if len(results) < 2:
            return
        first, second = results[0], results[1]
        if second["strength"] == "weak" or BANDS[first["strength"]] != BANDS[second["strength"]]:
            return
        if second["score"] < self.scoring["close"] * first["score"]:
            return
        refs = self.index["refs"]
        for this, other in ((first, second), (second, first)):
            for look in refs[self.slug_rank[this["slug"]]]["lookalikes"]:
                if look["slug"] == other["slug"]:
                    note = {"id": other["id"], "slug": other["slug"], "title": other["title"],
                            "from": this["id"], "tell": look["tell"]}
                    if "check" in look:
                        note["check"] = {**look["check"], "url": f"{this['url']}#check-{look['check']['id']}"}
                    first["versus"] = note
                    return


def numbers_of(pattern: dict, hit: dict) -> dict | None:
    """What a matched pattern's numbers say ({"holds", "says"}), or None when it reads none."""
    if "series" in hit:
        return nums.trend(hit["series"], pattern["numbers"])
    return hit.get("numbers")


def merge_hit(found: dict[int, dict], number: int, hit: dict) -> None:
    """Count another line of a pattern. The first line stands for it, unless a later line's
    numbers hold where the first's do not: then that line does."""
    have = found.get(number)
    if have is None:
        found[number] = hit
        return
    count = have["count"] + hit["count"]
    if "series" in hit:
        have["series"] = nums.extend(have["series"], hit["series"]) if "series" in have else hit["series"]
    elif hit.get("numbers", {}).get("holds") and not have.get("numbers", {}).get("holds"):
        have.clear()
        have.update(hit)
    have["count"] = count


def line_starts(text: str) -> list[int]:
    """The offset of each line of a text."""
    starts, at = [0], text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def describes(ref: dict, revealed: set, stated: dict) -> bool:
    """The text names a symptom the triage reference takes in, in words, in a framework it covers.

    A text that names no framework is taken for PyTorch: a reference for one kind of
    software only (an inference server) needs the text to name it.
    """
    if not any(stated.get("symptom") == value or ("symptom", value) in revealed for value in ref["takes_in"]):
        return False
    frameworks = {v for f, v in revealed if f == "framework"} | ({stated["framework"]} if stated.get("framework") else set())
    return bool((frameworks or {"pytorch"}) & set(ref["facets"]["framework"]))


def shares_symptom(ref: dict, revealed: set) -> bool:
    """The text names (in words) a symptom of this reference."""
    return any(facet == "symptom" and value in ref["facets"]["symptom"] for facet, value in revealed)


# Rank order of the strengths: causes first (a message, then the context), then the
# triage references of the symptoms they explain, then related words only.
BANDS = {"message": 0, "context": 1, "symptom": 2, "weak": 3}


def version_outside(ranges: list[dict], revealed: dict[str, dict]) -> tuple[str, str] | None:
    """(software, release) when the log reveals a release of software that every range for it excludes."""
    for software, seen in sorted(revealed.items()):
        own = [r for r in ranges if r["software"] == software]
        have = version_key(seen["version"])
        if not own or have is None:
            continue
        inside = False
        for r in own:
            low = version_key(r["since"]) if "since" in r else None
            high = version_key(r["until"]) if "until" in r else None
            if ("since" in r and low is None) or ("until" in r and high is None):
                inside = True  # a release we cannot order: do not judge
                break
            if (low is None or low <= have) and (high is None or have < high):
                inside = True
                break
        if not inside:
            return software, seen["version"]
    return None
