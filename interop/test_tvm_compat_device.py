"""``Target.from_device`` and the system queries of ``tcfg.compat.tvm.codegen`` (``llvm_get_system_x86_vendor``,
``llvm_is_valid_cpu``): with device objects shaped like TVM's, recorded GPUs (no GPU here), and, where
Apache TVM is installed (the tox ``interop`` env), TVM's own ``Device`` objects and answers as the check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tcfg
from tcfg.compat.tvm import Target, codegen
from tcfg.compat.tvm.codegen import x86_vendor
from tcfg.compat.tvm.device import device_code, from_device

ROOT = Path(__file__).resolve().parents[1]
SMI = ROOT / "plugins" / "cuda" / "tests" / "fixtures" / "nvidia-smi-titan-v-rtx-5880.csv"


class Device:
    """Shaped like TVM's ``Device`` of the dlpack.h era: ``device_type`` and ``device_id``."""

    def __init__(self, device_type: Any, device_id: Any) -> None:
        self.device_type, self.device_id = device_type, device_id

    def __repr__(self) -> str:
        return f"Device({self.device_type}, {self.device_id})"


class FfiDevice:
    """Shaped like TVM 0.27's ``tvm_ffi`` ``Device``: ``dlpack_device_type()`` and ``index``."""

    def __init__(self, code: int, index: int) -> None:
        self._code, self.index = code, index

    def dlpack_device_type(self) -> int:
        return self._code


@pytest.fixture(scope="module")
def two_gpus() -> dict[str, str]:
    if not SMI.exists():
        pytest.skip("the cuda plugin's nvidia-smi recording is not in this checkout")
    return {"nvidia-smi": SMI.read_text(encoding="utf-8")}


@pytest.mark.parametrize(
    ("device", "code"),
    [("cpu", (1, 0)), ("llvm", (1, 0)), ("cuda:1", (2, 1)), ("gpu", (2, 0)), (10, (10, 0)),
     (Device(2, 1), (2, 1)), (FfiDevice(4, 3), (4, 3)), (Device(8, 0), (8, 0))],
)  # fmt: skip
def test_device_codes(device: Any, code: tuple[int, int]) -> None:
    assert device_code(device) == code


@pytest.mark.parametrize(
    ("device", "words"),
    [("cudaa", "did you mean 'cuda'"), ("cuda:x", "not a device name"), (99, "not a DLPack device type"),
     (True, "expected a device name"), (Device(2, "0"), "device_type and device_id"),
     (Device(99, 0), "device_type and device_id"), (Device(2, True), "device_type and device_id"),
     (Device(2, -1), "device_type and device_id"), (object(), "device_type and device_id"), (2.0, "expected")],
)  # fmt: skip
def test_bad_devices_are_target_errors(device: Any, words: str) -> None:
    with pytest.raises(tcfg.TargetError, match=words):
        Target.from_device(device)


def test_the_cpu_is_this_machine_with_llvms_cpu_name() -> None:
    for device in ("cpu", Device(1, 0), FfiDevice(1, 3), 1):
        target = Target.from_device(device)
        assert target.kind.name == "llvm"
        assert target.mcpu == codegen.llvm_get_system_cpu()
        assert target.attrs["mtriple"] == codegen.llvm_get_system_triple()


def test_gpus_by_index_from_a_recording(two_gpus: dict[str, str]) -> None:
    assert from_device("cuda", two_gpus).attrs["arch"] == "sm_70"
    for device in ("cuda:1", Device(2, 1), FfiDevice(2, 1)):
        assert from_device(device, two_gpus).attrs["arch"] == "sm_89"
    with pytest.raises(tcfg.TargetError, match=r"no cuda device 2 \(tcfg detect found: cuda -arch=sm_70"):
        from_device(Device(2, 2), two_gpus)
    with pytest.raises(tcfg.TargetError, match=r"no rocm device 0 \(tcfg detect found: none\)"):
        from_device("rocm", two_gpus)


@pytest.mark.parametrize(
    ("triple", "cpuinfo", "vendor"),
    [("x86_64-unknown-linux-gnu", "processor\t: 0\nvendor_id\t: GenuineIntel\n", "intel"),
     ("x86_64-unknown-linux-gnu", "processor\t: 0\nvendor_id\t: AuthenticAMD\n", "amd"),
     ("i686-pc-linux-gnu", "vendor_id : HygonGenuine\n", "unknown"),
     ("x86_64-apple-darwin", None, "unknown"),
     ("aarch64-unknown-linux-gnu", "processor\t: 0\nvendor_id\t: GenuineIntel\n", "unimplemented"),
     ("riscv64-unknown-linux-gnu", None, "unimplemented")],
)  # fmt: skip
def test_x86_vendor(triple: str, cpuinfo: str | None, vendor: str) -> None:
    assert x86_vendor(triple, cpuinfo) == vendor


def test_this_machines_x86_vendor() -> None:
    vendor = codegen.llvm_get_system_x86_vendor()
    assert vendor in ("intel", "amd", "unknown", "unimplemented")
    if Path("/proc/cpuinfo").exists() and "x86" in codegen.llvm_get_system_triple():
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
        assert vendor == {"GenuineIntel": "intel", "AuthenticAMD": "amd"}.get(
            text.split("vendor_id")[1].split(":", 1)[1].split()[0], "unknown"
        )


