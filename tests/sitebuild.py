"""The sites the tests read, each built once per test session and shared by the modules that ask
for it (each declares a session fixture calling the function here; the build itself is cached
here, so it runs once however many modules ask for it):

- `built_site`: the site of the seed project (conftest.data_copy), for test_build, test_site_links
  and test_browser;
- `complete_site`: the site of the project's own data as committed (every rules release, the
  cards and rulings), for the few tests marked ``complete_site`` that check what judges use at
  the scale they use it (test_browser, test_site_links). It is built straight from the
  repository's rules/ (never copied) into a temporary folder, its build folder there too; it
  takes what `make site` takes, once per session, and only when such a test runs."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Built:
    site: Path     # the site folder (site/index.html, site/en/, site/api/ …)
    work: Path     # the build folder of that build
    log: str       # what the build printed
    result: object


_CACHE: dict[str, Built] = {}


def build(root: Path, site: Path, work: Path, **kwargs) -> Built:
    from rulekb.build import BuildError, build_site

    out = io.StringIO()
    try:
        result = build_site(root, site, work=work, out=out, **kwargs)
    except BuildError as exc:
        pytest.fail(f"the site did not build: {exc}\n{out.getvalue()}")
    return Built(site, work, out.getvalue(), result)


def built_site(tmp_path_factory) -> Built:
    """The site of the seed project (its tree is `Built.site.parent / "project"`)."""
    if "seed" not in _CACHE:
        from conftest import data_copy
        base = tmp_path_factory.mktemp("built-site")
        _CACHE["seed"] = build(data_copy(base / "project"), base / "site", base / "build")
    return _CACHE["seed"]


def complete_site(tmp_path_factory) -> Built:
    """The site of the repository's own data (ROOT's rules/, translations/, content/), every language."""
    if "complete" not in _CACHE:
        base = tmp_path_factory.mktemp("complete-site")
        _CACHE["complete"] = build(ROOT, base / "site", base / "build")
    return _CACHE["complete"]
