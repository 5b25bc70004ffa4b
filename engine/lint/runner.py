"""`davinci lint`: find the files, run the layers, collect every problem, print, exit 0/1/2.

Layers per file: YAML (strict loader) -> schema (by `kind`) -> rules registered for that kind.
A file that fails to load skips the later layers; a file that fails its schema skips the
semantic rules (they may assume the schema's shape). All files are loaded and registered
with the `Project` before any rule runs, so cross-file rules see everything.
"""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from davinci.engine.errors import DavinciError, SourceLocation, UsageError, did_you_mean, quoted
from davinci.engine.files import yaml_files
from davinci.engine.lint.context import SECTION_KINDS, LintContext, Project
from davinci.engine.lint.registry import Problem, Rule, get_rule, rules_for
from davinci.engine.packs import (
    MANIFEST,
    MISSING_FILE,
    NOT_A_PACK,
    Pack,
    builtin_pack,
    builtin_root,
    dedupe_packs,
    display_path,
    duplicate_pack,
    entry_point_folder,
    entry_point_pack,
    entry_point_targets,
    load_cached,
    load_pack,
    missing_listed,
    not_a_pack,
    pack_folder,
    pack_from_manifest,
    resolve_listed,
    unreadable_manifest,
)
from davinci.engine.schema import validate
from davinci.engine.yamlload import Doc

KINDS: tuple[str, ...] = ("pack", "game", "variant", "deck", "deck-overlay")
INTERNAL = "DV999"
FILE_KIND = "DV017"


@dataclass
class LintResult:
    """Problems found (sorted) and how many files were read."""

    problems: list[Problem] = field(default_factory=list)
    files: int = 0
    stopped_early: list[str] = field(default_factory=list)  # files whose later checks wait for their errors
    installed: bool = False  # no path was given: the installed packs were linted
    pack_here: bool = False  # ... while the working folder holds a pack that is not installed

    @property
    def errors(self) -> int:
        """Number of error-severity problems."""
        return sum(1 for p in self.problems if p.severity == "error")

    @property
    def warnings(self) -> int:
        """Number of warning-severity problems."""
        return sum(1 for p in self.problems if p.severity == "warning")


def _problem(err: DavinciError, fallback: SourceLocation) -> Problem:
    rule = get_rule(err.code)
    return Problem(err.location or fallback, err.code, err.message, rule.name if rule else "",
                   rule.severity if rule else "error")


@dataclass
class _Pending:
    doc: Doc
    kind: str
    pack: Pack | None


