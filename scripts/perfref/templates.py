"""Message templates: the author's text with placeholders -> a safe, linear pattern.

A compiled template is a list of *segments* (split at ``{*}``), each a list of
*parts*: a literal (ASCII-lowercased; one space stands for any run of spaces or
tabs, and after a colon for none too) or a bounded character class. Every
class is made to exclude the first character of the literal that follows it,
so matching is greedy and never backtracks: the work per start position is
bounded by the segment's length.
The browser (match-worker.js) runs the same algorithm over the same emitted
parts; ``to_regex`` gives the equivalent regular expression for comparison.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# One definition per placeholder: the characters it may consume and its bounds.
# The browser reads these from the emitted index, so they are defined only here.
_DIGITS = "0123456789"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_PATH_EXCLUDED = " \t\"'<>|`"
CLASSES: dict[str, dict] = {
    # {n}: an optional sign, a digit, then digits with "." and "," (12, -3, 0.25, 1,024)
    "n": {"chars": _DIGITS + ".,", "lead": _DIGITS, "sign": True, "max": 40},
    # {hex}: 0x followed by hex digits
    "hex": {"chars": _DIGITS + "abcdef", "prefix": "0x", "max": 32},
    # {id}: identifier-like: request ids, hostnames, rank names
    "id": {"chars": _DIGITS + _LOWER + "_.:-", "max": 128},
    # {path}: a file path or URL, no spaces
    "path": {"chars": "".join(chr(c) for c in range(33, 127) if chr(c) not in _PATH_EXCLUDED), "max": 512},
}
GAP = "*"
PLACEHOLDERS = (*CLASSES, GAP)
ANCHOR_MIN = 4
WORD = re.compile(r"[a-z0-9_]+")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
CAPTURE_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", _LOWER)


class TemplateError(ValueError):
    """A template that cannot be compiled; the message says how to fix it."""


@dataclass(frozen=True)
class Compiled:
    text: str
    segments: list[list[dict]]
    anchor: str

    def as_json(self) -> dict:
        # the segments follow from the template's text and the anchor from the segments (anchor_of): the
        # match index holds the anchor only where they do not show it, and both matchers compile the text
        return {} if anchor_of(self.segments) == self.anchor else {"anchor": self.anchor}


def ascii_lower(text: str) -> str:
    """Lowercase A-Z only, so that offsets never move (str.lower can change lengths).

    str.lower is ten times faster than translate; it agrees with ASCII-only
    lowering wherever it matters (templates are ASCII) unless it changes the
    length or turns the Kelvin sign into an ASCII "k".
    """
    if text.isascii():
        return text.lower()
    lowered = text.lower()
    if len(lowered) == len(text) and "\u212a" not in text:
        return lowered
    return text.translate(_ASCII_LOWER)


def _tokens(template: str) -> list[tuple[str, str]]:
    """Split into ("lit", text) and ("ph", name) tokens; {{ and }} are literal braces."""
    tokens: list[tuple[str, str]] = []
    literal = []
    i = 0
    while i < len(template):
        if template.startswith("{{", i) or template.startswith("}}", i):
            literal.append(template[i])
            i += 2
            continue
        m = _PLACEHOLDER.match(template, i)
        if m:
            name, _, capture = m.group(1).partition(":")
            if capture:  # {n:free}: a number the page's conditions read by name
                if name != "n" or not CAPTURE_NAME.match(capture):
                    raise TemplateError(
                        f"cannot read {{{m.group(1)}}}: only numbers are captured by name, as {{n:free}} "
                        "(a lowercase name of letters, digits and underscores)"
                    )
                name = f"n:{capture}"
            elif name not in PLACEHOLDERS:
                raise TemplateError(
                    f"unknown placeholder {{{name}}}; use one of "
                    + ", ".join("{" + p + "}" for p in PLACEHOLDERS)
                    + ", or write {{ and }} for literal braces"
                )
            if literal:
                tokens.append(("lit", "".join(literal)))
                literal = []
            tokens.append(("ph", name))
            i = m.end()
            continue
        literal.append(template[i])
        i += 1
    if literal:
        tokens.append(("lit", "".join(literal)))
    return tokens


def literal_parts(template: str) -> list[str]:
    """The literal text between a template's placeholders, in order ("{{" and "}}" read as braces)."""
    return [text for kind, text in _tokens(template) if kind == "lit"]


