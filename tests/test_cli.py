"""The perfref command as a user runs it: exit codes, formats, errors, pipes, --follow, the installed package."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

from perfref import report
from perfref.site import emit
from perfref.load import load_catalogue
from perfref.match import Matcher

PERFREF = [sys.executable, "-m", "perfref"]
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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The perfref wheel, built from this checkout as pip builds it."""
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "--wheel-dir", str(out), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr[-2000:]
    return next(out.glob("perfref-*.whl"))


def test_the_wheel_installs_perfref_alone_at_the_top_level(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"perfref", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}, top
    assert "perfref/data/match-index.json" in names and "perfref/site/emit.py" in names


def test_installed_beside_the_catalogue_package_both_work(tmp_path, wheel, twin):
    """spaCy's dependency 'catalogue' is a real top-level package: perfref must not overwrite it."""
    target = tmp_path / "site-packages"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", str(target)]
    first = subprocess.run([*pip, "catalogue==2.0.10"], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    second = subprocess.run([*pip, "--no-deps", str(wheel)], capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": str(target)}
    still = subprocess.run([sys.executable, "-c", "import catalogue; print(catalogue.create.__name__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert still.stdout.strip() == "create", still.stderr
    shipped = json.loads((target / "perfref" / "data" / "match-index.json").read_text(encoding="utf-8"))
    assert [r["id"] for r in shipped["refs"]] == [r["id"] for r in twin.index["refs"]]
    run = subprocess.run([str(target / "bin" / "perfref"), "match", "--format", "json"], input=STRONG,
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["results"][0]["id"] == twin.match(STRONG)["results"][0]["id"]
    library = subprocess.run([sys.executable, "-c", "import perfref, sys; r = perfref.match(sys.stdin.read()); "
                              "print(perfref.__file__); print(r[0].id, r[0].url)"], input=STRONG,
                             capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert library.returncode == 0, library.stderr
    where, top = library.stdout.splitlines()
    assert where.startswith(str(target)) and top.startswith(twin.match(STRONG)["results"][0]["id"] + " http")


# ---- the library ----


def test_library_ranks_as_the_command(tmp_path, twin):
    import perfref

    log = tmp_path / "train.log"
    log.write_text("noise\n" + STRONG, encoding="utf-8")
    expected = [r for r in twin.match(log.read_text(encoding="utf-8"))["results"] if r["strength"] != "weak"]
    results = perfref.match(log.read_text(encoding="utf-8"), site_url="https://perf.internal/")
    assert [r.id for r in results] == [r["id"] for r in expected]
    top = results[0]
    assert top.url == f"https://perf.internal/{expected[0]['url']}" and top.confident
    assert top.lines[0].number == 2 and top.lines[0].text == STRONG.strip()
    assert top.checks[0].url == f"{top.url}#check-{expected[0]['checks'][0]['id']}"
    assert perfref.match_file(log, site_url="https://perf.internal/") == results
    assert perfref.match(NONSENSE) == [] and perfref.match(NONSENSE, include_weak=True) != []


def test_library_rejects_an_unknown_facet_value():
    import perfref

    with pytest.raises(ValueError, match="unknown framework 'tensorflow'"):
        perfref.match(STRONG, framework="tensorflow")


# ---- perfref run ----

JOB = [sys.executable, "-c"]


def test_run_passes_a_failing_jobs_output_through_and_keeps_its_status():
    job = ("import sys; print('step 1 ok'); sys.stderr.write('warn: x\\n'); "
           f"print({STRONG.strip()!r}); sys.exit(3)")
    result = perfref("run", "--", *JOB, job)
    assert result.returncode == 3
    assert result.stdout == "step 1 ok\n" + STRONG  # unchanged: the references go to stderr
    assert result.stderr.startswith("warn: x\n")
    assert "the job exited with status 3" in result.stderr and "PERF-0003" in result.stderr


def test_run_says_nothing_more_when_the_job_succeeds(tmp_path):
    job = f"print({STRONG.strip()!r})"
    quiet = perfref("run", "--", *JOB, job)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, STRONG, "")
    report_file = tmp_path / "refs.md"
    always = perfref("run", "--always", "--format", "markdown", "--report", str(report_file), "--", *JOB, job)
    assert always.returncode == 0 and "[PERF-0003: " in always.stderr
    assert report_file.read_text(encoding="utf-8").startswith("[PERF-0003: ")


def test_run_forwards_a_signal_and_exits_as_the_job_did(tmp_path):
    marker = tmp_path / "got-term"
    job = ("import signal, sys, time\n"
           f"def stop(*_): open({str(marker)!r}, 'w').write('yes'); sys.exit(143)\n"
           "signal.signal(signal.SIGTERM, stop)\n"
           f"print({STRONG.strip()!r}, flush=True)\n"
           "time.sleep(60)\n")
    proc = subprocess.Popen([*PERFREF, "run", "--", *JOB, job], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == STRONG
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and marker.read_text() == "yes"  # the job got SIGTERM and chose its status
    assert "PERF-0003" in err and "Traceback" not in err


def test_run_reports_a_job_killed_by_a_signal_as_a_shell_does():
    result = perfref("run", "--", *JOB, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert result.returncode == 128 + signal.SIGKILL


def test_run_of_a_missing_command_is_127_and_one_line():
    result = perfref("run", "--", "nosuchcmd-perfref", "--flag")
    assert result.returncode == 127
    assert result.stderr.startswith("perfref: cannot run nosuchcmd-perfref") and result.stderr.count("\n") == 1
    empty = perfref("run")
    assert empty.returncode == 2 and "needs a command" in empty.stderr
