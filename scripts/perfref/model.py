"""The reference data model: one schema for the front matter of every page.

Field names are the public contract (the JSON API uses them). Validation that
needs the whole catalogue (duplicate IDs, slugs that must exist) is in load.py.
Every error becomes a ``Problem``: the file, the field, what is wrong, the fix.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from .numbers import ConditionError, names_in, parse_condition, says_fields, trend_names
from .templates import TemplateError, captured_names, compile_template, literal_parts
from .versions import version_key

ID_PATTERN = re.compile(r"^PERF-\d{4}$")
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# a subject: lowercase words (letters, digits, '_', '.', '/') joined by single spaces, three characters or more
SUBJECT_PATTERN = re.compile(r"^(?=.{3})[a-z0-9_/](?:[a-z0-9_./]*[a-z0-9_])?(?: [a-z0-9_/](?:[a-z0-9_./]*[a-z0-9_])?)*$")
FACETS = ("symptom", "hardware", "framework")
# The other controlled list in facets.yml: the software that a version range names.
SOFTWARE = "software"
SIGNAL_KINDS = ("metric", "config", "tool", "phrase")
MIN_CHECKS, MIN_LOOKALIKES, MIN_SOURCES = 3, 2, 3

NonEmpty = Field(min_length=1)


@dataclass(frozen=True)
class Problem:
    file: str
    field: str
    message: str
    fix: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}. Fix: {self.fix}"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, frozen=True)


def _check_template(text: str) -> str:
    try:
        compile_template(text)
    except TemplateError as err:
        raise ValueError(f"bad message template: {err}") from None
    return text


_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]*$")


class Versions(_Strict):
    """The releases of one piece of software that print a message (or hold a check) as written.

    ``since`` is the first release that does, ``until`` the first that no longer
    does; either may be left open.
    """

    software: str = NonEmpty
    since: str | None = None
    until: str | None = None
    # the wording as the release itself holds it, when the line is put together at run time (a CUDA
    # error string from the CUDA runtime, a figure the template fixes): what the wording watch looks for
    watch: str | None = None
    # why the wording watch cannot read it in the software's PyPI release (Megatron-LM's training loop
    # is not in the megatron-core wheel): it is then reported as not checkable, with this reason
    unwatched: str | None = None

    @field_validator("since", "until", mode="before")
    @classmethod
    def _release(cls, value):
        if value is None:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise ValueError(f"{value!r} must be quoted, e.g. \"{value}\" (YAML reads 2.10 as the number 2.1)")
        if not isinstance(value, str) or not _VERSION.match(value):
            raise ValueError(f"{value!r} is not a release number such as \"2.28.3\" or \"550.54.15\"")
        return value

    @field_validator("software")
    @classmethod
    def _known_software(cls, value: str, info: ValidationInfo) -> str:
        known = (info.context or {}).get(SOFTWARE)
        if known is not None and value not in known:
            raise ValueError(f"unknown software {value!r}; known: {', '.join(known)} (add new ones to facets.yml, software)")
        return value

    @field_validator("watch")
    @classmethod
    def _watchable(cls, value):
        if value is not None:
            try:
                compile_template(value)
            except TemplateError as err:
                raise ValueError(f"is not a template: {err}") from None
            if not literal_parts(value):
                raise ValueError("has no literal text for the wording watch to look for")
        return value

    @field_validator("unwatched")
    @classmethod
    def _reason(cls, value):
        if value is not None and not value.strip():
            raise ValueError("give the reason the watch cannot read it, e.g. \"megatron/training is not in the megatron-core wheel\"")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> "Versions":
        if self.watch and self.unwatched:
            raise ValueError("a range is either watched as 'watch' says or 'unwatched', not both")
        low, high = (version_key(v) if v else None for v in (self.since, self.until))
        if low is not None and high is not None and low >= high:
            raise ValueError(f"since {self.since} is not before until {self.until} (until is the first release "
                             "that no longer prints it)")
        return self


VersionList = Field(default_factory=list)


class Numbers(_Strict):
    """A condition on the numbers a message captures ({n:name}) that decides whether the line
    points to this page's cause, and the sentence that quotes them (see perfref.numbers)."""

    when: str = NonEmpty  # "total - free - used >= 0.25 * total"
    says: str = NonEmpty  # "{used} used by this process, {free} free, of {total}"
    why: str = NonEmpty  # the reason the condition points to this cause, for the page
    # message: numbers that hold single out this cause; context: they fit it and a few others
    # (a working set that does not fit), so the line counts as a clue that meets context_min
    counts: Literal["message", "context"] = "message"
    # line: the condition reads one line; run: the first and last lines of a line printed at every step
    over: Literal["line", "run"] = "line"

    @field_validator("when")
    @classmethod
    def _readable_condition(cls, value: str) -> str:
        try:
            parse_condition(value)
        except ConditionError as err:
            raise ValueError(f"cannot read the condition: {err}") from None
        return value


