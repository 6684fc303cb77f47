"""The core makes every value with its own constructor: no construction tricks in ``battleline_lab/core/``.

The tricks counted are the ways a frozen value can be made behind its constructor's back:
assigning ``__class__``, ``object.__new__`` (``tuple.__new__`` for a NamedTuple), writing an
instance's ``__dict__`` (``obj.__dict__.update``, ``object.__setattr__(obj, "__dict__", ...)``),
``object.__setattr__`` at all (a frozen dataclass's ``__post_init__`` setting a derived
attribute), ``setattr`` on a class after it is made (a descriptor patched on), and enum members
copied into module names.  The count over the core is 0; the table below shows the counter finds
each trick, so a count of 0 means something.
"""

from __future__ import annotations

import ast
import enum
import re
from pathlib import Path

import pytest

import battleline_lab.core

CORE = Path(battleline_lab.core.__file__).resolve().parent
TRICKS = {
    "class assignment": re.compile(r"\.__class__\s*=(?!=)"),
    "object.__new__": re.compile(r"\bobject\.__new__\b"),
    "tuple.__new__": re.compile(r"\btuple\.__new__\b"),  # a NamedTuple made without its own __new__
    "instance dict": re.compile(r"__dict__"),
    "object.__setattr__": re.compile(r"\bobject\.__setattr__\b"),
}
ENUMS = {"Reason", "FormationKind", "Side", "Colour", "Tactic", "TacticGroup", "ClaimTiming"}


def _patched_classes(tree: ast.Module) -> list[str]:
    """Module-level ``setattr(Cls, ...)`` calls and ``Cls.name = ...`` stores on a class defined in the module."""
    classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            found.append(f"setattr at line {node.lineno}")
    for node in tree.body:
        for stmt in ast.walk(node) if isinstance(node, ast.If) else [node]:
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id in classes
                    ):
                        found.append(f"{target.value.id}.{target.attr} set at line {stmt.lineno}")
    return found


def _is_member(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ENUMS


def _enum_copies(tree: ast.Module) -> list[str]:
    """Module-level names bound to an enum member (``_MUD = Reason.MUD``, ``_YOU, _THEM = Side.YOU, Side.OPPONENT``).

    A name bound to a table of members (``_SIDES = (Side.YOU, Side.OPPONENT)``) is data, not a copy."""
    found = []
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and _is_member(node.value):
                found.append(f"{target.id} = {ast.unparse(node.value)} at line {node.lineno}")
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                copies = [t for t, v in zip(target.elts, node.value.elts) if _is_member(v)]
                found += [f"{ast.unparse(t)} = a member at line {node.lineno}" for t in copies]
    return found


def tricks(source: str) -> list[str]:
    """Every construction trick in one module's source, each named with its line."""
    found = []
    for number, text in enumerate(source.splitlines(), 1):
        code = text.split("#", 1)[0]
        for name, pattern in TRICKS.items():
            if pattern.search(code):
                found.append(f"{name} at line {number}")
    tree = ast.parse(source)
    return found + _patched_classes(tree) + _enum_copies(tree)


SAMPLES = {
    "class-assignment": "blank = Blank()\nblank.__class__ = Step\n",
    "object-new": "made = object.__new__(Step)\n",
    "tuple-new": "_new = tuple.__new__\nsummary = _new(SideSummary, (1, 2))\n",
    "dict-update": "class A:\n    def __init__(self):\n        self.__dict__.update({'a': 1})\n",
    "dict-set": "object.__setattr__(made, '__dict__', {})\n",
    "post-init-setattr": "class T:\n    def __post_init__(self):\n        object.__setattr__(self, 'bit', 1)\n",
    "descriptor-patched": "class A:\n    pass\nA.steps = Later('steps')\n",
    "descriptor-patched-in-if": "class A:\n    pass\nif not TYPE_CHECKING:\n    A.steps = Later('steps')\n",
    "setattr-on-class": "class A:\n    pass\nsetattr(A, 'steps', Later('steps'))\n",
    "enum-member-copied": "_MUD = Reason.MUD\n",
    "enum-members-unpacked": "_YOU, _THEM = Side.YOU, Side.OPPONENT\n",
}


@pytest.mark.parametrize("source", SAMPLES.values(), ids=SAMPLES.keys())
def test_the_counter_finds_each_trick(source: str) -> None:
    assert tricks(source)


def test_plain_code_counts_nothing() -> None:
    source = (
        "@dataclass(frozen=True, slots=True)\nclass Step:\n    reason: Reason\n"
        "def make(reason: Reason) -> Step:\n    return Step(Reason.MUD if reason is Reason.FOG else reason)\n"
        "_RULES = {Reason.MUD: 'R25'}  # a table keyed by members, not a copy of one\n"
        "_SIDES = (Side.YOU, Side.OPPONENT)\n"
    )
    assert tricks(source) == []


def test_the_enums_named_are_the_cores_enums() -> None:
    # every enum class of the core is watched for copies of its members
    import importlib

    defined = set()
    for path in CORE.glob("*.py"):
        module = importlib.import_module(
            f"battleline_lab.core.{path.stem}" if path.stem != "__init__" else "battleline_lab.core"
        )
        defined |= {
            name
            for name, value in vars(module).items()
            if isinstance(value, type) and issubclass(value, enum.Enum) and value.__module__ == module.__name__
        }
    assert defined == ENUMS


def test_no_construction_tricks_in_the_core() -> None:
    found = {path.name: tricks(path.read_text(encoding="utf-8")) for path in sorted(CORE.glob("*.py"))}
    assert sum(len(v) for v in found.values()) == 0, {k: v for k, v in found.items() if v}
