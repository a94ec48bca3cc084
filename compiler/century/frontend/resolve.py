"""The resolve stage: a game or variant -> one complete tree, decks and prose loaded in place.

A variant names its base with `extends` and says only what differs:
- mappings merge key by key; a key the base does not have is an error, except in open
  maps (texts in several languages, values per player count, prose per language);
- lists replace the base's list;
- `resources` and `coins.piles` given as a mapping patch the base's entries by id; a
  changed resource code is carried into every cube string of the base (a re-theme);
- `cards.<deck>` adds, removes and replaces cards by id;
- `decks.<deck>` and `prose.<lang>` name other files;
- `look` is open: a variant adds to it or changes it key by key; the files it names
  (pictures, icons, fonts) are found relative to the rules file that names them, must stay
  in the project, and are written into the tree as absolute paths (the checks read them).
Every node keeps the mark of the file and line it came from.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from century.base.diagnostics import Diagnostic, Mark
from century.base.limits import MAX_CHAIN
from century.frontend.loader import Node, format_path
from century.frontend.sources import PathProblem, SourceFile, Sources, referenced_path
from century.model.cards import cube_paths, derived_id

OPEN_MAPS = {("name",), ("end", "point_cards"), ("balance", "variety_bonus")}
"""Mappings whose keys a variant may add to (besides translated texts)."""

OPEN_TREES = ("look", "forms")
"""Top-level keys under which a variant may add keys at any depth."""

PATCH_BY_ID = {("resources",), ("coins", "piles")}
APPLY_FIRST = ("resources", "decks", "prose")
"""Applied before the other keys: later keys are written in the new codes and files."""


@dataclass
class Resolved:
    """A complete game tree and the files it was made from, base first."""

    id: str
    tree: Node
    files: list[SourceFile]
    chain: list[str] = field(default_factory=list)


class Resolver:
    """Resolves games and variants by id, memoised, reporting into `problems`."""

    def __init__(
        self,
        sources: Sources,
        catalogue: dict[str, SourceFile],
        broken: Mapping[str, str] | None = None,
    ):
        self.sources = sources
        self.catalogue = catalogue
        self.broken = dict(broken or {})
        """Games whose files failed to load (reported there), by id: their files' names."""
        self.done: dict[str, Resolved | None] = {}
        self.problems: list[Diagnostic] = []
        self.uses: dict[str, set[Path]] = {}
        """Per game: every file it is made of or names (also when it fails to resolve)."""
        self.depth: dict[str, int] = {}
        """Per game resolved: the variants between it and its base game."""

    def resolve(self, game_id: str) -> Resolved | None:
        """The complete tree of `game_id`, or None once its problems are reported.

        The `extends` chain is walked in a loop, not by recursion, so no chain of files can
        exhaust the stack; a chain longer than `MAX_CHAIN` variants is an error.
        """
        if game_id in self.done:
            return self.done[game_id]
        chain = self._chain(game_id)
        for each in reversed(chain):
            if each in self.done:
                continue
            source = self.catalogue[each]
            uses = self.uses.setdefault(each, {source.path})
            if source.kind == "game":
                result = self._base(source, uses)
                self.depth[each] = 0
            else:
                base_id = source.node.value["extends"].value
                uses.update(self.uses.get(base_id, ()))
                base = self.done[base_id]
                if base is None:
                    self.base_has_errors(source, self.catalogue[base_id].name)
                result = None if base is None else self._variant(source, base, uses)
                self.depth[each] = self.depth[base_id] + 1
            self.done[each] = result
        return self.done.get(game_id)

    def _chain(self, game_id: str) -> list[str]:
        """`game_id` and the ids it extends, down to a base game or an id resolved before;
        empty after reporting a cycle, an unknown base or a chain that is too long."""
        chain = [game_id]
        while True:
            source = self.catalogue[chain[-1]]
            self.uses.setdefault(chain[-1], {source.path})
            if source.kind == "game":
                return chain
            base_node = source.node.value["extends"]
            base_id = base_node.value
            if base_id in chain:
                cycle = " -> ".join([*chain, base_id])
                self._error(base_node.mark, "C202", f"`extends` makes a cycle: {cycle}", "extends")
                return self._fail(chain)
            if base_id not in self.catalogue and base_id in self.broken:
                self.base_has_errors(source, self.broken[base_id])
                return self._fail(chain)
            if base_id not in self.catalogue:
                others = sorted(set(self.catalogue) - set(chain))  # never the variant itself
                near = difflib.get_close_matches(str(base_id), others, n=1, cutoff=0.6)
                known = ", ".join(others) or "none"
                self._error(
                    base_node.mark,
                    "C201",
                    f"unknown base game {base_id!r}",
                    "extends",
                    f"did you mean {near[0]!r}? (known: {known})" if near else f"known: {known}",
                )
                return self._fail(chain)
            length = len(chain) + self.depth.get(base_id, 0)
            if length > MAX_CHAIN:
                first = self.catalogue[game_id].node.value["extends"]
                self._error(
                    first.mark,
                    "C504",
                    f"{game_id!r} is a variant of a variant more than {MAX_CHAIN} deep "
                    f"(limit MAX_CHAIN = {MAX_CHAIN})",
                    "extends",
                    "extend a game nearer the base, or merge variants into one file",
                )
                return self._fail([game_id])
            if base_id in self.done:
                if self.done[base_id] is None:
                    self.base_has_errors(source, self.catalogue[base_id].name)
                    return self._fail(chain)
                return [*chain, base_id]
            chain.append(base_id)

    def base_has_errors(self, source: SourceFile, where: str) -> None:
        """One error at the `extends` of the variant `source`, whose base game has errors
        reported at their cause (in the file `where`): the variant is not checked against
        another game, nor its errors repeated."""
        node = source.node.value["extends"]
        self._error(
            node.mark,
            "C209",
            f"base game `{node.value}` has errors, see {where}",
            "extends",
            "fix the base game first; its variants are checked once it has no errors",
        )

    def _fail(self, chain: list[str]) -> list[str]:
        for each in chain:
            self.done[each] = None
        return []

    # -- base games ------------------------------------------------------------------------

    def _base(self, source: SourceFile, uses: set[Path]) -> Resolved | None:
        tree = source.node.clone()
        files = [source]
        ok = True
        for group, expect in (("decks", "deck"), ("prose", "prose")):
            refs = tree.value[group]
            for key, ref in list(refs.value.items()):
                loaded = self._load_ref(source, ref, expect, uses, key)
                if loaded is None:
                    ok = False
                    continue
                refs.value[key] = loaded.node.clone()
                files.append(loaded)
        if "look" in tree.value:
            ok = self._look_files(source, tree.value["look"], uses) and ok
        if not ok:
            return None
        return Resolved(source.node.value["id"].value, tree, files, [])

    def _load_ref(
        self, owner: SourceFile, ref: Node, expect: str, uses: set[Path], key: str
    ) -> SourceFile | None:
        """The file `ref` names as the `key` of `decks` or `prose` (of the kind `expect`)."""
        try:
            path = referenced_path(owner.path, str(ref.value))
        except PathProblem as err:
            self._error(ref.mark, err.code, err.message, hint=err.hint)
            return None
        uses.add(path)
        deck = key if expect == "deck" else None
        return self.sources.load(path, expect=expect, at=ref.mark, deck=deck)

    # -- variants --------------------------------------------------------------------------

    def _variant(self, source: SourceFile, base: Resolved, uses: set[Path]) -> Resolved | None:
        patch = source.node
        base_id = base.id
        tree = base.tree.clone()
        files = [*base.files, source]
        errors_before = len(self.problems)
        ok = True
        first = [k for k in APPLY_FIRST if k in patch.value]
        rest = [k for k in patch.value if k not in APPLY_FIRST and k != "extends"]
        for key in first + rest:
            value = patch.value[key]
            if key == "resources":
                self._patch_resources(tree, value)
            elif key == "cards":
                self._change_cards(tree, value)
            elif key in ("decks", "prose"):
                ok = self._replace_refs(tree, key, value, source, files, uses) and ok
            elif key == "look":
                value = value.clone()
                ok = self._look_files(source, value, uses) and ok
                self._merge(tree, key, value, (key,))
            else:
                self._merge(tree, key, value, (key,))
        if len(self.problems) > errors_before or not ok:
            return None
        return Resolved(patch.value["id"].value, tree, files, [*base.chain, base_id])

    def _merge(self, parent: Node, key: str, value: Node, path: tuple[str, ...]) -> None:
        """Put `value` at `parent[key]`, merging mappings key by key."""
        current = parent.value.get(key)
        if path in PATCH_BY_ID and isinstance(value.value, dict) and current is not None:
            self._patch_by_id(current, value, path)
            return
        if current is None:
            if not (path[:-1] in OPEN_MAPS or _is_text(parent) or path[0] in OPEN_TREES):
                self._error(
                    value.mark,
                    "C204",
                    f"the base game has no key {key!r} to change",
                    format_path(path),
                )
                return
            parent.value[key] = value
            parent.key_marks[key] = value.mark
            return
        if isinstance(value.value, dict) and isinstance(current.value, dict):
            for sub, sub_value in value.value.items():
                self._merge(current, sub, sub_value, (*path, sub))
            return
        parent.value[key] = value
        parent.key_marks[key] = value.mark

    def _look_files(self, source: SourceFile, look: Node, uses: set[Path]) -> bool:
        """Each file `look` (of `source`) names, as an absolute path in place; False when
        one is absolute or leads out of the project (reported)."""
        ok = True
        for node in look_file_nodes(look):
            try:
                path = referenced_path(source.path, str(node.value))
            except PathProblem as err:
                self._error(node.mark, err.code, err.message, hint=err.hint)
                ok = False
                continue
            uses.add(path)
            node.value = str(path)
        return ok

    def _patch_by_id(self, items: Node, patch: Node, path: tuple[str, ...]) -> None:
        by_id = {item.value["id"].value: item for item in items.value}
        for item_id, changes in patch.value.items():
            if item_id not in by_id:
                self._error(
                    patch.key_marks[item_id],
                    "C205",
                    f"the base game has no {path[-1].rstrip('s')} {item_id!r}",
                    format_path((*path, item_id)),
                    f"known: {', '.join(by_id)}",
                )
                continue
            target = by_id[item_id]
            for sub, sub_value in changes.value.items():
                self._merge(target, sub, sub_value, (*path, item_id, sub))

    def _patch_resources(self, tree: Node, value: Node) -> None:
        old_codes = [r.value["code"].value for r in tree.value["resources"].value]
        if isinstance(value.value, list):
            tree.value["resources"] = value
            return
        self._patch_by_id(tree.value["resources"], value, ("resources",))
        new_codes = [r.value["code"].value for r in tree.value["resources"].value]
        recode = {o.upper(): n for o, n in zip(old_codes, new_codes, strict=True) if o != n}
        if recode:
            _recode_tree(tree, recode)

    def _replace_refs(
        self,
        tree: Node,
        group: str,
        value: Node,
        source: SourceFile,
        files: list[SourceFile],
        uses: set[Path],
    ) -> bool:
        """Put the files the variant names under `group` in place of the base's; whether
        every one could be used (a file that cannot is reported where it is named, and the
        variant is never made with the base's file in its place)."""
        ok = True
        for key, ref in value.value.items():
            expect = "deck" if group == "decks" else "prose"
            loaded = self._load_ref(source, ref, expect, uses, key)
            if loaded is None:
                ok = False
                if not any(
                    d.file == ref.mark.file and d.line == ref.mark.line and d.col == ref.mark.col
                    for d in (*self.problems, *self.sources.diagnostics)
                ):
                    self.problems.append(
                        Diagnostic.at(ref.mark, "C207", f"cannot use {group} file {ref.value!r}")
                    )
                continue
            tree.value[group].value[key] = loaded.node.clone()
            files.append(loaded)
        return ok

    def _change_cards(self, tree: Node, changes: Node) -> None:
        for deck_name, ops in changes.value.items():
            deck = tree.value["decks"].value[deck_name].value["cards"]
            ids = {derived_id(card.plain()): i for i, card in enumerate(deck.value)}
            remove: set[int] = set()
            for name, op in ops.value.items():
                if name == "add":
                    deck.value.extend(op.value)
                    continue
                targets = (
                    op.value if name == "remove" else [Node(k, op.key_marks[k]) for k in op.value]
                )
                for target in targets:
                    if target.value not in ids:
                        self._error(
                            target.mark,
                            "C206",
                            f"no card {target.value!r} in the {deck_name} deck to {name}",
                            f"cards.{deck_name}.{name}",
                            _suggest(target.value, ids),
                        )
                    elif name == "remove":
                        remove.add(ids[target.value])
                    else:
                        deck.value[ids[target.value]] = op.value[target.value]
            deck.value[:] = [card for i, card in enumerate(deck.value) if i not in remove]
            deck.mark = ops.mark  # the deck as it now stands is the variant's doing

    def _error(self, mark: Mark, code: str, message: str, path: str = "", hint: str = "") -> None:
        self.problems.append(Diagnostic.at(mark, code, message, path=path, hint=hint))


