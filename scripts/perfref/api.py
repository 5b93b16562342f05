"""The library: ``perfref.match(text)`` and ``perfref.match_file(path)``.

They rank with the same index and the same code as the command and the site's
matcher page, and return the results as small frozen objects. A matching message
alone never confirms a cause: each result carries the evidence checks to run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import index as index_mod
from . import reader
from .match import Matcher, whole_lines

FACETS = ("framework", "hardware", "symptom")


@dataclass(frozen=True)
class Line:
    """A line of the input that a message template or a clue matched."""
    number: int
    text: str
    kind: str       # "message", "signal", "subject" (words for what the failure is about, beside its symptom)
                    # "named" (words that name the symptom a triage reference takes in) or "learned" (words
                    # that labelled reports of its symptom use, when no keyword names one: perfref.learned)
    template: str   # the template or clue it matched, as the page shows it
    numbers: str | None = None  # what the line's numbers say, when its page reads them ("25.1 GiB ... of 79.2 GiB")


@dataclass(frozen=True)
class Check:
    """An evidence check of the reference: its anchor on the page and its title."""
    id: str
    title: str
    url: str


@dataclass(frozen=True)
class Result:
    id: str
    slug: str
    title: str
    strength: str   # "message", "context", "symptom" (a triage reference to start from) or "weak"
    label: str      # the strength in the page's plain words
    url: str        # absolute: the site the index was built for, or site_url
    score: float
    lines: tuple[Line, ...]
    checks: tuple[Check, ...]

    @property
    def confident(self) -> bool:
        return self.strength != "weak"


@lru_cache(maxsize=4)
def _matcher(index_file: str | None) -> Matcher:
    return Matcher(index_mod.load(index_file))


def stated_context(index: dict, framework=None, hardware=None, symptom=None) -> dict[str, str]:
    """What the caller already knows, checked against the controlled vocabularies (ValueError otherwise)."""
    stated = {}
    for facet, value in zip(FACETS, (framework, hardware, symptom)):
        if value and value not in index["facets"][facet]:
            raise ValueError(f"unknown {facet} {value!r}; valid: {', '.join(sorted(index['facets'][facet]))}")
        stated[facet] = value or ""
    return stated


def stated_versions(index: dict, runs: dict[str, str] | None) -> dict[str, str]:
    """The releases the caller runs, e.g. {"nccl": "2.21.5"} (ValueError for an unknown software)."""
    for name, release in (runs or {}).items():
        if name not in index["software"] or not release:
            raise ValueError(f"runs takes SOFTWARE=RELEASE pairs with SOFTWARE one of {', '.join(sorted(index['software']))}")
    return dict(runs or {})


def results(result: dict, site_url: str) -> list[Result]:
    """The matcher's result (the JSON the command prints) as Result objects with absolute URLs."""
    base = site_url.rstrip("/") + "/"
    out = []
    for r in result["results"]:
        url = base + r["url"]
        out.append(Result(
            id=r["id"], slug=r["slug"], title=r["title"], strength=r["strength"], label=r["label"], url=url,
            score=r["score"],
            lines=tuple(Line(e["line"], e["text"], e["kind"], e["display"], e.get("numbers", {}).get("says")) for e in r["evidence"]),
            checks=tuple(Check(c["id"], c["title"], f"{url}#check-{c['id']}") for c in r["checks"]),
        ))
    return out


def _run(read, framework, hardware, symptom, runs, index_file, site_url, include_weak) -> list[Result]:
    """``read``: the matcher -> the pieces of the input for Matcher.match_pieces."""
    matcher = _matcher(str(index_file) if index_file else None)
    stated = stated_context(matcher.index, framework, hardware, symptom)
    said = stated_versions(matcher.index, runs)
    result = matcher.match_pieces(read(matcher), stated, said)
    ranked = results(result, site_url or matcher.index.get("site_url") or "http://127.0.0.1:8000/")
    return ranked if include_weak else [r for r in ranked if r.confident]


def match(text: str, *, framework: str | None = None, hardware: str | None = None, symptom: str | None = None,
          runs: dict[str, str] | None = None, index: str | Path | None = None, site_url: str | None = None,
          include_weak: bool = False) -> list[Result]:
    """The references that fit ``text`` (a message, a log excerpt, a whole log), best first.

    ``framework``, ``hardware``, ``symptom``: what you already know (facet values);
    ``runs``: releases you run ({"nccl": "2.21.5"}); ``index``: a built site's
    assets/match-index.json instead of the packaged one. An empty list means no
    confident match; ``include_weak`` adds the references that share words only.
    """
    return _run(lambda _: whole_lines([text]), framework, hardware, symptom, runs, index, site_url, include_weak)


def match_file(path: str | Path, *, framework: str | None = None, hardware: str | None = None,
               symptom: str | None = None, runs: dict[str, str] | None = None, index: str | Path | None = None,
               site_url: str | None = None, include_weak: bool = False) -> list[Result]:
    """As ``match``, for a log file of any size, read in chunks (memory stays bounded; a large file by two
    processes at once, see reader.py)."""
    return _run(lambda matcher: reader.pieces(path, matcher), framework, hardware, symptom, runs, index, site_url, include_weak)
