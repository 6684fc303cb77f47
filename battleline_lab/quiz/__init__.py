"""Puzzles: the puzzle model, its files (loader), the bundled library, the question kinds, the one check.

See docs/architecture.md for the layers and what may import what."""
