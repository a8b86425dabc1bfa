"""The issue's AArch64/Arm defects, each pinned to what LLVM 22 does (from the generated tables).

No tool runs here: the truth sweep (``truth/``) checks the same facts against clang-22,
opt-22 and llc-22, for every CPU.
"""

from __future__ import annotations

import pytest

import tcfg
from tcfg_aarch64.facts import aarch64, arm

A64 = "llvm -mtriple=aarch64-linux-gnu"


def _clang_items(t: tcfg.Target) -> list[str]:
    flags = t.codegen().to_dict()["clang"]
    return [flags[i + 2] for i, f in enumerate(flags) if f == "-target-feature"]


def _llc_items(t: tcfg.Target) -> list[str]:
    attr = [f for f in t.codegen().to_dict()["llc"] if f.startswith("-mattr=")]
    return attr[0][len("-mattr=") :].split(",") if attr else []


def _llc_adds(t: tcfg.Target) -> set[str]:
    """What llc's -mattr turns on: each +f and what f implies (``+mec`` brings ``rme``)."""
    family = aarch64() if t.features.is_aarch64 else arm()
    out: set[str] = set()
    for item in _llc_items(t):
        if item.startswith("+"):
            out |= {item[1:]} | family.implies.get(item[1:], frozenset())
    return out


@pytest.mark.parametrize(
    ("spec", "off"),
    [
        (f"{A64} -march=armv9-a+nosve", ("sve", "sve2")),
        (f"{A64} -march=armv9-a+nosve2", ("sve2",)),
        (f"{A64} -march=armv9-a+nofp16", ("fullfp16", "sve", "sve2")),
    ],
)
def test_clang_flags_keep_removed_features_off(spec: str, off: tuple[str, ...]) -> None:
    t = tcfg.Target(spec)
    items = _clang_items(t)
    for feat in off:
        assert t.features[feat] is False
        assert f"-{feat}" in items, items
    assert tcfg.Target(f"{A64} -march=armv8.2-a+nofp16").features.fullfp16 is False
    # additions come first, so clang's expansion of +v9a cannot undo a removal
    signs = [i[0] for i in items]
    assert signs == sorted(signs, key="+-".index), items


def test_fp16_implies_fp16fml_from_armv8_4() -> None:
    assert tcfg.Target(f"{A64} -march=armv8.4-a+fp16").features.fp16fml is True
    assert tcfg.Target(f"{A64} -march=armv8.2-a+fp16").features.fp16fml is False
    # clang does not turn back on what was removed explicitly
    assert tcfg.Target(f"{A64} -march=armv8.4-a+nofp16fml+fp16").features.fp16fml is False


@pytest.mark.parametrize(
    ("spec", "added"),
    [
        ("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a7", "+neon"),
        ("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a9", "+neon"),
        ("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a15", "+neon"),
        ("llvm -mtriple=armv7a-linux-gnueabihf -mcpu=cortex-a7", "+read-tp-tpidruro"),
        (f"{A64} -mcpu=ampere1", "+fp16fml"),
        (f"{A64} -mcpu=ampere1a", "+fp16fml"),
        (f"{A64} -mcpu=apple-m1", "+ccidx"),
        (f"{A64} -mcpu=apple-m4", "+ccidx"),
        (f"{A64} -mcpu=cortex-x4", "+rme"),
        (f"{A64} -mcpu=cortex-x4", "+mec"),
        (f"{A64} -mcpu=cortex-x925", "+rme"),
        (f"{A64} -mcpu=cortex-a720", "+mec"),
        (f"{A64} -mcpu=neoverse-n3", "+rme"),
    ],
)
def test_llc_flags_state_what_llcs_cpu_lacks(spec: str, added: str) -> None:
    t = tcfg.Target(spec)
    name = added[1:].replace("-", "_")
    assert t.features[name] is True
    assert added[1:] in _llc_adds(t), _llc_items(t)
    assert added not in _clang_items(t)  # clang's CPU table has it already


def test_oryon_1_has_fp16fml_under_llc_22_as_well() -> None:
    # The issue saw oryon-1 without FP16FML under llc; llc 22.1.8's oryon-1 has it
    # (the truth sweep assembles FMLAL with -mcpu=oryon-1), so no -mattr is needed.
    t = tcfg.Target(f"{A64} -mcpu=oryon-1")
    assert t.features.fp16fml is True and "fp16fml" in aarch64().cpus["oryon-1"].llc_features


