"""An input as the matcher's pieces: a stream in order; a large log file by two processes at once.

Picking the lines worth matching (prefilter.py) takes most of the time a huge file
takes, and it depends on each piece alone (match.pick). So for a regular file of
PARALLEL_MIN bytes or more, on Linux with two or more CPUs and no other thread
running (fork is safe then), a child process picks the lines of the second half
(from a line start) while this process reads the first. The child's picks come
back through an unnamed temporary file, one piece at a time, so memory stays
bounded; the matcher then reads every piece in order, with the same result as
one process reading the whole file (tests/test_reader.py). A child that fails
costs only time: this process then reads the second half itself.
"""

from __future__ import annotations

import os
import pickle
import signal
import stat
import sys
import tempfile
import threading
from pathlib import Path
from typing import BinaryIO, Iterator

from .match import Picked, pick, whole_lines

PARALLEL_MIN = 32 << 20  # below this, starting a second process gains too little
CHUNK_BYTES = 4 << 20


def pieces(source: str | Path | BinaryIO, matcher, chunk_bytes: int = CHUNK_BYTES,
           parallel_min: int = PARALLEL_MIN) -> Iterator[bytes | Picked]:
    """The pieces of a file (a path) or a binary stream for Matcher.match_pieces: whole lines as bytes,
    and for the second half of a large file, the child's picks. Raises OSError when the file cannot be
    opened or read."""
    if not isinstance(source, (str, Path)):
        yield from whole_lines(_chunks(source, chunk_bytes))
        return
    with open(source, "rb") as handle:
        middle = _middle(handle, matcher, parallel_min)
        if middle is None:
            yield from whole_lines(_chunks(handle, chunk_bytes))
            return
        results = tempfile.TemporaryFile()
        child = _start_child(source, middle, matcher, chunk_bytes, results)
        try:
            yield from whole_lines(_chunks(handle, chunk_bytes, stop=middle))
            picked = _collect(child, results)
            child = None
            if picked is None:  # the child failed: read the second half here
                handle.seek(middle)
                yield from whole_lines(_chunks(handle, chunk_bytes))
            else:
                yield from picked
        finally:
            if child is not None:  # the reader stopped early (an interrupt, an error): end the child
                _end(child)
            results.close()


def _middle(handle: BinaryIO, matcher, parallel_min: int) -> int | None:
    """Where the second half starts (just after a line break), or None when the file is read by one process."""
    if matcher.prefilter is None or sys.platform != "linux" or not _fork_is_safe():
        return None
    info = os.fstat(handle.fileno())
    if not stat.S_ISREG(info.st_mode) or info.st_size < max(parallel_min, 2):
        return None
    if len(os.sched_getaffinity(0)) < 2:
        return None
    handle.seek(info.st_size // 2)
    offset = handle.tell()
    while block := handle.read(1 << 16):
        newline = block.find(b"\n")
        if newline >= 0:
            handle.seek(0)
            return offset + newline + 1 if offset + newline + 1 < info.st_size else None
        offset += len(block)
    handle.seek(0)
    return None  # no line break in the second half: one long line


def _fork_is_safe() -> bool:
    """A fork beside another thread can leave the child waiting on a lock that thread held."""
    return threading.active_count() == 1


def _chunks(handle: BinaryIO, size: int, stop: int | None = None) -> Iterator[bytes]:
    """The input from where it stands, in chunks, up to ``stop`` (a byte offset in a file) or its end."""
    left = None if stop is None else stop - handle.tell()
    while left is None or left > 0:
        data = handle.read(size if left is None else min(size, left))
        if not data:
            return
        if left is not None:
            left -= len(data)
        yield data


def _start_child(path, middle: int, matcher, chunk_bytes: int, results) -> int:
    child = os.fork()
    if child:
        return child
    status = 1
    try:  # the child: pick the second half's lines, write them, and leave without running any cleanup
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        chars = matcher.limits["fulltext_chars"]
        with open(path, "rb") as handle, open(results.fileno(), "wb", closefd=False) as out:
            handle.seek(middle)
            for piece in whole_lines(_chunks(handle, chunk_bytes)):
                pickle.dump(pick(bytes(piece), chars, matcher.prefilter), out, pickle.HIGHEST_PROTOCOL)
            pickle.dump(None, out)  # the end: a file without it was cut short
        status = 0
    finally:
        os._exit(status)


def _collect(child: int, results) -> Iterator[Picked] | None:
    """The child's picks, read one at a time, once it has ended well; None if it failed."""
    _, status = os.waitpid(child, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    results.seek(0)
    return _load(results)


def _load(results) -> Iterator[Picked]:
    while (picked := pickle.load(results)) is not None:
        yield picked


def _end(child: int) -> None:
    try:
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
