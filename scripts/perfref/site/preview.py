"""A built site served on 127.0.0.1, and how this machine's Chromium is started.

The browser tests and the benchmark both use it, so they drive the same browser
with the same flags (Debian's Chromium; no browser download).
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

# Debian's chromium here and in CI; a GitHub runner has Google Chrome instead.
CHROMIUM = os.environ.get("PERF_CHROMIUM") or shutil.which("chromium") or shutil.which("google-chrome") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory: Path) -> http.server.ThreadingHTTPServer:
    """Serve ``directory`` on a free port of 127.0.0.1 from a background thread; call shutdown() to stop."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
