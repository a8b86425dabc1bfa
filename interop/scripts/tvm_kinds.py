"""Write ``core/tcfg/data/tvm_kinds.json``: every kind of the installed Apache TVM, its options and default keys.

Run it with the TVM that tcfg converts to (``python interop/scripts/tvm_kinds.py``);
``interop/test_tvm.py`` checks the file against the installed TVM.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import tvm

OUT = Path(__file__).resolve().parents[2] / "core" / "tcfg" / "data" / "tvm_kinds.json"


#: Options whose value TVM fixes (any other is refused): ``to_tvm`` leaves them to TVM and
#: ``from_tvm`` ignores them. Found in TVM's kind registrations; ``interop/test_tvm.py`` checks them.
FIXED = {"rocm": {"mtriple": "amdgcn-amd-amdhsa-hcc"}}


def kinds() -> dict[str, Any]:
    """Kind name -> ``{"options": sorted option names, "default_keys": [...]}``, as the installed TVM has them."""
    table = {}
    for name in sorted(tvm.target.Target.list_kinds()):
        kind = tvm.target.Target({"kind": name}).kind
        table[name] = {"options": sorted(kind.options), "default_keys": list(kind.default_keys)}
    return table


def main() -> None:
    data = {
        "source": f"apache-tvm {tvm.__version__}: tvm.target.Target.list_kinds(), TargetKind.options, .default_keys",
        "date": datetime.date.today().isoformat(),
        "version": tvm.__version__,
        "kinds": kinds(),
        "fixed": FIXED,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(data['kinds'])} kinds")


if __name__ == "__main__":
    main()
