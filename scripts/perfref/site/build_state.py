"""The catalogue of the build in progress, shared by the hooks and the macros module.

hooks.on_pre_build sets it once per build; the macros read it while pages render.
``wording_checks`` is the wording watch's record (docs/wording-checks.json), or None.
"""

from __future__ import annotations

from ..load import Catalogue

catalogue: Catalogue | None = None
wording_checks: dict | None = None
