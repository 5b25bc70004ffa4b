"""Content packs: folders of game, variant and deck YAML described by a `pack.yaml` manifest.

Packs come from three places, in this order: the built-in pack (the installed `davinci`
package itself), installed distributions that declare an entry point in the `davinci.packs`
group, and folders named on the command line (`--pack PATH`). A pack is untrusted data: its
manifest is only read, never imported or executed, and every file it lists must resolve
(symlinks included) to a place inside the pack folder.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from davinci.engine.errors import DavinciError, PackError, RefError, SourceLocation, did_you_mean
from davinci.engine.lint.registry import Rule, register
from davinci.engine.yamlload import Doc, check_inside, load_yaml_file

MANIFEST = "pack.yaml"
ENTRY_POINT_GROUP = "davinci.packs"
SECTIONS: tuple[str, ...] = ("games", "variants", "decks")

PATH_ESCAPE = "DV030"
NOT_A_PACK = "DV031"
DUPLICATE_PACK = "DV032"
MISSING_FILE = "DV022"  # documented with the other reference rules in lint/core_rules.py
WRONG_SECTION = "DV017"  # a file listed where files of its kind do not belong (lint/core_rules.py)

register(Rule(PATH_ESCAPE, "path-inside-pack", "error", (), None, """
Every file a pack lists must lie inside the pack's folder: no absolute paths, no `..` that
climbs out, no symbolic link pointing elsewhere.

Why: a pack is untrusted data downloaded from anywhere; letting it name files outside its own
folder would let it read (and show on screen) arbitrary files of the machine it is installed on.

