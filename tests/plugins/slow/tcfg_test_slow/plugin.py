"""Takes two seconds to import, then registers a tag."""

import time
from typing import Any

from tcfg.plugin import hookimpl

time.sleep(2)


@hookimpl
def tcfg_register_tags(register: Any) -> None:
    register("slow/box", {"kind": "llvm", "mtriple": "x86_64-linux-gnu"})
