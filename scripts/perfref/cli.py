"""perfref: match a log against the Performance Error References, and keep the catalogue.

  perfref match [FILE|-] [--format text|json|markdown] [--framework F] [--hardware H] [--symptom S]
                [--runs SOFTWARE=RELEASE] [--site-url URL] [--follow] [--all]
      Match a log (a file, or standard input) and print the ranked references.
      Exit status as grep's: 0 when a reference fits (a message, a symptom or the
      context), 1 when there is no confident match, 2 on an error.
  perfref run [--always] [--report FILE] [match options] -- CMD ...
      Run a job with its output passed through and its exit status kept; when it
      fails (or with --always), print the references that fit its output on
      standard error. 127 when CMD cannot be found.
  perfref check [DOCS]
      Validate every reference without building the site.
  perfref new TITLE --symptom S --hardware H --framework F [--docs DOCS]
      Write a draft reference with the next free ID, every field and section.
  perfref manifest [--docs DOCS] [--out FILE] [--check SITE]
      Add every published ID, slug, title and URL to tests/data/published.json.
"""

from __future__ import annotations

import argparse
import codecs
import json
import os
import signal
import sys
import time
from pathlib import Path

from . import api, reader, report
from . import index as index_mod
from .match import LineJoiner, Matcher, Scan

DOCS = index_mod.CHECKOUT_DOCS
SITE_URL_ENV = "PERFREF_SITE_URL"
LOCAL_SITE_URL = "http://127.0.0.1:8000/"


class UsageError(Exception):
    """A bad argument or an unreadable input: one line on standard error, exit status 2."""


def version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version as package_version
        return package_version("perfref")
    except (ImportError, PackageNotFoundError):
        return "source checkout"


