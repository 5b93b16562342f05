"""``perfref run -- CMD ...``: run a job, pass its output through, match a copy of it.

The job's stdout and stderr go to ours unchanged, byte for byte, as they arrive;
a copy is read by the matcher piece by piece (the evidence is kept, the text is
not), so memory stays bounded however long the job runs. SIGINT, SIGTERM and
SIGHUP sent to perfref are passed to the job, which runs in its own process
group so that a Ctrl-C in a terminal reaches it once, through us.
"""

from __future__ import annotations

import codecs
import os
import queue
import signal
import subprocess
import sys
import threading

from .match import LineJoiner, Matcher, Scan

FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
READ_BYTES = 64 * 1024
BATCH_BYTES = 4 * 1024 * 1024  # scanned at once when the job prints faster than the matcher reads
ORPHAN_GRACE_S = 5.0
LONGEST_LINE = 1024 * 1024  # a "line" that never ends (no LF, no CR) is cut here for the matcher


class Feed:
    """One output stream of the job as whole lines for the matcher."""

    def __init__(self) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.lines = LineJoiner()

    def push(self, data: bytes) -> str | None:
        piece = self.lines.push(self.decoder.decode(data))
        if piece is None and len(self.lines.carry) > LONGEST_LINE:
            piece = self.lines.push("\n")
        return piece

    def end(self) -> str | None:
        self.lines.push(self.decoder.decode(b"", final=True))
        return self.lines.end()


class JobMatcher:
    """Scans what the job prints on a thread of its own, in arrival order."""

    def __init__(self, matcher: Matcher) -> None:
        self.matcher = matcher
        self.scan = Scan()
        self.inbox: queue.Queue = queue.Queue(maxsize=64)  # bounded: a job far faster than the matcher waits
        self.feeds: dict[str, Feed] = {}
        self.thread = threading.Thread(target=self._work, daemon=True)
        self.thread.start()

    def put(self, stream: str, data: bytes) -> None:
        self.inbox.put((stream, data))

    def close(self) -> Scan:
        self.inbox.put(None)
        self.thread.join()
        return self.scan

    def _work(self) -> None:
        done = False
        while not done:
            batch = [self.inbox.get()]
            size = len(batch[0][1]) if batch[0] else 0
            while size < BATCH_BYTES and not self.inbox.empty():
                item = self.inbox.get()
                batch.append(item)
                size += len(item[1]) if item else 0
            pieces = []
            for item in batch:
                if item is None:
                    done = True
                    pieces += [feed.end() for feed in self.feeds.values()]
                    break
                stream, data = item
                pieces.append(self.feeds.setdefault(stream, Feed()).push(data))
            text = "".join(p if p.endswith("\n") else p + "\n" for p in pieces if p)
            if text:
                self.matcher.scan_piece(text, self.scan)


def _pump(source, sink, stream: str, job_matcher: JobMatcher) -> None:
    """Copy one of the job's pipes to our own stream as it arrives, and hand a copy to the matcher."""
    fd = source.fileno()
    while data := os.read(fd, READ_BYTES):
        try:
            sink.write(data)
            sink.flush()
        except (BrokenPipeError, ValueError):
            pass  # our reader went away: the job keeps running and is still matched
        job_matcher.put(stream, data)


def run(command: list[str], matcher: Matcher) -> tuple[int, Scan]:
    """Run ``command`` to its end; return its exit status (128 + N when a signal N ended it) and the scan.

    Raises OSError when the command cannot start (the caller reports 127 or 126).
    """
    job_matcher = JobMatcher(matcher)
    job = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, process_group=0)
    previous = {sig: signal.signal(sig, lambda number, _frame: job.send_signal(number)) for sig in FORWARDED}
    try:
        pumps = [threading.Thread(target=_pump, args=(job.stdout, sys.stdout.buffer, "out", job_matcher), daemon=True),
                 threading.Thread(target=_pump, args=(job.stderr, sys.stderr.buffer, "err", job_matcher), daemon=True)]
        for pump in pumps:
            pump.start()
        status = job.wait()
        for pump in pumps:  # a process the job left behind may hold a pipe open: stop waiting for it
            pump.join(timeout=ORPHAN_GRACE_S)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return (128 - status if status < 0 else status), job_matcher.close()
