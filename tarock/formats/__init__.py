"""Record formats, each with ``loads``/``dumps``-style calls: the JSON codec, the streaming file reader, ``.trk``, score-sheet CSV, OpenSpiel import, and the shared writer."""