class Message(_Strict):
    text: str = NonEmpty
    where: str = NonEmpty
    # Many different failures print this line (a watchdog timeout, a generic CUDA
    # error): it shows the symptom, not this page's cause, so it ranks as context.
    generic: bool = False
    # When set, the line's own numbers decide: evidence for this cause when the condition
    # holds, the symptom only (as generic) when it does not.
    numbers: Numbers | None = None
    versions: list[Versions] = Field(default_factory=list, validate_default=True)

    _template = field_validator("text")(_check_template)

    @model_validator(mode="after")
    def _numbers_name_captures(self) -> "Message":
        if self.numbers is None:
            return self
        captured = set(captured_names(self.text))
        usable = trend_names(sorted(captured)) if self.numbers.over == "run" else captured
        wanted = names_in(parse_condition(self.numbers.when)) | set(says_fields(self.numbers.says))
        unknown = sorted(wanted - usable)
        if unknown:
            raise ValueError(
                f"numbers name {', '.join(unknown)}, which the template does not give "
                f"(it gives {', '.join(sorted(usable)) or 'nothing'}): write {{n:{unknown[0].removeprefix('first_').removeprefix('last_')}}} "
                "in the template where that number is printed, or use a name it gives"
                + ("; over the run, a captured x gives first_x, last_x, and lines counts the lines" if self.numbers.over == "run" else "")
            )
        return self

    @field_validator("versions")
    @classmethod
    def _has_versions(cls, value: list[Versions]) -> list[Versions]:
        if not value:
            raise ValueError("no version range: every message names the releases that print it, e.g. "
                             "versions: [{software: nccl, since: \"2.28.3\"}] (open ends are allowed)")
        return value


class Signal(_Strict):
    text: str = NonEmpty
    kind: Literal["metric", "config", "tool", "phrase"]
    weight: int = Field(ge=1, le=5)
    versions: list[Versions] = VersionList

    _template = field_validator("text")(_check_template)


class Check(_Strict):
    id: str = NonEmpty
    title: str = NonEmpty
    run: str = NonEmpty
    confirms: str = NonEmpty
    refutes: str = NonEmpty
    versions: list[Versions] = VersionList

    @field_validator("id")
    @classmethod
    def _kebab(cls, value: str) -> str:
        if not SLUG_PATTERN.match(value):
            raise ValueError(f"check id {value!r} is not kebab-case (lowercase words joined by '-')")
        return value


def _check_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or "." not in parts.netloc or any(c.isspace() for c in value):
        raise ValueError(f"{value!r} is not an absolute http(s) URL")
    return value


class Lookalike(_Strict):
    slug: str | None = None
    title: str | None = None
    url: str | None = None
    tell: str = NonEmpty
    check: str | None = None  # the id of this page's check that tells the two apart

    @model_validator(mode="after")
    def _one_target(self) -> "Lookalike":
        if self.slug is None and not (self.title and self.url):
            raise ValueError("a look-alike needs either slug (another reference) or title and url (an external page)")
        if self.slug is not None and (self.title or self.url):
            raise ValueError("a look-alike has either slug or title and url, not both")
        if self.url is not None:
            _check_url(self.url)
        return self


_PARTIAL_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


