"""A large file read by two processes (perfref.reader) gives what one process reading it gives.

The split is forced on small files here (``parallel_min=0``, small chunks), so the
second half's pieces come from the child. Mixed logs (tests/test_prefilter.py)
carry every hazard of real logs: CR LF and lone CR, ANSI escapes, respacing,
non-ASCII text, repeated lines. A child that fails, and a reader that stops
early, leave no wrong result and no process behind.
"""

from __future__ import annotations

import os
import sys
import threading

import pytest

from perfref import reader

from test_prefilter import GROUPS, fast, index, mixed_log, plain  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2,
                                reason="the file is split only on Linux with two or more CPUs")


@pytest.fixture(autouse=True)
def alone(monkeypatch):
    """As in the command: no other thread (a browser test's helper thread may still be running here)."""
    monkeypatch.setattr(reader, "_fork_is_safe", lambda: True)


def pieces_of(matcher, path, chunk_bytes=4093):
    return list(reader.pieces(path, matcher, chunk_bytes=chunk_bytes, parallel_min=0))


@pytest.mark.parametrize("group", GROUPS)
def test_two_processes_give_one_process_result(fast, plain, group, tmp_path):
    for seed in range(3):
        log = mixed_log(group, seed)
        path = tmp_path / "job.log"
        path.write_bytes(log.encode())
        pieces = pieces_of(fast, path)
        assert any(isinstance(p, reader.Picked) for p in pieces), "the child read the second half"
        assert fast.match_pieces(pieces) == plain.match(log), (group, seed)


def test_a_failing_child_costs_time_only(fast, plain, tmp_path, monkeypatch):
    log = mixed_log(GROUPS[0], 1)
    path = tmp_path / "job.log"
    path.write_bytes(log.encode())
    parent = os.getpid()
    real_pick = reader.pick

    def pick_in_parent_only(*args):
        if os.getpid() != parent:
            raise MemoryError("the child fails")
        return real_pick(*args)

    monkeypatch.setattr(reader, "pick", pick_in_parent_only)
    pieces = pieces_of(fast, path)
    assert not any(isinstance(p, reader.Picked) for p in pieces), "the parent read the second half itself"
    assert fast.match_pieces(pieces) == plain.match(log)


def test_a_reader_that_stops_early_ends_the_child(fast, tmp_path):
    path = tmp_path / "job.log"
    path.write_bytes(mixed_log(GROUPS[0], 0).encode() * 20)
    pieces = reader.pieces(path, fast, chunk_bytes=4093, parallel_min=0)
    next(pieces)
    pieces.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left, not even a zombie


def test_one_process_reads_small_files_pipes_and_threaded_callers(fast, tmp_path, monkeypatch):
    path = tmp_path / "job.log"
    path.write_bytes(b"NCCL WARN Timeout\n" * 1000)
    with path.open("rb") as handle:
        assert reader._middle(handle, fast, reader.PARALLEL_MIN) is None  # small
        assert reader._middle(handle, fast, 0) is not None
    read, write = os.pipe()
    with os.fdopen(read, "rb") as handle, os.fdopen(write, "wb"):
        assert reader._middle(handle, fast, 0) is None  # not a regular file
    monkeypatch.undo()  # the real check of other threads
    busy = threading.Event()
    worker = threading.Thread(target=busy.wait)
    worker.start()
    try:  # fork beside another thread could deadlock the child
        assert not reader._fork_is_safe()
        with path.open("rb") as handle:
            assert reader._middle(handle, fast, 0) is None
    finally:
        busy.set()
        worker.join()


def test_the_split_is_at_a_line_start(fast, tmp_path):
    path = tmp_path / "job.log"
    path.write_bytes(b"x" * 10 + b"\n" + b"y" * 100 + b"\n" + b"z" * 50)  # the middle (81) is inside the y line
    with path.open("rb") as handle:
        assert reader._middle(handle, fast, 0) == 112
        assert handle.tell() == 0
    path.write_bytes(b"x" * 100 + b"\n" + b"y" * 200)  # no line break after the middle
    with path.open("rb") as handle:
        assert reader._middle(handle, fast, 0) is None
