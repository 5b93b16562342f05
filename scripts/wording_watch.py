#!/usr/bin/env python3
"""The wording watch: does the newest release of each software still print the wordings we quote?

For every message and clue whose ``versions`` name software published on PyPI
(``pypi:`` in docs/facets.yml), it downloads the newest release (cached, pinned by
version in the output), reads the strings of its Python sources (and their
function names, as "in <name>" traceback frames), shared libraries and
executables, and checks that the template's literal parts occur, in order, in one
string of the release; printf conversions (%s, %d, %zu, ...) and Python format
fields ({}, {name}, {0:.2f}) in that string stand for the template's placeholders.
A field may also stand for text the template wrote out, under one rule: any number
of fields may each take a run without letters (a number, punctuation), but at most
ONE field per alignment may take a run holding letters (one word-like value, as
"PreemptionMode.RECOMPUTE" for "%s"), and the fields together may take at most
half of the template's literal characters (spaces not counted): the rest must
stand in the string itself. So a long string full of fields (an HTML or JS
template, a long fmt string) cannot cover a wording through its fields.
Messages built from several pieces (a C++ stream, Python concatenation) may have
their literal parts in separate strings: those are reported as found "in parts".

One line per wording: ID, software, release checked, found / absent / not
checkable (with the reason), template. Exit 0 when every open-ended wording (no
``until``) is found in the newest release; 1 when one is absent (close its range
with ``until`` and add the new wording); 2 when it could not check what it was
asked to (a download failed, an unknown software name).

  python scripts/wording_watch.py [--software NAME ...] [--page ID ...] [--cache DIR] [--since] [--record]

``--since`` also downloads the release before each ``since`` and reports whether
the wording is absent there, as ``since`` claims. It needs the network (PyPI) and
is not part of the test suite; tests/test_wording_watch.py tests the matching.

``--record`` also writes docs/wording-checks.json (perfref.wording_checks): the
date, the releases read and each wording's status, which the reference pages show.
A run limited by ``--software`` replaces only that software's entries, one limited by
``--page ID`` only that page's (for a page just edited).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from perfref import wording_checks
from perfref.load import load_catalogue, load_facets
from perfref.versions import version_key
from perfref.templates import literal_parts

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("PERFREF_WATCH_CACHE", Path.home() / ".cache" / "perfref-wording-watch"))
MIN_STRING = 4
PRINTABLE = re.compile(rb"[\x20-\x7e\t]{%d,}" % MIN_STRING)
SPACE = re.compile(r"\s+")


@dataclass
class Wording:
    ref_id: str
    kind: str        # message or signal
    template: str
    software: str
    since: str | None
    until: str | None
    watch: str | None = None  # the page's form of the wording as the release holds it (put together at run time)
    unwatched: str | None = None  # why the release on PyPI cannot show it (the page says)


def normalise(text: str) -> str:
    return SPACE.sub(" ", text).strip().lower()


# printf conversions and Python format fields: each may stand for a run of the template's text
FORMAT_FIELD = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|j|z|t|L|q)?[diouxXeEfFgGcsSp]"
                          r"|%\([a-z_]+\)[sdrf]|\{[^{}]*\}")
GAP = "\x00"    # a template placeholder
FIELD = "\x01"  # a format field of the source
WORD = re.compile(r"[a-z0-9_]{5,}")


def _parts(template: str) -> list[str]:
    """The template as text to align: its literal parts, normalised, joined by GAP (a final full stop optional)."""
    parts = [normalise(p) for p in literal_parts(template)]
    if parts and parts[-1].endswith("."):
        parts[-1] = parts[-1][:-1]
    return [p for p in parts if p]


def aligns(parts: list[str], string: str) -> bool:
    """The template's text, with its placeholders, lines up with a stretch of one source string.

    Between two parts anything may stand (a placeholder). A format field in the
    source may take nothing of the template, or one run of it without spaces or
    placeholders (a value the template wrote out, as "PreemptionMode.RECOMPUTE"
    where the source has "%s"), under the rule: a run without letters any number
    of times; a run holding letters at most once per alignment; and all that the
    fields take together at most half of the template's literal characters
    (spaces not counted), so that at least half stand literally in the string.
    A small dynamic programme over the two sequences: the states are the template
    positions reachable at each source position, each with whether a field took
    a run with letters yet, and the fewest template characters fields took.
    """
    template = GAP.join(parts)
    source = FORMAT_FIELD.sub(FIELD, normalise(string))
    end = len(template)
    budget = sum(1 for c in template if c not in (" ", GAP)) // 2  # what the fields may take together
    start = {(0, False): 0}
    states = dict(start)

    def put(key, taken):  # keep the fewest characters taken, within the budget
        if taken <= budget and taken < nxt.get(key, budget + 1):
            nxt[key] = taken

    for ch in source:
        states = _close(states, template)
        if any(i == end for i, _ in states):
            return True
        nxt = dict(start)  # the stretch may start anywhere
        for (i, lettered), taken in states.items():
            if i < end and template[i] == GAP:
                put((i, lettered), taken)   # the placeholder takes this character
            if ch == FIELD:
                put((i, lettered), taken)   # the field takes nothing of the template, or one value of it:
                j, letters = i, False       # a run without spaces and placeholders
                while j < end and template[j] not in (" ", GAP):
                    letters = letters or template[j].isalpha()
                    j += 1
                    if letters and lettered:
                        break               # a second run with letters: no
                    put((j, lettered or letters), taken + j - i)
            elif i < end and template[i] == ch:
                put((i + 1, lettered), taken)
        states = nxt
    return any(i == end for i, _ in _close(states, template))


def _close(states: dict[tuple[int, bool], int], template: str) -> dict[tuple[int, bool], int]:
    """A placeholder may also take nothing."""
    out = dict(states)
    for (i, lettered), taken in sorted(states.items()):
        j = i
        while j < len(template) and template[j] == GAP:
            j += 1
            if taken < out.get((j, lettered), taken + 1):
                out[j, lettered] = taken
    return out


def find_in(parts: list[str], strings: list[str], normalised: bool = False) -> str:
    """'found' (one string holds the whole wording), 'found in parts' (each part in some string), or 'absent'.

    ``normalised``: the strings already went through normalise() (a release's strings, read once).
    """
    if not parts:
        return "not checkable: the template has no literal text"
    words = set(WORD.findall(" ".join(parts)))
    lowered = strings if normalised else [normalise(s) for s in strings]
    candidates = [s for s in lowered if any(w in s for w in words)] if words else lowered
    if any(aligns(parts, s) for s in candidates):
        return "found"
    if all(any(p in s for s in lowered) for p in parts):
        return "found in parts"
    return "absent"


# ---- reading a release ----


def strings_of_python(source: str) -> list[str]:
    """String constants of one Python file (parsed, never imported); f-strings and 'a' + x + 'b' with {} for the values;
    and "in <name>" for each function, as a traceback names its frame."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return re.findall(r"""["']([^"'\n]{%d,})["']""" % MIN_STRING, source)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(f"in {node.name}")  # a traceback's frame line names the function
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) >= MIN_STRING:
            out.append(node.value)
        elif isinstance(node, ast.JoinedStr):
            out.append("".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            pieces = _concatenation(node)
            if pieces:
                out.append("".join(pieces))
    return out


def _concatenation(node) -> list[str] | None:
    """'a' + x + 'b' as ['a', '{}', 'b']; None when no literal takes part."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _concatenation(node.left), _concatenation(node.right)
        return None if left is None and right is None else (left or ["{}"]) + (right or ["{}"])
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)]
    return None


