"""``Target.runs_on`` for rocm targets, checked against clang-offload-bundler-22.

Unbundling a device archive for a GPU, the bundler extracts the code objects that are
compatible with the GPU's target ID (clang's ``isCodeObjectCompatible``, the rule of
``isCompatibleTargetID`` in ``clang/lib/Basic/TargetID.cpp``). The test bundles one code
object per target ID of a few processors, archives them, asks the bundler for each
target ID in turn, and compares what it extracts with ``runs_on``.
"""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import pytest

import tcfg
from tcfg.testing import require_tool
from tcfg_rocm.facts import processor

PROCESSORS = ("gfx906", "gfx908", "gfx90a", "gfx942", "gfx1030", "gfx1100")
KIND = "hipv4-amdgcn-amd-amdhsa--"


def _target_ids(name: str) -> list[str]:
    """Every target ID of processor ``name``: each of its target-ID features absent, on or off."""
    modifiers = sorted(processor(name).modifiers)
    ids = []
    for signs in itertools.product(("", "+", "-"), repeat=len(modifiers)):
        ids.append(":".join([name, *(f"{m}{s}" for m, s in zip(modifiers, signs, strict=True) if s)]))
    return ids


def _tools() -> tuple[str, str, str]:
    hint = "apt install clang-22 clang-tools-22 llvm-22"
    return tuple(require_tool(name, hint) for name in ("clang-offload-bundler-22", "clang-22", "llvm-ar-22"))  # type: ignore[return-value]


def test_runs_on_agrees_with_the_offload_bundler(tmp_path: Path) -> None:
    bundler, clang, ar = _tools()
    host = tmp_path / "host.o"
    (tmp_path / "host.c").write_text("int host;\n")
    subprocess.run([clang, "-c", str(tmp_path / "host.c"), "-o", str(host)], check=True)
    ids = [target_id for name in PROCESSORS for target_id in _target_ids(name)]
    bundles = []
    for index, target_id in enumerate(ids):
        device, bundle = tmp_path / f"d{index}.bin", tmp_path / f"b{index}.o"
        device.write_text(f"code object for {target_id}\n")
        subprocess.run(
            [
                bundler,
                "-type=o",
                f"-targets=host-x86_64-unknown-linux-gnu,{KIND}{target_id}",
                *(f"-input={host}", f"-input={device}", f"-output={bundle}"),
            ],
            check=True,
        )
        bundles.append(str(bundle))
    archive = tmp_path / "lib.a"
    subprocess.run([ar, "rcs", str(archive), *bundles], check=True)
    disagreements = []
    for requested in ids:
        out = tmp_path / "out.a"
        out.unlink(missing_ok=True)
        subprocess.run(
            [bundler, "-unbundle", "-type=a", f"-targets={KIND}{requested}", f"-input={archive}", f"-output={out}"],
            check=True,
        )
        members = subprocess.run([ar, "t", str(out)], capture_output=True, text=True, check=True).stdout.split()
        extracted = {int(member.split("-", 1)[0].removeprefix("b")) for member in members}
        machine = tcfg.Target(f"rocm -mcpu={requested}")
        for index, provided in enumerate(ids):
            answer = tcfg.Target(f"rocm -mcpu={provided}").runs_on(machine)
            if answer != (index in extracted):
                disagreements.append((provided, requested, answer))
    assert not disagreements
    assert len(ids) > 30


@pytest.mark.parametrize(
    ("code", "machine", "expected"),
    [
        ("rocm -mcpu=gfx90a", "rocm -mcpu=gfx90a:sramecc+:xnack-", True),  # unspecified is 'any'
        ("rocm -mcpu=gfx90a:xnack+", "rocm -mcpu=gfx90a:sramecc+:xnack-", False),
        ("rocm -mcpu=gfx90a:xnack+", "rocm -mcpu=gfx90a", False),  # the device's setting is unknown
        ("rocm -mcpu=gfx942", "amd/mi300x", True),
        ("rocm -mcpu=gfx90a", "amd/mi300x", False),  # another processor
        ("rocm -mcpu=gfx90a", "llvm -mtriple=x86_64-linux-gnu", False),
    ],
)
def test_target_ids(code: str, machine: str, expected: bool) -> None:
    assert tcfg.Target(code).runs_on(tcfg.Target(machine)) is expected


def test_a_machine_without_a_processor_is_refused_with_the_way_out() -> None:
    with pytest.raises(tcfg.TargetError, match=r"names no AMDGPU processor; give -mcpu"):
        tcfg.Target("rocm -mcpu=gfx90a").runs_on(tcfg.Target("rocm"))
