"""`make bench`: the whole Comprehensive Rules beside the seed content, timed.

Creates the dataset build/bench/fullcr (a copy of the project's data with the 2026-01-16
release imported: ~3,100 rules and subrules plus the glossary, three languages) and measures,
each as the user runs it (a `rulekb` process, wall-clock time, on this machine):

  import           rulekb import cr RELEASE --into build/bench/fullcr      target <= 3 s
  re-import        the same again (changes nothing)
  validate         rulekb validate (load + validate the dataset), with the knowledge cache
                   emptied first (cold) and again (warm: every file from the cache)
  check            rulekb check cold (file and check caches emptied)    target <= 2.5 s
                   and warm, each the median of three runs                target <= 1 s
  build (cold)     rulekb build, all languages, the median of five        target <= 30 s
  build (again)    the same with nothing changed
  pipeline/mkdocs  the processor time of the pipeline that makes the pages  target <= 10 %
                   (load, validate, link, render, hand over, the plugin's hooks:
                   timing.PAGE_PIPELINE) over mkdocs' on the same pages; processor
                   time, because the two run side by side in several processes; the
                   median of the five cold builds (mkdocs' own processor time moves by
                   a fifth from one build to the next on a shared machine), each printed
  whole build      everything but mkdocs over mkdocs: also the QA behind the status
                   pages (its own target: check), the JSON API, the offline archive
                   and assembling the site folder; each part printed apart
  search index     site/<lang>/search/rules.js + site/search/*.js        target <= 1.5 MB
                   and the rulings of cards, site/search/rulings.js (shared, loaded
                   after the rest)                                        target <= 2.5 MB

plus, in-process, load and validate apart (the stages every command starts with). The dataset
is the seed content (tests/data/seed/rules when it is there, else rules/) with the project's
translations/, content/ and mkdocs.yml: one release beside the curated rules, as issue 12's
targets are set on it.

Then, when the committed rules/ holds more than one release (the complete data: all 110
releases, and the cards and rulings when they are committed), the same on the project itself
(issue 13's targets), each figure named "complete: …":

  import cr        every release of the archive (../shared/data/comprehensive-rules/archive/,
                   110) imported in one run onto the seed content, from scratch  target <= 60 s
  re-import cr     the same releases again into a copy of the committed data, where
                   nothing changes (each file imported already: skipped)       target <= 10 s
  validate, check  cold and warm, as above                   check target <= 3 s cold, <= 1 s warm
  check again      the run results emptied (checks/), the knowledge cache holding every file
                   and the per-text and per-file check caches every text and file: the checks
                   run again, as after a translator edits one file            target <= 3 s
  build (cold)     rulekb build, all languages                target <= 120 s (<= 180 s with the
                   rulings), site into build/bench/complete/
  build (again)    nothing changed                            target <= 5 s
  pipeline/mkdocs  as above                                   target <= 10 %
  offline zip      the size of rulekb-site.zip                target <= 80 MB
  search index     per language                               target <= 1.5 MB
  card NAME        rulekb card Golgari-Grabtroll, after validate (the name index made
                   from the knowledge cache), again, and with no cache at all
                                                              target <= 1 s
  import mtgjson   all 579 MTGJSON sets (../shared/data/mtgjson/sets/) imported into a
                   scratch copy of the seed project (build/bench/allsets), then again
                   (changes nothing)                          target <= 60 s
  peak memory      the largest resident set of the bench process and of the build's
                   processes (getrusage)                      target <= 2 GB

A command that does not exist (yet) is reported as such. Figures go to the terminal and to
build/bench/results.json. Exit code 0; with --strict, 1 when a target is missed.

    python benchmarks/bench.py [--release FILE] [--strict] [--skip-build] [--skip-complete]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_RELEASE = ROOT.parent / "shared" / "data" / "comprehensive-rules" / "MagicCompRules-2026-01-16.txt"
ARCHIVE = ROOT.parent / "shared" / "data" / "comprehensive-rules" / "archive"   # every official release
MTGJSON_SETS = ROOT.parent / "shared" / "data" / "mtgjson" / "sets"
WORK = ROOT / "build" / "bench"
SEED_RULES = ROOT / "tests" / "data" / "seed" / "rules"   # the curated seed content, when the tests keep it there
PROJECT_PARTS = ("translations", "content", "mkdocs.yml")
CHECK_RUNS = 3
BUILD_RUNS = 5   # cold builds of the one-release dataset (~20 s each): the figures are their medians
                 # (two medians of three, an hour apart on the quiet machine, were 7.5 % and 11.7 %)

sys.path.insert(0, str(ROOT / "tools"))


def rulekb(*argv: str, no_cache: bool = False) -> tuple[float, int, str]:
    """Run `rulekb` as a user would; (seconds, exit code, output). `no_cache`: with the caches
    turned off (RULEKB_CACHE_DIR empty)."""
    env = dict(os.environ)
    if no_cache:
        env["RULEKB_CACHE_DIR"] = ""
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "tools")] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "rulekb", *argv], cwd=ROOT, env=env, capture_output=True, text=True)
    return time.perf_counter() - start, proc.returncode, proc.stdout + proc.stderr


def clear_knowledge_cache() -> None:
    """Empty the caches of parsed files (README, "Caches"), for a cold run: the knowledge cache,
    the termbase's and the UI catalogs', and the card files' name index (made from the knowledge
    cache by the first `rulekb card`)."""
    from rulekb.cache import cache_dir
    folder = cache_dir()
    if folder is not None:
        for name in ("knowledge", "termbase", "ui-catalogs", "card-names"):
            shutil.rmtree(folder / name, ignore_errors=True)


def clear_check_cache(kept: bool = False) -> None:
    """Empty the check caches (README, "Caches"), for a cold check or build: the results of whole runs
    (checks/) and the per-file findings (check-files/). With
    `kept`, the run results only: what a run after an edit finds (the per-text and per-file caches
    hold every unchanged text and file)."""
    from rulekb.cache import cache_dir
    folder = cache_dir()
    if folder is not None:
        for name in ("checks",) if kept else ("checks", "check-files"):
            shutil.rmtree(folder / name, ignore_errors=True)


def commands() -> set[str]:
    from rulekb.commands import COMMANDS
    return {c.name for c in COMMANDS}


class Timeline:
    """A text stream that notes when each line of the build's progress was written."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, str]] = []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip():
                self.lines.append((time.perf_counter(), line))
        return len(text)

    def flush(self) -> None:
        pass

    def at(self, prefix: str) -> float | None:
        return next((t for t, line in self.lines if line.startswith(prefix)), None)


