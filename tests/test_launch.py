"""The `davinci` entry point answers --help and --version itself (fast start-up) exactly as the CLI would."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from davinci.cli import main as cli_main
from davinci.help_text import HELP
from davinci.launch import rendered_help


def test_the_stored_help_is_what_the_cli_prints() -> None:
    assert HELP == rendered_help(), "stale help text: run `python -m davinci.launch --write-help`"


def test_help_and_version_come_without_importing_click() -> None:
    code = (
        "import sys; sys.argv = ['davinci', '--help']; "
        "from davinci.launch import main; main(); "
        "assert 'click' not in sys.modules, 'click was imported'; "
        "assert 'davinci.cli' not in sys.modules"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == HELP
    version = CliRunner().invoke(cli_main, ["--version"], prog_name="davinci").output
    code = "import sys; sys.argv = ['davinci', '--version']; from davinci.launch import main; main()"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == version


def test_everything_else_goes_to_the_cli() -> None:
    code = "import sys; sys.argv = ['davinci', 'rule', 'DV001']; from davinci.launch import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and "DV001" in done.stdout
    code = "import sys; sys.argv = ['davinci', 'no-such-command']; from davinci.launch import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
