"""The `rulekb` command line: validate counts, show by old and current numbers, help."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from rulekb.commands import COMMANDS, main


def run(capsys, root, *argv):
    code = main(["--root", str(root), *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_validate_prints_counts(seed, capsys):
    code, out, _ = run(capsys, seed, "validate")
    assert code == 0
    counts = dict(line.split()[:2] for line in out.splitlines()[1:6])
    assert counts == {"rules": "5", "subrules": "11", "notes": "14", "rulings": "6", "cards": "12"}
    assert "texts fr" in out and "texts de" in out


def test_show_french_text(seed, capsys):
    code, out, _ = run(capsys, seed, "show", "702.78a", "--lang", "fr")
    assert code == 0
    assert "La pistage apparaît sur certains éphémères et rituels." in out
    assert "seed-002" in out and "stale" in out  # translated from the older English wording


def test_show_current_number_finds_retrace(seed, capsys):
    code, out, _ = run(capsys, seed, "show", "702.81a")
    assert code == 0
    assert "702.81a is the number of retrace" in out and "the text here is 702.78a of the release of 2011-05-01" in out
    assert "Retrace appears on some instants and sorceries." in out


@pytest.mark.parametrize("english", ["Retrace", "Dredge"])
def test_show_accepts_a_keyword_name_in_every_language(seed, capsys, english):
    """Issue 29.3: `rulekb show` takes a keyword's name in English, German or French, in any case,
    as the project's official file names it (translations/official.yaml), for the rule it names."""
    from rulekb.official import load_official
    keyword = load_official(seed, ("en", "de", "fr")).find_keyword(english)
    assert keyword is not None and {n.lang for n in keyword.names} == {"de", "fr"}
    for name in (english, *(n.name for n in keyword.names)):
        for typed in (name, name.upper()):
            code, out, _ = run(capsys, seed, "show", typed)
            assert code == 0 and out.startswith(f"{keyword.rule} is the number of {english.lower()} "), (typed, out[:200])


@pytest.mark.parametrize("number, expected", [
    ("702.24", "702.24 is 702.24 in the rules release of 2011-05-01"),
    ("702.27a", "702.27a is the number of buyback in the rules releases since 2021-04 (current)"),
    ("702.50", "702.50 is the number of dredge in the rules releases from 2011-06 until 2013-07"),
    ("701.44", "701.44 is the number of explore"),
])
def test_show_resolves_history(seed, capsys, number, expected):
    code, out, _ = run(capsys, seed, "show", number)
    assert code == 0 and expected in out


def test_show_all_languages_marks_missing(seed, capsys):
    code, out, _ = run(capsys, seed, "show", "702.24a", "--all-languages")
    assert code == 0 and "fr: (missing: no fr text)" in out and "Rückkauf erscheint" in out


@pytest.mark.parametrize("argv, message", [
    (["show", "999.1"], "no rule 999.1 in this knowledge base"),
    (["show", "702.78z"], "no rule 702.78z"),
    (["show", "seven"], "'seven' is neither a rule number nor a keyword's name"),
    (["show", "702.78a", "--lang", "xx"], "unknown language 'xx'"),
])
def test_show_errors(seed, capsys, argv, message):
    code, _, err = run(capsys, seed, *argv)
    assert code == 2 and message in err


def test_help_for_every_command():
    for command in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "rulekb", command.name, "--help"],
                              capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "tools")})
        assert done.returncode == 0 and command.help.split(";")[0] in done.stdout.replace("\n", " ")


@pytest.mark.parametrize("argv", [["-m", "rulekb"], ["-c", "import sys; from importlib.metadata import entry_points; "
                                   "(main,) = [e.load() for e in entry_points(group='console_scripts', name='rulekb')]; "
                                   "sys.exit(main())"]])