def strings_of_binary(data: bytes) -> list[str]:
    """Printable runs of a shared library, as strings(1) finds them."""
    return [m.group().decode("ascii") for m in PRINTABLE.finditer(data)]


def strings_of_archive(path: Path) -> list[str]:
    """Every string of a wheel or an sdist: Python sources parsed, shared libraries scanned."""
    out: list[str] = []

    def take(name: str, data: bytes) -> None:
        if name.endswith(".py"):
            out.extend(strings_of_python(data.decode("utf-8", "replace")))
        elif (re.search(r"\.so(\.\d+)*$|\.pyd$|\.dylib$", name) or name.endswith((".cpp", ".cu", ".h", ".c", ".cc"))
              or data.startswith(b"\x7fELF")):  # an executable the wheel ships (Ray's raylet) prints too
            out.extend(strings_of_binary(data))

    if path.suffix == ".whl" or path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                take(info.filename, archive.read(info))
    else:
        with tarfile.open(path) as archive:
            for member in archive.getmembers():
                if member.isfile():
                    take(member.name, archive.extractfile(member).read())
    return out


# ---- PyPI through pip ----


@lru_cache(maxsize=None)  # asked once per project however many wordings name it
def pip_index(project: str) -> tuple[str, tuple[str, ...]]:
    """The newest release of ``project`` on PyPI and every release pip lists, from ``pip index versions``."""
    result = subprocess.run([sys.executable, "-m", "pip", "index", "versions", project, "--disable-pip-version-check"],
                            capture_output=True, text=True, timeout=300)
    newest = re.search(r"^%s \(([^)]+)\)" % re.escape(project), result.stdout, re.M | re.I)
    if result.returncode or not newest:
        raise OSError(f"pip index versions {project} failed: {(result.stderr or result.stdout).strip()[-200:]}")
    listed = re.search(r"Available versions: (.*)", result.stdout)
    return newest.group(1), tuple(v.strip() for v in listed.group(1).split(",")) if listed else ()