def look_file_nodes(look: Node) -> list[Node]:
    """The nodes of a `look` mapping that name files: deck backs and art, card art, fonts and
    icons (a picture given as ``{file, fit}`` by its ``file``)."""

    def picture(node: Node) -> Node:
        return node.value["file"] if isinstance(node.value, dict) else node

    found: list[Node] = []
    value = look.value if isinstance(look.value, dict) else {}
    for deck in (value.get("decks") or Node({}, look.mark)).value.values():
        found += [picture(deck.value[k]) for k in ("back", "art") if k in deck.value]
    for group in ("art",):
        found += [picture(n) for n in (value.get(group) or Node({}, look.mark)).value.values()]
    for group in ("fonts", "icons"):
        found += list((value.get(group) or Node({}, look.mark)).value.values())
    return found


def _is_text(node: Node) -> bool:
    """A translated text: a mapping from two-letter language codes to strings."""
    return isinstance(node.value, dict) and all(
        len(k) == 2 and isinstance(v.value, str) for k, v in node.value.items()
    )


def _recode_tree(tree: Node, recode: dict[str, str]) -> None:
    """Carry renamed resource codes into every cube string of the tree."""

    def convert(node: Node) -> None:
        if isinstance(node.value, str):
            node.value = "".join(recode.get(c.upper(), c) for c in node.value)

    for seat in tree.value["setup"].value["seats"].value:
        convert(seat)
    for deck in tree.value["decks"].value.values():
        for card in deck.value["cards"].value:
            for path, _ in cube_paths(card.plain()):  # steps and a point card's cost too
                node = card
                for part in path:
                    node = node.value[part]
                convert(node)


def _suggest(wanted: str, ids: dict[str, int]) -> str:
    import difflib

    near = difflib.get_close_matches(wanted, list(ids), n=3)
    return f"did you mean {', '.join(near)}?" if near else ""
