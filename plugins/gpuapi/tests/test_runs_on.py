"""``Target.runs_on`` for vulkan, opencl and webgpu code; the Vulkan version rule checked against spirv-val.

spirv-val validating a SPIR-V module for a Vulkan environment (``--target-env vulkan1.X``)
accepts the module when that Vulkan version consumes the module's SPIR-V version; the
test assembles a compute shader in every SPIR-V version and compares, for every Vulkan
version spirv-val knows, what it accepts with ``runs_on``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import tcfg
from tcfg.testing import require_tool
from tcfg_gpuapi.facts import encode_api_version, encode_spirv_version, facts

SHADER = """\
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"""

#: spirv-val's Vulkan environments (spirv-tools 2023+; vulkan1.4 is not among them yet) and the machine of each.
VULKAN_ENVS = {
    **{f"vulkan{v}": f"vulkan -vulkan_api_version={encode_api_version(v)}" for v in ("1.0", "1.1", "1.2", "1.3")},
    "vulkan1.1spv1.4": (
        f"vulkan -vulkan_api_version={encode_api_version('1.1')} -max_spirv_version={encode_spirv_version('1.4')}"
    ),
}


def _runs(code: str, machine: str) -> bool:
    return tcfg.Target(code).runs_on(tcfg.Target(machine))


def test_the_vulkan_version_rule_agrees_with_spirv_val(tmp_path: Path) -> None:
    hint = "apt install spirv-tools"
    assembler, validator = require_tool("spirv-as", hint), require_tool("spirv-val", hint)
    (tmp_path / "shader.spvasm").write_text(SHADER)
    disagreements, accepted = [], 0
    for spirv in facts()["spirv_versions"]:
        module = tmp_path / f"shader{spirv}.spv"
        src = str(tmp_path / "shader.spvasm")
        subprocess.run([assembler, "--target-env", f"spv{spirv}", src, "-o", str(module)], check=True)
        code = f"vulkan -max_spirv_version={encode_spirv_version(spirv)}"
        for env, machine in VULKAN_ENVS.items():
            valid = subprocess.run([validator, "--target-env", env, str(module)], capture_output=True).returncode == 0
            accepted += valid
            if _runs(code, machine) != valid:
                disagreements.append((spirv, env, valid))
    assert not disagreements
    assert 0 < accepted < len(facts()["spirv_versions"]) * len(VULKAN_ENVS)


V13, V12 = encode_api_version("1.3"), encode_api_version("1.2")


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        # versions: the machine's Vulkan version at least the code's
        (f"vulkan -vulkan_api_version={V12}", f"vulkan -vulkan_api_version={V13}", True),
        (f"vulkan -vulkan_api_version={V13}", f"vulkan -vulkan_api_version={V12}", False),
        (f"vulkan -vulkan_api_version={V13}", "vulkan/arm-mali-g710", True),  # Vulkan 1.3
        (f"vulkan -vulkan_api_version={V13}", "vulkan/qualcomm-adreno-640", False),  # Vulkan 1.1
        # capabilities
        ("vulkan -supports_float16=true", "vulkan/arm-mali-g710", True),
        ("vulkan -supports_float64=true", "vulkan/arm-mali-g710", False),
        ("vulkan -supports_float64=true", "vulkan/nvidia-geforce-rtx-4070", True),
        # subgroup operations (Mali: 21 = basic, arithmetic, shuffle)
        (f"vulkan -vulkan_api_version={V13} -supported_subgroup_operations=5", "vulkan/arm-mali-g710", True),
        (f"vulkan -vulkan_api_version={V13} -supported_subgroup_operations=2", "vulkan/arm-mali-g710", False),
        # limits
        ("vulkan -max_threads_per_block=512", "vulkan/arm-mali-g710", True),
        ("vulkan -max_threads_per_block=1024", "vulkan/arm-mali-g710", False),
        ("vulkan -max_shared_memory_per_block=49152", "vulkan/nvidia-geforce-rtx-4070", True),
        ("vulkan -max_shared_memory_per_block=65536", "vulkan/nvidia-geforce-rtx-4070", False),
        ("vulkan -max_push_constants_size=256", "vulkan/nvidia-geforce-rtx-4070", True),
        ("vulkan -max_push_constants_size=4096", "vulkan/nvidia-geforce-rtx-4070", False),
        ("vulkan -max_push_constants_size=128", "vulkan/arm-mali-g710", False),  # the machine gives none
        # subgroup size: within the machine's range, else equal to its subgroup size
        ("vulkan -thread_warp_size=16", "vulkan/intel-arc-a770", True),  # 8..32
        ("vulkan -thread_warp_size=64", "vulkan/intel-arc-a770", False),
        ("vulkan -thread_warp_size=32", "vulkan/arm-mali-g710", False),  # 16..16
        ("vulkan -thread_warp_size=64", "vulkan/qualcomm-adreno-640", True),  # no range; its size is 64
        ("vulkan -thread_warp_size=32", "vulkan/qualcomm-adreno-640", False),
        ("vulkan", "opencl", False),  # another kind
    ],
)
def test_vulkan(code: str, machine: str, expected: bool) -> None:
    assert _runs(code, machine) is expected


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("opencl", "qcom/adreno-opencl", True),
        ("opencl -opencl_c_version=2.0", "opencl -opencl_c_version=3.0", True),
        ("opencl -opencl_c_version=3.0", "opencl -opencl_c_version=2.0", False),
        ("opencl -max_threads_per_block=128", "opencl -max_threads_per_block=256", True),
        ("opencl -max_threads_per_block=1024", "opencl -max_threads_per_block=256", False),
        ("opencl -max_shared_memory_per_block=65536", "opencl", False),  # 16384 by default
        ("opencl -texture_spatial_limit=32768", "opencl", False),
        ("opencl -max_function_args=64", "opencl", True),
        ("opencl -image_base_address_alignment=128", "opencl -image_base_address_alignment=64", True),
        ("opencl -image_base_address_alignment=32", "opencl -image_base_address_alignment=64", False),
        ("opencl -thread_warp_size=64", "opencl -thread_warp_size=64", True),
        ("opencl -thread_warp_size=64", "opencl -thread_warp_size=32", False),
        ("opencl -thread_warp_size=64", "opencl", True),  # the machine's sub-group size is unknown
    ],
)
def test_opencl(code: str, machine: str, expected: bool) -> None:
    assert _runs(code, machine) is expected


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("webgpu", "webgpu", True),
        ("webgpu -supports_subgroups=true", "webgpu -supports_subgroups=true", True),
        ("webgpu -supports_subgroups=true", "webgpu", False),
        ("webgpu", "webgpu -supports_subgroups=true", True),
        ("webgpu -max_num_threads=128", "webgpu", True),
        ("webgpu -max_num_threads=512", "webgpu", False),
        ("webgpu -max_shared_memory_per_block=65536", "webgpu", False),
    ],
)
def test_webgpu(code: str, machine: str, expected: bool) -> None:
    assert _runs(code, machine) is expected


def test_other_kinds_are_not_answered() -> None:
    from tcfg_gpuapi.running import target_runs_on

    # kinds every environment has (this plugin's tests also run with no other plugin installed)
    assert target_runs_on(tcfg.Target("c"), tcfg.Target("c")) is None
    assert target_runs_on(tcfg.Target("c"), tcfg.Target("vulkan")) is None
