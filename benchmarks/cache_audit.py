"""Does each cache of `rulekb.cache.CACHES` pay? (issue 30.1's audit)

For each cache, the command that reads it is run three times on a project (by default the
project's own data as committed: every rules release, all cards and rulings) — cold (an empty
cache folder), warm (nothing changed) and after one edit (a comment appended to one rule file:
its bytes, so its digest, change) — once with every cache and once with that one cache turned
off (`cache.store` answers None for it, as for ``RULEKB_CACHE_DIR=``, the others working). Each
figure is the processor time, user + system, of the whole command as /usr/bin/time reports it
(the machine is shared: wall-clock time measures the neighbours too), its children included.

    python benchmarks/cache_audit.py [--root PROJECT] [--cache NAME …]
    python benchmarks/cache_audit.py --run NAME -- COMMAND…   (one command, the cache NAME off: what the audit times)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

# the command that reads each cache (validate loads every input; check runs the checks and reports)
COMMANDS: dict[str, tuple[str, ...]] = {
    "knowledge": ("validate",),
    "ui-catalogs": ("validate",),
    "phraseology": ("validate",),
    "official": ("validate",),
    "templates": ("check", "--format", "html"),
    "language-model": ("check",),
    "checks": ("check",),
    "check-files": ("check",),
}
EDITED = "rules/comprehensive/retrace.yaml"


def run_without(name: str, argv: list[str]) -> int:
    """`rulekb ARGV` in this process with the cache `name` turned off ("" : none off)."""
    from rulekb import cache
    from rulekb.commands import main
    real = cache.store
    if name:
        cache.store = lambda wanted: None if wanted == name else real(wanted)  # type: ignore[assignment]
    code = main(argv)
    return 0 if code in (0, 1) else int(code)


def timed(root: Path, cache_dir: Path, off: str, command: tuple[str, ...]) -> float:
    """User + system seconds of one command (children included), from /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        env = dict(os.environ, RULEKB_CACHE_DIR=str(cache_dir))
        subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", out.name, sys.executable, __file__, "--run", off, "--",
                        "--root", str(root), *command], check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        user, system = out.read().split()[-2:]
    return float(user) + float(system)


def audit(root: Path, name: str) -> dict[tuple[str, str], float]:
    """(with|without, cold|warm|edit) -> seconds, for the cache `name`."""
    out: dict[tuple[str, str], float] = {}
    edited = root / EDITED
    original = edited.read_bytes()
    for label, off in (("with", ""), ("without", name)):
        folder = Path(tempfile.mkdtemp(prefix="rulekb-audit-"))
        try:
            command = COMMANDS[name]
            out[(label, "cold")] = timed(root, folder, off, command)
            out[(label, "warm")] = timed(root, folder, off, command)
            edited.write_bytes(original + b"# an edit\n")
            try:
                out[(label, "edit")] = timed(root, folder, off, command)
            finally:
                edited.write_bytes(original)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"{name:15} {label:8} " + "  ".join(f"{k} {out[(label, k)]:6.2f}" for k in ("cold", "warm", "edit")),
              flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--run"]:
        return run_without(argv[1], argv[3:])
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", type=Path, default=ROOT, help="the project (default: this one, the complete data)")
    p.add_argument("--cache", action="append", choices=sorted(COMMANDS), help="audit these caches (default: all)")
    args = p.parse_args(argv)
    from rulekb.cache import CACHES
    assert sorted(COMMANDS) == sorted(c.name for c in CACHES), "COMMANDS must name every cache of cache.CACHES"
    results = {name: audit(args.root, name) for name in (args.cache or COMMANDS)}
    print("\n| cache | command | cold with / without | warm with / without | after one edit with / without |")
    print("|---|---|---|---|---|")
    for name, r in results.items():
        cells = [f"{r[('with', k)]:.2f} / {r[('without', k)]:.2f}" for k in ("cold", "warm", "edit")]
        print(f"| `{name}` | `rulekb {' '.join(COMMANDS[name])}` | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
