"""Stage load: strict YAML parsing into positioned nodes; hostile nesting and characters end in a
problem at their line and column, never a traceback."""

from __future__ import annotations

import pytest

from rulekb.commands import main
from rulekb.exitcodes import Exit
from rulekb.load import MAX_DEPTH, MapNode, Scalar, SeqNode, parse_text


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


# ---------------------------------------------------------------- hostile nesting and characters


def _deep_mapping(levels: int) -> str:
    return "".join("  " * i + "a:\n" for i in range(levels - 1)) + "  " * (levels - 1) + "a: x\n"


@pytest.mark.parametrize("text, line, column", [
    (_deep_mapping(500), MAX_DEPTH + 1, 2 * MAX_DEPTH + 1),  # the mapping that passes the limit: the value of line 65
    ("[" * 999 + "]" * 999 + "\n", 1, MAX_DEPTH + 1),
    ("a:\n" + "  - " * 300 + "x\n", 2, 4 * MAX_DEPTH - 1),
])
def test_deep_nesting_is_refused_where_it_passes_the_limit(text, line, column):
    root, problems = parse_text("f.yaml", text)
    (problem,) = problems
    assert (problem.file, problem.line, problem.column) == ("f.yaml", line, column)
    assert f"more than {MAX_DEPTH} levels" in problem.message


def test_the_data_files_nest_well_within_the_limit():
    _, problems = parse_text("f.yaml", _deep_mapping(MAX_DEPTH))
    assert problems == []


def test_deep_nesting_in_a_data_file_ends_in_exit_2_without_traceback(valid_tree, capsys):
    rule = valid_tree / "rules" / "comprehensive" / "deep.yaml"
    rule.write_text("[" * 999 + "]" * 999 + "\n", "utf-8")
    assert main(["--root", str(valid_tree), "validate"]) == Exit.DATA
    err = capsys.readouterr().err
    assert f"rules/comprehensive/deep.yaml:1:{MAX_DEPTH + 1}: error: " in err and "Traceback" not in err


@pytest.mark.parametrize("text, line, column, code", [
    ("a: 1\nb: x\x00y\n", 2, 5, "U+0000 (NUL)"),
    ("a: üü\nb: ß\x07\n", 2, 5, "U+0007"),   # after non-ASCII text: columns count characters, not bytes
    ("\x1b", 1, 1, "U+001B"),
])
def test_a_control_character_is_reported_at_its_line_and_column(text, line, column, code):
    _, problems = parse_text("f.yaml", text)
    (problem,) = problems
    assert (problem.line, problem.column) == (line, column) and code in problem.message, problem