@pytest.mark.parametrize(
    ("spec", "expect"),
    [
        (f"{A64} -mcpu=neoverse-v2 -mattr=+sha3,-aes", {"aes": False, "sha2": True, "sha3": True}),
        (f"{A64} -mcpu=neoverse-v2 -mattr=-sve", {"sve": False, "sve2": False, "sve_bitperm": True}),
        (f"{A64} -mattr=+v9a", {"sve": False, "sve2": False, "lse": True, "lse2": True}),
        (f"{A64} -mcpu=neoverse-v1 -mattr=-neon", {"neon": False, "dotprod": False, "sve": True}),
        (
            "c -mtriple=thumbv7em-none-eabihf -mcpu=cortex-m7 -mattr=-fp64",
            {"fp64": False, "vfp4d16": False, "fp_armv8d16": False, "vfp4d16sp": True, "fp_armv8d16sp": True},
        ),
    ],
)
def test_mattr_is_llvms_implication(spec: str, expect: dict[str, bool]) -> None:
    f = tcfg.Target(spec).features
    assert {k: f[k] is True for k in expect} == expect


def test_stm32f746_is_single_precision_fpv5() -> None:
    f = tcfg.Target("st/stm32f746g-disco").features
    assert f.fpu == "fpv5-sp-d16" and f.vfp4d16sp is True and f.vfp4d16 is False and f.fp64 is False


def test_architecture_version_implies_backend_features() -> None:
    f = tcfg.Target(f"{A64} -mcpu=neoverse-v2").features
    assert all(f[name] is True for name in ("lse2", "fptoint", "pan", "lor", "vh"))
    assert "v8.4a" in f.explain("lse2") or "neoverse-v2" in f.explain("lse2")


def test_mcpu_with_march_keeps_the_cpus_features() -> None:
    f = tcfg.Target(f"{A64} -mcpu=cortex-a76 -march=armv8.2-a").features
    assert f.dotprod is True and f.arch == "armv8.2-a"
    assert tcfg.Target(f"{A64} -mcpu=cortex-a76 -march=armv8.2-a").codegen().to_dict()["cpu"] == "cortex-a76"


@pytest.mark.parametrize("triple", ["aarch64-linux-gnu", "armv7a-linux-gnueabihf", "thumbv7em-none-eabi"])
def test_mcpu_generic_is_accepted(triple: str) -> None:
    t = tcfg.Target(f"llvm -mtriple={triple} -mcpu=generic")
    assert t.codegen().to_dict()["cpu"] == "generic"


def test_cpu_names_are_read_in_lower_case_as_clang_does() -> None:
    t = tcfg.Target(f"{A64} -mcpu=CORTEX-A72")
    assert t == tcfg.Target(f"{A64} -mcpu=cortex-a72") and "-mcpu=cortex-a72" in str(t)


@pytest.mark.parametrize(
    ("march", "on"),
    [
        ("armv8.2-a+dotprod+i8mm+bf16", ("dotprod", "i8mm", "bf16")),
        ("armv8-a+simd", ("neon",)),
        ("armv7-a+fp", ("vfp3d16",)),
        ("armv8.1-m.main+fp.dp", ("fp64",)),
    ],
)
def test_aarch32_march_extensions(march: str, on: tuple[str, ...]) -> None:
    f = tcfg.Target(f"llvm -mtriple=arm-none-eabihf -march={march}").features
    assert all(f[n] is True for n in on), f


def test_aarch32_nofp_and_refused_suffixes() -> None:
    f = tcfg.Target("llvm -mtriple=arm-none-eabihf -march=armv7-a+nofp").features
    assert f.vfp2 is False and f.neon is False
    with pytest.raises(tcfg.TargetError, match=r"armv7e-m.*fp\.dp|fp\.dp.*armv7e-m"):
        tcfg.Target("llvm -mtriple=thumbv7em-none-eabihf -march=armv7e-m+fp.dp")


def test_fpu_name_of_crypto_cores() -> None:
    f = tcfg.Target("llvm -mtriple=armv8a-none-eabihf -mcpu=cortex-a53").features
    assert f.fpu == "crypto-neon-fp-armv8" and f.aes is True and f.sha2 is True


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        (f"{A64} -march=armv8.2-a+nosuch", ("-march", "nosuch")),
        (f"{A64} -mcpu=cortex-a72 -mattr=+nosuch", ("-mattr", "nosuch")),
        (f"{A64} -mcpu=cortex-a99", ("-mcpu", "cortex-a")),
    ],
)
def test_bad_input_names_option_and_choices(spec: str, words: tuple[str, ...]) -> None:
    with pytest.raises(tcfg.TargetError) as err:
        tcfg.Target(spec)
    assert all(w in str(err.value) for w in words), str(err.value)
