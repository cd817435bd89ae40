"""The start-up heap kept out of Python's garbage collector.

Loading the embedding model and its libraries leaves ~530k long-lived objects, and a full
collection walks all of them: ~300 ms with the event loop stopped (measured with the
services the server opens). Python runs one when enough objects have survived into the old generation (a quarter
of its size), which in a long-running server happens now and then; each would stop every
request in flight for that long. Frozen after start-up, those objects are never walked again:
a full collection then takes well under a millisecond. They live as long as the process, so
nothing that should be freed is kept.
"""
from __future__ import annotations

import atexit
import gc


def freeze_startup_heap() -> None:
    """Call once everything long-lived is loaded (the model, the driver, the schema)."""
    gc.collect()
    gc.freeze()
    # Back into the collector's view at exit, so interpreter shutdown frees them as usual
    # (frozen, native extensions report them as leaked when the process ends).
    atexit.register(gc.unfreeze)
