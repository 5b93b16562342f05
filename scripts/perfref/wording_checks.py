"""The record of the wording watch's last run: docs/wording-checks.json.

``scripts/wording_watch.py --record`` writes it; the reference pages show it
beside each wording ("checked in torch 2.9.1 on 2026-12-04: found"). It holds the
date of the run, per software the releases read and the day they were read, and
per wording (page ID, kind, template, software) the release and the status:
``found``, ``absent`` or ``not checkable``. An entry belongs to a wording by page
ID, template text and software, so a template edited since the run has no entry
and its page says it was not checked.

This module is the one place that reads and merges the record.
"""

from __future__ import annotations

import json
from pathlib import Path

RECORD = "wording-checks.json"
STATUSES = ("found", "absent", "not checkable")


def load(docs_dir: str | Path) -> dict | None:
    """The record in ``docs_dir``, or None when there is none yet."""
    path = Path(docs_dir) / RECORD
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def key(ref_id: str, template: str, software: str) -> tuple[str, str, str]:
    return ref_id, template, software


def entries_by_wording(record: dict | None) -> dict[tuple[str, str, str], dict]:
    """The record's entries by (page ID, template, software)."""
    return {key(e["id"], e["template"], e["software"]): e for e in (record or {}).get("wordings", [])}


def merge(old: dict | None, run: dict, page_ids: set[str] | None = None, pages: set[str] | None = None) -> dict:
    """The record after ``run``: its software's entries replace theirs, every other software's are kept.

    ``run`` has the record's shape and names, under ``software``, exactly what it
    checked; ``pages``: it checked only these pages' wordings, so the other pages'
    entries are kept. Entries of pages that no longer exist (``page_ids``) are dropped.
    """
    checked = set(run["software"])
    software = {name: info for name, info in (old or {}).get("software", {}).items() if name not in checked}
    software.update(run["software"])
    kept = [e for e in (old or {}).get("wordings", [])
            if e["software"] not in checked or (pages is not None and e["id"] not in pages)]
    wordings = [e for e in kept + run["wordings"] if page_ids is None or e["id"] in page_ids]
    wordings.sort(key=lambda e: (e["id"], e["kind"], e["software"], e["template"]))
    return {"date": run["date"], "software": dict(sorted(software.items())), "wordings": wordings}


def dump(record: dict) -> str:
    """The record as JSON with one line per software and per wording, so that a refresh diffs line by line."""
    def line(value) -> str:
        return json.dumps(value, ensure_ascii=False)
    software = ",\n".join(f"  {line(name)}: {line(info)}" for name, info in record["software"].items())
    wordings = ",\n".join(f"  {line(entry)}" for entry in record["wordings"])
    return (f'{{\n "date": {line(record["date"])},\n "software": {{\n{software}\n }},\n'
            f' "wordings": [\n{wordings}\n ]\n}}\n')
