"""Each class of bad input fails the strict build, naming the file, the field and the fix.

Every case starts from the two valid fixture references, breaks one thing, and
runs the real ``mkdocs build --strict`` on a copy of the project.
"""

from __future__ import annotations

import re

import pytest
from conftest import FIXTURES, copy_project, mkdocs_build

from perfref.load import CatalogueError, load_catalogue

ALPHA = "references/alpha-widget-stall.md"
BETA = "references/beta-gadget-slow.md"


def _edit(old: str, new: str, file: str = ALPHA):
    def apply(docs):
        path = docs / file
        text = path.read_text()
        assert old in text, f"fixture no longer contains {old!r}"
        path.write_text(text.replace(old, new, 1))
    return apply


# (class of bad input, how to break the fixture, file and field the error must name, words it must say)
CASES = {
    "missing required field": (_edit("summary: A synthetic failure used by the tests.\n", ""), ALPHA, "summary", "Field required"),
    "empty required field": (_edit("title: Alpha widget stalls", 'title: ""'), ALPHA, "title", "is empty"),
    "unknown facet value": (_edit("symptom: [hang]", "symptom: [hangs]"), ALPHA, "symptom", "unknown symptom value(s) 'hangs'"),
    "duplicate id": (_edit("id: PERF-9002", "id: PERF-9001", BETA), BETA, "id", "PERF-9001 is already used by references/alpha-widget-stall.md"),
    "duplicate slug": (_edit("aliases: [old-alpha]", "aliases: [beta-gadget-slow]"), ALPHA, "aliases[0]", "slug 'beta-gadget-slow' is already used"),
    "malformed id": (_edit("id: PERF-9001", "id: PERF-91"), ALPHA, "id", "is not of the form PERF-NNNN"),
    "related slug missing": (_edit("related: [beta-gadget-slow]", "related: [gamma-gizmo]"), ALPHA, "related[0]", "no reference has the slug 'gamma-gizmo'"),
    "look-alike slug missing": (_edit("  - slug: beta-gadget-slow\n", "  - slug: delta-doohickey\n"), ALPHA, "lookalikes[0].slug", "no reference has the slug 'delta-doohickey'"),
    "malformed url": (_edit("url: https://widgets.test/one", "url: widgets.test/one"), ALPHA, "sources[0].url", "is not an absolute http(s) URL"),
    "invalid date": (_edit("reviewed: 2026-12-02", "reviewed: 2026-02-30"), ALPHA, "reviewed", "is not a date of the form YYYY-MM-DD"),
    "invalid source date": (_edit("date: 2024-05-06", "date: 2024-13-06"), ALPHA, "sources[2].date", "is not a real date"),
    "unknown placeholder": (_edit("on rank {id}", "on rank {rank}"), ALPHA, "messages[0].text", "unknown placeholder {rank}"),
    "template without an anchor": (_edit('"Xid 79 on widget {hex}"', '"Xid 79 {hex}"'), ALPHA, "messages[1].text", "no word of 4 or more"),
    "too few checks": (_edit("  - id: third-check\n    title: Third check\n    run: echo three\n", "  - id: third-check\n    title: Third check\n    run: echo three\n", ALPHA), None, None, None),
    "unknown field": (_edit("reviewed: 2026-12-02", "reviewed: 2026-12-02\nreviewd: 2026-12-02"), ALPHA, "reviewd", "Extra inputs are not permitted"),
    "unknown body section": (_edit("## Mitigations", "## Fixes"), ALPHA, "body", "unknown section '## Fixes'"),
    "malformed subject": (_edit("symptom: [hang]", "symptom: [hang]\nsubject: [Widget-Stall]"), ALPHA, "subject", "is not a subject"),
    "subject the page never shows": (_edit("symptom: [hang]", "symptom: [hang]\nsubject: [flux capacitor]"), ALPHA, "subject[0]",
                                     "'flux capacitor' does not occur anywhere else on the page"),
    "subject on a triage reference": (_edit("symptom: [hang]", "symptom: [hang]\nkind: triage\nsubject: [widget]"), ALPHA, "(front matter)",
                                      "only a cause has a subject"),
}
del CASES["too few checks"]  # covered by the content minimums in test_model


@pytest.fixture
def project(tmp_path):
    return copy_project(tmp_path, FIXTURES / "refs")