@lru_cache(maxsize=None)  # the model validates each template and the index compiles it again
def compile_template(template: str) -> Compiled:
    """Compile one template, or raise TemplateError saying what to change."""
    if not isinstance(template, str) or not template.strip():
        raise TemplateError("the template is empty; write the message as the software prints it")
    if not template.isascii() or any(ord(c) < 32 and c != "\t" for c in template):
        raise TemplateError("use printable ASCII only; replace other characters with {*}")
    tokens = _tokens(" ".join(template.split()))
    kind, value = tokens[-1]
    if kind == "lit" and value.endswith(".") and not value.endswith("..") and len(value) > 1:
        # a sentence's final full stop is dropped when people quote a message inline
        tokens[-1] = ("lit", value[:-1])
    if tokens[0][0] != "lit":
        raise TemplateError(
            "the template starts with a placeholder; start it at the first literal word "
            "(a template matches anywhere in a line)"
        )
    captured = [value[2:] for kind, value in tokens if kind == "ph" and value.startswith("n:")]
    if len(captured) != len(set(captured)):
        raise TemplateError(f"a captured name is used twice in {captured}; give each number its own name")
    for (kind_a, name_a), (kind_b, name_b) in zip(tokens, tokens[1:]):
        if kind_a == kind_b == "ph":
            raise TemplateError(
                f"placeholders {{{name_a}}} and {{{name_b}}} touch; put the literal text between them"
            )
    segments: list[list[dict]] = [[]]
    for index, (kind, value) in enumerate(tokens):
        if kind == "ph" and value == GAP:
            segments.append([])
            continue
        if kind == "ph":
            cls, _, capture = value.partition(":")
            segments[-1].append({"class": cls, **({"name": capture} if capture else {})})
            continue
        text = ascii_lower(value)
        before = tokens[index - 1] if index else None
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if before == ("ph", GAP):
            text = text.lstrip(" ")
        if after == ("ph", GAP):
            text = text.rstrip(" ")
        if not text:
            continue
        segments[-1].append({"lit": text})
    segments = [seg for seg in segments if seg]
    if any("lit" not in seg[0] for seg in segments):
        raise TemplateError("{*} is followed by another placeholder; put literal text (not only spaces) after {*}")
    for seg in segments:
        for part, following in zip(seg, seg[1:]):
            if "class" in part:
                part["stop"] = following["lit"][0]
    # a template that ends with {*}: its last word could run on into what {*} matches
    anchor = anchor_of(segments, ends_open=tokens[-1] == ("ph", GAP))
    if anchor is None:
        raise TemplateError(
            f"no word of {ANCHOR_MIN} or more letters or digits stands clear of the placeholders; "
            "keep more of the literal message text"
        )
    return Compiled(template, segments, anchor)


def pattern_segments(pattern: dict) -> list[list[dict]]:
    """The segments of a match index pattern: its template compiled (the index holds the text only)."""
    return compile_template(pattern["text"]).segments


def index_anchor(pattern: dict) -> str:
    """The anchor of a template as the match index gives it (Compiled.as_json): stored, or from its segments."""
    return pattern.get("anchor") or anchor_of(pattern_segments(pattern))


