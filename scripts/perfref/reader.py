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
    """The pieces of a file (a path) or a binary stream for Matcher.match_pieces: whole lines as bytes, or
    (a regular file, with the prefilter) the lines picked from them. Raises OSError when the file cannot be
    opened or read."""
    if not isinstance(source, (str, Path)):
        yield from whole_lines(_chunks(source, chunk_bytes))
        return
    with open(source, "rb") as handle:
        fd = handle.fileno()
        if matcher.prefilter is None or not stat.S_ISREG(os.fstat(fd).st_mode):
            yield from whole_lines(_chunks(handle, chunk_bytes))
            return
        middle = _middle(fd, parallel_min)
        if middle is None:
            yield from _picks(fd, 0, None, matcher, chunk_bytes)
            return
        results = tempfile.TemporaryFile()
        child = _start_child(fd, middle, matcher, chunk_bytes, results)
        try:
            yield from _picks(fd, 0, middle, matcher, chunk_bytes)
            picked = _collect(child, results)
            child = None
            # the child failed: read the second half here
            yield from _picks(fd, middle, None, matcher, chunk_bytes) if picked is None else picked
        finally:
            if child is not None:  # the reader stopped early (an interrupt, an error): end the child
                _end(child)
            results.close()


def _picks(fd: int, start: int, stop: int | None, matcher, chunk_bytes: int) -> Iterator[Picked]:
    """The lines picked from a regular file, from ``start`` to ``stop`` (line starts) or its end.

    Each read ends after its last line break and the next read starts there, so no line is
    joined from two reads and no piece is copied. From a read that holds a CR on, the rest goes
    through LineJoiner, which makes CR LF and a lone CR a line break as the browser does.
    """
    chars, prefilter, offset, size = matcher.limits["fulltext_chars"], matcher.prefilter, start, chunk_bytes
    while stop is None or offset < stop:
        want = size if stop is None else min(size, stop - offset)
        data = os.pread(fd, want, offset)
        if b"\r" in data:
            for piece in whole_lines(_chunks_at(fd, offset, stop, chunk_bytes)):
                yield pick(bytes(piece), chars, prefilter)
            return
        end = len(data) if len(data) < want else data.rfind(b"\n") + 1  # at the end, the last line may have no break
        if not end:
            if not data:
                return
            size *= 2  # a line longer than a read: read more at once
            continue
        yield pick(data, chars, prefilter, end)
        offset, size = offset + end, chunk_bytes


def _chunks_at(fd: int, offset: int, stop: int | None, size: int) -> Iterator[bytes]:
    """A regular file from ``offset`` to ``stop`` or its end, in chunks (pread: no shared file position)."""
    while stop is None or offset < stop:
        data = os.pread(fd, size if stop is None else min(size, stop - offset), offset)
        if not data:
            return
        offset += len(data)
        yield data


def _middle(fd: int, parallel_min: int) -> int | None:
    """Where the second half of a regular file starts (just after a line break), or None when one process reads it."""
    size = os.fstat(fd).st_size
    if sys.platform != "linux" or size < max(parallel_min, 2) or len(os.sched_getaffinity(0)) < 2 or not _fork_is_safe():
        return None
    offset = size // 2
    while block := os.pread(fd, 1 << 16, offset):
        newline = block.find(b"\n")
        if newline >= 0:
            return offset + newline + 1 if offset + newline + 1 < size else None
        offset += len(block)
    return None  # no line break in the second half: one long line


def _fork_is_safe() -> bool:
    """A fork beside another thread can leave the child waiting on a lock that thread held."""
    return threading.active_count() == 1


def _chunks(handle: BinaryIO, size: int) -> Iterator[bytes]:
    while data := handle.read(size):
        yield data


def _start_child(fd: int, middle: int, matcher, chunk_bytes: int, results) -> int:
    child = os.fork()
    if child:
        return child
    status = 1
    try:  # the child: pick the second half's lines, write them, and leave without running any cleanup
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        with open(results.fileno(), "wb", closefd=False) as out:
            for picked in _picks(fd, middle, None, matcher, chunk_bytes):
                pickle.dump(picked, out, pickle.HIGHEST_PROTOCOL)
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