def seed_dataset(dataset: Path) -> None:
    """The one-release dataset's starting point: the seed content and the project's
    translations, pages and mkdocs.yml (the import adds the release to it)."""
    rules = SEED_RULES if SEED_RULES.is_dir() else ROOT / "rules"
    dataset.mkdir(parents=True)
    shutil.copytree(rules, dataset / "rules")
    for name in PROJECT_PARTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, dataset / name)
        elif source.is_file():
            shutil.copy2(source, dataset / name)


def complete_data() -> bool:
    """Whether the committed rules/ holds the complete data (more than one imported release)."""
    return len(list((ROOT / "rules" / "releases").glob("*.yaml"))) > 1


def import_figures(record, complete: Path) -> None:
    """Issue 13's import figures: all releases of the archive from scratch (onto the seed
    content), then again into a copy of the committed data (nothing changes)."""
    releases = sorted(str(p) for p in ARCHIVE.glob("*.txt")) if ARCHIVE.is_dir() else []
    if not releases:
        record("complete: import cr (all releases, from scratch)", None, "s", 60.0, f"no archive at {ARCHIVE}")
        return
    scratch = complete / "import-scratch"
    seed_dataset(scratch)
    seconds, code, out = rulekb("import", "cr", *releases, "--into", str(scratch))
    last = out.strip().splitlines()[-1] if out.strip() else ""
    record("complete: import cr (all releases, from scratch)", seconds if code == 0 else None, "s", 60.0,
           f"{len(releases)} releases onto the seed content; {last}" if code == 0 else f"failed: {last}")
    shutil.rmtree(scratch, ignore_errors=True)
    # a copy of the committed data, so that a stale one (another importer's) is imported into
    # the copy, never into the project
    again = complete / "import-again"
    again.mkdir(parents=True)
    shutil.copytree(ROOT / "rules", again / "rules")
    for name in PROJECT_PARTS:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, again / name)
        elif source.is_file():
            shutil.copy2(source, again / name)
    seconds, code, out = rulekb("import", "cr", *releases, "--into", str(again))
    skipped = sum(1 for line in out.splitlines() if line.startswith("skipped "))
    changed = "nothing changed" not in out
    record("complete: re-import cr (no change)", seconds if code == 0 else None, "s", 10.0,
           f"{skipped} of {len(releases)} releases imported already (skipped); "
           + ("CHANGED FILES: the committed data is not what this importer makes" if changed else "nothing changed"))
    shutil.rmtree(again, ignore_errors=True)