def test_the_rulekb_command_and_python_m_rulekb_run_the_command_line(argv, seed, tmp_path):
    """The console script and `python -m rulekb` run the commands: validate prints its counts,
    check writes the same report as a run in this process."""
    from rulekb.check.driver import run_checks
    from rulekb.report import to_json
    from rulekb.knowledge import load_knowledge_base
    env = {"PYTHONPATH": str(ROOT / "tools"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, *argv, "--root", str(seed), "validate"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith(f"ok: {seed}"), proc.stderr
    out = tmp_path / "qa.json"
    proc = subprocess.run([sys.executable, *argv, "--root", str(seed), "check", "--format", "json", "--output", str(out)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    kb = load_knowledge_base(seed)
    assert out.read_text(encoding="utf-8") == to_json(run_checks(kb, seed), kb)


@pytest.mark.parametrize("argv, root, command", [
    (["--root", "check", "validate"], "check", "validate"),   # a folder named check; the command is validate
    (["--root=/data", "check"], "/data", "check"),
    (["build", "--site-dir", "check"], ".", "build"),
])
def test_the_command_line_names_root_and_command(argv, root, command, monkeypatch):
    monkeypatch.delenv("RULEKB_ROOT", raising=False)
    from rulekb.commands import parser
    args = parser().parse_args(argv)
    assert (args.root, args.command) == (root, command)


def test_the_root_defaults_to_rulekb_root(monkeypatch):
    monkeypatch.setenv("RULEKB_ROOT", "/projects/kb")
    from rulekb.commands import parser
    assert parser().parse_args(["validate"]).root == "/projects/kb"
    assert parser().parse_args(["--root", "other", "validate"]).root == "other"


def test_a_command_imports_only_its_own_modules():
    """Parsing `rulekb validate` (or printing the commands' list) imports no other command's
    modules: not the checks, the reports, Babel, the importers or the site build."""
    script = ("import sys; from rulekb.commands import parser; p = parser(); p.format_help(); "
              "p.parse_args(['validate']); print(' '.join(sorted(m for m in sys.modules if m.startswith(('rulekb', 'babel', 'mkdocs')))))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "tools")})
    loaded = set(done.stdout.split())
    assert done.returncode == 0 and "rulekb.commands.check" in loaded, done.stderr
    assert not loaded & {"rulekb.check", "rulekb.report", "rulekb.po", "rulekb.build", "rulekb.importers", "babel",
                         "mkdocs", "rulekb.validate"}


def test_a_cached_check_imports_neither_the_checks_nor_the_html_report(tmp_path):
    """`rulekb check` with its report cached prints it without importing the check families (their
    regular expressions) or the HTML report (Jinja2 and the render stage): nothing runs."""
    from conftest import data_copy
    project = data_copy(tmp_path / "project")
    script = ("import sys, io, contextlib; from rulekb.commands import main; "
              "out = io.StringIO(); ctx = contextlib.redirect_stdout(out); ctx.__enter__(); "
              f"main(['--root', {str(project)!r}, 'check']); ctx.__exit__(None, None, None); "
              "print(' '.join(sorted(m for m in sys.modules if m.startswith(('rulekb', 'jinja2')))))")
    env = {"PYTHONPATH": str(ROOT / "tools"), "RULEKB_CACHE_DIR": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    again = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    assert "rulekb.check.terminology" in first.stdout.split()   # the first run runs the checks
    loaded = set(again.stdout.split())
    assert "rulekb.check.cache" in loaded
    assert not loaded & {"rulekb.check.terminology", "rulekb.check.language", "rulekb.check.typography",
                         "rulekb.report.html", "rulekb.render", "jinja2"}


# ---------------------------------------------------------------- outputs that are not plain files (issue 20, 10)

QA_KB = ROOT / "tests" / "data" / "qa" / "kb"


def test_check_output_on_a_fifo_feeds_its_reader_and_keeps_the_fifo(capsys, tmp_path):
    import os
    import stat
    import threading
    fifo = tmp_path / "qa.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def reader() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())
    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    code, out, err = run(capsys, QA_KB, "check", "--format", "json", "--output", str(fifo))
    thread.join(timeout=30)
    assert code == 1 and f"wrote {fifo}" in err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)          # not replaced by a regular file
    assert b'"errors": 2' in got[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["qa.fifo"]


def test_check_output_on_a_symlink_writes_its_target_and_keeps_the_link(capsys, tmp_path):
    target = tmp_path / "reports" / "qa.txt"
    target.parent.mkdir()
    target.write_text("an older report")
    link = tmp_path / "latest.txt"
    link.symlink_to(target)
    code, _, _ = run(capsys, QA_KB, "check", "--output", str(link))
    assert code == 1 and link.is_symlink() and link.resolve() == target
    assert "an older report" not in target.read_text(encoding="utf-8") and "errors" in target.read_text(encoding="utf-8")


def test_check_output_on_a_full_disk_is_a_clear_error(capsys, tmp_path, monkeypatch):
    import errno
    import os

    from rulekb import files

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(files.os, "fsync", no_space)
    target = tmp_path / "qa.json"
    code, _, err = run(capsys, QA_KB, "check", "--format", "json", "--output", str(target))
    assert code == 2 and f"{target}:1:1: error: cannot write {target}: No space left on device" in err
    assert "fix: free some disk space" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_ends_a_command_with_exit_130_and_no_traceback(seed, capsys, monkeypatch):
    def interrupted(root, **options):
        raise KeyboardInterrupt
    monkeypatch.setattr("rulekb.knowledge.load_knowledge_base", interrupted)
    code, out, err = run(capsys, seed, "validate")
    assert code == 130 and out == "" and "Traceback" not in err


def test_hash_reads_standard_input_and_refuses_what_is_not_utf8():
    from rulekb.models import english_hash

    def hashed(data: bytes) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "rulekb", "hash", "-"], input=data, capture_output=True,
                              env={"PYTHONPATH": str(ROOT / "tools")}, timeout=60)
    done = hashed("Rückkauf\r\nzwei Zeilen".encode("utf-8"))
    assert done.returncode == 0 and done.stdout.decode().strip() == english_hash("Rückkauf\nzwei Zeilen")
    done = hashed(b"R\xfcckkauf")
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert b"error: standard input is not UTF-8 (byte 0xfc at offset 1)" in done.stderr


def test_show_prints_the_rules_number_history(seed, capsys):
    code, out, _ = run(capsys, seed, "show", "502.81")
    assert code == 0
    history = out.split("number history:\n", 1)[1].split("\n702.78 ", 1)[0].splitlines()
    assert history == ["  502.81     until 2009-05; source cr-archive",
                       "  702.78     2009-07-11 … 2011-05-01; source cr-archive",
                       "  702.79     2011-06 … 2013-07; source cr-archive",
                       "  702.80     2013-07 … 2021-04; source cr-archive",
                       "  702.81     since 2021-04; source cr-archive"]


def test_serve_without_the_plugin_ends_through_the_commands_error_path(monkeypatch, capsys):
    """`rulekb serve` raises its failure like every command: `main` prints "error: …" and exits
    with the build's code."""
    from rulekb import build
    from rulekb.exitcodes import Exit

    def not_installed() -> None:
        raise build.BuildError("the rulekb mkdocs plugin is not registered")
    monkeypatch.setattr(build, "check_plugin_installed", not_installed)
    assert main(["--root", str(ROOT), "serve", "--lang", "de"]) == Exit.BUILD_FAILED
    assert capsys.readouterr().err == "error: the rulekb mkdocs plugin is not registered\n"


@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("argv", [("validate",), ("check", "--format", "json", "--output", "qa.json")],
                         ids=["validate", "check"])
def test_validate_and_check_leave_the_garbage_collector_as_they_found_it(seed, capsys, tmp_path, monkeypatch,
                                                                         argv, enabled):
    """The two commands keep the cyclic collector paused while they hold the knowledge base; after
    them, and after a refused project too, it is as it was."""
    import gc
    import shutil
    monkeypatch.chdir(tmp_path)
    broken = tmp_path / "broken"
    shutil.copytree(seed, broken)
    (broken / "rules" / "sources.yaml").write_text("sources: [\n", encoding="utf-8")
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert run(capsys, seed, *argv)[0] in (0, 1)
        assert gc.isenabled() is enabled
        assert run(capsys, broken, *argv)[0] == 2
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_check_reports_into_standard_output_or_a_file_is_refused_before_the_checks(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, QA_KB, "check", "--reports", "-")
    assert code == 2 and "error: --reports names a folder for its four files" in err
    assert "fix: for one report on standard output give --format FORMAT without --reports" in err
    assert out == "" and list(tmp_path.iterdir()) == []
    plain = tmp_path / "qa.txt"
    plain.write_text("kept", "utf-8")
    code, _, err = run(capsys, QA_KB, "check", "--reports", str(plain))
    assert code == 2 and f"error: --reports {plain} is not a folder" in err and "Traceback" not in err
    assert plain.read_text("utf-8") == "kept"