class _Linter:
    def __init__(self, extra_packs: Sequence[str]) -> None:
        self.extra_packs = tuple(extra_packs)
        self.context_packs: list[Pack] = []  # packs of lone files, for reference only (see home_pack)
        self.problems: list[Problem] = []
        self.pending: list[_Pending] = []
        self.seen_files: set[str] = set()
        self.seen_packs: set[Path] = set()
        # Packs read from the paths given (their folders, or the folders around lone files), by id.
        self.linted_by_id: dict[str, Pack] = {}  # pack id -> the first linted pack with it (its folder, name)
        self.project = Project(self._installed)

    # ---- installed packs -------------------------------------------------------------------

    def _installed(self) -> list[Pack]:
        """Installed packs as context for cross-file rules (strictly loaded; broken ones skipped)."""
        packs: list[Pack] = []
        given = {pack_folder(p).resolve() for p in self.extra_packs}
        for folder, load in self._pack_sources():
            try:
                pack = load()
            except DavinciError as e:
                # A --pack folder that is no pack is the command's mistake; its broken content
                # is reported when it is linted itself.
                if e.code == NOT_A_PACK and folder is not None and folder.resolve() in given:
                    self.problems.append(_problem(e, SourceLocation(display_path(folder))))
                continue
            # `davinci lint content/DECK.yaml` in a checkout: the linted pack stands for its
            # installed copy (a --pack folder the command names is no such copy).
            named = folder is not None and folder.resolve() in given
            mine = self.linted_by_id.get(pack.id)
            if not named and mine is not None and mine.root != pack.root:
                if mine.name != pack.name:
                    # Not a checkout of the installed pack (another name): a pack of its own that
                    # took an installed pack's id, which play and simulate refuse (DV032).
                    at = mine.manifest.loc(["id"])
                    self.problems.append(_problem(duplicate_pack(pack.id, pack.root, mine.root, at), at))
                continue
            if named and mine is not None and mine.root != pack.root:  # `lint A --pack B`, one id
                at = pack.manifest.loc(["id"])
                self.problems.append(_problem(duplicate_pack(pack.id, mine.root, pack.root, at), at))
            packs.append(pack)
        packs.extend(self.context_packs)
        try:
            return dedupe_packs(packs)
        except DavinciError as e:
            self.problems.append(_problem(e, SourceLocation("<packs>")))  # two packs, one id (DV032)
            return packs

    def _pack_sources(self) -> list[tuple[Path | None, Callable[[], Pack]]]:
        """(folder if known, loader) for the built-in pack, entry-point packs and --pack folders."""
        sources: list[tuple[Path | None, Callable[[], Pack]]] = [(builtin_root(), builtin_pack)]
        for name, module in entry_point_targets():
            sources.append((None, functools.partial(entry_point_pack, name, module)))
        for p in self.extra_packs:
            sources.append((pack_folder(p), functools.partial(load_pack, p)))
        return sources

    def lint_installed(self) -> None:
        """Lint every installed pack's folder in full (no paths given on the command line)."""
        for folder, _ in self._pack_sources():
            if folder is not None:
                self.add_pack(folder)
        for name, module in entry_point_targets():
            try:
                folder = entry_point_folder(name, module)
            except DavinciError as e:
                self.problems.append(_problem(e, SourceLocation(f"<entry point {name}>")))
                continue
            self.add_pack(folder)

    # ---- loading ---------------------------------------------------------------------------

    def load(self, path: Path, display: str, root: Path | None = None) -> Doc | None:
        try:
            doc = load_cached(path, root=root, display=display)
        except UsageError as e:
            self.problems.append(Problem(SourceLocation(display), MISSING_FILE, e.message,
                                         _name(MISSING_FILE)))
            return None
        except DavinciError as e:
            self.problems.append(_problem(e, SourceLocation(display)))
            return None
        return doc

    def add_file(self, path: Path, pack: Pack | None, expected: tuple[str, ...] | None,
                 listed_at: SourceLocation | None = None) -> None:
        display = display_path(path)
        key = str(path.resolve())
        if key in self.seen_files:
            return
        self.seen_files.add(key)
        doc = self.load(path, display, pack.root if pack else None)
        if doc is None:
            return
        kind = doc.kind
        if kind is None or kind not in KINDS:
            got = f"'{kind}'" if kind else "none"
            near = did_you_mean(str(kind), KINDS, aside=False) if isinstance(kind, str) and kind else ""
            self.problems.append(Problem(
                doc.loc(["kind"]), FILE_KIND,
                f"cannot tell what this file is: 'kind' must be one of {', '.join(KINDS)} (found {got}){near}",
                _name(FILE_KIND)))
            return
        if expected is not None and kind not in expected:
            # Reported at the manifest entry; the file itself is still linted as what it says it is.
            self.problems.append(Problem(
                listed_at or doc.loc(["kind"]), FILE_KIND,
                f"{display} has kind '{kind}' but is listed where {' or '.join(expected)} files belong"
                + (f": list it under {kind}s:" if kind in ("game", "variant", "deck") else ""),
                _name(FILE_KIND)))
        if kind == "pack" and expected is None:
            self.add_pack(path.parent, doc)
            return
        self.check_schema(doc, kind, pack)

    def check_schema(self, doc: Doc, kind: str, pack: Pack | None) -> bool:
        try:
            errors = validate(doc, kind)
        except DavinciError as e:
            self.problems.append(_problem(e, doc.loc([])))
            return False
        for err in errors:
            self.problems.append(_problem(err, doc.loc([])))
        if kind != "pack":
            self.project.add(doc, kind, pack, valid=not errors)
        if not errors:
            self.pending.append(_Pending(doc, kind, pack))
        return not errors

    def home_pack(self, path: Path) -> Pack | None:
        """The pack whose folder holds the lone file `path`, added as context for its rules.

        `davinci lint pack/variant.yaml` then finds the game the variant extends in a sibling file,
        while only the file itself is linted. None when no folder above the file has a pack.yaml,
        when that pack is installed or given with --pack anyway, or when its manifest is broken.
        """
        real = path.resolve()
        folder = next((f for f in real.parents if (f / MANIFEST).is_file()), None)
        if folder is None or real.name == MANIFEST:
            return None
        if folder in {builtin_root().resolve(), *(pack_folder(p).resolve() for p in self.extra_packs)}:
            return None
        try:
            pack = load_pack(folder)
        except DavinciError:
            return None
        self.context_packs.append(pack)
        self.linted_by_id.setdefault(pack.id, pack)
        return pack

    def add_pack(self, folder: Path, manifest: Doc | None = None) -> None:
        root = folder.resolve()
        if root in self.seen_packs:
            return
        self.seen_packs.add(root)
        if manifest is None:
            if not (folder / MANIFEST).is_file():
                self.problems.append(Problem(
                    SourceLocation(display_path(folder)), NOT_A_PACK, not_a_pack(folder), _name(NOT_A_PACK)))
                return
            self.seen_files.add(str((folder / MANIFEST).resolve()))  # read, even when it fails to load
            manifest = self.load(folder / MANIFEST, display_path(folder / MANIFEST), root)
            if manifest is None:
                return
        self.seen_files.add(str((folder / MANIFEST).resolve()))
        try:
            errors = validate(manifest, "pack")
        except DavinciError as e:
            self.problems.append(_problem(e, manifest.loc([])))
            return
        for err in errors:
            self.problems.append(_problem(err, manifest.loc([])))
        pack: Pack | None = None
        if not errors:
            try:
                pack = pack_from_manifest(manifest, folder)
                self.pending.append(_Pending(manifest, "pack", pack))
            except DavinciError as e:
                pack = None  # an escaping path: the loop below reports every one of them
                if e.code == FILE_KIND:  # a file listed as the manifest or in two sections
                    self.problems.append(_problem(e, manifest.loc([])))
        if pack is None:
            pack = _lenient_pack(manifest, root)
        other = self.linted_by_id.setdefault(pack.id, pack).root
        if other != pack.root:
            at = manifest.loc(["id"])
            self.problems.append(_problem(duplicate_pack(pack.id, other, pack.root, at), at))
        flagged = {err.location for err in errors}
        for section, i, rel in pack.files():
            where = manifest.loc([section, i])
            if where in flagged:
                continue  # not a usable path; the schema layer has reported it
            if rel == Path("."):  # `games: ["."]`, `./`: the pack's own folder (loading refuses it)
                self.problems.append(Problem(where, MISSING_FILE, missing_listed(pack, rel, pack.root),
                                             _name(MISSING_FILE)))
                continue
            try:
                real = resolve_listed(pack, rel)
            except DavinciError as e:
                self.problems.append(_problem(e, where))
                continue
            if not real.is_file():
                self.problems.append(Problem(where, MISSING_FILE, missing_listed(pack, rel, real), _name(MISSING_FILE)))
                continue
            self.add_file(pack.root / rel, pack, SECTION_KINDS[section], where)

    # ---- rules -----------------------------------------------------------------------------

    def run_rules(self) -> None:
        for item in self.pending:
            ctx = LintContext(item.doc, item.kind, item.pack, self.project)
            for rule in rules_for(item.kind):
                self.problems.extend(_run_rule(rule, ctx))


