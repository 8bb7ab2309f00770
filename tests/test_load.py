"""Stage load: strict YAML parsing into positioned nodes."""

from __future__ import annotations

import pytest

from rulekb.load import MapNode, Scalar, SeqNode, parse_text


def test_scalars_stay_text_with_positions():
    root, problems = parse_text("f.yaml", 'number: 702.80\nflag: no\nlist: [a, "b"]\n')
    assert problems == []
    assert isinstance(root, MapNode)
    number = root.get("number")
    assert isinstance(number, Scalar) and number.value == "702.80" and (number.line, number.column) == (1, 9)
    assert root.get("flag").value == "no"  # YAML 1.1 would make this False
    items = root.get("list")
    assert isinstance(items, SeqNode) and [i.value for i in items.items] == ["a", "b"]
    assert items.items[1].quoted and not items.items[0].quoted


@pytest.mark.parametrize("text, line, fragment", [
    ("a: 1\na: 2\n", 2, "duplicate key 'a' (first at line 1)"),
    ("a: &x [1]\nb: *x\n", 1, "anchor '&x'"),
    ("a: &x [1]\nb: *x\n", 2, "alias '*x'"),
    ("a: !!python/object:os.system x\n", 1, "explicit YAML tag"),
    ("a: 1\n---\nb: 2\n", 1, "several YAML documents"),
    ("a: [1, 2\nb: 3\n", 2, "YAML syntax error"),
    ("a:\n  b: 1\n  b: 2\n", 3, "duplicate key 'b'"),
])
def test_refused_yaml(text, line, fragment):
    _, problems = parse_text("f.yaml", text)
    assert any(p.line == line and fragment in p.message and p.file == "f.yaml" for p in problems), problems


def test_all_problems_of_a_file_are_reported():
    _, problems = parse_text("f.yaml", "a: 1\na: 2\nb: &y 3\nb: 4\n")
    assert len(problems) == 3


def test_a_syntax_error_is_the_only_problem_of_its_file():
    """The file is refused as a whole: what was built before the error is not reported."""
    root, problems = parse_text("f.yaml", "a: 1\na: 2\nb: &x [1\n")
    assert root is None
    assert len(problems) == 1 and "YAML syntax error" in problems[0].message


def test_events_come_as_pyyaml_gives_them():
    """The nodes of a file are those of PyYAML's own event stream (list(yaml.parse(text)))."""
    import yaml
    text = "a: [x, 'y', {b: c}]\nd:\n  - e: |\n      f\n  - g\n"
    root, problems = parse_text("f.yaml", text)
    assert problems == []
    scalars = [e.value for e in yaml.parse(text, Loader=yaml.SafeLoader) if isinstance(e, yaml.ScalarEvent)]

    def values(node):
        if isinstance(node, Scalar):
            return [node.value]
        if isinstance(node, SeqNode):
            return [v for item in node.items for v in values(item)]
        return [v for key, value in node.items for v in values(key) + values(value)]
    assert values(root) == scalars
