"""Write a plugin's ``tests/fixtures/tvm.json``: Apache TVM's own view of a kind and of some of its tags.

Run with a Python that has Apache TVM installed (tcfg never imports TVM)::

    python interop/scripts/snapshot_tvm.py PLUGIN_DIR KIND PREFIX [PREFIX ...]
    python interop/scripts/snapshot_tvm.py plugins/aws trn aws/trn
    python interop/scripts/snapshot_tvm.py plugins/apple metal apple/
    python interop/scripts/snapshot_tvm.py plugins/riscv llvm riscv/

The plugin's tests compare its kind and tags against the snapshot.
"""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path
from typing import Any

import tvm


def _plain(value: Any) -> Any:
    """A TVM export value as JSON data (nested targets as dicts, arrays as lists)."""
    if isinstance(value, dict) or hasattr(value, "items"):  # TVM's Map too
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "Array":
        return [_plain(v) for v in value]
    if isinstance(value, tvm.target.Target):
        return _plain(dict(value.export()))
    return value if isinstance(value, (bool, int, float, str)) or value is None else str(value)


def snapshot(kind: str, prefixes: tuple[str, ...]) -> dict[str, Any]:
    """TVM's export and keys of the bare ``kind`` and of every tag whose name starts with one of ``prefixes``."""
    tags = {
        name: {"export": _plain(dict(target.export())), "keys": list(target.keys)}
        for name, target in sorted(tvm.target.list_tags().items())
        if name.startswith(prefixes)
    }
    bare = tvm.target.Target({"kind": kind})
    return {
        "source": f"Apache TVM {tvm.__version__}: tvm.target.list_tags() and Target({{'kind': '{kind}'}}).export()",
        "date": datetime.date.today().isoformat(),
        "kind": {"export": _plain(dict(bare.export())), "keys": list(bare.keys)},
        "tags": tags,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("plugin", type=Path, help="the plugin's directory (plugins/NAME)")
    parser.add_argument("kind", help="the TVM kind to export")
    parser.add_argument("prefixes", nargs="+", help="tag name prefixes to export")
    args = parser.parse_args(argv)
    path = args.plugin / "tests" / "fixtures" / "tvm.json"
    path.write_text(json.dumps(snapshot(args.kind, tuple(args.prefixes)), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
