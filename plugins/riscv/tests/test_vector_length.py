"""``zvlNb`` in ``-mattr``: the minimum vector length, against clang-22's ``__riscv_v_min_vlen``.

TVM reads ``-mattr=+v,+zvl256b`` as a 256-bit vector length; clang-22 defines
``__riscv_v_min_vlen`` as the largest ``zvlNb`` the ISA has (with ``v``: at least 128).
"""

from __future__ import annotations

import re
import subprocess

import pytest

import tcfg

CASES = [
    ("+v", ""),
    ("+v,+zvl256b", ""),
    ("+v,+zvl512b", ""),
    ("+v,+zvl1024b", ""),
    ("+zve32x,+zvl64b", ""),
    ("+zve64d,+zvl256b", ""),
    ("", "spacemit-x60"),
]


def _target(reg: tcfg.Registry, mattr: str, cpu: str) -> tcfg.Target:
    spec = "llvm -mtriple=riscv64-linux-gnu" + (f" -mcpu={cpu}" if cpu else "") + (f" -mattr={mattr}" if mattr else "")
    return tcfg.Target(spec, registry=reg)


@pytest.mark.parametrize(("mattr", "cpu"), CASES)
def test_vlen_bits_is_clangs_min_vlen(reg: tcfg.Registry, clang: str, mattr: str, cpu: str) -> None:
    target = _target(reg, mattr, cpu)
    flags = target.codegen().clang_flags()  # type: ignore[attr-defined]
    proc = subprocess.run(
        [clang, *flags, "-E", "-dM", "-x", "c", "-"], input="", capture_output=True, text=True, check=True
    )
    found = re.search(r"#define __riscv_v_min_vlen (\d+)", proc.stdout)
    assert found is not None, proc.stdout[:400]
    assert target.features.vlen_bits == int(found.group(1))


def test_zvl_features_follow_the_width(reg: tcfg.Registry) -> None:
    target = _target(reg, "+v,+zvl512b", "")
    assert target.features.vlen_bits == 512
    assert all(target.features[f"zvl{n}b"] for n in (32, 64, 128, 256, 512))
    assert not target.features.zvl1024b
    assert "zvl512b" in target.features.explain("vlen_bits")


def test_removing_a_smaller_width_removes_the_larger(reg: tcfg.Registry, llc: str) -> None:
    """As llc-22 does (its ISA string drops zvl512b); clang-22's ``__riscv_v_min_vlen`` still says 512
    for these ``-target-feature`` flags, so llc, which compiles the code, is the truth here."""
    target = _target(reg, "+v,+zvl512b,-zvl256b", "")
    assert not target.features.zvl512b and not target.features.zvl256b
    assert target.features.vlen_bits == 128
    proc = subprocess.run(
        [llc, *target.codegen().llc_flags(), "-o", "-"],  # type: ignore[attr-defined]
        input="", capture_output=True, text=True, check=True,
    )  # fmt: skip
    isa = re.search(r'\.attribute\s+5, "([^"]+)"', proc.stdout)
    assert isa is not None and "zvl128b" in isa.group(1) and "zvl256b" not in isa.group(1)


def test_a_width_without_a_vector_extension_is_refused(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="Zvl"):
        _target(reg, "+zvl256b", "")