def download(project: str, version: str, cache: Path) -> Path:
    """The release's wheel for this platform (else any wheel, else the sdist), cached by version."""
    folder = cache / project / version
    existing = sorted(folder.glob("*.whl")) + sorted(folder.glob("*.tar.gz"))
    if existing:
        return existing[0]
    folder.mkdir(parents=True, exist_ok=True)
    base = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check",
            "--dest", str(folder), f"{project}=={version}"]
    for extra in ([], ["--only-binary", ":all:", "--platform", "manylinux2014_x86_64", "--python-version", "3.12"],
                  ["--no-binary", ":all:"]):
        result = subprocess.run(base + extra, capture_output=True, text=True, timeout=3600)
        found = sorted(folder.glob("*.whl")) + sorted(folder.glob("*.tar.gz"))
        if result.returncode == 0 and found:
            return found[0]
    raise OSError(f"pip download {project}=={version} failed: {result.stderr.strip()[-200:]}")


# ---- the watch ----


def wordings(docs: Path, software: set[str] | None, pages: set[str] | None = None) -> list[Wording]:
    catalogue = load_catalogue(docs)
    out = []
    for page in catalogue.pages:
        if page.ref.status == "retired" or (pages is not None and page.ref.id not in pages):
            continue
        for kind, items in (("message", page.ref.messages), ("signal", page.ref.signals)):
            for item in items:
                for v in item.versions:
                    if software is None or v.software in software:
                        out.append(Wording(page.ref.id, kind, item.text, v.software, v.since, v.until, v.watch, v.unwatched))
    return out


