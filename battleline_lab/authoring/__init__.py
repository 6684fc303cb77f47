"""Tools for puzzle authors: generate puzzles, preview them as HTML, write puzzle files.

- :mod:`~battleline_lab.authoring.writer`: puzzle data as YAML text in the house style
  (stable key order, flow card lists) that round-trips through the loader;
- :mod:`~battleline_lab.authoring.generate`: ``battleline-lab generate``, puzzles that
  teach a theme, found by construction or in seeded bot games, answers from the engine;
- :mod:`~battleline_lab.authoring.preview`: ``battleline-lab show``, a standalone HTML
  page of a puzzle (board, question, answer, full explanation);
- :mod:`~battleline_lab.authoring.editor`: the puzzle editor's session (no front end): a
  position built card by card, checked after every change, saved keeping the file's comments;
  beside it :mod:`~battleline_lab.authoring.yaml_text` (a file's text as plain data, and the
  text patched to hold an edit), :mod:`~battleline_lab.authoring.review` (the reviewer's
  warnings), :mod:`~battleline_lab.authoring.saving` (atomic writes, ids already taken) and
  :mod:`~battleline_lab.authoring.errors` (the editor's one error).

The pytest plugin that checks puzzle files is :mod:`battleline_lab.pytest_plugin`.
See ``docs/authoring.md``.
"""

from .writer import dump_puzzle, position_data, position_key, puzzle_data, puzzle_key

__all__ = ["dump_puzzle", "position_data", "position_key", "puzzle_data", "puzzle_key"]
