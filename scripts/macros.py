"""mkdocs-macros module: the macros that pages opt into with ``render_macros: true``.

Macros render only on pages that ask for them (``render_by_default: false`` in
mkdocs.yml), because reference pages quote log text full of ``{{`` and ``{#``.
Each macro reads the catalogue that the hooks loaded for this build.
"""

from __future__ import annotations

import json
from pathlib import Path

from perfref.model import FACETS
from perfref.site import build_state, render


def define_env(env) -> None:
    """Register the macros."""

    @env.macro
    def catalogue_list() -> str:
        """The /references/ list with its filters."""
        return render.catalogue_html(build_state.catalogue)

    @env.macro
    def facet_vocabulary_table() -> str:
        """Every facet value with its label and description (Contributing page)."""
        return render.facet_vocabulary_table(build_state.catalogue)

    @env.macro
    def reference_count() -> int:
        return len(build_state.catalogue.published)

    @env.macro
    def facet_links(facet: str, prefix: str = "") -> str:
        """Links to every value of one facet, for the home page."""
        if facet not in FACETS:
            raise ValueError(f"unknown facet {facet!r}; use one of {', '.join(FACETS)}")
        catalogue = build_state.catalogue
        return " · ".join(
            f"[{spec['label']}]({prefix}facets/{facet}/{value}.md)" for value, spec in catalogue.facets[facet].items()
        )

    @env.macro
    def evaluation_summary() -> str:
        """How often the matcher is right (docs/evaluation.json, written by evaluate.py --record)."""
        path = Path(env.conf["docs_dir"]) / "evaluation.json"
        if not path.exists():
            return "No evaluation has been recorded yet: run `scripts/evaluate.py --record`."
        return render.evaluation_tables(json.loads(path.read_text(encoding="utf-8")))

    @env.macro
    def benchmark_summary() -> str:
        """Tables of the last recorded benchmark run (docs/benchmarks.json, written by bench.py --record)."""
        path = Path(env.conf["docs_dir"]) / "benchmarks.json"
        data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        if "budgets" not in data:  # no run of the current benchmark recorded yet
            return "No run of the current benchmark has been recorded yet: run `scripts/bench.py --record`."
        return render.benchmark_tables(data)