class Source(_Strict):
    title: str = NonEmpty
    url: str
    publisher: str = NonEmpty
    date: str
    supports: str = NonEmpty

    _url = field_validator("url")(_check_url)

    @field_validator("date", mode="before")
    @classmethod
    def _partial_date(cls, value) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not _PARTIAL_DATE.match(value):
            raise ValueError(f"{value!r} is not a date of the form YYYY, YYYY-MM or YYYY-MM-DD")
        year, month, day = (value.split("-") + ["01", "01"])[:3]
        try:
            dt.date(int(year), int(month), int(day))
        except ValueError:
            raise ValueError(f"{value!r} is not a real date") from None
        return value


EXAMPLE_MAX_LINES, EXAMPLE_MAX_CHARS = 12, 1500


class Example(_Strict):
    """A short excerpt of a real log, quoted from a public page."""

    title: str = NonEmpty
    url: str
    text: str = NonEmpty

    _url = field_validator("url")(_check_url)

    @field_validator("text")
    @classmethod
    def _short(cls, value: str) -> str:
        lines = value.count("\n") + 1
        if lines > EXAMPLE_MAX_LINES or len(value) > EXAMPLE_MAX_CHARS:
            raise ValueError(f"is {lines} lines, {len(value)} characters; an example is a short excerpt "
                             f"(at most {EXAMPLE_MAX_LINES} lines and {EXAMPLE_MAX_CHARS} characters)")
        return value


class OriginallyPublished(_Strict):
    """The summary as first published, kept visible after a correction."""

    summary: str = NonEmpty
    changed: str = NonEmpty  # what changed and why


class Reference(_Strict):
    id: str
    title: str = NonEmpty
    summary: str = NonEmpty
    # cause: one failure and its causes; triage: a symptom that many failures share,
    # written as a decision path that routes to the cause references.
    kind: Literal["cause", "triage"] = "cause"
    # triage only: the symptoms whose plain-language description brings a reader here
    # (default: the first symptom value)
    takes_in: list[str] = []
    # cause only: words that name what the failure is about ("dataloader", "torch.save"); named in the
    # text beside one of the page's symptoms, they make the page a possible cause
    subject: list[str] = []
    status: Literal["published", "draft", "retired"] = "published"
    symptom: list[str] = NonEmpty
    hardware: list[str] = NonEmpty
    framework: list[str] = NonEmpty
    messages: list[Message] = NonEmpty
    messages_note: str | None = None
    signals: list[Signal] = NonEmpty
    checks: list[Check] = Field(min_length=MIN_CHECKS)
    # cause only: the ids of the one to three checks that settle it, shown first
    # ("Start here"); default: the first check
    start_here: list[str] = Field(default=[], max_length=3)
    lookalikes: list[Lookalike] = Field(min_length=MIN_LOOKALIKES)
    related: list[str] = []
    examples: list[Example] = Field(min_length=1)
    sources: list[Source] = Field(min_length=MIN_SOURCES)
    reviewed: dt.date
    originally_published: OriginallyPublished | None = None
    aliases: list[str] = []

    @property
    def first_checks(self) -> list[Check]:
        """The checks a reader runs first: start_here (cause), else the first check; none on a triage page."""
        if self.kind == "triage":
            return []
        by_id = {c.id: c for c in self.checks}
        return [by_id[i] for i in self.start_here or [self.checks[0].id]]

    @property
    def checks_in_reading_order(self) -> list[Check]:
        """The checks as the page shows them: those that settle the cause first, then the rest."""
        first = {c.id for c in self.first_checks}
        return self.first_checks + [c for c in self.checks if c.id not in first]

    @field_validator("id")
    @classmethod
    def _id_form(cls, value: str) -> str:
        if not ID_PATTERN.match(value):
            raise ValueError(f"{value!r} is not of the form PERF-NNNN (four digits)")
        return value

    @field_validator("reviewed", mode="before")
    @classmethod
    def _reviewed_date(cls, value):
        if isinstance(value, dt.date):
            return value
        try:
            return dt.date.fromisoformat(str(value))
        except ValueError:
            raise ValueError(f"{value!r} is not a date of the form YYYY-MM-DD") from None

    @field_validator("symptom", "hardware", "framework")
    @classmethod
    def _known_facet(cls, values: list[str], info: ValidationInfo) -> list[str]:
        vocabulary = (info.context or {}).get("facets", {}).get(info.field_name)
        if vocabulary is not None:
            unknown = [v for v in values if v not in vocabulary]
            if unknown:
                raise ValueError(
                    f"unknown {info.field_name} value(s) {', '.join(map(repr, unknown))}; "
                    f"known: {', '.join(vocabulary)}"
                )
        if len(set(values)) != len(values):
            raise ValueError("a value is listed twice")
        return values

    @field_validator("subject")
    @classmethod
    def _subject_form(cls, values: list[str]) -> list[str]:
        bad = [v for v in values if not SUBJECT_PATTERN.match(v)]
        if bad:
            raise ValueError(f"{', '.join(map(repr, bad))} is not a subject: write lowercase words "
                             "(letters, digits, '_', '.', '/'; three characters or more in all) joined by single spaces, such as "
                             "'data loading' or 'torch.save' (a hyphen stands for a space)")
        if len(set(values)) != len(values):
            raise ValueError("a subject is listed twice")
        return values

    @field_validator("related", "aliases")
    @classmethod
    def _slugs(cls, values: list[str]) -> list[str]:
        bad = [v for v in values if not SLUG_PATTERN.match(v)]
        if bad:
            raise ValueError(f"{', '.join(map(repr, bad))} is not a slug (lowercase words joined by '-')")
        return values

    @model_validator(mode="after")
    def _unique_check_ids(self) -> "Reference":
        ids = [c.id for c in self.checks]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"checks: id {', '.join(dupes)} is used twice; each check needs its own anchor")
        if self.takes_in and self.kind != "triage":
            raise ValueError("takes_in: only a triage reference takes in a symptom; remove it or set kind: triage")
        strays = [v for v in self.takes_in if v not in self.symptom]
        if strays:
            raise ValueError(f"takes_in: {', '.join(map(repr, strays))} is not in this reference's symptom list")
        if self.subject and self.kind == "triage":
            raise ValueError("subject: a triage reference is found by its symptom; only a cause has a subject")
        if self.start_here and self.kind == "triage":
            raise ValueError("start_here: a triage reference starts with its decision path; remove start_here")
        strays = [c for c in self.start_here if c not in ids]
        if strays:
            raise ValueError(f"start_here: {', '.join(map(repr, strays))} is not the id of a check on this page")
        unknown = [look.check for look in self.lookalikes if look.check and look.check not in ids]
        if unknown:
            raise ValueError(f"lookalikes: check {', '.join(map(repr, unknown))} is not the id of a check on this page")
        return self


