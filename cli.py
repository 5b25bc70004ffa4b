"""The `davinci` command line: play, lint, list, simulate, replay, schema, expr, rule, clue.

Heavy modules are imported inside each command so that `davinci --help` starts fast.
Every user mistake ends with a one-line message and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

class _Digits(click.IntRange):
    """A whole number written in digits 0-9 within a range (Python's int() also reads ' 5 ', '1_0'
    and other scripts' digits, which --setting refuses). A value too long to be one is refused
    without echoing all of it. `what` names it in messages ("a seed")."""

    def __init__(self, lo: int, hi: int | None, what: str) -> None:
        super().__init__(lo, hi)
        self.what = what

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        span = f"from {self.min} to {self.max}" if self.max is not None else f"of at least {self.min}"
        if isinstance(value, str) and len(value) > 40:
            self.fail(f"'{value[:20]}...' ({len(value):,} characters) is not {self.what} {span}", param, ctx)
        if isinstance(value, str) and not (value.isascii() and value.isdigit()):
            from davinci.engine.errors import quoted

            self.fail(f"'{quoted(value)}' is not {self.what}: write a whole number {span} in digits 0-9", param, ctx)
        number = int(value) if isinstance(value, str) else value
        if isinstance(number, int) and not (self.min <= number and (self.max is None or number <= self.max)):
            self.fail(f"{number} is not {self.what} {span}", param, ctx)
        return super().convert(value, param, ctx)


# (engine.rng.MAX_SEED, not imported here, to keep start-up light)
SEED = _Digits(0, 2**64 - 1, "a seed")


def _fail(message: str, code: int = 1, notes: Sequence[str] = ()) -> None:
    from davinci.engine.errors import message_text, no_ci_command, printable

    # A message may quote a file or the command line: their control characters and line feeds are
    # shown as escapes (a save's field printed a fake "verified" line). Notes are davinci's own
    # lines under it, each on its own line.
    lines = [f"davinci: {message_text(message)}", *(no_ci_command(printable(n, one_line=True)) for n in notes)]
    click.echo("\n".join(lines), err=True)
    sys.exit(code)


PIPE_CLOSED = 141  # what a shell reports for a command whose output pipe closed (128 + SIGPIPE)


def quiet_stdout() -> None:
    """Point standard output at /dev/null, so the final flush at exit cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def guarded(fn: F) -> F:
    """Turn DavinciErrors into clean messages (exit 1; usage errors exit 2)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from davinci.engine.errors import DavinciError, UsageError

        tolerant_output()
        try:
            out = fn(*args, **kwargs)
            sys.stdout.flush()  # a closed pipe shows here, inside the handlers, not at exit
            return out
        except UsageError as e:
            _fail(e.message, 2)
        except DavinciError as e:
            from davinci.engine.errors import debug_trace

            sys.stderr.write(debug_trace(e))  # with DAVINCI_DEBUG: what caused it (a bot's traceback)
            _fail(e.headline(), 1, e.notes)
        except RecursionError:
            _fail("input is nested too deeply", 1)
        except MemoryError:
            _fail("out of memory while processing the input", 1)
        except KeyboardInterrupt:  # Ctrl-C outside a game (a game handles it and offers to save)
            click.echo("", err=True)
            _fail("interrupted", 130)
        except BrokenPipeError:  # the reader went away (`davinci lint | head`): stop quietly
            quiet_stdout()
            sys.exit(PIPE_CLOSED)
        except OSError as e:  # files are checked where they are opened: the output (a full disk), or the system
            quiet_stdout()
            _fail(os_error_text(e), 1)
        except (SystemExit, click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as e:  # a bug of ours: say so briefly; DAVINCI_DEBUG=1 shows the traceback
            import os

            if os.environ.get("DAVINCI_DEBUG"):
                raise
            _fail(f"internal error: {type(e).__name__}: {e} (set DAVINCI_DEBUG=1 for details; please report it)", 3)

    return wrapper  # type: ignore[return-value]


def os_error_text(e: OSError) -> str:
    """What failed, for an OSError no command caught where it opened a file: writing the output
    (a full disk), a file the system names, the working folder (deleted), or a system limit."""
    import errno
    import os

    try:
        os.getcwd()
    except OSError:
        return "the working folder no longer exists (deleted or moved?): change to another folder and run it again"
    reason = e.strerror or str(e)
    if getattr(e, "filename", None):
        return f"{reason}: {e.filename}"
    if e.errno in (errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EDQUOT, errno.EPIPE):
        return f"cannot write the output: {reason}"
    if e.errno in (errno.EMFILE, errno.ENFILE, errno.EAGAIN, errno.ENOMEM):
        return f"the system refused: {reason} (a limit on files, processes or memory: raise it, or use --jobs 1)"
    if e.errno == errno.EBADF:
        return f"{reason}: is the input or output closed, or opened the wrong way (0>file)?"
    return f"a system call failed: {reason}"


def tolerant_output() -> None:
    """On a terminal whose encoding is not UTF-8 (PYTHONIOENCODING=ascii, a Latin-1 locale), print
    what it cannot show as '?' rather than fail: the screens draw tiles with block and dash
    characters, and names may hold any letter."""
    for stream in (sys.stdout, sys.stderr, sys.stdin):  # stdin: a typed letter it cannot read is '?'
        encoding = str(getattr(stream, "encoding", "") or "").lower().replace("-", "").replace("_", "")
        if encoding and not encoding.startswith("utf") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):  # a stream already closed, or one that cannot change
                pass


def terminal_console() -> Any:
    """The console the commands print with. rich's automatic highlighting (numbers, paths, URLs in
    colour) is off: davinci styles what it means to style, and the highlighter's regular expressions
    are quadratic on a long run of characters (a 100,000-character setting doc or prompt took
    minutes)."""
    from rich.console import Console

    console = Console(highlight=False)
    if console.width < 20:  # no terminal is that narrow (COLUMNS=0 made rich print nothing at all)
        console.width = 80

    def pipe_closed() -> None:  # rich's own handler exits 1, which reads as a failure
        quiet_stdout()
        sys.exit(PIPE_CLOSED)

    console.on_broken_pipe = pipe_closed  # type: ignore[method-assign]
    return console


def reader(console: Any, echo: bool = False) -> Callable[[str], str]:
    """An input function for prompts: EOFError, like Ctrl-D, when there is no standard input at all.
    With `echo`, a line read from a pipe or file (no terminal to show it) is printed after its
    prompt, so that what follows starts on a line of its own."""

    def ask(prompt: str) -> str:
        if sys.stdin is None:  # started with standard input closed (`davinci play <&-`)
            raise EOFError
        try:
            if sys.stdin.isatty():
                answer: str = console.input(prompt)
            else:
                answer = _bounded_line(console, prompt)
        except OSError as e:
            import errno

            if e.errno in (errno.EBADF, errno.EINVAL):  # an input that cannot be read (`0>file`): its end
                raise EOFError from None
            raise
        if echo and not sys.stdin.isatty():
            from rich.text import Text

            from davinci.engine.errors import printable

            console.print(Text(printable(answer)))  # (a terminal escape in piped input is shown, not obeyed)
        return answer

    return ask


# The longest line read from a pipe or file: no answer or action is longer, and /dev/zero as the
# input would otherwise fill the memory before the line is checked.
MAX_INPUT_LINE = 65536


def _bounded_line(console: Any, prompt: str) -> str:
    """One line of piped input after `prompt`, without its newline; EOFError at the end of the
    input, and at a line longer than MAX_INPUT_LINE (said so: it cannot be a move or an answer)."""
    console.print(prompt, end="", markup=False, highlight=False)
    line = sys.stdin.readline(MAX_INPUT_LINE + 1)
    if not line:
        raise EOFError
    if len(line) > MAX_INPUT_LINE and not line.endswith("\n"):
        console.print(f"\n[red]an input line longer than {MAX_INPUT_LINE:,} characters: no move or answer is that "
                      "long, so the input ends here[/red]")
        from davinci.engine.errors import InputCut

        raise InputCut
    return line[:-1] if line.endswith("\n") else line


def parse_settings(items: Sequence[str]) -> dict[str, str]:
    from davinci.engine.errors import quoted  # (what was typed may hold control characters)

    out: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise click.BadParameter(f"'{quoted(item)}' is not KEY=VALUE", param_hint="--setting")
        if key.strip() in out:  # the last one silently winning hides a typo
            raise click.BadParameter(f"'{quoted(key.strip())}' is set more than once; give each setting once",
                                     param_hint="--setting")
        if len(value) > MAX_SETTING_CHARS:
            raise click.BadParameter(f"the value of '{quoted(key.strip())}' is too long (at most {MAX_SETTING_CHARS:,} "
                                     "characters)", param_hint="--setting")
        out[key.strip()] = value.strip()
    return out


MAX_SETTING_CHARS = 4000  # under Python's 4,300-digit limit for reading a whole number


MAX_PACK_OPTIONS = 64  # as many as a save or log may record (engine.play.MAX_PACKS)


def _packs(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    if len(value) > MAX_PACK_OPTIONS:
        raise click.BadParameter(f"at most {MAX_PACK_OPTIONS} content packs, got {len(value)}")
    if any(not v.strip() for v in value):  # `--pack ""` read as the working folder, or as no pack
        raise click.BadParameter("needs a folder name (the content pack's folder, holding its pack.yaml)")
    import os

    from davinci.engine.errors import quoted

    missing = next((v for v in value if not os.path.lexists(v)), None)
    if missing is not None:  # a typo on the command line, for every command alike (lint said so, exit 2)
        raise click.BadParameter(f"no such pack folder: {quoted(missing, 200)}")
    from pathlib import Path

    from davinci.engine.packs import MANIFEST, not_a_pack, pack_folder

    for v in value:  # a file, or a folder without pack.yaml: named wrongly on the command line too
        manifest = pack_folder(v) / MANIFEST
        if not (manifest.exists() or manifest.is_symlink()):  # (an odd pack.yaml is said where it is read)
            raise click.BadParameter(quoted(not_a_pack(Path(v)), 300))
    return value


pack_option = click.option(
    "--pack", "packs", multiple=True, type=click.Path(), callback=_packs,
    help="Also load the content pack in this folder (repeatable).",
)
setting_option = click.option("--setting", "-s", "settings", multiple=True, help="Override a game setting, KEY=VALUE.")


class OnceCommand(click.Command):
    """A command whose single-valued options may be given once: click keeps the last of
    `-p random,random -p deducer,naive` without a word, which hides a mistake."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        by_name = {name: p for p in self.params if isinstance(p, click.Option) for name in (*p.opts, *p.secondary_opts)}
        seen: set[str] = set()
        i = 0
        while i < len(args) and args[i] != "--":
            token = args[i]
            i += 1
            name = token.split("=", 1)[0] if token.startswith("--") else token[:2] if token.startswith("-") else ""
            opt = by_name.get(name)
            if opt is None:
                continue
            takes_value = not opt.is_flag and not opt.count
            if takes_value and token == name:
                i += 1  # its value is the next word
            if opt.multiple or opt.count or not takes_value:
                continue
            if opt.name in seen:
                raise click.UsageError(f"option '{max(opt.opts, key=len)}' is given more than once: give it once", ctx)
            seen.add(str(opt.name))
        return super().parse_args(ctx, args)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="davinci", prog_name="davinci")
