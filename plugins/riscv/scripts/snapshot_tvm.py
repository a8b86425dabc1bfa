"""Write tests/fixtures/tvm.json: Apache TVM's own view of the llvm kind and its riscv/* tags.

Run with a Python that has Apache TVM installed (tcfg never imports TVM):
``/work/tvmvenv/bin/python scripts/snapshot_tvm.py``. The tests compare this plugin's
kind and tags against the snapshot.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import tvm  # type: ignore[import-not-found]

KIND = "llvm"
PREFIXES = ("riscv/",)


def _plain(value: Any) -> Any:
    """A TVM export value as JSON data (nested targets as dicts, arrays as lists)."""
    if isinstance(value, dict) or hasattr(value, "items"):  # TVM's Map too
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "Array":
        return [_plain(v) for v in value]
    if isinstance(value, tvm.target.Target):
        return _plain(dict(value.export()))
    return value if isinstance(value, (bool, int, float, str)) or value is None else str(value)


def main() -> None:
    tags = {
        name: {"export": _plain(dict(target.export())), "keys": list(target.keys)}
        for name, target in sorted(tvm.target.list_tags().items())
        if name.startswith(PREFIXES)
    }
    bare = tvm.target.Target({"kind": KIND})
    out = {
        "source": f"Apache TVM {tvm.__version__}: tvm.target.list_tags() and Target({{'kind': '{KIND}'}}).export()",
        "date": datetime.date.today().isoformat(),
        "kind": {"export": _plain(dict(bare.export())), "keys": list(bare.keys)},
        "tags": tags,
    }
    path = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "tvm.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