def _run_rule(rule: Rule, ctx: LintContext) -> list[Problem]:
    found: list[Problem] = []
    assert rule.check is not None
    try:
        for p in rule.check(ctx):
            found.append(p)
    except DavinciError as e:
        found.append(_problem(e, ctx.at([])))
    except (MemoryError, RecursionError):  # the machine's limit, not the rule's nor the file's: lint stops
        raise
    except Exception as e:  # noqa: BLE001 - a buggy rule must never take lint down
        tb = traceback.extract_tb(e.__traceback__)
        where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
        found.append(Problem(
            ctx.at([]), INTERNAL,
            f"internal error in rule {rule.code} ({rule.name}): {type(e).__name__}: {e}{where}",
            _name(INTERNAL)))
    return found


def _name(code: str) -> str:
    rule = get_rule(code)
    return rule.name if rule else ""


def _lenient_pack(manifest: Doc, root: Path) -> Pack:
    """A Pack from a manifest that failed its schema: keep whatever file lists are usable."""
    data = manifest.data if isinstance(manifest.data, dict) else {}
    lists: dict[str, tuple[Path, ...]] = {}
    for section in SECTION_KINDS:
        raw = data.get(section)
        items = raw if isinstance(raw, list) else []
        # Keep list positions aligned with the manifest so problems point at the right line.
        lists[section] = tuple(Path(x) if isinstance(x, str) and x and "\0" not in x else Path(".") for x in items)
    ident = data.get("id")
    return Pack(
        id=ident if isinstance(ident, str) else root.name,
        name=str(data.get("name", root.name)),
        version=str(data.get("version", "")),
        root=root,
        manifest=manifest,
        games=lists["games"],
        variants=lists["variants"],
        decks=lists["decks"],
    )