Failing: `decks: [riddles.yaml]` where `riddles.yaml` is a symbolic link to a file outside the
pack, such as `/home/me/notes.yaml`. (A path written absolute, `/etc/passwd`, or climbing out,
`../../secrets.yaml`, is refused before that by the manifest's schema: DV015, bad-format.)

Passing:

```yaml
decks:
  - decks/riddles.yaml
```
""".strip(), "pack"))

register(Rule(NOT_A_PACK, "pack-manifest", "error", (), None, """
A pack folder must contain a readable `pack.yaml` manifest, and a pack registered through the
`davinci.packs` entry-point group must point at a folder holding one.

Why: the manifest is how davinci learns what a pack contains; without it nothing in the folder
is loaded, and that is almost always a packaging mistake.

Failing: `--pack my-pack/` where `my-pack/` holds `riddles.yaml` but no `pack.yaml`.

Passing:

```yaml
# my-pack/pack.yaml
kind: pack
id: my-pack
name: My riddles
version: "1.0"
decks: [riddles.yaml]
```
""".strip(), "pack"))

register(Rule(DUPLICATE_PACK, "unique-pack-id", "error", (), None, """
Two different installed packs may not share an id.

Why: saves and replays record which packs (by id and version) produced a game; two packs with
one id would make that record ambiguous.

Failing: `--pack a/ --pack b/` where both manifests say `id: riddles`.

Passing: give each pack its own id (`riddles`, `riddles-extra`).
""".strip(), "pack"))


@dataclass(frozen=True)
class Pack:
    """A loaded pack manifest; listed files are paths relative to `root`, in manifest order."""

    id: str
    name: str
    version: str
    root: Path
    manifest: Doc = field(repr=False, compare=False)
    games: tuple[Path, ...] = ()
    variants: tuple[Path, ...] = ()
    decks: tuple[Path, ...] = ()
    source: str = "path"

    def files(self) -> Iterator[tuple[str, int, Path]]:
        """(section, index in that manifest list, relative path) for every listed file."""
        for section in SECTIONS:
            for i, rel in enumerate(getattr(self, section)):
                yield section, i, rel

    def entry_loc(self, relpath: str | os.PathLike[str]) -> SourceLocation:
        """Where the manifest lists `relpath` (the manifest's start when it is not listed)."""
        wanted = Path(relpath)
        for section, i, rel in self.files():
            if rel == wanted or self.root / rel == wanted:
                return self.manifest.loc([section, i])
        return self.manifest.loc([])


def display_path(path: Path) -> str:
    """How a file is named in messages: relative to the working directory when inside it."""
    try:
        absolute = path.absolute()
        cwd = Path.cwd()
        if absolute == cwd or cwd in absolute.parents:
            return absolute.relative_to(cwd).as_posix()
        return str(absolute)
    except (OSError, ValueError):
        return str(path)


# --------------------------------------------------------------------------------------------
# Reading files once per command.
# --------------------------------------------------------------------------------------------

_CacheKey = tuple[str, int, int]
_CACHE: dict[_CacheKey, Doc | DavinciError] = {}


def clear_cache() -> None:
    """Forget every cached document (tests use this; one CLI command never needs to)."""
    _CACHE.clear()


def load_cached(path: Path, *, root: Path | None = None, display: str | None = None) -> Doc:
    """`load_yaml_file` through a cache keyed by (resolved path, mtime, size); errors are cached too."""
    shown = display if display is not None else display_path(path)
    if root is not None:
        check_inside(path, root, shown)
    try:
        real = path.resolve()
        st = real.stat()
    except OSError:
        return load_yaml_file(path, root=root, display=shown)  # raises the readable error
    key = (str(real), st.st_mtime_ns, st.st_size)
    hit = _CACHE.get(key)
    if hit is None:
        try:
            hit = load_yaml_file(real, display=shown)
        except DavinciError as e:
            hit = e
        _CACHE[key] = hit
    if isinstance(hit, DavinciError):
        raise hit
    return hit


def resolve_listed(pack: Pack, relpath: str | os.PathLike[str]) -> Path:
    """The real path of a file listed by `pack`; PackError (at the manifest entry) if it leaves the pack."""
    rel = Path(relpath)
    candidate = rel if rel.is_absolute() else pack.root / rel
    real: Path = check_inside(candidate, pack.root, str(rel), pack.entry_loc(rel))
    return real


def missing_listed(pack: Pack, relpath: str | os.PathLike[str], real: Path) -> str:
    """DV022's message for a listed file that is not there, naming a YAML file beside it whose
    name is close (`dropfor.yaml` for `dropfour.yaml`)."""
    if real.exists():  # there, but no regular file: say what it is (no other name is meant)
        what = "a folder" if real.is_dir() else "a named pipe" if real.is_fifo() else "a device or socket"
        return f"pack '{pack.id}' lists {Path(relpath).as_posix()}, which is {what}, not a regular file"
    listed = {(pack.root / rel).resolve() for _, _, rel in pack.files()}  # (a file listed already is not the one meant)
    try:
        near = [f.name for f in real.parent.iterdir()  # (never the manifest itself: it lists, it is not listed)
                if f.suffix in (".yaml", ".yml") and f.is_file() and f.resolve() not in listed
                and f.resolve() != (pack.root / MANIFEST).resolve()]
    except OSError:
        near = []
    return f"pack '{pack.id}' lists {Path(relpath).as_posix()}, which does not exist{did_you_mean(real.name, near)}"


def read_doc(pack: Pack, relpath: str | os.PathLike[str]) -> Doc:
    """Load a file of `pack` (cached), refusing paths outside the pack; RefError if it does not exist."""
    real = resolve_listed(pack, relpath)
    if not real.is_file():
        raise RefError(missing_listed(pack, relpath, real), pack.entry_loc(relpath), MISSING_FILE)
    return load_cached(real, root=pack.root, display=display_path(pack.root / relpath))


# --------------------------------------------------------------------------------------------
# Finding and loading packs.
# --------------------------------------------------------------------------------------------


def pack_folder(path: str | os.PathLike[str]) -> Path:
    """The folder of a pack named by its folder or by its pack.yaml."""
    folder = Path(path)
    return folder.parent if folder.name == MANIFEST and folder.is_file() else folder


def not_a_pack(folder: Path) -> str:
    """Why `folder` (which has no pack.yaml) cannot be read as a pack."""
    if folder.is_file():
        return f"{display_path(folder)} is a file, not a pack folder: name the folder that holds the pack's {MANIFEST}"
    if folder.exists() and not folder.is_dir():  # a pipe or a device (a pack.yaml that is a named pipe, say)
        return f"{display_path(folder)} is not a regular file or a folder: name the folder that holds the pack's {MANIFEST}"
    return unreadable_manifest(folder) or f"{display_path(folder)} is not a pack folder (no {MANIFEST})"


def unreadable_manifest(folder: Path) -> str | None:
    """Why the pack.yaml `folder` holds is not a file (a pipe, a folder, a broken link), if it is not."""
    manifest = folder / MANIFEST
    if manifest.is_file() or not (manifest.exists() or manifest.is_symlink()):
        return None
    what = "a broken link" if not manifest.exists() else "not a regular file"
    return f"{display_path(manifest)} is {what}: a pack's {MANIFEST} must be a file"


def read_manifest(folder: Path) -> Doc:
    """Load `folder/pack.yaml` (PackError if the folder has none)."""
    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise PackError(not_a_pack(folder), SourceLocation(display_path(folder)), NOT_A_PACK)
    return load_cached(manifest, root=folder, display=display_path(manifest))


def pack_from_manifest(doc: Doc, root: Path, source: str = "path") -> Pack:
    """Build a Pack from a loaded manifest: schema-checked, every listed path kept inside `root`."""
    from davinci.engine.schema import validate

    errors = validate(doc, "pack")
    if errors:
        raise errors[0]
    data: dict[str, Any] = doc.data
    root = root.resolve()
    lists: dict[str, tuple[Path, ...]] = {}
    # One file is one thing: the manifest is never a game or deck, and a file listed in two
    # sections would load as two kinds (lint read it once, as the first).
    # A file listed twice in one section would load twice: play refused it as a duplicate id.
    listed: dict[Path, tuple[str, int]] = {(root / MANIFEST).resolve(): ("", -1)}
    for section in SECTIONS:
        paths = []
        for i, raw in enumerate(data.get(section) or ()):
            rel = Path(raw)
            check_inside(root / rel, root, raw, doc.loc([section, i]))
            real = (root / rel).resolve()
            other = listed.setdefault(real, (section, i))
            if other != (section, i):
                if other[1] < 0:
                    why = f"{rel.as_posix()} is listed under `{section}` but is already the manifest"
                elif other[0] == section:
                    why = (f"{rel.as_posix()} is listed twice under `{section}` (first at "
                           f"{doc.loc([section, other[1]])}): list each file once")
                else:
                    why = f"{rel.as_posix()} is listed under both `{other[0]}` and `{section}`: a file is one kind of thing"
                raise PackError(why, doc.loc([section, i]), WRONG_SECTION)
            paths.append(rel)
        lists[section] = tuple(paths)
    return Pack(
        id=data["id"],
        name=data["name"],
        version=str(data["version"]),
        root=root,
        manifest=doc,
        games=lists["games"],
        variants=lists["variants"],
        decks=lists["decks"],
        source=source,
    )


def load_pack(path: str | os.PathLike[str], source: str = "path") -> Pack:
    """Load the pack in folder `path` (or whose manifest file is `path`)."""
    folder = pack_folder(path)
    if not folder.exists():
        raise PackError(f"no such pack folder: {folder}", SourceLocation(str(folder)), NOT_A_PACK)
    return pack_from_manifest(read_manifest(folder), folder, source)


def builtin_root() -> Path:
    """The folder of the installed `davinci` package (its root holds the built-in pack.yaml)."""
    files: Any = resources.files("davinci")
    root: Path = Path(os.fspath(files)) if isinstance(files, os.PathLike) else Path(str(files))
    return root


def builtin_pack() -> Pack:
    """The pack shipped inside davinci itself (games/ and content/)."""
    return load_pack(builtin_root(), source="builtin")


def _folder_of_module(name: str) -> Path:
    """Locate a module or package's folder without importing it (or any parent package)."""
    parts = name.split(".")
    spec = importlib.util.find_spec(parts[0])
    if spec is None:
        raise PackError(f"entry point names module '{name}', which is not installed", code=NOT_A_PACK)
    if spec.submodule_search_locations:
        locations = [Path(p) for p in spec.submodule_search_locations]
    elif spec.origin:
        locations = [Path(spec.origin).parent]
    else:
        raise PackError(f"cannot locate the folder of module '{name}'", code=NOT_A_PACK)
    for part in parts[1:]:
        locations = [loc / part for loc in locations if (loc / part).is_dir()]
        if not locations:
            raise PackError(f"entry point names '{name}', which is not a package folder", code=NOT_A_PACK)
    for loc in locations:
        if (loc / MANIFEST).is_file():
            return loc
    raise PackError(f"package '{name}' has no {MANIFEST}", code=NOT_A_PACK)


def entry_point_targets() -> list[tuple[str, str]]:
    """(entry point name, module name) for every `davinci.packs` entry point, sorted by name."""
    # Scanning installed distributions costs tens of milliseconds; the answer only changes when
    # the import path (or, in tests, the entry_points function itself) changes.
    key = (id(importlib.metadata.entry_points), tuple(sys.path))
    cached = _EP_CACHE.get(key)
    if cached is None:
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        cached = sorted((ep.name, ep.value.split(":")[0].strip()) for ep in found)
        _EP_CACHE.clear()
        _EP_CACHE[key] = cached
    return list(cached)


_EP_CACHE: dict[tuple[int, tuple[str, ...]], list[tuple[str, str]]] = {}


def entry_point_folder(name: str, module: str) -> Path:
    """The pack folder an entry point names (PackError if it cannot be located)."""
    try:
        return _folder_of_module(module)
    except (ImportError, ValueError) as e:
        raise PackError(f"entry point '{name}' ({module}) cannot be located: {e}",
                        SourceLocation(f"<entry point {name}>"), NOT_A_PACK) from None
    except PackError as e:
        raise PackError(f"entry point '{name}': {e.message}", SourceLocation(f"<entry point {name}>"),
                        NOT_A_PACK) from None


def entry_point_pack(name: str, module: str) -> Pack:
    """Load the pack registered by entry point `name` (value `module`)."""
    return load_pack(entry_point_folder(name, module), source=f"entry-point:{name}")


def entry_point_packs() -> list[Pack]:
    """Packs registered by installed distributions (read as data; nothing is imported)."""
    return [entry_point_pack(name, module) for name, module in entry_point_targets()]


def all_packs(extra: Sequence[str | os.PathLike[str]] = (), replacing: bool = False) -> list[Pack]:
    """Built-in pack first, then entry-point packs, then `extra` folders; each folder once.

    With `replacing` (lint), an `extra` folder takes the place of the installed pack with its id:
    a checkout of davinci linted while a `pip install .` copy of it is installed."""
    given = [load_pack(p) for p in extra]
    roots = {p.id: p.root for p in given} if replacing else {}
    packs = [p for p in (builtin_pack(), *entry_point_packs()) if not replaced(p, roots)]
    return dedupe_packs([*packs, *given])


def replaced(installed: Pack, linted: Mapping[str, Path]) -> bool:
    """Whether a pack being linted (`linted`: pack id -> its folder) stands for the installed
    pack `installed`: the same id in another folder, as a checkout of davinci is to the copy a
    `pip install .` put in site-packages. Lint reads the checkout, not the copy."""
    return linted.get(installed.id, installed.root) != installed.root


def duplicate_pack(pack_id: str, first: Path, second: Path, where: SourceLocation) -> PackError:
    """DV032: two folders give the same pack id (at `where`, the second one's `id`)."""
    return PackError(f"pack id '{pack_id}' is used by both {display_path(first)} and {display_path(second)}",
                     where, DUPLICATE_PACK)


def dedupe_packs(packs: Sequence[Pack]) -> list[Pack]:
    """Drop repeats of the same folder; PackError when two different folders share a pack id."""
    by_root: dict[Path, Pack] = {}
    by_id: dict[str, Pack] = {}
    result = []
    for pack in packs:
        if pack.root in by_root:
            continue
        other = by_id.get(pack.id)
        if other is not None:
            raise duplicate_pack(pack.id, other.root, pack.root, pack.manifest.loc(["id"]))
        by_root[pack.root] = pack
        by_id[pack.id] = pack
        result.append(pack)
    return result


__all__ = [
    "Pack",
    "all_packs",
    "builtin_pack",
    "builtin_root",
    "clear_cache",
    "dedupe_packs",
    "duplicate_pack",
    "display_path",
    "entry_point_packs",
    "load_cached",
    "load_pack",
    "pack_from_manifest",
    "read_doc",
    "read_manifest",
    "replaced",
    "resolve_listed",
]
