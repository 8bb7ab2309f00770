"""The sequential load -> validate -> link of a project from disk (`rulekb.knowledge`): the same
knowledge base, or the same problems, as validating the parsed files in memory (the importers'
and editors' way); a knowledge base knows which rule or ruling owns each unit."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import DATA
from rulekb.commands import main
from rulekb.diagnostics import DataError
from rulekb.knowledge import load_knowledge_base, load_linked
from rulekb.load import load_files
from rulekb.models import Rule, Ruling
from rulekb.validate import build_knowledge_base
from test_validate import CASES, _replace


def _outcome(load, root: Path) -> list:
    try:
        kb = load(root)
    except DataError as exc:
        return ["problems", [str(p) for p in exc.problems]]
    return ["kb", kb]


def _in_memory(root: Path):
    return build_knowledge_base(load_files(root), root)


def test_the_seed_project_loads_as_in_memory(seed):
    assert _outcome(load_knowledge_base, seed) == _outcome(_in_memory, seed)


@pytest.mark.parametrize("case, rel, old, new", [c[:4] for c in CASES], ids=[c[0] for c in CASES])
def test_a_refused_project_gives_the_problems_of_the_in_memory_check(tmp_path, case, rel, old, new):
    tree = tmp_path / "kb"
    shutil.copytree(DATA / "kb" / "valid", tree)
    _replace(tree, rel, old, new)
    found = _outcome(load_knowledge_base, tree)
    assert found[0] == "problems" and found == _outcome(_in_memory, tree)


@pytest.mark.parametrize("missing", ["translations/languages.yaml", "rules/sources.yaml"])
def test_a_missing_context_file_is_named(valid_tree, missing):
    (valid_tree / missing).unlink()
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree)
    assert [(p.file, p.message) for p in err.value.problems] == [(missing, f"{missing} is missing")]


def test_every_unit_has_one_owner(seed):
    kb = load_knowledge_base(seed)
    for rule in kb.rules:
        for unit in rule.units:
            assert kb.owner(unit.id) is rule
    for ruling in kb.rulings:
        assert kb.owner(ruling.unit.id) is ruling
    assert all(isinstance(o, (Rule, Ruling)) for o in kb.owners.values())
    assert kb.owner("glossary.retrace.term") is None and kb.owner("no-such-rule.text") is None
    assert kb.owners is kb.owners  # built once


def test_load_linked_resolves_references(seed):
    linked = load_linked(seed)
    assert linked.kb == load_knowledge_base(seed)
    assert linked.links and linked.lookup("702.81") is not None


@pytest.mark.parametrize("rel", ["rules/cards/sample-card.yaml", "translations/languages.yaml"])
def test_a_file_that_cannot_be_read_is_a_problem_not_a_traceback(valid_tree, monkeypatch, capsys, rel):
    """An OS error on reading a data file (permissions, an I/O error) names the file and ends in
    exit code 2, like any data error."""
    target = valid_tree / rel
    real = Path.read_bytes

    def denied(self):
        if self == target:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)
    monkeypatch.setattr(Path, "read_bytes", denied)
    with pytest.raises(DataError) as err:
        load_knowledge_base(valid_tree, cache=False)
    assert [(p.file, p.line, p.message) for p in err.value.problems] == [(rel, 1, f"cannot read {rel}: Permission denied")]
    assert main(["--root", str(valid_tree), "validate"]) == 2
    assert f"{rel}:1:1: error: cannot read {rel}: Permission denied" in capsys.readouterr().err


@pytest.mark.parametrize("enabled", [True, False])
def test_loading_leaves_the_garbage_collector_as_it_was(valid_tree, enabled):
    """The collector is paused while the models are made, and as it was afterwards, also when
    the project is refused."""
    import gc
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        load_knowledge_base(valid_tree)
        assert gc.isenabled() is enabled
        (valid_tree / "rules" / "sources.yaml").write_text("sources: [\n", encoding="utf-8")
        with pytest.raises(DataError):
            load_knowledge_base(valid_tree)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.parametrize("cache", [True, False])
def test_files_parsed_in_two_processes_give_the_same_knowledge_base(seed, monkeypatch, tmp_path, cache):
    """A cold load spreads the files over processes (here from the first byte): the knowledge base
    is the one a load in this process alone makes, and the cache keeps every file either way."""
    from rulekb import knowledge
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    alone = load_knowledge_base(seed, cache=False, processes=1)
    monkeypatch.setattr(knowledge, "PARALLEL_BYTES", 0)
    assert load_knowledge_base(seed, cache=cache, processes=2) == alone
    if cache:  # every data file kept, whichever process read it: a warm load reads them all from the cache
        store = knowledge.knowledge_cache()
        assert store is not None and len(list(store.folder.iterdir())) == len(knowledge.read_files(seed).data) - 2
        assert load_knowledge_base(seed, processes=1) == alone


@pytest.mark.parametrize("case, rel, old, new", [c[:4] for c in CASES[:6]], ids=[c[0] for c in CASES[:6]])
def test_files_parsed_in_two_processes_give_the_same_problems_in_order(tmp_path, monkeypatch, case, rel, old, new):
    from rulekb import knowledge
    tree = tmp_path / "kb"
    shutil.copytree(DATA / "kb" / "valid", tree)
    _replace(tree, rel, old, new)
    alone = _outcome(lambda root: load_knowledge_base(root, cache=False, processes=1), tree)
    monkeypatch.setattr(knowledge, "PARALLEL_BYTES", 0)
    assert _outcome(lambda root: load_knowledge_base(root, cache=False, processes=2), tree) == alone


def test_split_by_cost_balances_the_bytes_and_keeps_the_order():
    from rulekb.knowledge import split_by_cost
    data = {"a": b"x" * 50, "b": b"x" * 10, "c": b"x" * 40, "d": b"x" * 5, "e": b"x" * 5}
    parts = split_by_cost(list(data), data, 2)
    assert parts == [["a", "d"], ["b", "c", "e"]]
    assert split_by_cost(list(data), data, 1) == [list(data)]
    assert split_by_cost(["a"], data, 2) == [["a"]] and split_by_cost([], data, 2) == [[]]


def test_a_large_load_spreads_its_files_over_the_standard_pool(seed, monkeypatch):
    """From `PARALLEL_BYTES` on, the other part goes to a worker of `rulekb.pool` (spawned, ending
    with its parent); below it, and with one process, no pool is started."""
    from rulekb import knowledge, pool
    started: list[int] = []
    real = pool.executor

    def counting(processes: int):
        started.append(processes)
        return real(processes)
    monkeypatch.setattr(pool, "executor", counting)
    alone = load_knowledge_base(seed, cache=False, processes=2)
    assert started == []  # the seed is far below 5 MB
    monkeypatch.setattr(knowledge, "PARALLEL_BYTES", 0)
    assert load_knowledge_base(seed, cache=False, processes=1) == alone and started == []
    assert load_knowledge_base(seed, cache=False, processes=2) == alone and started == [1]


def test_a_load_worker_pauses_the_collector_and_pickles_each_file_once(valid_tree, tmp_path, monkeypatch):
    """A worker of a parallel load (`knowledge._read_part`) makes its models with the cyclic
    garbage collector paused, as the parent does (running, its collections walked every model made
    so far: a cold validate of the complete data took 9-10 s of processor time with two
    processes, 5.5 s with one), and pickles each file once: the bytes it keeps in the knowledge
    cache are the bytes it sends back."""
    import gc
    import pickle

    from rulekb import knowledge
    from rulekb.knowledge import _context_key, _Part, read_files
    from rulekb.layout import LANGUAGES_FILE, SOURCES_FILE, release_dates
    from rulekb.load import parse_bytes
    from rulekb.schema import read_project
    monkeypatch.setenv("RULEKB_CACHE_DIR", str(tmp_path / "cache"))
    files = read_files(valid_tree)
    languages, _ = parse_bytes(LANGUAGES_FILE, files.data[LANGUAGES_FILE])
    sources, _ = parse_bytes(SOURCES_FILE, files.data[SOURCES_FILE])
    ctx = read_project(languages, sources, valid_tree, release_dates(files.data)).context
    rels = [rel for rel in files.data if rel not in (LANGUAGES_FILE, SOURCES_FILE)]
    collecting: list[bool] = []
    real = knowledge._read
    monkeypatch.setattr(knowledge, "_read", lambda *args: (collecting.append(gc.isenabled()), real(*args))[1])
    part = _Part(tuple((rel, files.data[rel], _context_key(ctx, knowledge.reads_releases(rel)), files.digests[rel])
                       for rel in rels), ctx, True)
    assert gc.isenabled()
    sent = knowledge._read_part(part)
    assert collecting == [False] * len(rels) and gc.isenabled()
    store = knowledge.knowledge_cache()
    for (rel, _data, context_key, digest), entry in zip(part.files, sent):
        key = store.key(context_key, rel, digest)
        assert store.path(key).read_bytes() == entry            # kept as sent: pickled once
        assert pickle.loads(entry) == (key, real(rel, files.data[rel], ctx))
