"""The x86 plugin's dnnl compiler and -libs libraries, swept over every CPU of the LLVM table."""

from __future__ import annotations

import pytest

import tcfg
from tcfg.plugin import package_json
from tcfg_x86.facts import load_json

#: Every x86 CPU clang-22 knows (the generated table): (64-bit, whether clang's -march for it has SSE4.1).
CPUS = {
    name: (entry["64bit"], "sse4.1" in entry["features"]) for name, entry in load_json("llvm_x86.json")["cpus"].items()
}


def test_the_sweep_is_the_whole_table() -> None:
    assert len(CPUS) > 100 and {sse for _, sse in CPUS.values()} == {True, False}


@pytest.mark.parametrize("cpu", sorted(CPUS))
def test_dnnl_is_valid_exactly_on_x86_64_cpus_with_sse41(reg: tcfg.Registry, cpu: str) -> None:
    is_64bit, sse41 = CPUS[cpu]
    triple = "x86_64-linux-gnu" if is_64bit else "i686-linux-gnu"
    spec = f"llvm -mtriple={triple} -mcpu={cpu} -compiler=dnnl"
    if not is_64bit:
        with pytest.raises(tcfg.AttributeValueError, match="triple 'i686-linux-gnu' is x86 "):
            tcfg.Target(spec, registry=reg)
    elif sse41:
        t = tcfg.Target(spec, registry=reg)
        base = tcfg.Target(f"llvm -mtriple={triple} -mcpu={cpu}", registry=reg)
        assert t.is_specialization_of(base) and "dnnl" in t.keys
        for form in (str(t), t.export(), t.to_json()):
            assert tcfg.Target(form, registry=reg) == t
    else:
        with pytest.raises(tcfg.AttributeValueError, match=rf"needs SSE4\.1, which -mcpu={cpu} lacks"):
            tcfg.Target(spec, registry=reg)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("llvm -mtriple=aarch64-linux-gnu -compiler=dnnl", "triple 'aarch64-linux-gnu' is aarch64"),
        ("c -mtriple=riscv64-unknown-linux-gnu -compiler=dnnl", "is riscv64"),
        ("llvm -mtriple=i686-linux-gnu -mcpu=skylake -compiler=dnnl", "runs on x86-64 CPUs with SSE4.1"),
        ("llvm -mtriple=i686-linux-gnu -mcpu=skylake -libs=mkl", "valid for this target: openblas"),
        ("llvm -mtriple=x86_64-linux-gnu -libs=mkll", "did you mean 'mkl'"),
        ("llvm -mtriple=aarch64-linux-gnu -libs=mkl", "mkl runs on x86-64 CPUs"),
    ],
)
def test_wrong_hardware_is_refused_with_where_it_is_valid(reg: tcfg.Registry, spec: str, message: str) -> None:
    with pytest.raises(tcfg.AttributeValueError, match=message):
        tcfg.Target(spec, registry=reg)


def test_libs_on_x86(reg: tcfg.Registry) -> None:
    t = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -mcpu=icelake-server -libs=mkl,dnnl,openblas", registry=reg)
    assert t.attrs["libs"] == ("mkl", "dnnl", "openblas")
    assert tcfg.Target(str(t), registry=reg) == t
    generic = tcfg.Target("llvm -mtriple=x86_64-linux-gnu -libs=openblas", registry=reg)
    assert generic.attrs["libs"] == ("openblas",)
    with pytest.raises(tcfg.AttributeValueError, match="dnnl needs SSE4"):
        tcfg.Target("llvm -mtriple=x86_64-linux-gnu -libs=dnnl", registry=reg)


def test_the_data_cites_its_sources() -> None:
    data = package_json("tcfg_x86", "data/byoc.json")
    assert data["source"] and data["date"]
    for need in data["requirements"].values():
        assert need["source"] in data["sources"]
