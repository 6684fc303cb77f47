"""Check puzzle files against the core engine directly, without the YAML loader.

A development aid for puzzle authors: for every ``*.yaml`` under the given
paths it builds the :class:`~battleline_lab.position.Position`, lists its
problems, and compares the stated ``answer`` with the engine's.  The real
check is ``battleline-lab check PATH...``; this script only needs PyYAML and
the core engine.

    .venv/bin/python tools/engine_answers.py puzzles/ranking puzzles/sums
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from battleline_lab import Position, Side, analyse_claim, claimable_flags, evaluate, parse_cards
from battleline_lab.position import FLAGS


def build(data: dict[str, Any]) -> Position:
    flags = {int(k): v for k, v in (data.get("flags") or {}).items()}
    return Position.build(
        flags,
        discards=data.get("discards") or {},
        hand=data.get("hand") or {},
        turn=data.get("turn", "you"),
        claim_timing=(data.get("rules") or {}).get("claim_timing", "after_play"),
    )


def engine_answer(position: Position, question: dict[str, Any]) -> Any:
    kind = question["kind"]
    if kind == "claim":
        return analyse_claim(position, int(question["flag"]), position.turn).claimable
    if kind == "claimable":
        return list(claimable_flags(position, position.turn))
    env = set(question.get("environment") or [])
    if kind == "compare":
        a = evaluate(parse_cards(question["a"]), fog="fog" in env, mud="mud" in env)
        b = evaluate(parse_cards(question["b"]), fog="fog" in env, mud="mud" in env)
        if a.strength != b.strength:
            return "a" if a.strength > b.strength else "b"
        return question["first_complete"]
    if kind == "formation":
        cards = parse_cards(question["cards"])
        return evaluate(cards, mud=len(cards) == 4).kind.key  # type: ignore[union-attr]
    raise ValueError(kind)


def main(paths: list[str]) -> int:
    failures = 0
    count = 0
    for root in paths:
        files = sorted(Path(root).rglob("*.yaml")) if Path(root).is_dir() else [Path(root)]
        for f in files:
            count += 1
            data = yaml.safe_load(f.read_text(encoding="utf-8"))
            pos = build(data)
            problems = pos.problems()
            if problems:
                print(f"{f}: problems: {problems}")
                failures += 1
                continue
            if pos.winner() is not None:
                print(f"{f}: the game is already over")
                failures += 1
            got = engine_answer(pos, data["question"])
            if got != data["answer"]:
                print(f"{f}: answer {data['answer']!r}, engine says {got!r}")
                failures += 1
            for key in ("id", "title", "level", "tags", "note"):
                if key not in data:
                    print(f"{f}: missing {key}")
                    failures += 1
            if "-v" in sys.argv[1:2] or data["question"]["kind"] == "claim" and "--explain" in sys.argv:
                print(f"== {f}")
                print(analyse_claim(pos, int(data["question"]["flag"]), pos.turn).explain())
    print(f"{count} files, {failures} failures")
    _ = FLAGS, Side
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main([a for a in sys.argv[1:] if not a.startswith("-")]))
