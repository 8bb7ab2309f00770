"""`rulekb build` (the whole pipeline into the static site, `rulekb.build`) and `rulekb serve`
(one language with mkdocs' development server, rebuilt when a file changes)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..exitcodes import Exit
from .common import Command, Failure, project_root


def build_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--site-dir", default="site", help="where to put the site (default: site/ in the project folder)")
    p.add_argument("--jobs", type=int, default=None, help="languages built at the same time (default: all, up to two per CPU)")


def build(args: argparse.Namespace) -> Exit:
    from ..build import BuildError, Busy, build_site
    root = project_root(args)
    site_dir = Path(args.site_dir)
    if not site_dir.is_absolute():
        site_dir = root / site_dir
    try:
        build_site(root, site_dir, jobs=args.jobs, out=sys.stdout)
    except Busy as exc:
        print(exc.problem, file=sys.stderr)
        print(f"nothing was written; {site_dir} was not changed.", file=sys.stderr)
        return Exit.BUSY
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print(f"the build failed; {site_dir} was not changed.", file=sys.stderr)
        return Exit.BUILD_FAILED
    return Exit.OK


def serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", required=True, help="the language to serve, e.g. de")
    p.add_argument("--dev-addr", default="127.0.0.1:8000", help="address and port (default: 127.0.0.1:8000)")


def serve(args: argparse.Namespace) -> Exit:
    """Serve one language with mkdocs' dev server; an edited YAML, catalog or page rebuilds it.
    mkdocs replaces this process, so that stopping `rulekb serve` stops the server (no orphan)."""
    from ..build import BuildError, check_plugin_installed, mkdocs_env, prepare, write_config
    root = project_root(args)
    work = root / "build" / "serve"
    try:
        check_plugin_installed()
    except BuildError as exc:   # `commands.main` prints "error: …" and exits with the code
        raise Failure(str(exc), Exit.BUILD_FAILED) from exc
    prepared = prepare(root, [args.lang])
    write_config(root, work, prepared, args.lang, regenerate=True)   # the plugin renders the pages
    print(f"serving {args.lang} on http://{args.dev_addr}/ — edit rules/, translations/ or content/ and the page reloads; "
          "Ctrl-C stops", flush=True)
    command = [sys.executable, "-m", "mkdocs", "serve", "-f", str(work / args.lang / "mkdocs.yml"), "-a", args.dev_addr]
    os.chdir(work / args.lang)
    os.execve(sys.executable, command, mkdocs_env(prepared.epoch))


BUILD = Command("build", "build the static site, one mkdocs site per language, into site/", build_arguments, build)
SERVE = Command("serve", "serve one language of the site (--lang de); rebuilds when a YAML file changes",
                serve_arguments, serve)
