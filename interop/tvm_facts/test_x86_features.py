"""TVM's ``test_x86_features.py``: which x86 CPUs (and -mattr) have which LLVM features."""

from __future__ import annotations

import pytest

import tcfg
from tcfg.compat.tvm import Target, codegen
from tcfg.compat.tvm.codegen import target_has_features

from .facts import fact

X = "llvm -mtriple=x86_64-- -mcpu="
FACTS = [
    fact(X + "btver2", "sse4a", True),
    fact(X + "penryn", "sse4.1", True),
    *(fact(X + cpu, "sse4.2", True) for cpu in ("silvermont", "slm", "goldmont", "goldmont-plus", "tremont",
                                                 "nehalem", "corei7", "westmere", "bdver1", "bdver2", "bdver3",
                                                 "x86-64-v2")),
    *(fact(X + cpu, "avx", True) for cpu in ("sandybridge", "corei7-avx", "ivybridge", "core-avx-i")),
    *(fact(X + cpu, "avx2", True) for cpu in ("haswell", "core-avx2", "broadwell", "skylake", "bdver4", "znver1",
                                               "znver2", "znver3", "x86-64-v3")),
    fact(X + "skylake-avx512", "avx512bw", True),
    fact(X + "skx", "avx512bw", True),
    fact(X + "knl", "avx512bw", False),
    fact(X + "knl", "avx512f", True),
    fact(X + "knl", ["avx512bw", "avx512f"], False),
    fact(X + "knl", ("avx512bw", "avx512f"), False),
    fact(X + "knl", "avx512cd", True),
    fact(X + "knl", ["avx512cd", "avx512f"], True),
    fact(X + "knl", ("avx512cd", "avx512f"), True),
    fact(X + "knl", "avx512er", True, differs="llvm-removed"),
    fact(X + "knl", "avx512pf", True, differs="llvm-removed"),
    fact(X + "knm", "avx512bw", False),
    fact(X + "knm", "avx512f", True),
    fact(X + "knm", "avx512cd", True),
    fact(X + "knm", "avx512er", True, differs="llvm-removed"),
    fact(X + "knm", "avx512pf", True, differs="llvm-removed"),
    fact(X + "x86-64-v4", "avx512bw", True),
    fact(X + "cannonlake", "avx512bw", True),
    fact(X + "alderlake", "avx512bw", False),
    *(fact(X + cpu, "avx512bw", True) for cpu in ("cascadelake", "icelake-client", "icelake-server", "rocketlake",
                                                   "tigerlake", "cooperlake", "sapphirerapids")),
    fact(X + "alderlake", "avx512vnni", False),
    fact(X + "alderlake", "avxvnni", True),
    *(fact(X + cpu, "avx512vnni", True) for cpu in ("cascadelake", "icelake-client", "icelake-server", "rocketlake",
                                                     "tigerlake", "cooperlake", "sapphirerapids")),
    fact(X + "sapphirerapids", "amx-int8", True),
    fact(X + "x86-64 -mattr=+sse4.1,+avx2", "avx2", True),
    fact(X + "x86-64 -mattr=+sse4.1,+avx2", "sse4.1", True),
    fact(X + "x86-64 -mattr=+sse4.1,+avx2", "ssse3", True),
    fact(X + "ivybridge -mattr=-ssse3", "ssse3", False),
    fact(X + "cascadelake -mattr=-avx512f", "avx512bw", False),
]  # fmt: skip


def test_no_target_and_no_context_is_an_error() -> None:
    with pytest.raises(tcfg.TargetError, match="Target context required"):
        target_has_features("avx")


@pytest.mark.parametrize(("spec", "feature", "supported"), FACTS)
def test_x86_target_features(spec: str, feature: str | list[str], supported: bool) -> None:
    assert target_has_features(feature, Target(spec)) == supported
    with Target(spec):
        assert Target.current(False).mcpu == spec.split("-mcpu=")[1].split()[0]  # type: ignore[union-attr]
        assert target_has_features(feature) == supported
        assert codegen.llvm_cpu_has_features(feature) == supported
        if not Target(spec).mattr and isinstance(feature, str):
            assert (feature in codegen.llvm_get_cpu_features()) == supported
