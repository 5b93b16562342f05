"""Pages -> validated references, with every problem of every page in one list.

``perfref check`` runs it without building the site.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from . import learned
from .model import FACETS, SLUG_PATTERN, SOFTWARE, Problem, Reference, validate
from .templates import ascii_lower, phrase_pattern

REFERENCES_DIR = "references"
FACETS_FILE = "facets.yml"
BODY_SECTIONS = ("What the sources support", "Decision path", "Possible causes", "Mitigations")
REQUIRED_SECTIONS = ("Possible causes", "Mitigations")
# Slugs the site uses for its own pages under /references/.
RESERVED_SLUGS = {"index"}
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?---[ \t]*(?:\n|\Z)", re.S)
_H2 = re.compile(r"^## +(.+?)\s*#*\s*$", re.M)
# a word looked up as a token, or text of a script written without spaces (Chinese, Japanese), found as a substring
# one word, a phrase of words ("out of memory"), or text of a script written without spaces
# or the start of a word followed by * ("cuda_error_*": every error name the CUDA driver prints)
_KEYWORD = re.compile(r"^(?:[a-z0-9_]{3,}\*?|[a-z0-9_]{2,}(?: [a-z0-9_]{2,})+|[^\x00-\x7f]+)$")
# What the scaffold writes for the author to replace; a page that holds any of it stays a draft.
_PLACEHOLDER = re.compile(r"\bTODO\b|\bexample\.(?:com|org|net)\b")
# facets.yml holds the three facets and the software that version ranges name.
VOCABULARIES = (*FACETS, SOFTWARE)


class _YamlLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml when present: 5x faster
    """SafeLoader that leaves dates as text, so a bad date is the model's clear error, not a crash."""


_YamlLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class CatalogueError(Exception):
    """Raised with every problem found, so one build reports them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(map(str, problems)))


@dataclass
class Page:
    slug: str
    file: str  # path relative to docs/, as MkDocs names it
    ref: Reference
    sections: dict[str, str]  # body heading -> Markdown
    backlinks: list[str] = field(default_factory=list)  # slugs of pages that name this one as related

    @property
    def url(self) -> str:
        return self.url_of(self.slug)

    @staticmethod
    def url_of(slug: str) -> str:
        """A reference's page, relative to the site (a permanent URL: links and tickets cite it)."""
        return f"references/{slug}/"


@dataclass
class Catalogue:
    facets: dict[str, dict[str, dict]]  # the three facets and the software list, by name
    pages: list[Page]  # sorted by ID
    learned: dict = field(default_factory=lambda: {"symptoms": {}, "references": {}})  # learned.py

    def by_slug(self, slug: str) -> Page | None:
        return next((p for p in self.pages if p.slug == slug), None)

    def by_file(self, file: str) -> Page | None:
        return next((p for p in self.pages if p.file == file), None)

    @property
    def published(self) -> list[Page]:
        return [p for p in self.pages if p.ref.status == "published"]

    @property
    def listed(self) -> list[Page]:
        """Published and retired pages: what the catalogue, the facet pages and the API list (not drafts)."""
        return [p for p in self.pages if p.ref.status != "draft"]


def split_front_matter(text: str) -> tuple[dict | None, str]:
    m = _FRONT_MATTER.match(text)
    if not m:
        return None, text
    return yaml.load(m.group(1) or "", Loader=_YamlLoader) or {}, text[m.end():]


def split_sections(body: str, file: str) -> tuple[dict[str, str], list[Problem]]:
    """Cut the body at its second-level headings; only the known ones are allowed."""
    problems = []
    heads = list(_H2.finditer(body))
    lead = body[: heads[0].start()].strip() if heads else body.strip()
    if lead and not lead.startswith("# "):
        problems.append(Problem(file, "body", "text stands before the first '## ' heading",
                                "move it under '## Possible causes' or '## Mitigations'"))
    sections: dict[str, str] = {}
    for k, m in enumerate(heads):
        name = m.group(1)
        end = heads[k + 1].start() if k + 1 < len(heads) else len(body)
        if name not in BODY_SECTIONS:
            problems.append(Problem(file, "body", f"unknown section '## {name}'",
                                    "use only " + ", ".join(f"'## {s}'" for s in BODY_SECTIONS)))
        elif name in sections:
            problems.append(Problem(file, "body", f"section '## {name}' appears twice", "merge the two"))
        sections[name] = body[m.end():end].strip()
    order = [s for s in sections if s in BODY_SECTIONS]
    if order != [s for s in BODY_SECTIONS if s in sections]:
        problems.append(Problem(file, "body", "sections are out of order", "order them: " + ", ".join(BODY_SECTIONS)))
    for name in REQUIRED_SECTIONS:
        if not sections.get(name):
            problems.append(Problem(file, "body", f"section '## {name}' is missing or empty", f"add '## {name}' with its prose"))
    return sections, problems


