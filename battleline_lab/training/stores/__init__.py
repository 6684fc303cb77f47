"""Where a learner's rows are kept: the rows, the stores and how one is opened, one module per concept.

- :mod:`.rows`: :class:`~.rows.Attempt`, one row, and :func:`~.rows.check_row`, the one gate every row passes;
- :mod:`.records`: what the rows say (the rows after the last reset, each puzzle's record, the games);
- :mod:`.base`: the store protocol (:class:`~.base.AttemptStore`) and the reader's cursor;
- :mod:`.memory`, :mod:`.jsonl`, :mod:`.sqlite`: the back ends (the JSON-lines one sets damaged lines aside);
- :mod:`.readonly`: a store that cannot be written, and the reader of ``progress export``;
- :mod:`.legacy`: the old ``progress.json``;
- :mod:`.identity`: whose a data folder is (its learner's random id and name, ``learner.json``);
- :mod:`.folders`: the data folder (settings, a class folder, the browser's drive);
- :mod:`.opening`: :func:`~.opening.open_store`, the store of a data folder;
- :mod:`.transfer`: the export document that moves progress between browsers.

The facade over them, :class:`battleline_lab.training.progress.Progress`, is what the rest of the
package uses; that module also re-exports every public name here.  Nothing here imports it.
"""
