"""The first target's fixed shape: what a fresh process pays for the modules and record types alone.

Issue 25 asks for small modules (one job per file) and records made with ``dataclasses`` and
``typing.NamedTuple``. Both have a price per process that no code inside them can lower: each
module import costs the interpreter's import machinery, and each record type compiles its
generated methods from source. :func:`probe` finds, in a child that builds the first AArch64
target, which modules of tcfg and its plugins it imports, which other modules it
adds to those of the tools child, and the shape of every dataclass and NamedTuple those
modules define; :func:`write_package` writes a package of as many modules, empty but for
record types of the same shapes; importing it (after the tools child's work) is the shape's
cost, measured by ``bench_core.py`` beside the first target.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

PACKAGE = "tcfg_shape"

#: Run in a child after the tools child's code and the first target: prints the shape as JSON.
_PROBE = """
import dataclasses, json, sys
def ours(name):
    return name == "tcfg" or name.startswith(("tcfg.", "tcfg_"))
modules = [name for name in sys.modules if ours(name)]
records = []
for name in modules:
    for cls in vars(sys.modules[name]).values():
        if not isinstance(cls, type) or cls.__module__ != name:
            continue
        if "__dataclass_fields__" in vars(cls):
            params = cls.__dataclass_params__
            flags = {f: getattr(params, f) for f in ("init", "repr", "eq", "order", "unsafe_hash", "frozen")}
            fields = [
                [f.name, f.init, f.repr, f.compare,
                 f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING]
                for f in dataclasses.fields(cls)
            ]
            records.append({"dataclass": flags, "fields": fields})
        elif issubclass(cls, tuple) and "_fields" in vars(cls):
            records.append({"namedtuple": len(cls._field_defaults), "fields": list(cls._fields)})
added = sorted(name for name in sys.modules if name not in before and not ours(name))
print(json.dumps({"modules": modules, "added": added, "records": records}))
"""


def probe(tools: str, start: str) -> dict[str, Any]:
    """The shape of the first target: ``modules`` of tcfg and plugins, ``added``: the other modules it adds
    to the tools child's, and ``records`` (one entry per dataclass or NamedTuple type)."""
    code = f"{tools}\nimport sys\nbefore = set(sys.modules)\n{start}\n{_PROBE}"
    out = subprocess.run([sys.executable, "-c", code], check=True, stdout=subprocess.PIPE, text=True).stdout
    shape: dict[str, Any] = json.loads(out)
    return shape


def _record_source(index: int, record: dict[str, Any]) -> str:
    fields = record["fields"]
    if "namedtuple" in record:
        defaults = record["namedtuple"]
        first_default = len(fields) - defaults
        lines = [f"    {name}: object" + (" = None" if i >= first_default else "") for i, name in enumerate(fields)]
        return f"class R{index}(NamedTuple):\n" + ("\n".join(lines) or "    pass") + "\n"
    flags = ", ".join(f"{k}={v}" for k, v in record["dataclass"].items())
    lines = []
    for name, init, repr_, compare, has_default in fields:
        options = [f"init={init}", f"repr={repr_}", f"compare={compare}"] + (["default=None"] if has_default else [])
        lines.append(f"    {name}: object = field({', '.join(options)})")
    return f"@dataclass({flags})\nclass R{index}:\n" + ("\n".join(lines) or "    pass") + "\n"


def write_package(shape: dict[str, Any], root: Path) -> str:
    """Write :data:`PACKAGE` under ``root``, as many modules as ``shape["modules"]`` with its record
    types spread over them; returns the code that imports it (and the added standard library)."""
    package = root / PACKAGE
    package.mkdir()
    count = len(shape["modules"])
    head = "from dataclasses import dataclass, field\nfrom typing import NamedTuple\n"
    sources = [head for _ in range(max(count - 1, 1))]  # the package itself is the last module
    for index, record in enumerate(shape["records"]):
        sources[index % len(sources)] += "\n\n" + _record_source(index, record)
    for index, source in enumerate(sources):
        (package / f"m{index}.py").write_text(source, encoding="utf-8")
    imports = "".join(f"from {PACKAGE} import m{i}\n" for i in range(len(sources)))
    (package / "__init__.py").write_text(imports, encoding="utf-8")
    return f"import {', '.join([*top(shape), PACKAGE])}\n"


def top(shape: dict[str, Any]) -> list[str]:
    """The modules the first target adds to the tools child's (the standard library's), without submodules
    and private modules (which importing them brings)."""
    return [name for name in shape["added"] if "." not in name and not name.startswith("_")]
