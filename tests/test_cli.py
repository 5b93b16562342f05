"""The perfref command as a user runs it: exit codes, formats, errors, pipes, --follow, the installed package."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import ROOT

from catalogue import emit, report
from catalogue.load import load_catalogue
from catalogue.match import Matcher

PERFREF = [sys.executable, str(ROOT / "scripts" / "perfref.py")]
STRONG = "Invalidate trace cache @ step 0: expected module 1, but got module 3\n"
NONSENSE = "the quick brown fox jumps over the lazy dog\n"


def perfref(*args, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*PERFREF, *args], input=stdin, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120)


@pytest.fixture(scope="module")
def twin() -> Matcher:
    return Matcher(json.loads(emit.json_text(emit.match_index(load_catalogue(ROOT / "docs")))))


def test_exit_status_says_whether_a_reference_fits():
    assert perfref("match", stdin=STRONG).returncode == 0
    none = perfref("match", stdin=NONSENSE)
    assert none.returncode == 1 and "No confident match" in none.stdout


@pytest.mark.parametrize("args, says", [
    (("match", "/no/such/file.log"), "cannot read /no/such/file.log"),
    (("match", "--framework", "tensorflow"), "unknown framework 'tensorflow'; valid: "),
    (("match", "--index", "/no/such/index.json"), "cannot read the index"),
])
def test_errors_are_one_line_and_exit_2(args, says):
    result = perfref(*args, stdin=STRONG)
    assert result.returncode == 2
    assert result.stderr.startswith("perfref: ") and says in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_unknown_facet_lists_the_valid_values(twin):
    result = perfref("match", "--hardware", "tpu", stdin=STRONG)
    for value in twin.index["facets"]["hardware"]:
        assert value in result.stderr


def test_json_is_the_twins_result(twin, tmp_path):
    log = tmp_path / "train.log"
    log.write_text("noise\n" + STRONG, encoding="utf-8")
    result = perfref("match", str(log), "--format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout) == json.loads(json.dumps(twin.match(log.read_text(encoding="utf-8"))))
    assert json.loads(result.stdout)["results"][0]["evidence"][0]["line"] == 2  # the same line numbers as the page


def test_markdown_is_a_ticket_snippet(twin):
    result = perfref("match", "--format", "markdown", "--site-url", "https://perf.internal/docs/", stdin=STRONG)
    top = twin.match(STRONG)["results"][0]
    url = f"https://perf.internal/docs/{top['url']}"
    assert result.stdout.startswith(f"[{top['id']}: {top['title']}]({url}) (Strong: ")
    assert "- line 1: `Invalidate trace cache @ step 0" in result.stdout
    assert f"({url}#check-{top['checks'][0]['id']})" in result.stdout
    assert result.stdout == report.markdown(twin.match(STRONG), "https://perf.internal/docs/")


def test_site_url_comes_from_the_flag_or_the_environment():
    env = perfref("match", stdin=STRONG, env={"PERFREF_SITE_URL": "https://env.example.net/"})
    assert "https://env.example.net/references/" in env.stdout
    flag = perfref("match", "--site-url", "https://flag.example.net/", stdin=STRONG, env={"PERFREF_SITE_URL": "https://env.example.net/"})
    assert "https://flag.example.net/references/" in flag.stdout and "env.example.net" not in flag.stdout
    assert "http://127.0.0.1:8000/references/" in perfref("match", stdin=STRONG).stdout


def test_a_closed_pipe_ends_quietly(tmp_path):
    log = tmp_path / "big.log"
    log.write_text(STRONG * 50_000, encoding="utf-8")
    shell = subprocess.run(f"{' '.join(PERFREF)} match --all {log} | head -1", shell=True,
                           capture_output=True, text=True, timeout=120)
    assert shell.stdout.startswith("1. ") and shell.stderr == ""


def test_follow_prints_a_match_when_it_appears(tmp_path):
    log = tmp_path / "growing.log"
    log.write_text("starting\n", encoding="utf-8")
    proc = subprocess.Popen([*PERFREF, "match", "--follow", str(log), "--interval", "0.2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.5)
        with log.open("a", encoding="utf-8") as f:
            f.write("step 1 ok\n" + STRONG)
        deadline = time.time() + 30
        first = proc.stdout.readline()
        while "PERF-" not in first and time.time() < deadline:
            first = proc.stdout.readline()
        assert "PERF-0003" in first
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err


def test_a_release_you_run_counts(tmp_path):
    line = "node1:123:123 [0] NCCL INFO Setting affinity for GPU 0 to ffff,ffffffff\n"  # NCCL < 2.28.3 wording
    old = json.loads(perfref("match", "--format", "json", "--runs", "nccl=2.21.5", stdin=line).stdout)
    new = json.loads(perfref("match", "--format", "json", "--runs", "nccl=2.29.2", stdin=line).stdout)
    evidence = lambda r: [e for x in r["results"] for e in x["evidence"] if "Setting affinity" in e["template"]]  # noqa: E731
    assert evidence(old) and all("version_note" not in e for e in evidence(old))
    assert evidence(new) and all(e["version_note"].startswith("you run NCCL 2.29.2") for e in evidence(new))
    bad = perfref("match", "--runs", "ncc=2.1", stdin=line)
    assert bad.returncode == 2 and "nccl" in bad.stderr


def test_version_and_help():
    version = perfref("--version")
    assert version.returncode == 0 and version.stdout.startswith("perfref ")
    assert "--format" in perfref("match", "--help").stdout


def test_installed_package_matches_with_its_own_index(tmp_path, twin):
    """pip install . gives a perfref command that works outside the checkout, from the index it ships."""
    target = tmp_path / "site-packages"
    build = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                            "--target", str(target), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-2000:]
    shipped = json.loads((target / "catalogue" / "data" / "match-index.json").read_text(encoding="utf-8"))
    assert [r["id"] for r in shipped["refs"]] == [r["id"] for r in twin.index["refs"]]
    env = {**os.environ, "PYTHONPATH": str(target)}
    run = subprocess.run([str(target / "bin" / "perfref"), "match", "--format", "json"], input=STRONG,
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["results"][0]["id"] == twin.match(STRONG)["results"][0]["id"]