def main() -> None:
    """davinci: tabletop games defined as data. Play, lint, simulate."""


main.command_class = OnceCommand


def _uses_pack(g: Any, game: str, variant: str | None, sets: dict[str, Any], packs: tuple[str, ...],
               folder: str) -> bool:
    """Whether game `g` (loaded with `packs`) needs the pack `folder`: without it the game cannot
    be loaded, or is other content (another content hash: its variant, or a deck it deals from)."""
    from davinci.engine.errors import DavinciError
    from davinci.engine.game import load_game

    try:
        without = load_game(game, variant, sets, [p for p in packs if p != folder])
    except DavinciError:
        return True
    return bool(without.definition.content_hash != g.definition.content_hash)


@main.command()
@click.argument("game", required=False)
@click.option("--variant", "-v", help="Variant id (see `davinci list`).")
@click.option("--players", "-p", help="Seats, comma-separated: human[:Name] or a bot name.")
@click.option("--seed", type=SEED, default=None, help="Random seed (default: a random one, printed).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write the game log (for replay) here.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Autosave here before each human move (every 25 turns when bots alone play).")
@click.option("--resume", type=click.Path(dir_okay=False), help="Resume a saved game (from its save, or from its log).")
@click.option("--no-timer", is_flag=True, help="Untimed challenges: the game's timer settings are 0.")
@click.option("--hints", is_flag=True, help="Show deduction hints where the game offers them.")
@click.option("--no-clear", is_flag=True, help="Never clear the screen (for logs and screen readers).")
@setting_option
@pack_option
@guarded
def play(
    game: str | None,
    variant: str | None,
    players: str | None,
    seed: int | None,
    log_path: str | None,
    save_path: str | None,
    resume: str | None,
    no_timer: bool,
    hints: bool,
    no_clear: bool,
    settings: tuple[str, ...],
    packs: tuple[str, ...],
) -> None:
    """Play a game in the terminal (hot-seat, or against bots)."""
    import secrets

    from rich.markup import escape

    from davinci.engine.definition import seat_span
    from davinci.engine.errors import UsageError
    from davinci.engine.game import catalogue, load_game
    from davinci.engine.play import (
        check_write_target,
        game_identity,
        load_recorded_game,
        pack_record,
        parse_seats,
        read_save,
        recorded_pack_paths,
        run_play,
    )

    console = terminal_console()
    ask = reader(console)

    for option, path in (("--save", save_path), ("--log", log_path), ("--resume", resume)):
        if path is not None and not path.strip():  # `--save ''` played on and wrote nothing
            raise UsageError(f"{option} needs a file name")
    saved = read_save(resume, packs) if resume else None
    record = pack_record(packs)
    skipped: list[str] = []  # a recorded pack found nowhere, which the game seemed not to need
    if saved is not None:
        # A resumed game goes on as it was saved: an option that would change it is a mistake to
        # point out, not to ignore (or to blame on the file).
        for option, given in (("--seed", seed is not None), ("--players", players is not None),
                              ("--setting", bool(settings))):
            if given:
                raise UsageError(f"{option} cannot be used with --resume: a resumed game keeps the seats, seed "
                                 "and settings of its save")
        if game is not None and game != saved["saved"]["game"]:  # a usage mistake, as a wrong --variant is
            raise UsageError(f"{resume}: this save is for game '{saved['saved']['game']}', not '{game}' (name no "
                             "game to resume it: the save knows its game)")
        was = saved["saved"]["variant"]
        if variant is not None and variant != was:
            raise UsageError(f"--variant {variant}: {resume} is a save of "
                             + (f"the variant '{was}'" if was else "the base game, without a variant"))
        # The save knows its game, variant and packs; naming them again is optional.
        game = game or saved["saved"]["game"]
        variant = variant or saved["saved"]["variant"]
        if not packs and saved["packs"]:
            record = saved["packs"]
            packs = recorded_pack_paths(record, str(resume), "save", game, variant, skipped)
    if game is None:
        games = catalogue(packs)
        console.print("[bold]davinci[/bold] - choose a game:")
        for i, g in enumerate(games, 1):
            lo, hi = g["players"]["min"], g["players"]["max"]
            console.print(f"  {i}. {escape(g['name'])} ({g['id']}, {seat_span(lo, hi)} player{'' if lo == hi == 1 else 's'})")
        while True:
            try:
                choice = ask("game number> ").strip()
            except EOFError:
                console.print("\n[yellow]Input closed: no game chosen.[/yellow]")
                sys.exit(0)
            if choice.isdigit() and 1 <= int(choice) <= len(games):
                game = games[int(choice) - 1]["id"]
                break
            if choice in {g["id"] for g in games}:
                game = choice
                break
            if choice.lower() in ("quit", "exit", "q"):
                sys.exit(0)
            console.print(f"Type a number from 1 to {len(games)} (or quit).")
    sets = parse_settings(settings)
    if saved is not None:
        sets = dict(saved.get("settings_override") or sets)
    if saved is None:
        g = load_game(game, variant, sets, packs)
    else:
        g = load_recorded_game(game, variant, sets, packs, str(resume), "saved game")
    # Untimed: the game's timer settings are 0, so that the save and the log record it and a
    # replay judges every answer as the game did. A time limit set beside --no-timer, or kept
    # by a timed game's save, contradicts it.
    timed = [n for n, sd in g.definition.settings_defs.items() if sd.timer and g.settings[n] != 0]
    if no_timer and timed and saved is not None and saved.get("timer", True):
        raise UsageError(f"--no-timer cannot be used with --resume of a timed game ({timed[0]}="
                         f"{g.settings[timed[0]]}): a resumed game keeps the settings of its save")
    if no_timer and timed and saved is None:
        given = [n for n in timed if n in sets]
        if given:
            raise UsageError(f"--no-timer plays untimed, and --setting {given[0]}={sets[given[0]]} sets a time limit: "
                             "give one of them")
        sets = {**sets, **{n: "0" for n in timed}}
        g = load_game(game, variant, sets, packs)
    if packs and record == pack_record(packs):
        # Only the packs the game is made of are written into its save and log: a --pack given
        # once that the game does not use would be needed by every resume and replay after.
        record = [r for r, folder in zip(record, packs) if _uses_pack(g, game, variant, sets, packs, folder)]
    if players is not None and not players.strip():
        raise UsageError("--players needs at least one seat, e.g. --players human,random (leave it out for one "
                         "human against bots)")
    seats = parse_seats(players, g)
    if players is None and saved is None and len(seats) == 1:
        console.print(f"[dim]A game for one: you play {escape(seats[0].name)} (--players human:NAME names "
                      "you).[/dim]")
    elif players is None and saved is None:
        others = ", ".join(f"{s.name} ({s.kind})" for s in seats[1:])
        names = ["Ana", "Ben", "Cy", "Di", "Ed", "Flo"][:max(2, g.definition.min_players)]
        console.print(f"[dim]You play {escape(seats[0].name)} against {escape(others)}; choose the seats with "
                      f"--players (hot-seat: --players {','.join('human:' + n for n in names)}).[/dim]")
    recorded = saved.get("seats") if saved is not None else None  # checked later; only read here
    kinds = ([str(s.get("kind")) for s in recorded if isinstance(s, dict)] if isinstance(recorded, list)
             else [s.kind for s in seats])
    notes: list[str] = []  # printed once a resumed save has been read and replayed (a bad one is refused first)
    if kinds.count("human") >= 2 and (no_clear or console.is_dumb_terminal):
        why = "--no-clear keeps" if no_clear else "This terminal cannot clear the screen (TERM=dumb): it keeps"
        notes.append(f"[yellow]{why} each player's screen in the scrollback: the next player can scroll "
                     "up to the last player's hidden pieces.[/yellow]")
    # This game, as its save or log names it: a file holding another unfinished game is kept.
    mine = game_identity(saved, "save") if saved is not None else None
    for path, what in ((save_path, "save"), (log_path, "log")):
        if path:  # refused before anything is printed (run_play checks again, as other callers need)
            check_write_target(path, what, mine)
    if seed is None:
        if saved is None:
            # Unguessable (a clock reading could be searched by a bot that rebuilds the deal);
            # twelve digits, to be copied into --seed to play the deal again.
            seed = secrets.randbelow(10**12)
            from davinci.engine.state import State

            State.check_requires(g.definition, [s.name for s in seats])  # (a refusal comes before the seed)
            console.print(f"[dim]seed {seed}[/dim]")
        else:
            seed = 0  # a resumed game keeps the seed of its save
    finished = saved is not None and bool((saved["saved"].get("state") or {}).get("terminal"))
    if saved is not None and not log_path and not finished and not saved.get("from_log"):  # (a finished game has no session to log)
        notes.append("[dim]No --log: this session is not logged (--log FILE writes the whole game's log, from "
                     "its first move).[/dim]")
    from davinci.engine.errors import SaveError
    from davinci.engine.play import missing_pack_blamed

    try:
        code = run_play(
            g,
            seats,
            seed,
            sets,
            console,
            ask,
            save_path=save_path,
            log_path=log_path,
            resume=resume,
            save_doc=saved,
            timer=not no_timer,
            hints=hints,
            clear=not no_clear,
            packs=record,
            notes=notes,
        )
    except SaveError as e:
        raise missing_pack_blamed(e, skipped) from None
    sys.exit(code)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", default="text", type=click.Choice(["text", "json", "github", "sarif"]), help="Output format.")
