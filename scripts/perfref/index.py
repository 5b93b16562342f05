"""Where the match index comes from: a file, a checkout's references, or the copy the package ships.

The command and the library read it through ``load``, so both rank exactly as the
site built from the same references (setup.py writes the packaged copy at install).
"""

from __future__ import annotations

import json
from pathlib import Path

PACKAGED = Path(__file__).resolve().parent / "data" / "match-index.json"
# In a checkout (scripts/perfref/ beside docs/), the references themselves.
CHECKOUT_DOCS = Path(__file__).resolve().parents[2] / "docs"


class NoIndex(Exception):
    """No usable index: the message says what to give instead."""


def from_docs(docs: Path) -> dict:
    """The index the site's build emits for the references in ``docs`` (raises CatalogueError)."""
    from .load import load_catalogue
    from .site import emit

    return json.loads(emit.json_text(emit.match_index(load_catalogue(docs))))


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
