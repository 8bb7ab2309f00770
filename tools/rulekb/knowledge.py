"""A project's knowledge base, read from disk: the stages load -> validate -> link, one after the
other (then come check -> render -> report). Every command that reads a project starts here.

`load_knowledge_base(root)`:
1. lists the YAML files of the project (`layout.data_files`);
2. reads the languages and sources (`schema.read_project`), what every data file is checked against;
3. parses each file (`load.parse_bytes`) and schema-checks it into its models (`validate.check_file`);
4. when a file does not parse, raises the parse problems of all files (nothing else is checked:
   one broken file would otherwise show as many unknown ids); else checks across files and
   builds the `KnowledgeBase` (`validate.assemble`), or raises all problems at once.

`load_linked(root)` adds stage 3, the references between units (`link.link`).
"""

from __future__ import annotations

from pathlib import Path

from .diagnostics import DataError, Problem
from .layout import LANGUAGES_FILE, SOURCES_FILE, data_files
from .link import LinkedKB, link
from .load import SourceFile, parse_bytes
from .models import KnowledgeBase
from .schema import Context, read_project
from .validate import FileContents, assemble, check_file


def load_knowledge_base(root: Path) -> KnowledgeBase:
    """load + validate: the project under `root` into a KnowledgeBase (or a DataError)."""
    root = Path(root)
    paths, problems = data_files(root)
    context_files: dict[str, SourceFile | None] = {}
    for rel in (LANGUAGES_FILE, SOURCES_FILE):
        path = root / rel
        parsed, found = parse_bytes(rel, path.read_bytes()) if path.is_file() else (None, [])
        context_files[rel] = parsed
        problems += found
    languages, sources = context_files[LANGUAGES_FILE], context_files[SOURCES_FILE]
    project = read_project(languages, sources, root) if languages and sources else None
    ctx: Context | None = project.context if project else None
    contents: list[FileContents] = []
    for path in paths:
        rel = path.relative_to(root).as_posix()
        if rel in context_files:
            continue
        found, checked = _read(rel, path.read_bytes(), ctx)
        problems += found
        if checked is not None:
            contents.append(checked)
    if problems:  # the parse problems alone
        raise DataError(problems)
    if project is None:  # a context file is missing: read_project says which
        project = read_project(languages, sources, root)
    return assemble(project, contents)


def load_linked(root: Path) -> LinkedKB:
    """load + validate + link: the project under `root`, its references resolved."""
    return link(load_knowledge_base(root))


def _read(rel: str, data: bytes, ctx: Context | None) -> tuple[list[Problem], FileContents | None]:
    """A file's parse problems and (given the context) its schema-checked contents."""
    parsed, problems = parse_bytes(rel, data)
    if parsed is None or ctx is None:
        return problems, None
    return problems, check_file(parsed, ctx)