@click.option("--strict", is_flag=True, help="Warnings also fail (exit 1).")
@click.option("--color/--no-color", default=None, help="Force colours on or off (default: on a terminal).")
@pack_option
@guarded
def lint(paths: tuple[str, ...], fmt: str, strict: bool, color: bool | None, packs: tuple[str, ...]) -> None:
    """Check games, variants, decks and packs; report every problem with file:line:col."""
    from davinci.engine.lint.runner import run_lint

    sys.exit(run_lint(list(paths), fmt, strict, packs, color))


@main.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pack_option
@guarded
def list_(as_json: bool, packs: tuple[str, ...]) -> None:
    """List the installed games (players, variants, bots, settings), card decks and bots."""
    from davinci.engine.bots import bot_names
    from davinci.engine.decks import deck_packs, load_decks
    from davinci.engine.definition import seat_span
    from davinci.engine.errors import DavinciError
    from davinci.engine.game import catalogue
    from davinci.engine.packs import all_packs

    unread: DavinciError | None = None
    try:
        games = catalogue(packs)
        decks = load_decks(all_packs(packs))
        sources = deck_packs(all_packs(packs))
    except DavinciError as e:  # a pack file that cannot be read at all: the installed content is still listed
        unread, games, decks = e, catalogue(()), load_decks(all_packs(()))
        sources = deck_packs(all_packs(()))
    bots = bot_names()  # built-in and every `davinci.bots` entry point installed
    deck_rows = [{"id": d.id, "name": d.name, "category": d.category, "cards": len(d.cards),
                  "packs": sources.get(d.id, [])} for d in decks.values()]
    invalid = [g for g in games if "invalid" in g]
    valid = [g for g in games if "invalid" not in g]
    if as_json:
        payload: dict[str, Any] = {"games": games, "decks": deck_rows, "bots": bots}
        if unread is not None:  # only the installed content is listed: said in the JSON too
            payload["unreadable"] = str(unread).split("\n")[0]
        click.echo(json.dumps(payload, indent=2))
        _invalid_games(invalid, valid, unread)
        return
    from rich.markup import escape
    from rich.table import Table

    console = terminal_console()
    t = Table(title="Games")
    for col in ("id", "name", "players", "variants", "bots"):
        t.add_column(col, no_wrap=col == "id")  # an id is copied onto the command line: never cut
    for g in valid:
        t.add_row(g["id"], escape(g["name"]), seat_span(g["players"]["min"], g["players"]["max"]),
                  ", ".join(v["id"] + (" [red](not valid)[/red]" if "invalid" in v else "") for v in g["variant_details"])
                  or "-", ", ".join(g["bots"]))
    for g in invalid:
        t.add_row(g["id"], "[red](not valid: davinci lint says why)[/red]", "-", "-", "-")
    console.print(t)
    d = Table(title="Clue decks")
    for col in ("id", "category", "cards", "packs"):
        d.add_column(col, no_wrap=col == "id")
    for deck in deck_rows:
        d.add_row(deck["id"], deck["category"], str(deck["cards"]), escape(", ".join(deck["packs"])))
    console.print(d)
    console.print(escape(f"Bots installed: {', '.join(bots)} (the bots column lists those each game names)"))
    for g in valid:
        if g["variant_details"]:
            console.print(f"\n[bold]{g['id']}[/bold] variants:")
            for v in g["variant_details"]:
                if "invalid" in v:
                    console.print(f"  {v['id']} [red](not valid: davinci lint says why)[/red]")
                    continue
                about = " ".join(v["description"].split())
                console.print(escape(f"  {v['id']} ({v['name']})" + (f": {about}" if about else "")))
                changed = [f"{name} ({'new, ' if name not in g['settings'] else ''}"
                           + ", ".join(f"{k} {json.dumps(x, ensure_ascii=False)}" for k, x in spec.items()) + ")"
                           for name, spec in v.get("settings", {}).items() if isinstance(spec, dict)]
                if changed:
                    console.print(escape(f"    settings: {'; '.join(changed)}"))
        if not g["settings"]:
            continue  # (a heading with nothing under it)
        console.print(f"\n[bold]{g['id']}[/bold] settings:")
        for name, s in g["settings"].items():
            default = json.dumps(s["default"], ensure_ascii=False)  # as YAML writes it: true, [3, 1], "text"
            bounds = "".join(f", {k} {json.dumps(s[k], ensure_ascii=False)}" for k in ("min", "max") if k in s)
            one_of = f", one of {', '.join(map(str, s['choices']))}" if s.get("choices") else ""
            console.print(escape(f"  {name} ({s['type']}, default {default}{bounds}{one_of}): {s['doc']}".rstrip()))
    _invalid_games(invalid, valid, unread)


