"""The rules engine: cards, formations, positions, claims and their proofs, odds (standard library only).

See docs/architecture.md for the layers and what may import what."""
