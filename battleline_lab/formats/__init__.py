"""Reading and writing files safely: safe YAML with located errors, atomic writes, size limits.

See docs/architecture.md for the layers and what may import what."""
