"""Building the engine's frozen value objects quickly: in a plain object, then given their class.

The claim proofs make many small frozen dataclasses (:class:`~.claims.Step`,
:class:`~.claims.ClaimAnalysis`, :class:`~.formations.Formation`): a position's proofs say about
twenty steps, and making them is most of what reading a proof costs.  The quickest way CPython
(3.11 and later) makes an object of a few attributes is to set them one by one on an instance of a
plain class: each store is one specialised instruction, with no dict literal and no
``object.__setattr__`` call (about twice as fast as setting a new instance dict, and three times
as fast as the dataclass's own ``__init__``).  A frozen dataclass refuses those stores, so the
hot builders make the object as a :class:`Blank` and then give it its class::

    step = _StepBlank()
    step.reason = reason
    ...
    step.__class__ = Step

Python allows that class change between classes of the same layout: an instance dict and a weak
reference, no ``__slots__`` (a frozen dataclass without ``slots=True`` and a :class:`Blank`).  The
fields left out keep their class defaults (a dataclass field's default is a class attribute).
What the object is afterwards is an ordinary instance of its class: its fields, equality,
hashing, ``repr``, ``dataclasses.replace`` and pickling read attributes and see the same values
(``tests/test_build.py`` checks each builder against the class's own constructor), and it is as
frozen as any other.  On Python 3.10 it is as fast as the dict it replaces.

Each target class has its own blank subclass, so that each keeps one table of attribute names
(CPython shares one per class).
"""

from __future__ import annotations

__all__ = ["Blank"]


class Blank:
    """A plain object a frozen value is built in, then given its class (see the module docstring)."""
