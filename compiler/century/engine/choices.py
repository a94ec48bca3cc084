"""An engine's legal moves as the choices a person makes: one entry per card, slot or verb,
the moves that differ only in the cubes paid or left (or how often, or which option) as its
options, with a default. The table in the terminal (`century play`) and the one in the
browser (`century serve`) list the same entries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    """One entry of the move list: the legal moves of one card, slot or verb, which differ
    only in what follows it (the cubes paid, left or upgraded, how many times a trade is
    made, a composed card's choices in step order: ``o2 yr``, ``x2 y y``), with the one
    taken when the player names the entry alone."""

    key: str
    """What the moves share: ``acquire 6``, ``play up3``, ``claim 2``, ``rest``, ``discard``."""
    options: tuple[str, ...]
    """The rest of each move, one word or several (``ybggr``, ``x2``, ``o2 yr``; "" for
    none), in the engine's order."""
    default: str
    why: str
    """Why the default is taken: "the cheapest cubes", "the most trades", ..."""

    def move(self, option: str) -> str:
        """The canonical move of one of the options."""
        return f"{self.key} {option}".strip()

    @property
    def label(self) -> str:
        """The entry as listed, without its verb: ``6 ·330``, ``yy-rr x1-3``, ``+yy``; a
        composed card's ways with the range of their first choice, ``{+yyy/up2} o1-2 ·4``
        (the options of its choice), ``{any1-+b}x2 x1-2 ·7`` (the times of its repeat)."""
        name = self.key.partition(" ")[2]
        if len(self.options) == 1:
            return f"{name} {self.options[0]}".strip()
        if all(_is_count(option) for option in self.options):
            counts = sorted(int(option[1:]) for option in self.options)
            return f"{name} x{counts[0]}-{counts[-1]}".strip()
        firsts = {option.split()[0] if option else "" for option in self.options}
        letters = {word[:1] for word in firsts}
        if len(firsts) > 1 and len(letters) == 1 and all(map(is_marker, firsts)):
            numbers = sorted(int(word[1:]) for word in firsts)
            span = f"{letters.pop()}{numbers[0]}-{numbers[-1]}"
            return f"{name} {span} ·{len(self.options)}".strip()
        return f"{name} ·{len(self.options)}".strip()


def _is_count(option: str) -> bool:
    return option[:1] == "x" and option[1:].isdigit()


def is_marker(word: str) -> bool:
    """A word of a composed card's move that says which option (``o2``) or how many times
    (``x3``) rather than which cubes."""
    return word[:1] in ("o", "x") and word[1:].isdigit()


def near_options(choice: Choice, text: str, most: int = 5) -> list[str]:
    """The options `text` may mean when it names none: those with the same cubes once the
    option and repeat words (``o2``, ``x3``) are left out (``yr`` for ``o2 yr``), the cubes
    in any order; else those closest in spelling."""
    import difflib

    def bare(option: str) -> list[str]:
        return ["".join(sorted(word)) for word in option.split() if not is_marker(word)]

    typed = bare(text)
    same = [option for option in choice.options if typed and bare(option) == typed]
    if same:
        return same[:most]
    return difflib.get_close_matches(text, [o for o in choice.options if o], n=most, cutoff=0.6)


def split_move(move: str) -> tuple[str, str]:
    """A move as its entry's key and its option: ``acquire 6 ybggr`` -> (``acquire 6``,
    ``ybggr``); ``discard yy`` -> (``discard``, ``yy``); ``rest`` -> (``rest``, "")."""
    words = move.split()
    size = 1 if words[0] in ("rest", "discard") else 2
    return " ".join(words[:size]), " ".join(words[size:])


def group_moves(
    moves: list[str], codes: str, score: Callable[[str], float] | None = None
) -> list[Choice]:
    """The legal moves as entries, in the engine's order of their first moves, each with its
    default: for an acquisition the cheapest cubes (lowest ranks, `codes` lowest first), for
    a trade the most trades, for anything else the best move by `score` (the greedy bot's),
    else the first."""
    grouped: dict[str, list[str]] = {}
    for move in moves:
        key, option = split_move(move)
        grouped.setdefault(key, []).append(option)
    rank = {code: index for index, code in enumerate(codes.lower())}
    found = []
    for key, options in grouped.items():
        if len(options) == 1:
            default, why = options[0], ""
        elif key.startswith("acquire"):
            default = min(options, key=lambda cubes: sum(rank.get(c, 0) + 1 for c in cubes))
            why = "the cheapest cubes"
        elif all(_is_count(option) for option in options):
            default, why = max(options, key=lambda option: int(option[1:])), "the most trades"
        elif score is not None:
            default = max(options, key=lambda option: score(f"{key} {option}"))
            why = "the greedy bot's choice"
        else:
            default, why = options[0], "the first"
        found.append(Choice(key, tuple(options), default, why))
    return found
