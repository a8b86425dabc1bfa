"""Every rule of the tables, each with a target that passes and one that fails (and why)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import tcfg
from tcfg_tensorrt.facts import format_version, parse_version

Build = Callable[[str], tcfg.Target]

TRT = "cuda -compiler=tensorrt"

# (rule, passing target, failing target, words the error must contain)
CASES = [
    ("arch required", f"{TRT} -arch=sm_80 -trt_version=10.3", f"{TRT} -trt_version=10.3", ["-arch=sm_87"]),
    ("version syntax", f"{TRT} -arch=sm_80 -trt_version=11.4.1", f"{TRT} -arch=sm_80 -trt_version=11", ["11"]),
    ("known major", f"{TRT} -arch=sm_80 -trt_version=10.0", f"{TRT} -arch=sm_80 -trt_version=9.3", ["9.x", "10.0 to"]),
    (
        "known minor",
        f"{TRT} -arch=sm_80 -trt_version=11.5",
        f"{TRT} -arch=sm_80 -trt_version=11.9",
        ["11.5", "unknown"],
    ),
    (
        "volta until 10.4",
        f"{TRT} -arch=sm_70 -trt_version=10.4",
        f"{TRT} -arch=sm_70 -trt_version=10.5",
        ["10.5", "Volta"],
    ),
    ("volta in 11", f"{TRT} -arch=sm_70 -trt_version=10.0", f"{TRT} -arch=sm_70 -trt_version=11.0", ["7.0"]),
    ("xavier", f"{TRT} -arch=sm_87 -trt_version=10.3", f"{TRT} -arch=sm_72 -trt_version=10.3", ["8.5.2", "Xavier"]),
    ("pascal", f"{TRT} -arch=sm_75 -trt_version=10.3", f"{TRT} -arch=sm_61 -trt_version=10.3", ["6.1", "Pascal"]),
    ("maxwell nano", f"{TRT} -arch=sm_86 -trt_version=11.0", f"{TRT} -arch=sm_53 -trt_version=10.3", ["5.3"]),
    (
        "blackwell from 10.8",
        f"{TRT} -arch=sm_100a -trt_version=10.8",
        f"{TRT} -arch=sm_100 -trt_version=10.7",
        ["10.8"],
    ),
    ("rtx 50 from 10.8", f"{TRT} -arch=sm_120 -trt_version=10.8", f"{TRT} -arch=sm_120 -trt_version=10.6", ["10.8"]),
    ("b300 from 10.14", f"{TRT} -arch=sm_103 -trt_version=10.14", f"{TRT} -arch=sm_103a -trt_version=10.13", ["10.14"]),
    ("spark from 10.14", f"{TRT} -arch=sm_121a -trt_version=11.1", f"{TRT} -arch=sm_121 -trt_version=10.12", ["10.14"]),
    ("orin jetpack 6", f"{TRT} -arch=sm_87 -trt_version=10.7", f"{TRT} -arch=sm_87 -trt_version=10.8", ["10.7"]),
    ("orin jetpack 7", f"{TRT} -arch=sm_87 -trt_version=11.4.1", f"{TRT} -arch=sm_87 -trt_version=11.4", ["11.4.1"]),
    ("thor 11", f"{TRT} -arch=sm_110a -trt_version=11.4.1", f"{TRT} -arch=sm_110 -trt_version=11.2", ["11.4.1"]),
    ("thor old name", f"{TRT} -arch=sm_101 -trt_version=10.13", f"{TRT} -arch=sm_101 -trt_version=10.12", ["Thor"]),
    (
        "fp16 flag",
        f"{TRT} -arch=sm_75 -trt_version=10.3 -trt_precisions=fp16,int8",
        f"{TRT} -arch=sm_75 -trt_version=11.0 -trt_precisions=fp16",
        ["removed the precision builder flags", "strongly typed"],
    ),
    (
        "bf16 from ampere",
        f"{TRT} -arch=sm_80 -trt_version=10.3 -trt_precisions=bf16",
        f"{TRT} -arch=sm_75 -trt_version=10.3 -trt_precisions=bf16",
        ["BF16", "7.5", "fp16, int8"],
    ),
    (
        "fp8 from 8.9",
        f"{TRT} -arch=sm_89 -trt_version=10.3 -trt_precisions=fp8",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=fp8",
        ["FP8", "8.7"],
    ),
    (
        "fp8 on hopper",
        f"{TRT} -arch=sm_90a -trt_version=10.0 -trt_precisions=fp8,fp16",
        f"{TRT} -arch=sm_86 -trt_version=10.0 -trt_precisions=fp16,fp8",
        ["FP8", "8.6"],
    ),
    (
        "weak typing is gone in 11",
        f"{TRT} -arch=sm_80 -trt_version=11.0 -trt_strongly_typed",
        f"{TRT} -arch=sm_80 -trt_version=11.0 -trt_strongly_typed=false",
        ["no weak typing"],
    ),
    (
        "strong typing has no precision flags",
        f"{TRT} -arch=sm_80 -trt_version=10.9 -trt_strongly_typed",
        f"{TRT} -arch=sm_80 -trt_version=10.9 -trt_strongly_typed -trt_precisions=fp16",
        ["strongly typed network takes its precisions"],
    ),
    (
        "precision constraints only in 10.x",
        f"{TRT} -arch=sm_80 -trt_version=10.9 -trt_precisions=fp16 -trt_precision_constraints=obey",
        f"{TRT} -arch=sm_80 -trt_version=11.1 -trt_precision_constraints=obey",
        ["removed PREFER/OBEY"],
    ),
    (
        "precision constraints need weak typing",
        f"{TRT} -arch=sm_80 -trt_version=10.9 -trt_precision_constraints=prefer",
        f"{TRT} -arch=sm_80 -trt_version=10.9 -trt_strongly_typed -trt_precision_constraints=prefer",
        ["weakly typed"],
    ),
    (
        "dla only on devices with one",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=fp16 -trt_dla_core=1",
        f"{TRT} -arch=sm_86 -trt_version=10.3 -trt_precisions=fp16 -trt_dla_core=0",
        ["has no DLA", "Xavier (7.2) and Orin (8.7)"],
    ),
    (
        "dla last in 10.7",
        f"{TRT} -arch=sm_87 -trt_version=10.7 -trt_precisions=int8 -trt_dla_core=0",
        f"{TRT} -arch=sm_87 -trt_version=11.4.1 -trt_dla_core=0 -dla_cores=0",
        ["-trt_dla_core=0", "no DLA"],
    ),
    (
        "dla back in 11.4.1",
        f"{TRT} -arch=sm_87 -trt_version=11.4.1 -trt_dla_core=0",
        f"{TRT} -arch=sm_87 -trt_version=11.4 -trt_dla_core=0",
        ["Orin"],
    ),
    (
        "dla core count",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=fp16 -dla_cores=1 -trt_dla_core=0",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=fp16 -dla_cores=1 -trt_dla_core=1",
        ["1 DLA core", "valid: 0"],
    ),
    (
        "dla cores at most the arch's",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -dla_cores=2",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -dla_cores=3",
        ["at most 2"],
    ),
    (
        "dla needs fp16 or int8",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=int8 -trt_dla_core=0",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_dla_core=0",
        ["FP16 and INT8 only"],
    ),
    (
        "dla gpu-only precisions need fallback",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=fp16,bf16 -trt_dla_core=0 -trt_gpu_fallback",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=fp16,bf16 -trt_dla_core=0",
        ["bf16", "-trt_gpu_fallback"],
    ),
    (
        "gpu fallback needs dla",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_precisions=fp16 -trt_dla_core=0 -trt_gpu_fallback",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_gpu_fallback",
        ["needs -trt_dla_core"],
    ),
    (
        "sparsity from ampere",
        f"{TRT} -arch=sm_87 -trt_version=10.3 -trt_sparsity",
        f"{TRT} -arch=sm_75 -trt_version=10.3 -trt_sparsity",
        ["sparse tensor cores"],
    ),
    (
        "ampere_plus from ampere",
        f"{TRT} -arch=sm_80 -trt_version=10.3 -trt_hardware_compatibility=ampere_plus",
        f"{TRT} -arch=sm_75 -trt_version=10.3 -trt_hardware_compatibility=ampere_plus",
        ["Ampere and later"],
    ),
]


@pytest.mark.parametrize(("rule", "good", "bad", "words"), CASES, ids=[c[0] for c in CASES])
def test_rule(build: Build, rule: str, good: str, bad: str, words: list[str]) -> None:
    target = build(good)
    assert target.features.trt_version == format_version(parse_version(target.attrs["trt_version"]))
    with pytest.raises(tcfg.AttributeValueError) as caught:
        build(bad)
    message = str(caught.value)
    for word in words:
        assert word in message, (rule, message)


def test_errors_quote_the_target(build: Build) -> None:
    with pytest.raises(tcfg.TargetError, match=r"cuda -compiler=tensorrt -arch=sm_70 -trt_version=10.5"):
        build(f"{TRT} -arch=sm_70 -trt_version=10.5")


def test_unknown_options_and_compilers_name_the_choices(build: Build) -> None:
    with pytest.raises(tcfg.TargetError, match="trt_version"):
        build("cuda -arch=sm_80 -compiler=tensorrt -trt_verison=10.3")
    with pytest.raises(tcfg.TargetError, match="tensorrt"):
        build("cuda -arch=sm_80 -compiler=tensorrtx")
    with pytest.raises(tcfg.TargetError, match="-compiler=tensorrt"):
        build("cuda -arch=sm_80 -trt_version=10.3")
    with pytest.raises(tcfg.TargetError, match="'fp16'"):
        build("cuda -arch=sm_80 -compiler=tensorrt -trt_version=10.3 -trt_precisions=half")
    with pytest.raises(tcfg.TargetError, match="<= 5"):
        build("cuda -arch=sm_80 -compiler=tensorrt -trt_version=10.3 -trt_optimization_level=6")


def test_every_arch_is_either_supported_or_refused_with_a_reason(build: Build) -> None:
    from tcfg_cuda.facts import arch_names

    for arch in arch_names():
        for version in ("10.0", "10.4", "10.7", "10.15", "11.0", "11.4.1", "11.5"):
            spec = f"{TRT} -arch={arch} -trt_version={version}"
            try:
                build(spec)
            except tcfg.AttributeValueError as exc:
                assert "does not support" in str(exc) or "not in its support matrix" in str(exc), spec