def previous(versions: list[str], release: str) -> str | None:
    key = version_key(release)
    older = [v for v in versions if version_key(v) and key and version_key(v) < key and re.fullmatch(r"[\d.]+", v)]
    return max(older, key=version_key) if older else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--software", action="append", help="only this software (a name from docs/facets.yml); repeatable")
    parser.add_argument("--cache", default=str(CACHE), help=f"where releases are kept (default {CACHE})")
    parser.add_argument("--since", action="store_true", help="also check that each 'since' release is the first to print it")
    parser.add_argument("--page", action="append", metavar="ID",
                        help="only the wordings of this page (PERF-0011), e.g. after editing it; repeatable")
    parser.add_argument("--record", action="store_true",
                        help=f"also write docs/{wording_checks.RECORD}, the record the pages show (a --software run keeps the rest)")
    parser.add_argument("--docs", default=str(ROOT / "docs"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    facets, _ = load_facets(Path(args.docs))
    known = facets["software"]
    wanted = set(args.software) if args.software else None
    unknown = sorted((wanted or set()) - set(known))
    if unknown:
        print(f"wording_watch: unknown software {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    cache = Path(args.cache)
    # (project, version) -> its distinct strings, normalised once, or the reason it could not be read.
    # The newest releases stay for the whole run; an older one (--since) is read once and dropped.
    strings: dict[tuple[str, str], list[str] | str] = {}

    def release_strings(project: str, version: str) -> list[str] | str:
        if (project, version) not in strings:
            try:
                read = strings_of_archive(download(project, version, cache))
                strings[project, version] = list(dict.fromkeys(normalise(s) for s in read))
            except (OSError, zipfile.BadZipFile, tarfile.TarError, subprocess.TimeoutExpired) as err:
                strings[project, version] = f"download failed: {err}"
        return strings[project, version]

    newest: dict[str, str | None] = {}
    counts = {"found": 0, "absent": 0, "not checkable": 0}
    open_absent = could_not = 0
    entries: list[dict] = []  # for --record
    lines: list[list] = []  # [wording, release, status], printed at the end
    since_checks: dict[tuple[str, str | None], list[int]] = {}  # (project, release before 'since') -> lines
    pages = set(args.page) if args.page else None
    for w in wordings(Path(args.docs), wanted, pages):
        projects = known.get(w.software, {}).get("pypi") or []
        if not projects:
            status, release = "not checkable: not published on PyPI (driver, firmware, system tool)", "-"
        elif w.unwatched:
            status, release = f"not checkable: {w.unwatched} (the page says)", "-"
        else:
            results = []
            for project in projects:
                if project not in newest:
                    try:
                        newest[project] = pip_index(project)[0]
                    except (OSError, subprocess.TimeoutExpired) as err:
                        newest[project] = None
                        strings[project, "?"] = str(err)
                version = newest[project]
                found = release_strings(project, version) if version else strings[project, "?"]
                results.append((project, version, found if isinstance(found, str)
                                else find_in(_parts(w.watch or w.template), found, normalised=True)))
            best = next((r for r in results if r[2].startswith("found")), results[0])
            project, version, status = best
            release = f"{project} {version or '?'}"
            if status.startswith(("download failed", "pip index")):
                status = f"not checkable: {status}"
            if w.watch and status.startswith(("found", "absent")):
                status += f" (looked for as the release holds it: {w.watch!r})"
            if w.until and status.startswith("found"):
                status += f" (the page closes it at {w.until})"
            if args.since and w.since and status.startswith("found") and version:
                before = previous(list(pip_index(project)[1]), w.since)
                since_checks.setdefault((project, before), []).append(len(lines))
        key = "found" if status.startswith("found") else "absent" if status.startswith("absent") else "not checkable"
        counts[key] += 1
        if key == "absent" and not w.until:
            open_absent += 1
        if key == "not checkable" and projects and not w.unwatched:
            could_not += 1
        if projects:
            entries.append({"id": w.ref_id, "kind": w.kind, "template": w.template, "software": w.software,
                            "release": release, "status": key, "detail": status})
        lines.append([w, release, status])
        print(f"{w.ref_id}  {w.software}  {release}  {status}", file=sys.stderr, flush=True)  # progress
    if args.record:
        record_run(Path(args.docs), entries, newest, known, wanted, pages)
    # --since: each older release is read once, for every wording that needs it, then dropped
    for (project, before), numbers in sorted(since_checks.items(), key=lambda item: (item[0][0], item[0][1] or "")):
        earlier = release_strings(project, before) if before else "no earlier release on PyPI"
        for number in numbers:
            w = lines[number][0]
            verdict = earlier if isinstance(earlier, str) else find_in(_parts(w.watch or w.template), earlier, normalised=True)
            lines[number][2] += (f"; since {w.since}: {project} {before or '-'} "
                                 f"{'confirms it (absent)' if verdict == 'absent' else verdict}")
        if before and before != newest.get(project):
            strings.pop((project, before), None)
        print(f"since: {project} {before} read for {len(numbers)} wording(s)", file=sys.stderr, flush=True)
    for w, release, status in lines:
        print(f"{w.ref_id}  {w.kind:7}  {w.software:12}  {release:32}  {status}  | {w.template}")
    print(f"\n{counts['found']} found, {counts['absent']} absent ({open_absent} open-ended), "
          f"{counts['not checkable']} not checkable; newest releases: "
          + ", ".join(f"{p} {v}" for p, v in sorted(newest.items()) if v))
    return 2 if could_not else 1 if open_absent else 0


def record_run(docs: Path, entries: list[dict], newest: dict[str, str | None], known: dict,
               wanted: set[str] | None, pages: set[str] | None = None) -> Path:
    """Write the run into docs/wording-checks.json: a full run replaces the record, a --software run its
    software's entries, a --page run those pages' entries."""
    today = datetime.now(timezone.utc).date().isoformat()
    checked = sorted({e["software"] for e in entries} | (wanted or set()))
    software = {name: {"date": today,
                       "releases": [f"{p} {newest.get(p) or '?'}" for p in known.get(name, {}).get("pypi") or []]}
                for name in checked if known.get(name, {}).get("pypi")}
    run = {"date": today, "software": software, "wordings": entries}
    old = wording_checks.load(docs) if wanted or pages else None
    page_ids = {p.ref.id for p in load_catalogue(docs).pages}
    path = docs / wording_checks.RECORD
    path.write_text(wording_checks.dump(wording_checks.merge(old, run, page_ids, pages)), encoding="utf-8")
    print(f"recorded in {path}")
    return path


if __name__ == "__main__":
    sys.exit(main())
