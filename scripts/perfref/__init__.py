"""perfref: match GPU training and inference logs against the Performance Error References.

    import perfref
    for result in perfref.match_file("train.log", framework="pytorch"):
        print(result.id, result.label, result.url)
        for check in result.checks[:2]:
            print("  check:", check.title, check.url)

The package is the product: the model of a reference (model, load, templates), the
matcher (match, fulltext: the browser's twin), reports and the command (cli). The
site's build glue lives in ``perfref.site``; the team's tools sit outside and import it.
"""

from .api import Check, Line, Result, match, match_file

__all__ = ["Check", "Line", "Result", "match", "match_file"]
