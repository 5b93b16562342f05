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
from types import SimpleNamespace

import pytest

from perfref import reader

from test_prefilter import GROUPS, fast, index, mixed_log, plain  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2,
                                reason="the file is split only on Linux with two or more CPUs")


@pytest.fixture(autouse=True)
def alone(monkeypatch):
    """As in the command: no other thread (a browser test's helper thread may still be running here)."""
    monkeypatch.setattr(reader, "_fork_is_safe", lambda: True)


@pytest.fixture
def made_here(monkeypatch):
    """The picks this process makes (the child's come back as other objects); ``fail_child``: the child's picking raises."""
    parent, real_pick = os.getpid(), reader.pick
    made = SimpleNamespace(picks=[], fail_child=False)

    def recording_pick(*args):
        if os.getpid() != parent and made.fail_child:
            raise MemoryError("the child fails")
        picked = real_pick(*args)
        made.picks.append(picked)
        return picked

    monkeypatch.setattr(reader, "pick", recording_pick)
    return made


def split_pieces(matcher, path, made):
    """The pieces of a file split in two, and whether the child's picks were among them."""
    pieces = list(reader.pieces(path, matcher, chunk_bytes=4093, parallel_min=0))
    from_child = [p for p in pieces if not any(p is q for q in made.picks)]
    return pieces, bool(from_child)


@pytest.mark.parametrize("group", GROUPS)
def test_two_processes_give_one_process_result(fast, plain, group, tmp_path, made_here):
    for seed in range(3):  # seeds 1 and 2 write CR LF and lone CR line breaks
        log = mixed_log(group, seed)
        path = tmp_path / "job.log"
        path.write_bytes(log.encode())
        pieces, child_read = split_pieces(fast, path, made_here)
        assert child_read, "the child read the second half"
        assert fast.match_pieces(pieces) == plain.match(log), (group, seed)


def test_a_failing_child_costs_time_only(fast, plain, tmp_path, made_here):
    log = mixed_log(GROUPS[0], 1)
    path = tmp_path / "job.log"
    path.write_bytes(log.encode())
    made_here.fail_child = True
    pieces, child_read = split_pieces(fast, path, made_here)
    assert not child_read, "the parent read the second half itself"
    assert fast.match_pieces(pieces) == plain.match(log)


def test_a_reader_that_stops_early_ends_the_child(fast, tmp_path, monkeypatch):
    path = tmp_path / "job.log"
    path.write_bytes(mixed_log(GROUPS[0], 0).encode() * 20)
    started = []
    real_start = reader._start_child
    monkeypatch.setattr(reader, "_start_child", lambda *args: started.append(real_start(*args)) or started[-1])
    pieces = reader.pieces(path, fast, chunk_bytes=4093, parallel_min=0)
    next(pieces)
    pieces.close()
    assert len(started) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(started[0], os.WNOHANG)  # ended and reaped: not even a zombie left


def test_reads_cut_at_line_breaks_give_the_whole_texts_result(fast, plain, tmp_path):
    """One process, reads of a few KiB: lines longer than a read, a last line without a line break,
    a CR only late in the file (from there on the rest goes through LineJoiner)."""
    long_line = "NCCL WARN " + "x" * 10_000 + " Timeout"
    log = mixed_log(GROUPS[0], 0)
    for text in (log + "\n" + long_line + "\n" + log, log + "\n" + long_line, log + "\r\n" + log):
        path = tmp_path / "job.log"
        path.write_bytes(text.encode())
        pieces = list(reader.pieces(path, fast, chunk_bytes=4093, parallel_min=1 << 60))
        assert fast.match_pieces(pieces) == plain.match(text)


def test_one_process_reads_small_files_pipes_and_threaded_callers(fast, tmp_path, monkeypatch):
    path = tmp_path / "job.log"
    path.write_bytes(b"NCCL WARN Timeout\n" * 1000)
    with path.open("rb") as handle:
        assert reader._middle(handle.fileno(), reader.PARALLEL_MIN) is None  # small
        assert reader._middle(handle.fileno(), 0) is not None
    read, write = os.pipe()
    with os.fdopen(write, "wb") as out:
        out.write(b"NCCL WARN Timeout\n" * 1000)
    pieces = list(reader.pieces(f"/proc/self/fd/{read}", fast, parallel_min=0))  # not a regular file
    os.close(read)
    assert pieces and all(isinstance(p, bytes) for p in pieces)
    monkeypatch.undo()  # the real check of other threads
    busy = threading.Event()
    worker = threading.Thread(target=busy.wait)
    worker.start()
    try:  # fork beside another thread could deadlock the child
        assert not reader._fork_is_safe()
        with path.open("rb") as handle:
            assert reader._middle(handle.fileno(), 0) is None
    finally:
        busy.set()
        worker.join()


def test_the_split_is_at_a_line_start(tmp_path):
    path = tmp_path / "job.log"
    path.write_bytes(b"x" * 10 + b"\n" + b"y" * 100 + b"\n" + b"z" * 50)  # the middle (81) is inside the y line
    with path.open("rb") as handle:
        assert reader._middle(handle.fileno(), 0) == 112
    path.write_bytes(b"x" * 100 + b"\n" + b"y" * 200)  # no line break after the middle
    with path.open("rb") as handle:
        assert reader._middle(handle.fileno(), 0) is None
