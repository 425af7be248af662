"""The child process of ``dashboards.analyse_now``: one deal's per-card analysis, as JSON lines.

Reads one request from standard input, ``{"record", "options_json", "from_trick", "limit"}``, and writes
``{"progress": [done, total]}`` after each card and then ``{"report": ...}`` (``analyse_deal``'s report, its
tricks analysed from the last one back within ``limit`` CPU seconds) to standard output.  It imports the solver
alone, so it starts in about a third of a second, and the kernel ends it a few CPU seconds past its limit, even
when the dashboard that started it was killed.
"""

from __future__ import annotations

import resource
import sys

import orjson

from tarock.formats.codec import loads
from tarock.solver.analyse import analyse_deal


def main() -> None:
    """Answer the request on standard input."""
    request = orjson.loads(sys.stdin.buffer.read())
    limit = float(request["limit"])
    cpu = int(limit) + 5
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    out = sys.stdout.buffer

    def progress(done: int, total: int) -> None:
        out.write(orjson.dumps({"progress": [done, total]}) + b"\n")
        out.flush()

    options = orjson.loads(request["options_json"]) if request["options_json"] else None
    report = analyse_deal(loads(request["record"]), int(request["from_trick"]), progress, options=options,
                          limit=limit)
    out.write(orjson.dumps({"report": report}) + b"\n")
    out.flush()


if __name__ == "__main__":
    main()