_PYPI_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")


def load_facets(docs_dir: Path) -> tuple[dict, list[Problem]]:
    path = docs_dir / FACETS_FILE
    file = FACETS_FILE
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_YamlLoader) or {}
    except (OSError, yaml.YAMLError) as err:
        return {}, [Problem(file, "(file)", f"cannot be read: {err}", "restore the file or fix its YAML")]
    problems = []
    for facet in VOCABULARIES:
        values = data.get(facet)
        if not isinstance(values, dict) or not values:
            problems.append(Problem(file, facet, "is missing or empty", "list the facet's values with label and description"))
            continue
        for value, spec in values.items():
            where = f"{facet}.{value}"
            if not SLUG_PATTERN.match(str(value)):
                problems.append(Problem(file, where, "is not lowercase words joined by '-'", "rename the value"))
            spec = spec if isinstance(spec, dict) else {}
            for key in ("label", "description"):
                if not str(spec.get(key) or "").strip():
                    problems.append(Problem(file, f"{where}.{key}", "is missing or empty", f"give the value a {key}"))
            pypi = spec.get("pypi") or []
            if not isinstance(pypi, list) or not all(isinstance(n, str) and _PYPI_NAME.match(n) for n in pypi):
                problems.append(Problem(file, f"{where}.pypi", f"{pypi!r} is not a list of PyPI project names",
                                        "write a YAML list such as [torch] or [nvidia-nccl-cu12, nvidia-nccl-cu13]"))
            for word in spec.get("keywords") or []:
                if not _KEYWORD.match(str(word)):
                    problems.append(Problem(file, f"{where}.keywords", f"{word!r} is neither one lowercase word of 3 or more letters, digits or '_' (a word's start "
                                            "when it ends with *), nor words joined by single spaces, nor text without ASCII",
                                            "keywords are single words the matcher looks up as tokens (cuda_error_* for any word that begins so), phrases of lowercase words "
                                            "(\"out of memory\"), or words of a script written without spaces (such as Chinese), "
                                            "which it finds as substrings"))
            part_of = spec.get("part_of")
            if part_of is not None and (facet not in FACETS or part_of == value or part_of not in (data.get(facet) or {})):
                problems.append(Problem(file, f"{where}.part_of", f"{part_of!r} is not another value of {facet}",
                                        f"name the {facet} value this one belongs to (torch-compile is part of pytorch), or remove the field"))
    extra = set(data) - set(VOCABULARIES)
    if extra:
        problems.append(Problem(file, ", ".join(sorted(extra)), "is not a vocabulary", f"use only {', '.join(VOCABULARIES)}"))
    return {f: data.get(f) or {} for f in VOCABULARIES}, problems


