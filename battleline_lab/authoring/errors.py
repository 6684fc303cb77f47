"""The one error the puzzle editor raises: an edit or a save it refuses, said in either language."""

from __future__ import annotations

from typing import Any

from ..text.messages import DEFAULT_LANGUAGE, message

__all__ = ["EditorError"]


class EditorError(ValueError):
    """An edit the session refuses (a bad card token, an unknown place, a file that exists).

    ``key`` and ``params`` name the catalogue message (``editor.error.<code>``), so a view can
    say it in any language; ``str()`` is the English text.
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.key = f"editor.error.{code}"
        self.params = params
        super().__init__(message(self.key, "en", **params))

    def text(self, lang: str = DEFAULT_LANGUAGE) -> str:
        return message(self.key, lang, **self.params)
