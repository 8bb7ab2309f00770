"""early: what `rulekb check …` starts before the rest of rulekb is imported, and
for which command lines."""

from __future__ import annotations

import pytest

from rulekb import early


@pytest.mark.parametrize("argv, root", [
    (["check"], "."),
    (["check", "--format", "json", "--output", "x.json"], "."),
    (["--root", "build/bench/fullcr", "check", "--format", "json"], "build/bench/fullcr"),
    (["--root=/data", "check"], "/data"),
    (["--root", "check", "validate"], None),  # a folder named check; the command is validate
    (["validate"], None),
    (["build", "check"], None),
    (["check", "--help"], None),
    (["check", "-h"], None),
    (["--help"], None),
    (["--version", "check"], None),
    ([], None),
])
def test_check_root(argv, root, monkeypatch):
    monkeypatch.delenv("RULEKB_ROOT", raising=False)
    assert early.check_root(argv) == root


def test_check_root_defaults_to_rulekb_root(monkeypatch):
    monkeypatch.setenv("RULEKB_ROOT", "/projects/kb")
    assert early.check_root(["check"]) == "/projects/kb"
    assert early.check_root(["--root", "other", "check"]) == "other"


def test_nothing_starts_for_other_commands(monkeypatch):
    started: list[str] = []
    monkeypatch.setattr("rulekb.langid.start_helper", lambda: started.append("helper") or True)
    monkeypatch.setattr("rulekb.validate.read_early", lambda root: started.append("read"))
    early.start(["validate"])
    early.start(["check", "--help"])
    assert started == []


@pytest.mark.parametrize("command", [["-m", "rulekb"], ["-c", "from rulekb.early import main; raise SystemExit(main())"]])
def test_the_rulekb_command_runs_the_command_line_through_early(command, tmp_path):
    """`python -m rulekb` and the console script (rulekb.early:main) run cli's commands; `check`
    gives the same report as an in-process run."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "tools"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, *command, "--root", str(root), "validate"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith(f"ok: {root}"), proc.stderr
    out = tmp_path / "qa.json"
    proc = subprocess.run([sys.executable, *command, "--root", str(root), "check", "--format", "json", "--output",
                           str(out)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    from rulekb.check import run_checks
    from rulekb.report import to_json
    from rulekb.validate import load_knowledge_base
    kb = load_knowledge_base(root)
    assert out.read_text(encoding="utf-8") == to_json(run_checks(kb, root), kb)
