"""Numbers decide: conditions on the numbers a message prints.

A message template names the numbers it captures (``{n:free}``); its page may add
a condition on them (``when``) and a sentence that quotes them (``says``):

    numbers:
      when: "total - free - used >= 0.25 * total"
      says: "{used} in use by this process, {free} free, of {total}"

When the template matches a line and the condition holds, the line is evidence for
the page's cause; when it does not hold, the line counts only as its symptom (as a
``generic`` message does). A condition is one or more comparisons joined by
``and``; each side is a sum of captured names, each optionally times a number.
A captured number is read with the unit printed after it (``512.00 MiB``), so
sizes in different units compare. match-worker.js evaluates the parsed form
emitted into the match index, with the same units.

With ``over: run`` the condition reads the run rather than one line: a line
printed at every step (a rate, a step time) is evidence only when its numbers
moved. Each captured name ``x`` then gives ``first_x`` and ``last_x`` (the mean
of the first and of the last ``TREND_WINDOW`` lines that matched) and ``lines``
(how many matched): ``lines >= 10 and last_ms >= 1.5 * first_ms``.
"""

from __future__ import annotations

import math
import re

# Units a size may carry after its number (lowercased, as the matcher sees the line).
UNITS = {
    "bytes": 1, "byte": 1, "b": 1,
    "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
    "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40,
}
UNIT_AFTER = re.compile(r"[ \t]*([a-z]+)")
OPERATORS = (">=", "<=", ">", "<")
_TERM = re.compile(r"\s*(?:(?P<coef>\d+(?:\.\d+)?)\s*\*\s*)?(?P<name>[a-z_][a-z0-9_]*)\s*$|\s*(?P<const>\d+(?:\.\d+)?)\s*$")
NAME = re.compile(r"^[a-z_][a-z0-9_]*$")
TREND_WINDOW = 5  # lines averaged at each end of a run
SAYS_FIELD = re.compile(r"\{([^{}]*)\}")


class ConditionError(ValueError):
    """A condition or sentence that cannot be read; the message says how to fix it."""


def _side(text: str) -> list[list]:
    """"total - free - used" -> [[1, "total"], [-1, "free"], [-1, "used"]]; a bare number has name None."""
    terms = []
    for sign, body in re.findall(r"([+-]?)([^+-]+)", text):
        m = _TERM.match(body)
        if not m or not body.strip():
            raise ConditionError(f"cannot read {body.strip()!r}: write a captured name, a number, or number * name")
        factor = -1.0 if sign == "-" else 1.0
        if m.group("const"):
            terms.append([factor * float(m.group("const")), None])
        else:
            terms.append([factor * float(m.group("coef") or 1), m.group("name")])
    if not terms:
        raise ConditionError("one side of a comparison is empty")
    return terms


def parse_condition(text: str) -> list[dict]:
    """Parse "a - b >= 0.25 * c and d < e" into comparisons the index carries, or raise ConditionError."""
    if not text or not text.strip():
        raise ConditionError("the condition is empty; write a comparison such as \"unallocated >= request\"")
    clauses = []
    for clause in re.split(r"\s+and\s+", text.strip()):
        op = next((o for o in OPERATORS if o in clause), None)
        if op is None:
            raise ConditionError(f"{clause!r} has no comparison; use one of {', '.join(OPERATORS)}")
        left, right = clause.split(op, 1)
        if any(o in right for o in OPERATORS):
            raise ConditionError(f"{clause!r} has two comparisons; join comparisons with 'and'")
        clauses.append({"left": _side(left), "op": op, "right": _side(right)})
    return clauses


def names_in(clauses: list[dict]) -> set[str]:
    return {name for c in clauses for side in (c["left"], c["right"]) for _, name in side if name}


def says_fields(says: str) -> list[str]:
    return SAYS_FIELD.findall(says)


def value_of(number_text: str, rest: str) -> tuple[float, int] | None:
    """A captured number and the unit after it: (value, characters of ``rest`` the unit takes)."""
    try:
        value = float(number_text.replace(",", ""))
    except ValueError:
        return None
    m = UNIT_AFTER.match(rest)
    if m and m.group(1) in UNITS:
        return value * UNITS[m.group(1)], m.end()
    return value, 0


def _sum(side: list[list], values: dict[str, float]) -> float:
    return sum(coef * (1.0 if name is None else values[name]) for coef, name in side)


def holds(clauses: list[dict], values: dict[str, float]) -> bool:
    for c in clauses:
        left, right = _sum(c["left"], values), _sum(c["right"], values)
        op = c["op"]
        if not (left >= right if op == ">=" else left <= right if op == "<=" else left > right if op == ">" else left < right):
            return False
    return True


def trend_names(captured: list[str]) -> set[str]:
    """The names a condition over the run may use."""
    return {"lines"} | {f"{end}_{name}" for name in captured for end in ("first", "last")}


def shown(value: float) -> str:
    """A computed number as both matchers print it: two decimals at most, rounded half up."""
    rounded = math.floor(value * 100 + 0.5) / 100
    return str(int(rounded)) if rounded == int(rounded) else repr(rounded)


def values_of(captures: dict[str, tuple[int, int]], lower: str) -> dict[str, float] | None:
    """The captured numbers of one line, with their units applied; None when one cannot be read."""
    read_values = _read_values(captures, lower)
    return None if read_values is None else read_values[0]


def _read_values(captures: dict[str, tuple[int, int]], lower: str) -> tuple[dict[str, float], dict[str, int]] | None:
    """The captured numbers with their units applied, and where each number and its unit end in the line."""
    values, ends = {}, {}
    for name, (start, end) in captures.items():
        read_value = value_of(lower[start:end], lower[end:])
        if read_value is None:
            return None
        values[name], unit_chars = read_value
        ends[name] = end + unit_chars
    return values, ends


def series_of(values: dict[str, float]) -> dict:
    """One line's numbers as the start of a run's series (merge with ``extend``)."""
    return {"first": [values], "last": [values], "lines": 1}


def extend(series: dict, later: dict) -> dict:
    """Two series of the same template, the second read after the first: bounded, whatever the run's length."""
    return {"first": (series["first"] + later["first"])[:TREND_WINDOW],
            "last": (series["last"] + later["last"])[-TREND_WINDOW:],
            "lines": series["lines"] + later["lines"]}


def trend(series: dict, spec: dict) -> dict:
    """What a run's series says under a condition ``over: run``: {"holds", "says"}."""
    values = {"lines": float(series["lines"])}
    for name in series["first"][0]:
        for end in ("first", "last"):
            window = series[end]
            values[f"{end}_{name}"] = sum(v[name] for v in window) / len(window)
    text = {name: (str(series["lines"]) if name == "lines" else shown(value)) for name, value in values.items()}
    return {"holds": holds(spec["when"], values),
            "says": SAYS_FIELD.sub(lambda m: text.get(m.group(1), m.group(0)), spec["says"])}


def read(captures: dict[str, tuple[int, int]], lower: str, original: str, spec: dict) -> dict | None:
    """The numbers of one matched line: {"holds", "says"}; None when a captured number cannot be read.

    ``captures``: name -> (start, end) of the number in the lowered line; the original
    line gives the sentence its case ("512.00 MiB").
    """
    read_values = _read_values(captures, lower)
    if read_values is None:
        return None
    values, ends = read_values
    shown = {name: original[start:ends[name]] for name, (start, _) in captures.items()}
    return {"holds": holds(spec["when"], values),
            "says": SAYS_FIELD.sub(lambda m: shown.get(m.group(1), m.group(0)), spec["says"])}
