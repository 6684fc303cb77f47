"""The text layer: the message catalogue (``locale/``) and what puts the engine's results into words.

See docs/architecture.md for the layers and what may import what."""
