"""Build step of the perfref package: emit the match index of docs/references into it.

Everything else is declared in pyproject.toml. The index is the one the site's
matcher page reads (perfref.site.emit.match_index), so the installed command ranks
exactly as the site built from the same checkout; SITE_URL, as for the site,
sets the base of the URLs it prints.
"""

import importlib
import importlib.util
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def load_built_package(folder: Path):
    """The perfref package just copied into the build folder, imported from there (not an installed copy)."""
    spec = importlib.util.spec_from_file_location("perfref", folder / "__init__.py", submodule_search_locations=[str(folder)])
    package = importlib.util.module_from_spec(spec)
    sys.modules["perfref"] = package
    spec.loader.exec_module(package)
    importlib.import_module("perfref.index")
    importlib.import_module("perfref.site.emit")
    return package


class BuildWithIndex(build_py):
    def run(self):
        super().run()
        if self.editable_mode:  # a checkout's perfref reads docs/ itself (perfref.index)
            return
        package = load_built_package(Path(self.build_lib) / "perfref")
        index = package.index.from_docs(HERE / "docs")
        index["site_url"] = os.environ.get("SITE_URL") or "http://127.0.0.1:8000/"
        target = Path(self.build_lib) / "perfref" / "data" / "match-index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(package.site.emit.json_text(index) + "\n", encoding="utf-8")


setup(cmdclass={"build_py": BuildWithIndex})
