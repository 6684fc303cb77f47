"""The learner's side: progress store, ratings (Glicko-2), the trainer, hints, the class's reports.

See docs/architecture.md for the layers and what may import what."""