def _invalid_games(invalid: list[dict[str, Any]], valid: list[dict[str, Any]], unread: Any) -> None:
    """After the list: a pack that could not be read, or the games and variants whose files their
    schema refuses (the first problem of each), make `davinci list` exit 1 saying so."""
    from davinci.engine.errors import DavinciError

    if unread is not None:
        where = f"{unread.location}: " if unread.location is not None else ""
        raise DavinciError(f"only the installed content is listed, a pack file cannot be read ({where}"
                           f"{unread.message.splitlines()[0]})", code=unread.code)
    bad = [(g["id"], g["invalid"]) for g in invalid]
    bad += [(f"{g['id']}/{v['id']}", v["invalid"]) for g in valid for v in g["variant_details"] if "invalid" in v]
    if bad:
        first = re.search(r": (DV\d+) ", bad[0][1])
        what = "; ".join(f"{name}: {problem}" for name, problem in bad)
        raise DavinciError(f"{len(bad)} of the games and variants listed {'are' if len(bad) > 1 else 'is'} not valid "
                           f"({what}): `davinci lint` lists every problem", code=first.group(1) if first else "DV010")


@main.command()
@click.argument("game")
@click.option("--variant", "-v", help="Variant id.")
@click.option("--games", "-n", "n_games", type=_Digits(1, None, "a number of games"), default=100, show_default=True, help="Number of games.")
@click.option("--players", "-p", help="Comma-separated bot names, one per seat (default: the game's strongest bot in "
              "each seat, as many as the game takes, 2 where it may).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed.")
