"""Full text over whole pages: a small BM25F index that the browser and the twin both score.

lunr's serialized index of the same pages is several times larger, and the
matcher page ships its index, so the matcher keeps its own. The weighting is
done at build time: for every term and page the index holds that term's whole
BM25F contribution (boosted, length-normalized counts over the fields, BM25's
saturation, times the term's idf) as an integer in tenths, so a page's score
for a query is a sum of integers that Python and JavaScript add up identically,
and the browser ships neither field lengths nor counts. Tokens are runs of
``[a-z0-9_]`` (``gpu_memory_utilization`` is a term, and so is each of its
parts), two characters or more (``gc``, ``tp`` and ``ib`` name things here),
not all digits, not a stop word, with a light suffix strip that
match-worker.js repeats exactly (``terms``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

WORD = re.compile(r"[a-z0-9_]+")
# k1 at the top of BM25's usual 1.2-2 range: a page that repeats a word (its subject) keeps more of
# the lead over pages that mention it in passing (dev: +4 first places over 1.2; 1.8 to 2.8 all within 5)
K1, B = 2.0, 0.75
SCALE = 10  # weights in tenths
MIN_WEIGHT = 4  # tenths: a smaller contribution changes no ranking on dev (3 to 6 read the same, cross-validated) and costs 2.5 KB of payload
STOP_WORDS = frozenset(
    "the and for with that this from are was were not but you your its has have had can may will "
    "into than then them they their there when where which while what who how all any one two out "
    "use used using does did been being also more most other only over such same each both very "
    "via per too off our "
    "is to in of on at it be we my me as an by if or so no do up us he go am".split()
)


# an address or a hash (0x7fa5a800e000, 06d47f4): one run's value, never a failure's word
MACHINE_NUMBER = re.compile(r"0x[0-9a-f]*|(?=[a-f]*[0-9])(?=[0-9]*[a-f])[0-9a-f]{6,}")


@lru_cache(maxsize=1 << 16)  # pages and logs repeat their words: each is judged once
def is_term(word: str) -> bool:
    """A word the index keeps."""
    return len(word) >= 2 and not word.isdigit() and word not in STOP_WORDS and not MACHINE_NUMBER.fullmatch(word)


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


def terms(lower: str, boilerplate: Sequence[str] = ()) -> list[str]:
    """The index terms of an ASCII-lowercased text, in order of first appearance, each once.

    A line that holds one of ``boilerplate`` (a table header that a tool prints whatever
    the failure) says nothing about the failure and is left out.
    """
    if any(b in lower for b in boilerplate):
        lower = "\n".join(line for line in lower.split("\n") if not any(b in line for b in boilerplate))
    seen: dict[str, None] = {}
    for word in WORD.findall(lower):
        for part in words_in(word):
            seen.setdefault(stem(part), None)
    return list(seen)


def words_in(token: str) -> list[str]:
    """The terms of one token: itself, and each part of a name joined with underscores
    (``checkpoint_every`` is found by "checkpoint" too)."""
    found = [token] if is_term(token) else []
    if "_" in token:
        found += [part for part in token.split("_") if is_term(part)]
    return found


def build(documents: list[dict[str, str]], boosts: dict[str, float], sparse: tuple[str, ...] = (),
          added: list[dict[str, int]] | None = None) -> dict:
    """The index for ``documents`` (field name -> text each), in plain JSON types.

    ``added``: per document, weights (in units of 1/``scale``) added to its terms' own: what the
    words of its labelled reports are worth (learned.reference_weights).

    ``postings``: term -> flat ``[gap, weight, gap, weight, ...]``, documents in ascending
    order, each given as its distance from the one before (the first from 0): small numbers
    compress better, a twelfth of the matcher page's payload less. Weight in units of
    1/``scale``; a contribution below ``MIN_WEIGHT`` is left out. In the ``sparse``
    fields (long prose), a term that occurs once in one document and nowhere else is
    left out: many words, least likely to be typed again.
    """
    fields = list(boosts)
    counters, lengths = [], []  # per document: each field's term counts, and its length in terms
    for document in documents:
        row = []
        for name in fields:
            counts: Counter = Counter()
            for word, count in Counter(WORD.findall(document.get(name, "").lower())).items():
                for part in words_in(word):
                    counts[stem(part)] += count
            row.append(counts)
        counters.append(row)
        lengths.append([sum(counts.values()) for counts in row])
    total = len(documents) or 1
    average = [max(1.0, sum(row[f] for row in lengths) / total) for f in range(len(fields))]
    sparse_fields = {fields.index(name) for name in sparse if name in fields}
    weighted: dict[str, dict[int, float]] = {}  # term -> document -> boosted, length-normalized count
    lone: dict[str, bool] = {}  # the term occurs once in all documents, in a sparse field
    for doc, row in enumerate(counters):
        for f, counts in enumerate(row):
            factor = boosts[fields[f]] / (1 - B + B * lengths[doc][f] / average[f])
            for term, count in counts.items():
                by_doc = weighted.get(term)
                if by_doc is None:
                    weighted[term] = {doc: count * factor}
                    lone[term] = count == 1 and f in sparse_fields
                else:
                    by_doc[doc] = by_doc.get(doc, 0.0) + count * factor
                    lone[term] = False
    extra: dict[str, dict[int, int]] = {}  # term -> document -> added weight
    for doc, weights in enumerate(added or ()):
        for term, weight in weights.items():
            extra.setdefault(term, {})[doc] = weight
    postings: dict[str, list[int]] = {}
    for term in sorted(weighted.keys() | extra.keys()):
        by_doc = {} if lone.get(term, True) else weighted[term]
        idf = math.log(1 + (total - len(by_doc) + 0.5) / (len(by_doc) + 0.5))
        more = extra.get(term, {})
        flat, previous = [], 0
        for doc in sorted(by_doc.keys() | more.keys()):
            tf = by_doc.get(doc, 0.0)
            weight = round(SCALE * idf * tf / (K1 + tf)) + more.get(doc, 0)
            if weight >= MIN_WEIGHT:
                flat.extend((doc - previous, weight))
                previous = doc
        if flat:
            postings[term] = flat
    return {"scale": SCALE, "postings": postings}


def scores(index: dict, query: list[str]) -> dict[int, float]:
    """Each document's BM25F score for the query terms: integer weights summed, then scaled."""
    sums: dict[int, int] = {}
    for term in query:
        flat = index["postings"].get(term)
        if flat is None:
            continue
        doc = 0
        for k in range(0, len(flat), 2):
            doc += flat[k]
            sums[doc] = sums.get(doc, 0) + flat[k + 1]
    return {doc: total / index["scale"] for doc, total in sums.items()}
