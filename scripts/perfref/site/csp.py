"""The Content-Security-Policy every page carries: the browser itself keeps a paste on the site.

Connections, images, fonts, frames, workers and form targets are allowed from the
site's own origin only, so a script injected into a page could not send a paste
anywhere. Scripts run from the site's files and, inline, only those the build
wrote: each inline script is allowed by its SHA-256 hash (a ``meta`` policy cannot
use nonces). The policy is a ``meta`` element because a static host may not let
us set headers; ``frame-ancestors`` and reporting need a header and are left out.
"""

from __future__ import annotations

import base64
import hashlib
import re

# An inline <script> that runs: no src, and no type or a JavaScript type (JSON data blocks never run).
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
DATA_TYPE = re.compile(r"""\stype=["']?(?!text/javascript|module)[a-z]+/""", re.I)
CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)
MARKER = 'http-equiv="Content-Security-Policy"'


def inline_script_hashes(html: str) -> set[str]:
    """'sha256-…' sources for the inline scripts of one page."""
    hashes = set()
    for m in INLINE_SCRIPT.finditer(html):
        if DATA_TYPE.search(m.group("attrs")):
            continue
        digest = hashlib.sha256(m.group("body").encode("utf-8")).digest()
        hashes.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return hashes


def policy(script_hashes: set[str] | None) -> str:
    """The policy; ``script_hashes`` None allows any inline script (for inline scripts that cannot be hashed)."""
    inline = " ".join(sorted(script_hashes)) if script_hashes is not None else "'unsafe-inline'"
    return "; ".join([
        "default-src 'self'",
        f"script-src 'self' {inline}".rstrip(),
        "style-src 'self' 'unsafe-inline'",  # Material sets style attributes; styles cannot reach another origin here
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",  # the offline build's Worker shim
        "frame-src 'self' blob:",
        "form-action 'self'",
        "object-src 'none'",
        "base-uri 'self'",
    ])


def with_policy(html: str, text: str) -> str:
    """``html`` with the policy as the first element after its charset (before any script it governs)."""
    if MARKER in html:
        return html
    element = f'<meta {MARKER} content="{text}">'
    charset = CHARSET.search(html)
    if charset:
        return html[:charset.end()] + element + html[charset.end():]
    return re.sub(r"<head[^>]*>", lambda m: m.group(0) + element, html, count=1, flags=re.I)