@pytest.mark.parametrize(
    ("cpu", "triple", "valid"),
    [("cascadelake", "x86_64--", True), ("knl", "x86_64--", True), ("dummy", "x86_64--", False),
     ("cortex-a55", "aarch64--", True), ("cortex-a55", "x86_64--", False), ("sifive-x280", "riscv64--", True)],
)  # fmt: skip
def test_llvm_is_valid_cpu(cpu: str, triple: str, valid: bool) -> None:
    assert codegen.llvm_is_valid_cpu(cpu, triple) is valid


def test_llvm_is_valid_cpu_needs_a_triple_with_tables() -> None:
    with pytest.raises(tcfg.TargetError, match=r"no LLVM CPU table for triple 'sparc--' \(families: aarch64"):
        codegen.llvm_is_valid_cpu("v9", "sparc--")
    with pytest.raises(tcfg.TargetError, match=r"llvm_is_valid_cpu\(3, 'x86_64--'\): the CPU must be a name"):
        codegen.llvm_is_valid_cpu(3, "x86_64--")  # type: ignore[arg-type]
    with pytest.raises(tcfg.TargetError, match=r"triple None must be an LLVM triple"):
        x86_vendor(None, "")  # type: ignore[arg-type]


# -- against the real TVM ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def tvm() -> Any:
    return pytest.importorskip("tvm")


def test_tvm_devices_are_read(tvm: Any) -> None:
    devices = [tvm.cpu(), tvm.cpu(2), tvm.cuda(1), tvm.device("vulkan", 3), tvm.device("rocm"), tvm.metal()]
    codes = [(1, 0), (1, 2), (2, 1), (7, 3), (10, 0), (8, 0)]
    assert [device_code(d) for d in devices] == codes


def test_the_cpu_matches_tvms_from_device(tvm: Any) -> None:
    theirs = tvm.target.Target.from_device(tvm.cpu())
    ours = Target.from_device(tvm.cpu())
    assert ours.kind.name == theirs.kind.name == "llvm"
    assert ours.mcpu == str(theirs.attrs["mcpu"])
    assert ours.attrs["mtriple"].split("-")[0] == str(theirs.attrs["mtriple"]).split("-")[0]


def test_gpus_from_tvms_devices(tvm: Any, two_gpus: dict[str, str]) -> None:
    assert from_device(tvm.cuda(1), two_gpus).attrs["arch"] == "sm_89"
    assert from_device(tvm.device("cuda", 0), two_gpus).attrs["arch"] == "sm_70"


def test_a_gpu_this_machine_lacks_is_refused_by_both(tvm: Any) -> None:
    if tvm.cuda(0).exist:
        pytest.skip("this machine has a CUDA GPU")
    with pytest.raises(ValueError):
        tvm.target.Target.from_device(tvm.cuda(0))
    with pytest.raises(tcfg.TargetError, match="no cuda device 0"):
        Target.from_device(tvm.cuda(0))


def test_x86_vendor_matches_tvm(tvm: Any) -> None:
    assert codegen.llvm_get_system_x86_vendor() == tvm.target.codegen.llvm_get_system_x86_vendor()


@pytest.mark.parametrize("triple", ["x86_64--", "aarch64--", "arm--", "riscv64--", "hexagon--"])
def test_llvm_is_valid_cpu_matches_tvm(tvm: Any, triple: str) -> None:
    if tvm.target.codegen.llvm_version_major() != 22:
        pytest.skip("TVM is built with another LLVM than 22")
    for cpu in [*codegen.llvm_get_cpu_archlist(Target(f"llvm -mtriple={triple}"))[::7], "dummy"]:
        assert codegen.llvm_is_valid_cpu(cpu, triple) == tvm.target.codegen.llvm_is_valid_cpu(cpu, triple), cpu


def test_tvm_027_names() -> None:
    """The names TVM 0.27's ``tvm.target`` has beyond 0.23's: ``tag``, ``detect_target``,
    ``TargetKind.default_device_type``, ``same_as``."""
    from tcfg.compat import tvm as target

    assert target.tag.list_tags is target.list_tags
    assert target.detect_target.detect_target_from_device("cpu") == Target.from_device("cpu")
    cuda = Target("cuda")
    assert cuda.kind.default_device_type == cuda.kind.dlpack_device_type == 2
    assert cuda.same_as(cuda) and not cuda.same_as(Target("cuda")) and cuda == Target("cuda")
    assert cuda.kind.same_as(Target("cuda -arch=sm_80").kind)


def test_the_surface_covers_tvms(tvm: Any) -> None:
    """Every public name of TVM 0.27's ``tvm.target``, its ``codegen``, ``Target`` and ``TargetKind`` is
    in ``tcfg.compat.tvm``, but those docs/from-tvm.md lists as not offered."""
    from tcfg.compat import tvm as ours

    def names(obj: Any) -> set[str]:
        return {n for n in dir(obj) if not n.startswith("_")}

    not_offered = {"tag_registry", "Array", "build_module", "llvm_get_intrinsic_name", "llvm_lookup_intrinsic_id",
                   "id_", "is_"}  # fmt: skip
    doc = (ROOT / "docs" / "from-tvm.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in doc for name in not_offered)
    for theirs, mine in ((tvm.target, ours), (tvm.target.codegen, ours.codegen), (tvm.target.Target, Target),
                         (tvm.target.TargetKind, ours.TargetKind)):  # fmt: skip
        assert names(theirs) - names(mine) <= not_offered, theirs
