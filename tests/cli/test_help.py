"""Help that says what the commands accept: the bot names and papers it lists are the
registries', an option is offered only where it has an effect, and the defaults shown are
the ones that apply."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
import typer.main

from century.base.limits import MAX_GAMES
from century.bots.registry import BOTS
from century.cli import app
from century.cli.common import BOT_LIST, SLOW_BOTS
from century.shared.cards.layout import PAPERS
from century.targets import targets

COMMANDS = sorted(c.name or c.callback.__name__ for c in app.registered_commands if c.callback)
BOT_COMMANDS = ["bots", "experiment", "play", "simulate"]
WITH_TEXT = {"cards", "sheets", "images", "tts"}
"""The targets whose output has words in a language."""
DRAWN = {"preview"}
"""The commands besides the targets that draw a game's cards in a language."""
SHOWN = {"serve"}
"""The commands that show a game in one language at a time, a switch away from another."""
TEXTLESS = {"engine", "ruleset", "openspiel", "pettingzoo"}
"""The targets without: no `--lang` (and no `--paper`, which only the printed ones take)."""


def help_text(run, *command: str) -> str:
    """The help of `century COMMAND`, its lines joined (the wrapping undone)."""
    result = run(*command, "--help")
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def listed_bots(text: str) -> list[str]:
    """The bot names a help's ``Bots: a, b, c (...)`` lists."""
    listed = re.search(r"Bots: ([a-z, ]+?) \(", text)
    assert listed, "the help lists no bots"
    return listed.group(1).split(", ")


def bot_section(text: str) -> str:
    """The help's closing section: the bots and their summaries."""
    return text.rsplit(" Bots: ", 1)[1]


def test_the_commands_that_take_bots_are_the_ones_checked(run) -> None:
    assert [c for c in COMMANDS if "--bots" in help_text(run, c)] == BOT_COMMANDS


@pytest.mark.parametrize("command", BOT_COMMANDS)
def test_bot_help_lists_every_bot_of_the_registry(run, command: str) -> None:
    text = help_text(run, command)
    assert listed_bots(text) == list(BOTS)
    section = bot_section(text)
    for name, kind in BOTS.items():
        assert f"{name}{':N' if kind.option else ''} {kind.summary}" in section
    for example in re.findall(r"e\.g\. ([a-z0-9:]+(?:,[a-z0-9:]+)+)", text):
        assert {name.split(":")[0] for name in example.split(",")} <= set(BOTS), example


@pytest.mark.parametrize("command", BOT_COMMANDS)
def test_bot_help_follows_the_registry(run, monkeypatch, command: str) -> None:
    """A bot added to the registry, and one taken out, show in the help as they are."""
    from century.bots.registry import BotKind, RandomBot

    monkeypatch.setitem(BOTS, "dawdler", BotKind(RandomBot, "waits and sees", auto=False))
    monkeypatch.delitem(BOTS, "search")
    text = help_text(run, command)
    assert listed_bots(text) == [*[n for n in BOTS if n != "dawdler"], "dawdler"]
    assert "search" not in listed_bots(text)
    section = bot_section(text)
    assert "dawdler waits and sees" in section and "search:N" not in section
    if command in ("bots", "simulate"):  # the bots `auto` and the ladder leave out
        assert "slow ones: expert, dawdler)" in text


@pytest.mark.parametrize("command", BOT_COMMANDS)
def test_games_and_bots_are_one_option_everywhere(run, command: str) -> None:
    """``--games`` and ``--bots`` take the same names and bounds in every command
    (`century.cli.common.games_option`, `bots_option`)."""
    text = help_text(run, command)
    assert "-b, --bots BOTS " in text
    if command != "play":  # one game
        assert "-n, --games N " in text
        # typer words a range as "at most N" or, before 0.17, "1 or more and at most N"
        for given, said in (("0", "1 or more"), (str(MAX_GAMES + 1), f"at most {MAX_GAMES}")):
            result = run(command, "spice-road", "-n", given)
            assert result.exit_code == 2 and "--games must be " in result.stderr
            assert said in result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_papers_in_help_are_the_layouts_and_languages_are_the_games(run, command: str) -> None:
    text = help_text(run, command)
    if "--paper" in text:
        assert f"Paper size, {' or '.join(PAPERS)} (" in text
    if "--lang" in text:  # a game's languages are its own: help names none
        if command in SHOWN:
            assert "The language new tables are shown in" in text
        else:
            assert "Language (repeatable; default: all of the game's)." in text
        assert not re.search(r"\b(en|de|fr)\b", text.split("--lang", 1)[1].split("--", 1)[0])


def test_every_target_is_known_to_have_text_or_not() -> None:
    assert set(targets()) == WITH_TEXT | TEXTLESS  # a new target: say which it is here


@pytest.mark.parametrize("command", COMMANDS)
def test_lang_and_paper_are_offered_only_where_they_change_the_output(run, command) -> None:
    """The engine, ruleset and learning environments have no text to translate or print;
    only the PDFs have a paper (build and watch pass it on to them)."""
    text = help_text(run, command)
    assert ("--lang" in text) == (command in WITH_TEXT | DRAWN | SHOWN)
    assert ("--paper" in text) == (command in ("cards", "sheets", "build", "watch"))
    if command in TEXTLESS:
        result = run(command, "spice-road", "--lang", "en")
        assert result.exit_code == 2
        assert "No such option: --lang" in result.stderr