def test_fixture_project_builds(project, tmp_path):
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_fails_the_strict_build(case, project, tmp_path):
    breaker, file, field, words = CASES[case]
    breaker(project / "docs")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0, f"{case}: the build passed"
    lines = [line for line in result.stderr.splitlines() if f"{file}: {field}:" in line]
    assert lines, f"{case}: no error names {file} and {field}:\n{result.stderr[-3000:]}"
    assert any(words in line for line in lines), f"{case}: {lines}"
    assert all("Fix: " in line for line in lines), f"{case}: an error gives no fix: {lines}"


def test_all_problems_are_reported_at_once(project):
    _edit("symptom: [hang]", "symptom: [hangs]")(project / "docs")
    _edit("id: PERF-9002", "id: PERF-12", BETA)(project / "docs")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(project / "docs")
    assert {(p.file, p.field) for p in err.value.problems} == {(ALPHA, "symptom"), (BETA, "id")}


def test_broken_yaml_names_the_file(project, tmp_path):
    _edit("title: Alpha widget stalls", "title: Alpha: widget: stalls")(project / "docs")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    assert re.search(rf"{re.escape(ALPHA)}: \(front matter\): is not valid YAML", result.stderr)


@pytest.mark.parametrize("breakage, says", [
    (lambda text: text.replace("symptom:", "<<<<<<< HEAD\nsymptom:", 1), "cannot be read"),  # a merge left its markers
    (lambda text: text.replace("symptom:", "symptoms:", 1), "symptom: is missing or empty"),
])
def test_a_broken_vocabulary_file_is_one_clear_error(project, tmp_path, breakage, says):
    path = project / "docs" / "facets.yml"
    path.write_text(breakage(path.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(project / "docs")
    assert any(p.file == "facets.yml" for p in err.value.problems) and says in str(err.value)
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0 and "facets.yml" in result.stderr and "Traceback" not in result.stderr


def test_minimum_counts_are_enforced(project):
    path = project / "docs" / ALPHA
    text = path.read_text()
    start = text.index("  - title: Source two")
    end = text.index("reviewed:")
    path.write_text(text[:start] + text[end:])
    with pytest.raises(CatalogueError) as err:
        load_catalogue(project / "docs")
    assert [(p.field, p.message) for p in err.value.problems] == [("sources", "has 1 entries, needs at least 3")]


def test_facet_keywords_are_words_or_unspaced_script(project):
    """A keyword is a token ("hangs"), the start of a token ("cuda_error_*"), a phrase of words ("out of memory")
    or text of a script written without spaces ("超时"); "ok", "out  of", "hang 超", "cu*" and "out of*" are none of them."""
    path = project / "docs" / "facets.yml"
    text = path.read_text(encoding="utf-8")
    first = re.search(r"keywords: \[([^\]]*)\]", text)
    assert first, "the fixture's facets.yml has no keywords list"
    path.write_text(text.replace(first.group(0), "keywords: [超时, ok, out  of, hang 超, cu*, out of*]", 1), encoding="utf-8")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(project / "docs")
    assert [p.message.split(" is neither")[0] for p in err.value.problems] == ["'ok'", "'out  of'", "'hang 超'", "'cu*'", "'out of*'"]
    assert "words joined by single spaces" in err.value.problems[0].message
    path.write_text(text.replace(first.group(0), "keywords: [超时, hangs, out of memory, cuda_error_*]", 1), encoding="utf-8")
    load_catalogue(project / "docs")


@pytest.mark.parametrize("part_of", ["pytorhc", "torch-compile", "hang"])
def test_part_of_names_another_value_of_its_facet(project, part_of):
    """part_of (torch-compile is part of pytorch) must name another value of the same facet: a typo, the
    value itself or a value of another facet fails the build with the field and the fix."""
    path = project / "docs" / "facets.yml"
    text = path.read_text(encoding="utf-8")
    assert "    part_of: pytorch" in text
    path.write_text(text.replace("    part_of: pytorch", f"    part_of: {part_of}", 1), encoding="utf-8")
    with pytest.raises(CatalogueError) as err:
        load_catalogue(project / "docs")
    assert [(p.file, p.field) for p in err.value.problems] == [("facets.yml", "framework.torch-compile.part_of")]
    assert "is not another value of framework" in err.value.problems[0].message
    assert "torch-compile is part of pytorch" in err.value.problems[0].fix


def test_valid_fixture_loads_with_backlinks(project):
    catalogue = load_catalogue(project / "docs")
    assert [p.ref.id for p in catalogue.pages] == ["PERF-9001", "PERF-9002"]
    beta = catalogue.by_slug("beta-gadget-slow")
    assert beta.backlinks == ["alpha-widget-stall"]
    assert catalogue.by_slug("alpha-widget-stall").backlinks == []