def anchor_of(segments: list[list[dict]], ends_open: bool = False) -> str | None:
    """The word a line must hold for the template to match: the first of the longest words of its
    literal text that touch no placeholder (a word that does could run on into what the placeholder
    matches). A segment ends where {*} stands; no template starts with a placeholder, and
    ``ends_open`` says that it ends with {*} (which the segments leave out)."""
    anchor = None
    for s, segment in enumerate(segments):
        for p, part in enumerate(segment):
            if "lit" not in part:
                continue
            text = part["lit"]
            after_placeholder = s > 0 or p > 0
            before_placeholder = s < len(segments) - 1 or p < len(segment) - 1 or ends_open
            for m in WORD.finditer(text):
                if (len(m.group()) >= ANCHOR_MIN and not (m.start() == 0 and after_placeholder)
                        and not (m.end() == len(text) and before_placeholder)
                        and (anchor is None or len(m.group()) > len(anchor))):
                    anchor = m.group()
    return anchor


def inner_words(segments: list[list[dict]]) -> list[str]:
    """Words that stand inside a literal with literal non-word characters on both
    sides: any line the template matches holds each of them as a whole word."""
    words = []
    for seg in segments:
        for part in seg:
            lit = part.get("lit", "")
            words += [m.group() for m in WORD.finditer(lit) if m.start() > 0 and m.end() < len(lit)]
    return words


# How a placeholder reads to a person: pages, match results and the CLI show these.
READABLE = {"n": "‹number›", "hex": "‹hex number›", "id": "‹name›", "path": "‹path›", GAP: "‹any text›"}


@lru_cache(maxsize=None)
@lru_cache(maxsize=None)  # only the templates of the results shown are made readable
def readable(template: str) -> str:
    """The template as a reader sees it: "Xid {n} on {*}" -> "Xid ‹number› on ‹any text›"; {n:free} -> ‹free›."""
    return "".join(_readable_placeholder(value) if kind == "ph" else value for kind, value in _tokens(template))


def _readable_placeholder(value: str) -> str:
    cls, _, capture = value.partition(":")
    return f"‹{capture}›" if capture else READABLE[cls]  # a captured number reads by its name: ‹free›


def placeholder_names(template: str) -> list[str]:
    return [value.partition(":")[0] for kind, value in _tokens(template) if kind == "ph"]


def captured_names(template: str) -> list[str]:
    """The names of the numbers a template captures ({n:free} -> "free"), in order."""
    return [value[2:] for kind, value in _tokens(template) if kind == "ph" and value.startswith("n:")]


# ---- Matching (the browser's match-worker.js mirrors this) ----


class StepCounter:
    """Counts character comparisons, so tests can bound the work without timing it."""

    def __init__(self) -> None:
        self.steps = 0


_SPACE = " \t\r\f\v"


@lru_cache(maxsize=None)
def _words(lit: str) -> tuple[str, ...]:
    """A literal's words, matched with str.startswith (the spaces between them are runs)."""
    return tuple(lit.split(" "))


def _match_segment(seg: list[dict], line: str, start: int, counter: StepCounter | None,
                   captures: dict | None = None) -> int:
    """Match one segment at ``start``; return its end, or -1. Named numbers go into ``captures``."""
    i = start
    n = len(line)
    steps = 0
    for part in seg:
        lit = part.get("lit")
        if lit is not None:
            words = _words(lit)
            for k, word in enumerate(words):
                if k:  # a space of the template: a run of spaces in the line
                    steps += 1
                    if i < n and line[i] in _SPACE:
                        while i < n and line[i] in _SPACE:
                            i += 1
                            steps += 1
                    elif not words[k - 1].endswith(":"):  # "error:out of memory": the space after a colon is often lost
                        return _done(counter, steps, -1)
                if word:
                    steps += len(word)
                    if not line.startswith(word, i):
                        return _done(counter, steps, -1)
                    i += len(word)
            continue
        spec = CLASSES[part["class"]]
        stop = part.get("stop", "")
        prefix = spec.get("prefix", "")
        if prefix:
            steps += len(prefix)
            if not line.startswith(prefix, i):
                return _done(counter, steps, -1)
            i += len(prefix)
        if spec.get("sign") and i < n and line[i] in "+-":
            i += 1
        lead = spec.get("lead", spec["chars"])
        steps += 1
        if i >= n or line[i] not in lead or line[i] == stop:
            return _done(counter, steps, -1)
        chars = spec["chars"]
        limit = min(n, i + spec["max"])
        begin = i
        i += 1
        while i < limit and line[i] in chars and line[i] != stop:
            i += 1
            steps += 1
        if captures is not None and "name" in part:
            captures[part["name"]] = (begin, i)
    return _done(counter, steps, i)


