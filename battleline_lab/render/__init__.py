"""Pictures as pure functions: the board, cards and proofs as SVG and HTML text.

See docs/architecture.md for the layers and what may import what."""
