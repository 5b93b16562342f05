"""Learn the words of each failure from the labelled dev sets and write docs/learned-words.json.

    python scripts/learn_words.py          # write the file
    python scripts/learn_words.py --check  # exit 1 if the file is not what the dev sets and pages give now

Only the dev sets are read (tests/data/eval/dev/*.yml and the dev report samples, evaluate.DEV_SAMPLES):
never a held-out set, whose figures would then read high. perfref.learned says what is learned.
"""

from __future__ import annotations

import argparse
import json
import sys

import evaluate as ev
from perfref import learned
from perfref.load import load_catalogue

TARGET = ev.ROOT / "docs" / learned.LEARNED_FILE


def file_text(words: dict, examples: list[learned.Example]) -> str:
    return json.dumps({
        "note": "Written by scripts/learn_words.py from the dev sets only; do not edit. Weights in tenths of a nat "
                "(perfref/learned.py says what they mean).",
        "learned_from": {"texts": len(examples), "sources": len({e.source for e in examples}),
                         "labelled": sum(bool(e.fits) for e in examples)},
        **words,
    }, indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/learned-words.json is out of date")
    args = parser.parse_args()
    catalogue = load_catalogue(ev.ROOT / "docs", with_learned=False)
    examples = ev.dev_examples({p.slug for p in catalogue.published})
    text = file_text(ev.learned_words(catalogue, examples), examples)
    if args.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ev.ROOT)} is out of date: run python scripts/learn_words.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    words = sum(len(w) for part in ("symptoms", "references") for w in json.loads(text)[part].values())
    print(f"wrote {TARGET.relative_to(ev.ROOT)}: {len(examples)} texts, {words} weights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
