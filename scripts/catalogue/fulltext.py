"""Full text over whole pages: a small BM25F index that the browser and the twin both score.

lunr's serialized index is about three times larger than this one for the same
pages, and the matcher page ships its index, so the matcher keeps its own:
every term's postings as flat ``[doc, field, count, ...]`` lists, each field's
boost and average length, each document's field lengths. Tokens are runs of
``[a-z0-9_]`` (so ``gpu_memory_utilization`` and ``NCCL_DEBUG`` stay whole),
three characters or more, not all digits, not a stop word, with a light
suffix strip that match-worker.js repeats exactly (``terms``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

WORD = re.compile(r"[a-z0-9_]+")
K1, B = 1.2, 0.75
STOP_WORDS = frozenset(
    "the and for with that this from are was were not but you your its has have had can may will "
    "into than then them they their there when where which while what who how all any one two out "
    "use used using does did been being also more most other only over such same each both very "
    "via per too off our".split()
)


@lru_cache(maxsize=None)  # a page repeats its words: each is stemmed once
def stem(word: str) -> str:
    """Strip one common English suffix: "hangs", "hanging" and "hanged" all become "hang"."""
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3]
    if len(word) > 4 and word.endswith("ed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def terms(lower: str) -> list[str]:
    """The index terms of an ASCII-lowercased text, in order of first appearance, each once."""
    seen: dict[str, None] = {}
    for word in WORD.findall(lower):
        if len(word) >= 3 and not word.isdigit() and word not in STOP_WORDS:
            seen.setdefault(stem(word), None)
    return list(seen)


def build(documents: list[dict[str, str]], boosts: dict[str, float], sparse: tuple[str, ...] = ()) -> dict:
    """The index for ``documents`` (field name -> text each), in plain JSON types.

    In the ``sparse`` fields (long prose), a term that occurs once in one document
    is left out: a fifth of the index for the words least likely to be typed again.
    """
    fields = list(boosts)
    postings: dict[str, list[int]] = {}
    lengths = []
    for number, document in enumerate(documents):
        row = []
        for f, name in enumerate(fields):
            counts: Counter = Counter()
            for word, count in Counter(WORD.findall(document.get(name, "").lower())).items():
                if len(word) >= 3 and not word.isdigit() and word not in STOP_WORDS:
                    counts[stem(word)] += count
            row.append(sum(counts.values()))
            for term, count in sorted(counts.items()):
                postings.setdefault(term, []).extend((number, f, count))
        lengths.append(row)
    sparse_fields = {fields.index(name) for name in sparse if name in fields}
    postings = {term: flat for term, flat in postings.items()
                if not (len(flat) == 3 and flat[2] == 1 and flat[1] in sparse_fields)}
    n = len(documents) or 1
    average = [max(1.0, sum(row[f] for row in lengths) / n) for f in range(len(fields))]
    return {
        "fields": fields,
        "boosts": [boosts[name] for name in fields],
        "average": [round(a, 3) for a in average],
        "lengths": lengths,
        "postings": dict(sorted(postings.items())),
    }


def scores(index: dict, query: list[str]) -> dict[int, float]:
    """BM25F: per term, the boosted, length-normalized counts of all fields, then BM25's saturation."""
    total = len(index["lengths"])
    boosts, average, lengths = index["boosts"], index["average"], index["lengths"]
    out: dict[int, float] = {}
    for term in query:
        flat = index["postings"].get(term)
        if flat is None:
            continue
        weighted: dict[int, float] = {}
        for k in range(0, len(flat), 3):
            doc, f, count = flat[k], flat[k + 1], flat[k + 2]
            norm = 1 - B + B * lengths[doc][f] / average[f]
            weighted[doc] = weighted.get(doc, 0.0) + boosts[f] * count / norm
        idf = math.log(1 + (total - len(weighted) + 0.5) / (len(weighted) + 0.5))
        for doc, tf in weighted.items():
            out[doc] = out.get(doc, 0.0) + idf * tf / (K1 + tf)
    return out
