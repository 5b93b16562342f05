"""api/references.json: valid against docs/api/reference.schema.json, equal to the
front matter of every page, and absolute URLs under site_url."""

from __future__ import annotations

import copy
import datetime as dt
import json
import os
from pathlib import Path

import jsonschema
import pytest
from conftest import DOCS, FIXTURES, copy_project, mkdocs_build

from perfref.load import load_catalogue, split_front_matter

SCHEMA_FILE = DOCS / "api" / "reference.schema.json"
SITE_URL = "https://perf.example.org/refs/"
DEFAULTS = {"status": "published", "kind": "cause", "takes_in": [], "subject": [], "messages_note": None, "related": [], "aliases": [],
            "examples": [], "originally_published": None, "start_here": []}
DERIVED = ("slug", "url", "id_url")


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema):
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def fixture_build(tmp_path_factory):
    """The two fixture references, built once, with a canonical URL that has a sub-path."""
    root = tmp_path_factory.mktemp("api")
    (root / "project").mkdir()
    project = copy_project(root / "project", FIXTURES / "refs")
    result = mkdocs_build(project, root / "site", {"SITE_URL": SITE_URL})
    assert result.returncode == 0, result.stderr[-4000:]
    return project / "docs", root / "site", SITE_URL


@pytest.fixture(scope="module", params=["fixture", "real"])
def built(request):
    """(docs folder, built site, expected site_url) for the fixture references and the real ones."""
    if request.param == "fixture":
        return request.getfixturevalue("fixture_build")
    if not load_catalogue(DOCS).pages:
        pytest.skip("docs/references/ holds no reference yet")
    site_url = os.environ.get("SITE_URL", "http://127.0.0.1:8000/")
    return DOCS, request.getfixturevalue("site"), site_url.rstrip("/") + "/"


def api(site: Path) -> dict:
    return json.loads((site / "api/references.json").read_text(encoding="utf-8"))


def test_schema_is_served_as_written(fixture_build):
    _, site, _ = fixture_build
    assert (site / "api/reference.schema.json").read_bytes() == SCHEMA_FILE.read_bytes()


def test_schema_declares_draft_2020_12(schema):
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_api_validates_against_the_schema(built, validator):
    _, site, _ = built
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(api(site))]
    assert not errors, "\n".join(errors)


def test_schema_describes_every_field(schema, fixture_build):
    """Every model field is in the schema, and the schema names nothing the API lacks."""
    _, site, _ = fixture_build
    ref_schema = schema["$defs"]["reference"]
    entry = api(site)["references"][0]
    assert set(ref_schema["properties"]) == set(entry) == set(ref_schema["required"])
    assert set(schema["properties"]) == set(api(site))


@pytest.mark.parametrize("change, where", [
    (lambda d: d.update(surprise=1), ""),
    (lambda d: d["references"][0].update(surprise=1), "references/0"),
    (lambda d: d["references"][0]["checks"][0].update(surprise=1), "references/0/checks/0"),
    (lambda d: d["references"][0].update(id="PERF-12"), "references/0/id"),
    (lambda d: d["references"][0].update(status="draft"), "references/0/status"),
    (lambda d: d["references"][0]["signals"][0].update(weight=6), "references/0/signals/0/weight"),
    (lambda d: d["references"][0]["sources"][0].update(date="2024-13"), "references/0/sources/0/date"),
    (lambda d: d["references"][0]["sources"][0].update(url="example.com/x"), "references/0/sources/0/url"),
    (lambda d: d["references"][0]["lookalikes"][0].update(url="https://example.com/x"), "references/0/lookalikes/0"),
    (lambda d: d["references"][0].update(checks=d["references"][0]["checks"][:2]), "references/0/checks"),
    (lambda d: d["references"][0].pop("id_url"), "references/0"),
], ids=["top-extra", "ref-extra", "check-extra", "id-form", "status", "weight", "date", "url", "lookalike-both",
        "too-few-checks", "missing-id-url"])
def test_schema_rejects_what_the_model_rejects(fixture_build, validator, change, where):
    _, site, _ = fixture_build
    data = copy.deepcopy(api(site))
    change(data)
    paths = {"/".join(map(str, e.absolute_path)) for e in validator.iter_errors(data)}
    assert where in paths, paths


def _stripped(value):
    """Front matter as the model reads it: strings stripped, dates as ISO text."""
    if isinstance(value, dict):
        return {k: _stripped(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_stripped(v) for v in value]
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def expected_from_front_matter(raw: dict) -> dict:
    """The API entry that the raw front matter of one page should give (before slug and URLs)."""
    data = {**DEFAULTS, **_stripped(raw)}
    data["lookalikes"] = [{"slug": None, "title": None, "url": None, "check": None, **look} for look in data["lookalikes"]]
    data["messages"] = [{"generic": False, "numbers": None, "versions": [], **m} for m in data["messages"]]
    for message in data["messages"]:
        if message["numbers"] is not None:
            message["numbers"] = {"counts": "message", "over": "line", **message["numbers"]}
    data["signals"] = [{"versions": [], **x} for x in data["signals"]]
    data["checks"] = [{"versions": [], **c} for c in data["checks"]]
    for item in data["messages"] + data["signals"] + data["checks"]:
        item["versions"] = [{"since": None, "until": None, "watch": None, "unwatched": None, **v} for v in item["versions"]]
    data["sources"] = [{**source, "date": str(source["date"])} for source in data["sources"]]
    return data


def test_api_agrees_with_the_front_matter(built):
    docs, site, site_url = built
    catalogue = load_catalogue(docs)
    entries = api(site)["references"]
    assert [e["id"] for e in entries] == [p.ref.id for p in catalogue.listed]  # every page but drafts, sorted by ID
    for entry, page in zip(entries, catalogue.listed):
        raw, _ = split_front_matter((docs / page.file).read_text(encoding="utf-8"))
        fields = {k: v for k, v in entry.items() if k not in DERIVED}
        assert fields == expected_from_front_matter(raw), page.file
        assert fields == page.ref.model_dump(mode="json"), page.file
        assert entry["slug"] == page.slug == Path(page.file).stem


def test_api_urls_are_absolute_under_site_url(built):
    _, site, site_url = built
    data = api(site)
    assert data["site_url"] == site_url
    assert data["format_version"] == 2
    for entry in data["references"]:
        assert entry["url"] == f"{site_url}references/{entry['slug']}/"
        assert entry["id_url"] == f"{site_url}id/{entry['id']}/"
        # and both exist in the built site
        for url in (entry["url"], entry["id_url"]):
            assert (site / url.removeprefix(site_url) / "index.html").is_file(), url
