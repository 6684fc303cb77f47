"""One controller per activity: the state of a puzzle, the gym, a game, the explorer and the editor.

Each controller (lila's ``ctrl``) owns everything its activity remembers and takes the
learner's intents as plain method calls; its view (:mod:`.view`) is a typed value the board
component draws.  Nothing here imports ipywidgets, so a controller runs and is tested without
Jupyter (and in Pyodide); a widget in :mod:`battleline_lab.widgets` holds no state of its own,
forwards what the board sends and draws the controller's view.

* :mod:`.view`: the view model's types and the parts every view shares;
* :mod:`.puzzle`: :class:`~.puzzle.PuzzleController`, one puzzle;
* :mod:`.gym`: :class:`~.gym.GymController`, a folder of puzzles and the trainer;
* :mod:`.explorer`: :class:`~.explorer.ExplorerController`, two formations compared;
* :mod:`.game`: :class:`~.game.GameController`, a game's words and the board's view of it;
* :mod:`.three`: :class:`~.three.ThreeGameController`, the three-player game against two bots;
* :mod:`.new_game`: :class:`~.new_game.NewGameQuestion`, New game's question, asked by both game controllers;
* :mod:`.editor`: :class:`~.editor.EditorController`, a puzzle being written.
"""
