"""TVM's ``test_riscv_features.py``: the vector width of RISC-V targets (the least VLEN, ``zvlNb``)."""

from __future__ import annotations

import pytest

from tcfg.compat.tvm import Target
from tcfg.compat.tvm.codegen import llvm_get_vector_width

from .facts import fact

R = "llvm -device=riscv_cpu -mtriple="
FACTS = [
    fact(R + "riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+i,+m", 128),
    fact(R + "riscv32-linux-gnu -mcpu=generic-rv32 -mattr=+64bit,+a,+c,+d,+f,+m", 128, differs="rv32-64bit"),
    fact(R + "riscv32-linux-gnu -mcpu=generic-rv32 -mattr=+i,+m,+v", 128),
    fact(R + "riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+64bit,+a,+c,+d,+f,+m,+v", 128),
    fact(R + "riscv32-linux-gnu -mcpu=generic-rv32 -mattr=+i,+m,+v,+zvl64b", 128),
    fact(R + "riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+64bit,+a,+c,+d,+f,+m,+v,+zvl256b", 256),
    fact(R + "riscv64-linux-gnu -mcpu=generic-rv64 -mattr=+64bit,+a,+c,+d,+f,+m,+v,+zvl512b", 512),
    fact(R + "riscv64-linux-gnu -mcpu=sifive-x280", 512),
    fact(R + "riscv64-linux-gnu -mcpu=sifive-p670", 128),
    fact(R + "riscv64-linux-gnu -mcpu=spacemit-x60", 256),
]


@pytest.mark.parametrize(("spec", "width"), FACTS)
def test_riscv_rvv_features(spec: str, width: int) -> None:
    with Target(spec):
        assert llvm_get_vector_width() == width
