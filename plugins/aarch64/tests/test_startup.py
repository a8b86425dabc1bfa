"""What registering the plugin and building one AArch64 target read and import (issue 15: start-up cost).

Run in a fresh interpreter: in this one, other tests have loaded every table already.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_CHILD = """
import json, sys
import tcfg
from tcfg.testing import registry_with
import tcfg_aarch64.plugin
from tcfg_aarch64 import facts

read = []
load = facts.load
facts.load = lambda name: read.append(name) or load(name)
reg = registry_with(tcfg_aarch64.plugin)
spec = {"kind": "llvm", "mtriple": "aarch64-linux-gnu", "mcpu": "cortex-a72", "mattr": ["+neon"]}
neon = tcfg.Target(spec, registry=reg).features.neon
modules = sorted(m for m in sys.modules if m.startswith("tcfg_aarch64"))
print(json.dumps({"read": read, "neon": neon, "modules": modules}))
"""


@pytest.fixture(scope="module")
def child() -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True).stdout
    result: dict[str, object] = json.loads(out)
    return result


def test_one_aarch64_target_reads_the_index_and_its_own_cpu_only(child: dict[str, object]) -> None:
    assert child["neon"] is True
    # neither 32-bit Arm's table, nor AArch64's architectures, nor any other CPU
    assert child["read"] == ["index.json", "aarch64.json", "aarch64-cpus/cortex-a72.json"]


def test_detection_and_codegen_modules_are_not_imported_to_build_a_target(child: dict[str, object]) -> None:
    modules = child["modules"]
    assert isinstance(modules, list)
    assert "tcfg_aarch64.detect" not in modules and "tcfg_aarch64.codegen" not in modules
    assert "tcfg_aarch64.parser" in modules