def load_catalogue(docs_dir: str | Path, with_learned: bool = True) -> Catalogue:
    """Read, validate and cross-check every reference; raise CatalogueError listing all problems.
    ``with_learned``: read docs/learned-words.json too (scripts/learn_words.py, which writes it, does not)."""
    docs_dir = Path(docs_dir)
    facets, problems = load_facets(docs_dir)
    if problems and not all(facets.get(f) for f in VOCABULARIES):
        raise CatalogueError(problems)  # without the vocabularies no page can be checked
    pages: list[Page] = []
    paths = [p for p in sorted((docs_dir / REFERENCES_DIR).glob("*.md")) if p.name != "index.md"]
    for path in paths:
        file = path.relative_to(docs_dir).as_posix()
        slug = path.stem
        if not SLUG_PATTERN.match(slug) or slug in RESERVED_SLUGS:
            problems.append(Problem(file, "(file name)", f"{slug!r} is not a usable slug", "name the file in lowercase words joined by '-'"))
            continue
        try:
            data, body = split_front_matter(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as err:
            problems.append(Problem(file, "(front matter)", f"is not valid YAML: {err}".replace("\n", " "), "fix the YAML syntax (quote text that contains ': ')"))
            continue
        if not isinstance(data, dict):
            problems.append(Problem(file, "(front matter)", "is missing", "start the file with a '---' block holding the reference's fields"))
            continue
        ref, found = validate(data, file, {f: facets[f] for f in FACETS}, facets[SOFTWARE])
        if data.get("status", "published") != "draft":
            found += placeholder_problems(data, body, file)
        sections, body_problems = split_sections(body, file)
        if ref is not None and ref.kind == "triage" and not sections.get("Decision path"):
            body_problems.append(Problem(file, "body", "a triage reference has no '## Decision path'",
                                         "add it before '## Possible causes': what to run first, what each outcome means, which reference to read next"))
        if ref is not None:
            body_problems += subject_problems(ref, sections, file)
        problems += found + body_problems
        if ref is not None:
            pages.append(Page(slug, file, ref, sections))
    # Slugs of every file, valid or not, so that one broken page does not break its neighbours' links.
    problems += cross_check(pages, {p.stem for p in paths})
    learned_words, found = learned.load(docs_dir if with_learned else None,
                                        {p.slug: p.ref.kind for p in pages if p.ref.status == "published"})
    problems += found
    if problems:
        raise CatalogueError(problems)
    pages.sort(key=lambda p: p.ref.id)
    linking: dict[str, set[str]] = {}
    for other in pages:
        for slug in other.ref.related:
            if slug != other.slug:
                linking.setdefault(slug, set()).add(other.slug)
    for page in pages:
        page.backlinks = sorted(linking.get(page.slug, ()))
    return Catalogue(facets, pages, learned_words)


def subject_problems(ref: Reference, sections: dict[str, str], file: str) -> list[Problem]:
    """A subject must be words the page itself shows: the matcher's vocabulary comes from what the page is about."""
    shown = [*sections.values(), *(text for _, text in texts_in(ref.model_dump(mode="json", exclude={"subject"})))]
    own = ascii_lower("\n".join(shown))
    return [Problem(file, f"subject[{k}]", f"{phrase!r} does not occur anywhere else on the page",
                    "name the subject in words the page uses, or say in the prose where a reader meets it")
            for k, phrase in enumerate(ref.subject)
            if not re.search(phrase_pattern(phrase), own)]


def texts_in(value, path: str = "") -> Iterator[tuple[str, str]]:
    """Every text in front-matter data, with its field path ("checks[2].run")."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from texts_in(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from texts_in(item, f"{path}[{k}]")
    elif isinstance(value, str):
        yield path, value


def placeholder_problems(data, body: str, file: str) -> list[Problem]:
    """Scaffold text (TODO, example.com) left in a page that is not a draft."""
    problems = [Problem(file, path, f"holds placeholder text ({_PLACEHOLDER.search(value).group(0)!r})",
                        "replace it with the real value, or keep 'status: draft' until it is done")
                for path, value in texts_in(data) if _PLACEHOLDER.search(value)]
    if _PLACEHOLDER.search(body):
        problems.append(Problem(file, "body", "holds placeholder text (TODO)",
                                "write the prose, or keep 'status: draft' until it is done"))
    return problems


def cross_check(pages: list[Page], slugs: set[str]) -> list[Problem]:
    """Checks that need the whole catalogue: unique IDs, slugs and aliases; slugs that exist."""
    problems = []
    seen_ids: dict[str, str] = {}
    seen_urls: dict[str, str] = {p.slug: p.file for p in pages}
    for page in pages:
        ref = page.ref
        if ref.id in seen_ids:
            problems.append(Problem(page.file, "id", f"{ref.id} is already used by {seen_ids[ref.id]}",
                                    "give this reference the next free ID; an ID is never reused"))
        seen_ids.setdefault(ref.id, page.file)
        for k, alias in enumerate(ref.aliases):
            if alias in seen_urls:
                problems.append(Problem(page.file, f"aliases[{k}]", f"slug {alias!r} is already used by {seen_urls[alias]}",
                                        "an alias must be a former slug that no other page or alias uses"))
            seen_urls.setdefault(alias, page.file)
        for k, slug in enumerate(ref.related):
            if slug not in slugs:
                problems.append(Problem(page.file, f"related[{k}]", f"no reference has the slug {slug!r}",
                                        "use the file name (without .md) of an existing reference"))
            elif slug == page.slug:
                problems.append(Problem(page.file, f"related[{k}]", "a reference cannot be related to itself", "remove it"))
        for k, look in enumerate(ref.lookalikes):
            if look.slug is not None and look.slug not in slugs:
                problems.append(Problem(page.file, f"lookalikes[{k}].slug", f"no reference has the slug {look.slug!r}",
                                        "use an existing reference's slug, or give title and url for an external page"))
    return problems