class VersionAction(argparse.Action):
    """--version: the installed release is looked up only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"perfref {version()}")
        parser.exit()


def load_index(args) -> dict:
    """The index named by --index, the docs of this checkout, or the one the package ships."""
    try:
        return index_mod.load(args.index, args.docs)
    except index_mod.NoIndex as err:
        raise UsageError(str(err)) from None


def site_url(args, index: dict) -> str:
    return args.site_url or os.environ.get(SITE_URL_ENV) or index.get("site_url") or LOCAL_SITE_URL


def stated(args, index: dict) -> tuple[dict[str, str], dict[str, str]]:
    """The facets the user states and the releases they run (--runs nccl=2.21.5), checked."""
    runs = dict(item.partition("=")[::2] for item in args.runs or [])
    try:
        return (api.stated_context(index, args.framework, args.hardware, args.symptom),
                api.stated_versions(index, runs))
    except ValueError as err:
        raise UsageError(f"--{err}" if str(err).startswith("runs ") else str(err)) from None


def read_pieces(name: str | None, matcher: Matcher):
    """The input (a file, or standard input for None or -) as pieces for the matcher; any size, bounded memory."""
    try:
        yield from reader.pieces(sys.stdin.buffer if name in (None, "-") else name, matcher)
    except OSError as err:
        raise UsageError(f"cannot read {name}: {err.strerror or err}") from None


def render(result: dict, args, base: str) -> str:
    if args.format == "json":
        return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    if args.format == "markdown":
        return report.markdown(result, base)
    return report.text(result, base, show_weak=args.all)


def cmd_match(args) -> int:
    index = load_index(args)
    stated_facets, said = stated(args, index)
    base = site_url(args, index)
    matcher = Matcher(index)
    if args.follow:
        return follow(matcher, args, stated_facets, base, said)
    result = matcher.match_pieces(read_pieces(args.file, matcher), stated_facets, said)
    sys.stdout.write(render(result, args, base))
    return 0 if result["confident"] else 1


def cmd_run(args) -> int:
    """Run the job; on failure (or --always) print the references after its output, on standard error."""
    from . import job

    command = args.command_line[1:] if args.command_line[:1] == ["--"] else args.command_line
    if not command:
        raise UsageError("run needs a command after --, e.g. perfref run -- torchrun train.py")
    index = load_index(args)
    stated_facets, said = stated(args, index)
    base = site_url(args, index)
    matcher = Matcher(index)
    try:
        status, scan = job.run(command, matcher)
    except OSError as err:
        print(f"perfref: cannot run {command[0]}: {err.strerror or err}", file=sys.stderr)
        return 127 if isinstance(err, FileNotFoundError) else 126
    if status != 0 or args.always:
        result = matcher.result(scan, stated_facets, said)
        text = render(result, args, base)
        if args.report:
            try:
                Path(args.report).write_text(text, encoding="utf-8")
            except OSError as err:
                print(f"perfref: cannot write {args.report}: {err.strerror or err}", file=sys.stderr)
        heading = f"perfref: the job exited with status {status}; the references that fit its output:\n"
        sys.stderr.write(text if args.format == "json" else heading + text)
        sys.stderr.flush()
    return status


def follow(matcher: Matcher, args, stated: dict, base: str, said: dict) -> int:
    """Watch a growing log; print each reference the first time it fits (or fits more strongly).

    Only the lines added since the last look are read: the evidence so far is kept
    (a Scan), as for a file read in chunks, so a long-running log costs nothing more.
    """
    if args.file in (None, "-"):
        raise UsageError("--follow needs a file name")
    seen: dict[str, str] = {}

    def fresh_start():
        return Scan(), LineJoiner(), codecs.getincrementaldecoder("utf-8")(errors="replace"), 0

    scan, lines, decoder, offset = fresh_start()
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    try:
        while not stop:
            try:
                size = os.path.getsize(args.file)
                if size < offset:  # truncated or rotated: start again
                    scan, lines, decoder, offset = fresh_start()
                if size > offset:
                    with open(args.file, "rb") as handle:
                        handle.seek(offset)
                        data = handle.read(size - offset)
                    offset += len(data)
                    piece = lines.push(decoder.decode(data))  # whole lines only: the last may still be written
                    if piece is not None:
                        result = matcher.result(matcher.scan_piece(piece, scan), stated, said)
                        fresh = [r for r in result["results"] if r["strength"] != "weak"
                                 and seen.get(r["id"]) not in ("message", r["strength"])]
                        if fresh:
                            for r in fresh:
                                seen[r["id"]] = r["strength"]
                            sys.stdout.write(render(dict(result, results=fresh, confident=True), args, base))
                            sys.stdout.flush()
            except FileNotFoundError:
                pass  # not written yet, or being rotated
            time.sleep(args.interval)
    except KeyboardInterrupt:
        pass
    return 0 if seen else 1


def load_or_report(docs: str, consequence: str = ""):
    """The validated catalogue, or None after printing every problem to standard error."""
    from .load import CatalogueError, load_catalogue  # pydantic and YAML: only the commands that validate

    try:
        return load_catalogue(docs)
    except CatalogueError as err:
        print(f"{len(err.problems)} problem(s){consequence}:", file=sys.stderr)
        for problem in err.problems:
            print(f"  {problem}", file=sys.stderr)
        return None


def cmd_check(args) -> int:
    catalogue = load_or_report(args.docs)
    if catalogue is None:
        return 1
    print(f"{len(catalogue.pages)} references, all valid")
    return 0


def _project_manifest(docs: str) -> Path:
    """The manifest of the project that holds ``docs``: <project>/tests/data/published.json."""
    return Path(docs).resolve().parent / "tests" / "data" / "published.json"


def cmd_new(args) -> int:
    from .scaffold import ScaffoldError, scaffold

    try:
        ref_id, path = scaffold(args.docs, args.title, args.symptom, args.hardware, args.framework,
                                manifest_path=args.manifest or _project_manifest(args.docs))
    except ScaffoldError as err:
        raise UsageError(str(err)) from None
    print(f"{ref_id}: wrote {path} (status: draft)")
    print("Replace every TODO (the example.com sources and look-alikes included), add the message examples")
    print("the tests ask for, then set 'status: published' and run 'perfref manifest'.")
    return 0


def cmd_manifest(args) -> int:
    from . import manifest

    out = Path(args.out or _project_manifest(args.docs))
    old = manifest.load(out)
    if args.check:
        problems = manifest.site_problems(old, args.check)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        print(f"{len(problems)} problem(s) in {args.check}" if problems else f"every URL of {out} resolves in {args.check}")
        return 1 if problems else 0
    catalogue = load_or_report(args.docs, "; the manifest is unchanged")
    if catalogue is None:
        return 1
    new = manifest.updated(old, catalogue)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(manifest.dumps(new), encoding="utf-8")
    added = sorted(set(new) - set(old))
    print(f"{out}: {len(new)} ID(s){', added ' + ', '.join(added) if added else ''}")
    problems = manifest.catalogue_problems(new, catalogue)
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    return 1 if problems else 0


def _matching_options(parser) -> None:
    """The options that shape a match, shared by match and run."""
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                        help="text for a terminal, json for tools, markdown for a ticket or a CI job summary")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="the same as --format json")
    parser.add_argument("--all", action="store_true", help="also list the references with related words only")
    parser.add_argument("--site-url", help=f"base of the URLs printed (default: ${SITE_URL_ENV}, else the site the index was built for)")
    parser.add_argument("--index", help="a built site's assets/match-index.json (default: this checkout's docs, or the packaged index)")
    parser.add_argument("--docs", default=str(DOCS), help=argparse.SUPPRESS)
    for facet in ("framework", "hardware", "symptom"):
        parser.add_argument(f"--{facet}", default="", help=f"the {facet} you already know (re-weights the results)")
    parser.add_argument("--runs", action="append", metavar="SOFTWARE=RELEASE",
                        help="a release you run, e.g. nccl=2.21.5 (repeatable): a message it cannot print counts for less")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="perfref", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="match a log against the references")
    m.add_argument("file", nargs="?", help="log file, or - for standard input (the default)")
    _matching_options(m)
    m.add_argument("--follow", action="store_true", help="watch FILE as it grows and print each reference when it first fits")
    m.add_argument("--interval", type=float, default=1.0, help=argparse.SUPPRESS)
    m.set_defaults(func=cmd_match)
    r = sub.add_parser("run", help="run a job, pass its output through, print the references when it fails",
                       description="Run CMD with its output passed through unchanged and its exit status kept; "
                       "when it fails (or with --always), print the references that fit its output on standard error.")
    r.add_argument("--always", action="store_true", help="print the references even when the job succeeds")
    r.add_argument("--report", metavar="FILE", help="also write the references to FILE")
    _matching_options(r)
    r.add_argument("command_line", nargs=argparse.REMAINDER, metavar="-- CMD ...", help="the job and its arguments")
    r.set_defaults(func=cmd_run)
    c = sub.add_parser("check", help="validate every reference")
    c.add_argument("docs", nargs="?", default=str(DOCS))
    c.set_defaults(func=cmd_check)
    n = sub.add_parser("new", help="write a draft reference page with the next free ID")
    n.add_argument("title", help="the published title (the slug is made from it)")
    for facet in ("symptom", "hardware", "framework"):
        n.add_argument(f"--{facet}", action="append", required=True, metavar=facet.upper(),
                       help=f"a {facet} value; repeat it or separate values with commas")
    n.add_argument("--docs", default=str(DOCS), help="the docs folder (default: this project's)")
    n.add_argument("--manifest", help="published IDs never to reuse (default: <project>/tests/data/published.json)")
    n.set_defaults(func=cmd_new)
    mf = sub.add_parser("manifest", help="(re)write the manifest of published IDs and URLs")
    mf.add_argument("--docs", default=str(DOCS), help="the docs folder (default: this project's)")
    mf.add_argument("--out", help="the manifest file (default: <project>/tests/data/published.json)")
    mf.add_argument("--check", metavar="SITE", help="check a built site against the manifest instead of writing it")
    mf.set_defaults(func=cmd_manifest)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as err:
        print(f"perfref: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (| head): exit quietly, as grep does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