def _done(counter: StepCounter | None, steps: int, result: int) -> int:
    if counter is not None:
        counter.steps += steps
    return result


def match_line(compiled_segments: list[list[dict]], line: str, counter: StepCounter | None = None,
               captures: dict | None = None):
    """Find the template in an ASCII-lowercased line; return (start, end) or None.

    Segments are found left to right, each at its leftmost place after the last.
    ``captures``, when given, receives name -> (start, end) of each named number.
    """
    pos = 0
    first_start = -1
    for seg in compiled_segments:
        head = seg[0]["lit"].split(" ", 1)[0] or seg[0]["lit"]
        found = -1
        search_from = pos
        while True:
            at = line.find(head, search_from)
            if counter is not None:
                counter.steps += (at if at >= 0 else len(line)) - search_from + len(head)
            if at < 0:
                return None
            end = _match_segment(seg, line, at, counter, captures)
            if end >= 0:
                found = at
                break
            search_from = at + 1
        if first_start < 0:
            first_start = found
        pos = end
    return first_start, pos


def to_regex(compiled_segments: list[list[dict]]) -> str:
    """The equivalent regular expression (for the naive benchmark and cross-checks)."""
    out = []
    for k, seg in enumerate(compiled_segments):
        if k:
            out.append(".*?")
        for part in seg:
            if "lit" in part:
                words = _words(part["lit"])
                out.append(re.escape(words[0]))
                for before, word in zip(words, words[1:]):
                    out.append("[ \\t\\r\\f\\v]" + ("*" if before.endswith(":") else "+") + re.escape(word))
                continue
            spec = CLASSES[part["class"]]
            stop = part.get("stop", "")
            chars = "".join(c for c in spec["chars"] if c != stop)
            lead = "".join(c for c in spec.get("lead", spec["chars"]) if c != stop)
            out.append(re.escape(spec.get("prefix", "")))
            if spec.get("sign"):
                out.append("[+\\-]?")
            out.append(f"[{re.escape(lead)}][{re.escape(chars)}]{{0,{spec['max'] - 1}}}")
    return "".join(out)


def phrase_pattern(phrase: str) -> str:
    """A keyword phrase as a regular expression that means the same in Python and JavaScript: its words
    as whole tokens, separated by spaces or tabs, or by one hyphen ("out-of-memory")."""
    return "(?<![a-z0-9_])" + "(?:[ \\t]+|-)".join(re.escape(w) for w in phrase.split(" ")) + "(?![a-z0-9_])"


def keywords_of(facet: str, spec: dict) -> list[str]:
    """A facet value's keywords as the matchers read them: a symptom's English words (four letters or
    more) also in their -ing and -ed forms ("slow": "slowing", "slowed"; "freeze": "freezing"), so a
    symptom is named however the verb is inflected without listing every form; a name (a framework,
    a device) is not a verb. match-worker.js repeats it (keywordsOf)."""
    out = list(spec["keywords"])
    if facet != "symptom":
        return out
    for word in spec["keywords"]:
        if not (word.isascii() and word.isalpha() and len(word) >= 4) or word.endswith(("ing", "ed")):
            continue
        stem = word[:-1] if word.endswith("e") else word
        for form in (stem + "ing", stem + "ed"):
            if form not in out:
                out.append(form)
    return out