# ---- Turning pydantic's errors into problems that say how to fix them ----

_FIXES = {
    "missing": "add the field (see the Contributing page for its form)",
    "extra_forbidden": "remove the field or correct its spelling; the Contributing page lists the known fields",
    "string_too_short": "give it a non-empty value",
    "too_short": "add entries until the minimum is met",
    "literal_error": "use one of the values the message lists",
    "int_parsing": "give a whole number",
    "greater_than_equal": "raise the number into the allowed range",
    "less_than_equal": "lower the number into the allowed range",
    "list_type": "write a YAML list (one '- item' per line)",
    "string_type": "write a text value (quote it if YAML reads it as something else)",
    "model_type": "write a mapping with the fields the Contributing page lists",
}


def _field_path(loc: tuple) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "(front matter)"


def problems_from(err: ValidationError, file: str) -> list[Problem]:
    problems = []
    for e in err.errors(include_url=False):
        kind = e["type"]
        message = e["msg"].removeprefix("Value error, ")
        if kind == "too_short" and "min_length" in e.get("ctx", {}):
            message = f"has {e['ctx'].get('actual_length', 'too few')} entries, needs at least {e['ctx']['min_length']}"
        if kind == "string_too_short":
            message = "is empty"
        fix = _FIXES.get(kind, "correct the value as the message says")
        if "template" in message:
            fix = message.split(": ", 1)[-1].split("; ", 1)[-1]
            fix = "see 'Message templates' on the Contributing page" if fix == message else fix
        problems.append(Problem(file, _field_path(tuple(e["loc"])), message, fix))
    return problems


def validate(data: dict, file: str, facets: dict, software: dict | None = None) -> tuple[Reference | None, list[Problem]]:
    try:
        return Reference.model_validate(data, context={"facets": facets, SOFTWARE: software}), []
    except ValidationError as err:
        return None, problems_from(err, file)