def lint_all(paths: Sequence[str], packs: Sequence[str] = ()) -> LintResult:
    """Lint `paths` (or every installed pack when empty); UsageError for a path that does not exist."""
    for p in paths:
        if not Path(p).exists():
            if Path(p).is_symlink():
                raise UsageError(f"{quoted(p, 200)} is a link that leads nowhere (a loop, or a missing file)")
            raise UsageError(f"no such file or folder: {quoted(p, 200)}")
    for p in packs:  # context packs that fail to load are skipped below; a missing one is a typo
        if not Path(p).exists():
            raise UsageError(f"no such pack folder: {quoted(p, 200)} (given with --pack)")
    linter = _Linter(packs)
    if not paths:
        linter.lint_installed()
    else:
        for p in paths:
            path = Path(p)
            if path.is_dir():
                if (path / MANIFEST).is_file():
                    linter.add_pack(path)
                elif not unreadable_manifest(path) and (listing := yaml_files(path))[0]:
                    # A folder of a pack's files (`davinci lint content/`): each YAML file, as when named
                    # (one that is no davinci file says so: the folder was asked for).
                    files, more = listing
                    for f in files:
                        linter.add_file(f, linter.home_pack(f), None)
                    if more:
                        linter.problems.append(Problem(
                            SourceLocation(display_path(path)), NOT_A_PACK, f"{display_path(path)} holds more than "
                            "10,000 entries: only the YAML files among the first 10,000 names were linted; lint the "
                            "files by name", _name(NOT_A_PACK), "warning"))
                else:
                    why = unreadable_manifest(path) or (
                        f"{display_path(path)} is a folder without a {MANIFEST} and holds no YAML file (sub-folders "
                        "are not searched); lint a pack folder or YAML files")
                    linter.problems.append(Problem(SourceLocation(display_path(path)), NOT_A_PACK, why, _name(NOT_A_PACK)))
            else:
                linter.add_file(path, linter.home_pack(path), None)
    linter.run_rules()
    problems = sorted(set(linter.problems))
    stopped = sorted({p.location.path for p in problems if p.severity == "error"} & linter.project.stopped_early)
    here = not paths and Path(MANIFEST).is_file() and str(Path.cwd().resolve() / MANIFEST) not in linter.seen_files
    return LintResult(problems, len(linter.seen_files), stopped, installed=not paths, pack_here=here)


def lint_paths(paths: Sequence[str], strict: bool = False, packs: Sequence[str] = ()) -> list[Problem]:
    """Every problem in `paths` (every installed pack when empty), sorted by file, line, column, code."""
    del strict  # severity filtering happens at exit-code time; kept for a uniform signature
    return lint_all(paths, packs).problems


def run_lint(
    paths: Sequence[str],
    fmt: str = "text",
    strict: bool = False,
    packs: Sequence[str] = (),
    color: bool | None = None,
    out: TextIO | None = None,
) -> int:
    """Lint, print in format `fmt`, and return the exit code: 0 clean, 1 problems, 2 usage error."""
    from davinci.engine.lint.formats import FORMATS, render

    stream = out if out is not None else sys.stdout
    # A usage error goes to standard error: `--format sarif > results.sarif` must not hold it.
    errors = out if out is not None else sys.stderr
    if fmt not in FORMATS:
        errors.write(f"davinci lint: unknown format '{fmt}' (choose one of: {', '.join(FORMATS)})\n")
        return 2
    if any(not str(p) for p in [*paths, *packs]):  # `davinci lint ""` linted the working folder
        errors.write("davinci lint: a path is empty: name a file or folder (`.` for this one)\n")
        return 2
    try:
        result = lint_all(paths, packs)
    except UsageError as e:
        errors.write(f"davinci lint: {e.message}\n")
        return 2
    except DavinciError as e:  # pragma: no cover - defensive: every layer reports instead of raising
        errors.write(f"davinci lint: {e}\n")
        return 2
    render(result, fmt, stream, color)
    if result.errors:
        return 1
    if strict and result.warnings:  # (said apart from the report: a JSON or SARIF one stays whole)
        errors.write(f"davinci lint: --strict: {'the warnings fail' if result.warnings > 1 else 'the warning fails'} the check\n")
        return 1
    return 0