@click.option("--jobs", "-j", type=_Digits(1, 64, "a number of processes"), default=1, show_default=True, help="Worker processes (at most one per CPU is started; results are the same for any number).")
@click.option("--rotate", is_flag=True, help="Rotate the bots through the seats game by game (game i shifts the seat order by i: "
              "every bot plays every seat equally often when the number of games is a multiple of the "
              "number of seats).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@setting_option
@pack_option
@guarded
def simulate(
    game: str,
    variant: str | None,
    n_games: int,
    players: str,
    seed: int,
    jobs: int,
    rotate: bool,
    as_json: bool,
    settings: tuple[str, ...],
    packs: tuple[str, ...],
) -> None:
    """Play many seeded bot games; report win rates, seat advantage, scores, length and speed."""
    from davinci.engine.game import load_game
    from davinci.engine.simulate import SimConfig, parse_players, report_text, run

    sets = parse_settings(settings)
    loaded = load_game(game, variant, sets, packs)  # validate settings before starting processes
    if players is None:  # (a solitaire: one seat; other games: their smallest table, two at least)
        d = loaded.definition
        # The game's strongest bot, as `play` seats against a human (random teams of The Da Vinci
        # Game never answer a challenge: every game stopped at the turn limit).
        strong = [b for b in d.bots if not b.startswith("random")]
        players = ",".join([strong[-1] if strong else "random"] * min(max(d.min_players, 2), d.max_players))
    cfg = SimConfig(game, variant, parse_players(players), n_games, seed, sets, tuple(packs), rotate)
    if as_json or not sys.stderr.isatty():
        report = run(cfg, jobs)
    else:
        from rich.console import Console
        from rich.progress import Progress

        # On standard error, which is the terminal: the report on standard output stays clean
        # when it is redirected (`> report.txt` began with the bar's empty line).
        with Progress(transient=True, console=Console(stderr=True)) as prog:
            task = prog.add_task(f"{game}", total=n_games)
            report = run(cfg, jobs, lambda k: prog.advance(task, k))
    if as_json:
        click.echo(json.dumps(report))
    else:
        click.echo("\n".join(report_text(report)))
    if report.get("interrupted"):
        sys.exit(130)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--verify", is_flag=True, help="Check the replay reaches the logged result.")
@click.option("--events", is_flag=True, help="Show the public log lines (rolls, reveals, results) under each action; the actions themselves, private choices included, are listed either way (a log is for after the game).")
@pack_option
@guarded
def replay(file: str, verify: bool, events: bool, packs: tuple[str, ...]) -> None:
    """Replay a game log written by `davinci play --log`."""
    from davinci.engine.errors import no_ci_command
    from davinci.engine.replay import replay_log

    # Log lines and seat names come from the log: none may be a CI runner's `::command::`.
    code = replay_log(file, verify, packs, lambda line: click.echo(no_ci_command(line)), events)
    sys.exit(code)


@main.command()
@click.option("--out", type=click.Path(file_okay=False), help="Write the schemas into this folder.")
@click.argument("name", required=False)
@guarded
def schema(out: str | None, name: str | None) -> None:
    """Print a JSON Schema (or write them all with --out) for editors and CI."""
    from davinci.engine.errors import UsageError, did_you_mean, quoted
    from davinci.engine.schema import schema_names, schema_text, write_schemas

    if out is not None and not out.strip():
        raise UsageError("--out needs a folder name (the schemas are written there)")
    if name is not None and name not in schema_names():
        raise UsageError(f"no schema named '{quoted(name)}'{did_you_mean(name, schema_names())} (known: "
                         f"{', '.join(schema_names())})")
    if out and name is not None:
        raise UsageError("--out writes every schema (they refer to each other): leave out the name")
    if out:
        from davinci.engine.errors import printable

        for p in write_schemas(out):
            click.echo(printable(str(p)))
        return
    if name is None:
        click.echo("\n".join(schema_names()))
        return
    click.echo(schema_text(name))


@main.command(context_settings={"ignore_unknown_options": True})
@click.argument("expression")
@click.option("--context", type=click.Path(dir_okay=False), help="A JSON file of names and values.")
@guarded
def expr(expression: str, context: str | None) -> None:
    """Check and evaluate a rule expression (the value is printed on the last line)."""
    from davinci.engine.expr.tool import run_expr

    sys.exit(run_expr(expression, context, sys.stdout))


@main.command()
@click.argument("code", required=False)
@guarded
def rule(code: str | None) -> None:
    """Show the documentation of a lint rule (or list all rules)."""
    from davinci.engine.lint.registry import all_rules

    if code is None:
        for r in all_rules():
            click.echo(f"{r.code}  {r.name:<32} {r.severity}")
        return
    from davinci.engine.lint.docs import rule_text

    click.echo(rule_text(code))


@main.command()
@click.argument("category", required=False)
@click.option("--difficulty", "-d", type=_Digits(1, 3, "a difficulty"), help="Only cards of this difficulty.")
@click.option("--no-timer", is_flag=True, help="No time limit.")
@click.option("--seed", type=SEED, default=None, help="Random seed.")
@click.option("--time-limit", type=_Digits(1, 600, "a number of seconds"), default=60, show_default=True, metavar="SECONDS",
              help="Seconds on the clock (The Da Vinci Game's timer_seconds setting, 60 unless changed).")
@click.option("--card", "card_id", default=None, help="Practise this card (its id, e.g. rose-014): to try a new card.")
@pack_option
@guarded
def clue(category: str | None, difficulty: int | None, no_timer: bool, time_limit: int, seed: int | None,
         card_id: str | None, packs: tuple[str, ...]) -> None:
    """Practise one clue card with the real timing rules.

    CATEGORY is a deck's id or name: codex, logic-key, rose, vitruvian-man (or a pack's deck);
    without it, a random deck. An anagram card shows the anagram alone first: the clock starts
    when you press Enter (an answer typed there counts, timed from the card)."""
    from davinci.engine.practice import run_practice
    from davinci.engine.race import RawTerminal, race_available

    ctx = click.get_current_context()
    if no_timer and ctx.get_parameter_source("time_limit") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--no-timer and --time-limit contradict each other: give one of them")

    console = terminal_console()
    live = RawTerminal() if not no_timer and race_available() else None  # a countdown at a terminal
    sys.exit(run_practice(category, difficulty, not no_timer, seed, console, reader(console, echo=True), packs=packs,
                          terminal=live, card_id=card_id, time_limit=float(time_limit)))


if __name__ == "__main__":  # pragma: no cover
    main()