def peak_memory_mb() -> float:
    """The largest resident set of this process and of the child processes it waited for (MB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024   # kilobytes on Linux


def timed_build(dataset: Path, out: Path):
    """One `build_site` of `dataset` into `out`/site: (seconds, result, timeline), or the
    exception it raised (the bench reports, it does not crash)."""
    from rulekb.build import build_site
    timeline = Timeline()
    start = time.perf_counter()
    try:
        result = build_site(dataset, out / "site", work=out / "work", out=timeline)  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001
        return exc
    return time.perf_counter() - start, result, timeline


def build_figures(record, dataset: Path, out: Path, prefix: str, cold_target: float | None,
                  again_target: float | None, languages: tuple[str, ...], cold_runs: int = 1) -> None:
    """Build the site of `dataset` into `out`/site cold (`cold_runs` times, each from an empty
    site and work folder), then once with nothing changed, and record the build's figures, each
    name starting with `prefix`. With several cold builds the time and the pipeline/mkdocs share
    are their medians (each printed), the parts those of the build with the median share: mkdocs'
    own processor time moves by a fifth from build to build on a shared machine."""
    from rulekb.render import paths
    from rulekb.timing import PAGE_PIPELINE
    site = out / "site"
    cold = []
    for run in range(cold_runs):
        if run:
            for folder in (site, out / "work"):
                shutil.rmtree(folder, ignore_errors=True)
        built = timed_build(dataset, out)
        if isinstance(built, Exception):
            record(prefix + "build (cold)", None, "s", cold_target, f"failed: {built}")
            return
        total, result, timeline = built
        share = 100.0 * result.page_pipeline_cpu / result.mkdocs_cpu if result.mkdocs_cpu else None
        cold.append((total, share, result, timeline))
    total = statistics.median_high([c[0] for c in cold])
    shares = [c[1] for c in cold]
    _, share, result, timeline = (sorted(cold, key=lambda c: (c[1] is None, c[1] or 0.0))[len(cold) // 2]
                                  if None not in shares else cold[0])
    pages = ", ".join(f"{b.lang} {b.pages}" + (" reused" if b.reused else "") for b in result.languages)
    runs = f"median of {len(cold)} ({', '.join(f'{c[0]:.2f}' for c in cold)} s); " if len(cold) > 1 else ""
    record(prefix + "build (cold)", total, "s", cold_target,
           f"{runs}pages: {pages}; {result.files} files, {result.size / 1e6:.1f} MB")
    started = timeline.at("[1/5]")
    mkdocs_start, mkdocs_end = timeline.at("[3/5]"), timeline.at("[4/5]")
    if started and mkdocs_start:
        record(prefix + "  before mkdocs (wall)", mkdocs_start - started, "s", None,
               "load, link, render (the QA beside it), hand-over")
    if mkdocs_start and mkdocs_end:
        record(prefix + "  languages step (wall)", mkdocs_end - mkdocs_start, "s", None,
               "mkdocs of the languages side by side")
    mkdocs_cpu = result.mkdocs_cpu
    record(prefix + "  mkdocs (processor)", mkdocs_cpu, "s", None, "mkdocs' build of the pages, all languages")
    for part, seconds in result.parts.items():
        where = "page pipeline" if part in PAGE_PIPELINE else "other products"
        record(f"{prefix}    {part.value}", seconds, "s", None, where)
    shown = (f"median of {len(cold)} builds ({', '.join(f'{s_:.1f}' for s_ in shares)} %); " if len(cold) > 1 and None not in shares
             else "")
    record(prefix + "pipeline/mkdocs", share, "%", 10.0, f"{shown}the page pipeline: {result.page_pipeline_cpu:.2f} s")
    record(prefix + "whole build/mkdocs", 100.0 * result.pipeline_cpu / mkdocs_cpu if mkdocs_cpu else None, "%", None,
           f"everything but mkdocs, with the QA report, JSON API and archive: {result.pipeline_cpu:.2f} s")
    archive = site / paths.ARCHIVE
    record(prefix + "offline zip", archive.stat().st_size / 1e6 if archive.is_file() else None, "MB",
           80.0 if prefix else None)
    # what a page of the language loads to search: its rules part and the shared parts
    from rulekb.render.search import CARDS_PART, NUMBERS_PART, RULES_PART, RULINGS_PART
    for lang in languages:
        parts = [site / lang / RULES_PART, site / CARDS_PART, site / NUMBERS_PART]
        size = sum(p.stat().st_size for p in parts) / 1e6 if all(p.is_file() for p in parts) else None
        record(f"{prefix}search index {lang}", size, "MB", 1.5, "rules part + card names + older numbers")
    rulings = site / RULINGS_PART
    record(f"{prefix}search: rulings of cards", rulings.stat().st_size / 1e6 if rulings.is_file() else None, "MB",
           2.5, "shared by the languages, loaded after the card names")

    built = timed_build(dataset, out)
    if isinstance(built, Exception):
        record(prefix + "build (again)", None, "s", again_target, f"failed: {built}")
        return
    seconds, result, _ = built
    pages = ", ".join(f"{b.lang} {b.pages}" + (" reused" if b.reused else "") for b in result.languages)
    record(prefix + "build (again)", seconds, "s", again_target,
           f"pages: {pages}; {result.files} files, {result.size / 1e6:.1f} MB")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--release", type=Path, default=Path(os.environ.get("RULEKB_CR_RELEASE", DEFAULT_RELEASE)),
                   help=f"the release to import (default: {DEFAULT_RELEASE})")
    p.add_argument("--strict", action="store_true", help="exit 1 when a figure misses its target")
    p.add_argument("--skip-build", action="store_true", help="do not build the site (import, validate, check only)")
    p.add_argument("--skip-complete", action="store_true", help="leave out the figures on the complete committed data")
    args = p.parse_args(argv)
    if not args.release.is_file():
        print(f"error: the release {args.release} is not there; give one with --release FILE "
              "(an official Comprehensive Rules .txt)", file=sys.stderr)
        return 2
    # the package's byte code first, as an installed package has it (with PYTHONDONTWRITEBYTECODE
    # set, every `rulekb` process would otherwise compile the edited modules again)
    import compileall
    compileall.compile_dir(str(ROOT / "tools" / "rulekb"), quiet=1)
    dataset = WORK / "fullcr"
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    results: list[dict] = []

    def record(name: str, value: float | None, unit: str, target: float | None = None, note: str = "") -> None:
        ok = None if value is None or target is None else value <= target
        results.append({"name": name, "value": value, "unit": unit, "target": target, "ok": ok, "note": note})
        shown = "n/a" if value is None else (f"{value:.2f} {unit}" if unit != "%" else f"{value:.1f} %")
        goal = "" if target is None else f"  (target <= {target:g} {unit}: {'ok' if ok else 'OVER'})"
        print(f"  {name:<26}{shown:>12}{goal}{'  ' + note if note else ''}", flush=True)

    print(f"rulekb bench: {args.release.name} imported beside the seed content into {dataset.relative_to(ROOT)}")
    seed_dataset(dataset)
    seconds, code, out = rulekb("import", "cr", str(args.release), "--into", str(dataset))
    if code != 0:
        print(out, file=sys.stderr)
        return 2
    counts = [line.strip() for line in out.splitlines() if line.strip().startswith(("sections", "texts"))]
    record("import", seconds, "s", 3.0, "; ".join(counts))
    seconds, code, out = rulekb("import", "cr", str(args.release), "--into", str(dataset))
    record("re-import (no change)", seconds, "s", None, "nothing changed" if "nothing changed" in out else "CHANGED FILES")
    clear_knowledge_cache()
    seconds, code, out = rulekb("--root", str(dataset), "validate")
    record("validate (cold)", seconds, "s", None,
           " ".join(line.split()[0] + " " + line.split()[1] for line in out.splitlines()[1:3]))
    seconds, code, out = rulekb("--root", str(dataset), "validate")
    record("validate (warm)", seconds, "s", None, "every file from the knowledge cache")

    from rulekb.load import load_files
    from rulekb.validate import build_knowledge_base
    start = time.perf_counter()
    files = load_files(dataset)
    loaded = time.perf_counter()
    kb = build_knowledge_base(files, dataset)
    validated = time.perf_counter()
    record("  in-process: load", loaded - start, "s", None, f"{len(files)} YAML files")
    record("  in-process: validate", validated - loaded, "s", None, f"{len(kb.units())} units")

    available = commands()
    if "check" in available:
        cold = []
        for _ in range(CHECK_RUNS):   # each from empty caches (an earlier run's result would be found there)
            clear_knowledge_cache()
            clear_check_cache()
            cold.append(rulekb("--root", str(dataset), "check", "--format", "json", "--output", str(WORK / "check.json")))
        seconds = statistics.median_high(t for t, _, _ in cold)
        record("check (cold)", seconds, "s", 2.5,
               f"median of {len(cold)} runs ({', '.join(f'{t:.2f}' for t, _, _ in cold)} s); exit code {cold[0][1]}; "
               "the caches of parsed files and the check caches emptied before each")
        # the median of CHECK_RUNS runs (each printed): one run is at the mercy of a busy host
        runs = [rulekb("--root", str(dataset), "check", "--format", "json", "--output", str(WORK / "check.json"))
                for _ in range(CHECK_RUNS)]
        crashed = next((out for _, code, out in runs if "Traceback" in out or code not in (0, 1)), None)
        record("check (warm)", None if crashed else statistics.median_high(seconds for seconds, _, _ in runs), "s", 1.0,
               f"failed: {crashed.strip().splitlines()[-1]}" if crashed else
               f"median of {len(runs)} runs ({', '.join(f'{t:.2f}' for t, _, _ in runs)} s); exit code {runs[0][1]} "
               "(1: error findings)")
    else:
        record("check (warm)", None, "s", 1.0, "no 'rulekb check' command yet")

    if args.skip_build:
        pass
    elif "build" not in available:
        record("build (cold)", None, "s", 30.0, "no 'rulekb build' command yet")
    else:
        build_figures(record, dataset, WORK, "", 30.0, None, kb.language_codes, cold_runs=BUILD_RUNS)

    if complete_data() and not args.skip_complete:
        complete = WORK / "complete"
        print(f"rulekb bench: the complete committed data ({len(list((ROOT / 'rules' / 'releases').glob('*.yaml')))} "
              f"releases) of {ROOT.name}/, built into {complete.relative_to(ROOT)}")
        import_figures(record, complete)
        clear_knowledge_cache()
        for name, target in (("complete: validate (cold)", 2.0), ("complete: validate (warm)", None)):
            seconds, code, out = rulekb("validate")
            record(name, seconds, "s", target, f"exit code {code}")
        # rulekb card: the first run makes the card files' name index from the knowledge cache
        for name, no_cache in (("complete: card NAME", False), ("complete: card NAME (again)", False),
                               ("complete: card NAME (no cache)", True)):
            seconds, code, out = rulekb("card", "Golgari-Grabtroll", no_cache=no_cache)
            record(name, seconds, "s", None if no_cache else 1.0,
                   f"exit code {code}; " + next((line for line in out.splitlines() if line.startswith("rulings (")), ""))
        clear_knowledge_cache()
        clear_check_cache()
        seconds, code, out = rulekb("check", "--format", "json", "--output", str(WORK / "check-complete.json"))
        record("complete: check (cold)", seconds, "s", 3.0, f"exit code {code}; the caches of parsed files and the check caches emptied")
        seconds, code, out = rulekb("check", "--format", "json", "--output", str(WORK / "check-complete.json"))
        record("complete: check (warm)", seconds, "s", 1.0, f"exit code {code}")
        # a translator's run after editing a file: that file parsed again, the others from the
        # knowledge cache; the run's result is keyed by all the files, so the checks run again, on
        # the kept per-text results and per-file findings of the unchanged texts and files
        clear_check_cache(kept=True)
        seconds, code, out = rulekb("check", "--format", "json", "--output", str(WORK / "check-complete.json"))
        record("complete: check (checks again)", seconds, "s", 3.0,
               f"exit code {code}; the run results emptied, every file in the knowledge cache, every text and file in the check caches (as after an edit)")
        if not args.skip_build and "build" in available:
            clear_check_cache()
            # all rulings committed (27 files of an initial, 9 MB; not the seed's one file): 180 s
            rulings = sum(p.stat().st_size for p in (ROOT / "rules" / "rulings").rglob("*.yaml"))
            build_figures(record, ROOT, complete, "complete: ", 180.0 if rulings > 1_000_000 else 120.0, 5.0,
                          kb.language_codes)
        if MTGJSON_SETS.is_dir():
            allsets = WORK / "allsets"
            seed_dataset(allsets)
            for name, target in (("complete: import mtgjson (all sets, into a scratch copy)", 60.0),
                                 ("complete: re-import mtgjson (no change)", None)):
                seconds, code, out = rulekb("import", "mtgjson", str(MTGJSON_SETS), "--into", str(allsets))
                counts = "; ".join(line.strip() for line in out.splitlines() if line.strip().startswith(("cards:", "files:")))
                record(name, seconds if code == 0 else None, "s", target, f"exit code {code}; {counts}")
        record("complete: peak memory", peak_memory_mb(), "MB", 2048.0,
               "the largest process of the bench and of the builds it ran")
    out_file = WORK / "results.json"
    out_file.write_text(json.dumps({"release": args.release.name, "results": results}, indent=2) + "\n", "utf-8")
    print(f"figures written to {out_file.relative_to(ROOT)}")
    missed = [r["name"] for r in results if r["ok"] is False or (r["target"] is not None and r["value"] is None)]
    if missed:
        print(f"over target or not measured: {', '.join(missed)}")
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
