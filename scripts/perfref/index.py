"""Where the match index comes from: a file, a checkout's references, or the copy the package ships.

The command and the library read it through ``load``, so both rank exactly as the
site built from the same references (setup.py writes the packaged copy at install).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

PACKAGED = Path(__file__).resolve().parent / "data" / "match-index.json"
# In a checkout (scripts/perfref/ beside docs/), the references themselves.
CHECKOUT_DOCS = Path(__file__).resolve().parents[2] / "docs"


class NoIndex(Exception):
    """No usable index: the message says what to give instead."""


def cache_dir() -> Path:
    """Where built forms are kept between runs: ``PERFREF_CACHE``, else ``$XDG_CACHE_HOME/perfref``."""
    base = os.environ.get("PERFREF_CACHE")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "perfref"


def write_cached(path: Path, data: bytes) -> None:
    """Write atomically; a cache that cannot be written only makes the next run slower."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as tmp:
            tmp.write(data)
        os.replace(tmp.name, path)
    except OSError:
        pass


def _inputs_key(docs: Path) -> str:
    """A digest of everything the index is built from: the references, the facets and this package's code."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    files = [*sorted((docs / "references").glob("*.md")), docs / "facets.yml", *sorted(package.rglob("*.py"))]
    for path in files:
        digest.update(str(path).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"(missing)")
    return digest.hexdigest()[:32]


def from_docs(docs: Path) -> dict:
    """The index the site's build emits for the references in ``docs`` (raises CatalogueError).

    Validating and emitting 44 references takes longer than matching a large log, so the
    emitted index is cached under a digest of its inputs; any edit builds it again."""
    path = cache_dir() / f"match-index-{_inputs_key(docs)}.json"
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        pass
    from .load import CatalogueError, load_catalogue  # validation (pydantic, YAML) only on a cache miss
    from .site import emit

    try:
        catalogue = load_catalogue(docs)
    except CatalogueError as err:
        raise NoIndex(f"the references in {docs} do not validate ({len(err.problems)} problem(s)); "
                      "run 'perfref check'") from None
    text = emit.json_text(emit.match_index(catalogue))
    write_cached(path, text.encode("utf-8"))
    return json.loads(text)


def load(index_file: str | Path | None = None, docs: str | Path | None = None) -> dict:
    """``index_file`` if given; else ``docs`` (default: this checkout's) when it holds references; else the packaged copy."""
    if index_file:
        try:
            return json.loads(Path(index_file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise NoIndex(f"cannot read the index {index_file}: {err}") from None
    docs = Path(docs) if docs else CHECKOUT_DOCS
    if (docs / "references").is_dir():
        return from_docs(docs)
    if PACKAGED.exists():
        return json.loads(PACKAGED.read_text(encoding="utf-8"))
    raise NoIndex("no match index: give --index FILE (assets/match-index.json of a built site)")
