"""The optional C fast path of the load stage (`rulekb._yamlnodes`): the same nodes as the
positioned loader on valid input, and None ("not simple") on everything the positioned loader
refuses, so that loader names the problem at its line and column. Skipped when the extension is
not built, unless RULEKB_REQUIRE_FAST_LOADER=1 (.ci/run sets it)."""

import os

import pytest

from rulekb import load

try:
    from rulekb import _yamlnodes
except ImportError:  # pragma: no cover - depends on the installation
    _yamlnodes = None
    if os.environ.get("RULEKB_REQUIRE_FAST_LOADER") == "1":
        raise
pytestmark = pytest.mark.skipif(_yamlnodes is None, reason="rulekb._yamlnodes is not built (no compiler or no libyaml)")


def _fast(text: str):
    return _yamlnodes.parse(text.encode("utf-8"), load.Scalar, load.MapNode, load.SeqNode, load.MAX_DEPTH)


VALID = [
    "a: 1\nb: [x, \"y\"]\n",
    "rules:\n  - id: x\n    text: |\n      line one\n      line two\n",
    "k: 'quoted'\nn: 702.80\nb: no\nempty: ''\n",
    "nested: {a: {b: [1, [2, {c: d}]]}}\n",
    "unicode: \"Überwältigen — éclair\"\n",
    "- just\n- a list\n",
]


@pytest.mark.parametrize("text", VALID)
def test_the_fast_path_makes_the_positioned_loaders_nodes(text):
    positioned, problems = load.parse_text("f.yaml", text)
    assert problems == [] and _fast(text) == positioned


BAD = [
    ("a: 1\na: 2\n", "duplicate key 'a'"),
    ("a: &x 1\nb: 2\n", "anchor"),
    ("a: &x 1\nb: *x\n", "alias"),
    ("a: !!str 1\n", "explicit YAML tag"),
    ("a: 1\n---\nb: 2\n", "several YAML documents"),
    ("a: [\n", "YAML syntax error"),
    ("? [a]\n: 1\n", "mapping key must be plain text"),
    ("a: " + "[" * 70 + "]" * 70 + "\n", "nest more than"),
    ("", "empty"),
]


@pytest.mark.parametrize("text, message", BAD, ids=[m for _, m in BAD])
def test_what_the_fast_path_refuses_the_positioned_loader_names_at_its_place(text, message):
    assert _fast(text) is None
    _parsed, problems = load.parse_bytes("f.yaml", text.encode("utf-8"))
    assert any(message in p.message and p.file == "f.yaml" and p.line >= 1 and p.column >= 1 for p in problems)


def _collections(node):
    if isinstance(node, (load.MapNode, load.SeqNode)):
        yield node
        for child in (value for _, value in node.items) if isinstance(node, load.MapNode) else node.items:
            yield from _collections(child)


@pytest.mark.parametrize("text", VALID)
def test_collections_hold_their_fields_in_slots_not_a_dict_each(text):
    """Both loaders make mappings and lists without a per-node __dict__ (the complete data has
    ~295,000 of them: the C path made a dict of three entries for each), with the same fields."""
    for root in (_fast(text), load.parse_text("t.yaml", text)[0]):
        nodes = list(_collections(root))
        assert nodes
        for node in nodes:
            assert not hasattr(node, "__dict__")
            assert isinstance(node.items, tuple) and node.line >= 1 and node.column >= 1
