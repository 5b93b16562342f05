"""Build step of the perfref package: emit the match index of docs/references into it.

Everything else is declared in pyproject.toml. The index is the one the site's
matcher page reads (catalogue.emit.match_index), so the installed command ranks
exactly as the site built from the same checkout; SITE_URL, as for the site,
sets the base of the URLs it prints.
"""

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithIndex(build_py):
    def run(self):
        super().run()
        sys.path.insert(0, str(HERE / "scripts"))
        from catalogue import emit
        from catalogue.load import load_catalogue

        index = emit.match_index(load_catalogue(HERE / "docs"))
        index["site_url"] = os.environ.get("SITE_URL") or "http://127.0.0.1:8000/"
        target = Path(self.build_lib) / "catalogue" / "data" / "match-index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(emit.json_text(index) + "\n", encoding="utf-8")


setup(cmdclass={"build_py": BuildWithIndex})
