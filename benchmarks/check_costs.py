"""The cost of each check and of the data checks share, on a dataset (by default the project's
own data as committed: every rules release, all cards and rulings, the scale at which the checks
run in two processes; the bench's one-release dataset is build/bench/fullcr): the figures the
registry entries record (`Check.cost`, `Shared.cost`, in milliseconds), which
`rulekb.check.plan` uses to balance the checks over processes. Only their ratios matter.

Each figure is the best of --runs runs: a shared datum made on a fresh context, a check run on
a context that holds every shared datum already (so its own work only); the cyclic garbage
collector paused, as in a run; in processor time (this process's), which other work on the
machine disturbs less than the wall clock. The per-text results a run keeps (`rulekb.check.memo`: terms,
references, verdicts) are read as a run reads them: run `rulekb check` on the dataset first, and
the figures are those of a run after an edit (the common run; with nothing kept, the terms of
every text cost ~5 times their figure).

    python benchmarks/check_costs.py [--root DATASET] [--runs N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", type=Path, default=ROOT)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args(argv)
    from rulekb.knowledge import collection_paused
    # as in a run (`run_checks`): with the collector working, every full collection walks the
    # knowledge base, and the costs of what allocates much (the terms of every text) doubled
    with collection_paused():
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    from rulekb import check, langid
    from rulekb.check import language, phraseology as phrasings
    from rulekb.check.coverage import compute_coverage
    from rulekb.phraseology import load_phraseology
    from rulekb.termbase import load_termbase
    from rulekb.knowledge import load_knowledge_base

    kb = load_knowledge_base(args.root)
    termbase = load_termbase(args.root, kb)
    phraseology = load_phraseology(args.root)   # as `run_checks` reads it: the phraseology checks' data
    checks = [c for c in check.all_checks() if c.family != "waivers"]

    def context() -> check.Context:
        ctx = check.Context(kb, termbase, phraseology, args.root)
        ctx.selected = frozenset(c.code for c in checks)
        return ctx

    def timed(fn) -> float:
        start = time.process_time()
        fn()
        return (time.process_time() - start) * 1000

    started = time.process_time()
    langid.identifier(kb.language_codes)   # the first load in this process: numpy, the model cache
    figures: dict[str, list[float]] = {"MODEL": [(time.process_time() - started) * 1000]}
    for _ in range(args.runs):
        ctx = context()
        made = {
            "TERMS": timed(lambda: [ctx.terms(t) for t in ctx.texts()]),
            "REFS": timed(lambda: [ctx.refs(t) for t in ctx.texts()]),
            # the first text the model judges makes the verdicts of all (an official English text
            # is not judged: its source establishes its language)
            "VERDICTS": timed(lambda: next((language.judged(ctx, t) for t in ctx.texts() if not language.established(t)), ())),
            "PHRASES": timed(lambda: phrasings._verdicts(ctx)),
            "coverage matrix (COVERAGE_COST)": timed(lambda: compute_coverage(ctx)),
        }
        for name, ms in made.items():
            figures.setdefault(name, []).append(ms)
        shared = dict(ctx.cache)
        for c in checks:
            figures.setdefault(c.code, []).append(timed(lambda: sum(1 for _ in c.run(ctx))))
            ctx.cache.clear()
            ctx.cache.update(shared)
    recorded = {s_name: getattr(check, s_name).cost for s_name in ("TERMS", "REFS", "MODEL", "VERDICTS")}
    recorded["PHRASES"] = phrasings.PHRASES.cost
    recorded.update({c.code: c.cost for c in checks})
    recorded["coverage matrix (COVERAGE_COST)"] = check.COVERAGE_COST
    print(f"{'measured':>10} {'recorded':>9}  (milliseconds; {args.root})")
    for name, runs in sorted(figures.items(), key=lambda item: -min(item[1])):
        print(f"{min(runs):10.1f} {recorded.get(name, 0):9g}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
