"""What a widget's display carries besides the live view: the SVG picture a cold open shows.

The puzzle, the gym, the game and the editor are each a ``PictureBox``: its display bundle is the widget view plus, when
it has one, the picture of :meth:`picture` (a saved notebook opened without a kernel, or a static
viewer, shows that picture where the widget cannot run).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from battleline_lab.training.progress import MemoryStore, Progress
from battleline_lab.widgets import PuzzleSet, PuzzleWidget
from battleline_lab.widgets._common import PictureBox
from battleline_lab.widgets.editor import PuzzleEditor
from battleline_lab.widgets.game import GameWidget

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _puzzle() -> PictureBox:
    from battleline_lab.quiz import library

    return PuzzleWidget(library.get(library.ids()[0]), progress=Progress(store=MemoryStore()))


#: a widget, made fresh; whether a picture stands beside its widget view
WIDGETS: dict[str, tuple[Callable[[Path], PictureBox], bool]] = {
    "puzzle": (lambda _tmp: _puzzle(), True),
    "gym-with-the-library": (lambda _tmp: PuzzleSet(progress=Progress(store=MemoryStore())), True),
    "gym-with-no-puzzle-on-show": (lambda tmp: PuzzleSet(source=tmp, progress=Progress(store=MemoryStore())), False),
    "game": (lambda _tmp: GameWidget(bot="heuristic", seed=3), True),
    "editor": (lambda _tmp: PuzzleEditor(), True),
}


@pytest.mark.parametrize("name", sorted(WIDGETS))
def test_a_widgets_display_carries_its_picture_beside_the_widget_view(name: str, tmp_path: Path) -> None:
    make, pictured = WIDGETS[name]
    widget = make(tmp_path)
    assert isinstance(widget, PictureBox)
    bundle = widget._repr_mimebundle_()
    assert bundle is not None and WIDGET_VIEW in bundle
    picture = widget.picture()
    if pictured:
        assert picture is not None and picture.startswith("<svg") and bundle["image/svg+xml"] == picture
    else:
        assert picture is None and "image/svg+xml" not in bundle
