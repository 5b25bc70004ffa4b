"""Reading and writing the files users name (saves, logs, contexts) without trusting what is there.

A path given on the command line may name a named pipe (reading it would wait forever), a
device (`/dev/zero` never ends; replacing `/dev/null` breaks the machine), a symbolic link loop
or a folder. Only regular files are read, and only regular files (or nothing) are replaced.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any


class FileProblem(Exception):
    """Why a file cannot be read or written, in words (`not a regular file`, `No such file...`).

    `content` is true when the file was read and what it holds is the problem (not UTF-8 text,
    too large), false when it could not be read at all.
    """

    def __init__(self, reason: str, content: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.content = content


def read_regular_text(path: str, limit: int) -> str:
    """The UTF-8 text of the regular file at `path`, at most `limit` characters; FileProblem otherwise.

    The file is opened without blocking and checked on the open descriptor, so a named pipe
    put in place between a check and the open cannot make the read wait.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise FileProblem(e.strerror or str(e)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileProblem("not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, encoding="utf-8") as f:
            fd = -1  # the file object owns it now
            text = f.read(limit + 1)
    except OSError as e:
        raise FileProblem(e.strerror or str(e)) from None
    except UnicodeDecodeError:
        raise FileProblem("not UTF-8 text", content=True) from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(text) > limit:
        raise FileProblem(f"larger than {limit:,} characters", content=True)
    return text


def check_replaceable(path: str) -> bool:
    """True when a regular file is at `path`, False when nothing is; FileProblem for anything else.

    Replacing a device, a pipe or a folder with a regular file would break whatever used it.
    A symbolic link is followed (a link to a save is the save); a loop of links is a problem.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:  # nothing there (or a dangling link, which the write replaces)
        return False
    except OSError as e:
        raise FileProblem(e.strerror or str(e)) from None
    except ValueError:  # a NUL byte in the name (`save a\0b` typed at the prompt)
        raise FileProblem("a file name cannot hold a NUL byte") from None
    if not stat.S_ISREG(mode):
        raise FileProblem("not a regular file")
    return True


class DuplicateKey(ValueError):
    """A JSON object names one key twice (`args[0]` is the key)."""


def unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads`'s object_pairs_hook: an object's members, refusing a key written twice (json
    keeps the last one, silently: in a save, `"seed": 999, "seed": 3` read as 3)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


_DAVINCI_KIND = re.compile(r"^\ufeff?['\"]?kind['\"]?\s*:\s*['\"]?(game|variant|deck-overlay|deck|pack)\b", re.MULTILINE)


def davinci_files(folder: Path, limit: int = 1000, ident: str | None = None) -> list[tuple[Path, str]]:
    """The YAML files directly in `folder` that say a davinci kind near their top, with that kind
    (`game`, `deck`...), sorted by name; with `ident`, only those that also say `id: IDENT`. At
    most `limit` entries of the folder are looked at, and the first 64 KB of each file: a folder
    of thousands, or a file of gigabytes, costs no more. Nothing is parsed."""
    id_re = re.compile(rf"^id:\s*['\"]?{re.escape(ident)}['\"]?\s*(#.*)?$", re.M) if ident is not None else None
    found = []
    for f in yaml_files(folder, limit)[0]:  # (a link loop is no file: it is not listed)
        try:
            with f.open("r", encoding="utf-8", errors="replace") as fh:
                head = fh.read(65536)
        except OSError:
            continue
        kind = _DAVINCI_KIND.search(head)
        if kind and (id_re is None or id_re.search(head)):
            found.append((f, kind.group(1)))
    return found


def yaml_files(folder: Path, limit: int = 10_000) -> tuple[list[Path], bool]:
    """The regular `.yaml`/`.yml` files directly in `folder`, sorted by name, and whether the folder
    held more than `limit` entries (then only the first `limit` names, sorted, were looked at)."""
    names: list[str] = []
    more = False
    try:
        with os.scandir(folder) as it:
            for entry in it:
                if len(names) >= limit:
                    more = True
                    break
                names.append(entry.name)
    except OSError:
        return [], False
    files = [folder / n for n in sorted(names)
             if n.endswith((".yaml", ".yml")) and not n.startswith(".") and (folder / n).is_file()]
    return files, more