def test_play_colour_help_states_the_default_that_applies(run) -> None:
    text = help_text(run, "play")
    assert (
        "--colour / --no-colour Colour the board and moves. [default: on a terminal, unless "
        in text
    )
    assert "[default: no-colour]" not in text and "[default: colour]" not in text


def short_option_problems(root: Any) -> list[str]:
    """What is inconsistent in the short options of the click command tree `root`: a long
    option with different short letters (or none) in different commands, a letter standing
    for two long options, and ``-h``, which people expect to be help."""
    letters: dict[str, dict[tuple[str, ...], list[str]]] = {}
    longs: dict[str, set[str]] = {}

    def walk(command: Any, path: str) -> None:
        for param in command.params:
            if param.param_type_name != "option":
                continue
            names = [*param.opts, *param.secondary_opts]
            long = next(name for name in names if name.startswith("--"))
            short = tuple(sorted(name for name in names if not name.startswith("--")))
            letters.setdefault(long, {}).setdefault(short, []).append(path)
            for letter in short:
                longs.setdefault(letter, set()).add(long)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(root, "century")
    problems = [
        f"{long}: "
        + "; ".join(f"{' '.join(s) or 'no short'} in {', '.join(p)}" for s, p in seen.items())
        for long, seen in sorted(letters.items())
        if len(seen) > 1
    ]
    problems += [
        f"{letter} stands for {', '.join(sorted(names))}"
        for letter, names in sorted(longs.items())
        if len(names) > 1
    ]
    problems += [f"-h stands for {', '.join(sorted(longs['-h']))}"] if "-h" in longs else []
    return problems


def test_a_long_option_has_one_short_letter_in_every_command_and_a_letter_one_meaning() -> None:
    assert short_option_problems(typer.main.get_command(app)) == []


def test_the_short_option_check_finds_each_kind_of_clash() -> None:
    planted = typer.Typer()

    @planted.command()
    def one(
        rules: Annotated[str, typer.Option("--rules", "-r")] = "",
        out: Annotated[str, typer.Option("--out", "-o")] = "",
    ) -> None:
        """One."""

    @planted.command()
    def two(
        rules: Annotated[str, typer.Option("--rules", "-x")] = "",
        other: Annotated[str, typer.Option("--other", "-o")] = "",
        hold: Annotated[str, typer.Option("--hold", "-h")] = "",
    ) -> None:
        """Two."""

    assert short_option_problems(typer.main.get_command(planted)) == [
        "--rules: -r in century one; -x in century two",
        "-o stands for --other, --out",
        "-h stands for --hold",
    ]


@pytest.mark.slow
def test_short_options_do_what_the_long_ones_do(run, tmp_path) -> None:
    """The tour's example (docs/explanation/tour.md) with its short letters writes the report
    the long options do."""
    short = ["-n", "6", "-b", "greedy,random", "-s", "3", "-w", "1", "-r", "rules", "-q"]
    long = ["--games", "6", "--bots", "greedy,random", "--seed", "3", "--workers", "1"]
    long += ["--rules", "rules", "--quiet"]
    for args in ([*short, "-o", str(tmp_path / "a")], [*long, "--out", str(tmp_path / "b")]):
        result = run("simulate", "spice-road", *args)
        assert result.exit_code == 0, result.output
    written = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert written and written == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in written:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_the_docs_cli_reference_lists_the_registry_bots(monkeypatch) -> None:
    """The docs site's command reference, made from the same options, writes the bots out."""
    from century.bots.registry import BotKind, RandomBot

    from helpers import docs_generator

    monkeypatch.setitem(BOTS, "dawdler", BotKind(RandomBot, "waits and sees"))
    page = docs_generator().cli_reference()
    assert BOT_LIST not in page and SLOW_BOTS not in page
    assert page.count("| `dawdler` | waits and sees |") == len(BOT_COMMANDS)
    assert page.count(f"Bots: {', '.join(BOTS)} (") == len(BOT_COMMANDS)


HELP_GOLDEN = Path(__file__).parents[1] / "golden" / "help.json"


def _described(command: Any) -> dict[str, Any]:
    """What a command accepts, as its help tells it: its own words and every parameter's
    names, help, default and whether it is required (independent of typer's and rich's
    layout, which differ between the supported versions)."""
    params = []
    for param in command.params:
        default = param.default
        params.append(
            {
                "names": [*param.opts, *param.secondary_opts],
                "help": " ".join((getattr(param, "help", None) or "").split()),
                "default": None if callable(default) else repr(default),
                "required": param.required,
                "multiple": bool(getattr(param, "multiple", False)),
            }
        )
    return {"help": " ".join((command.help or "").split()), "params": params}


def test_every_commands_help_is_its_golden(refresh_goldens: bool):
    """The options of every command, as `--help` tells them, held to a golden: a command made
    thinner keeps its options and their words (refresh with ``--refresh-goldens`` after a
    deliberate change)."""
    root = typer.main.get_command(app)
    ctx = root.context_class(root, info_name="century")
    found: dict[str, Any] = {}
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        if hasattr(command, "list_commands"):  # a group: its subcommands
            sub = command.context_class(command, info_name=name)
            for inner in command.list_commands(sub):
                found[f"{name} {inner}"] = _described(command.get_command(sub, inner))
        else:
            found[name] = _described(command)
    text = json.dumps(found, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if refresh_goldens or not HELP_GOLDEN.exists():
        HELP_GOLDEN.write_text(text, encoding="utf-8")
    assert HELP_GOLDEN.read_text(encoding="utf-8") == text
