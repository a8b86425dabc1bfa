"""``Target.runs_on``, ``tcfg.pick`` and ``TuningRecord.running_on``: the core's rules and what it asks plugins.

Each plugin's rule is tested against the tool that enforces it in that plugin's suite
(``plugins/*/tests/test_runs_on.py``); here: the core's checks, composites, hosts, the
order ``pick`` uses, and the tuning-log lookup.
"""

from __future__ import annotations

import types
from typing import Any

import pytest

import tcfg
from tcfg.plugin import Attr, Derived, DeriveRequest, Feature, Integer, TargetKind, hookimpl
from tcfg.testing import registry_with


def test_a_machine_that_is_not_a_target_is_refused(core: tcfg.Registry) -> None:
    code = tcfg.Target("llvm -mtriple=x86_64-linux-gnu", registry=core)
    with pytest.raises(tcfg.TargetError, match=r"the machine must be a Target.*not str 'llvm'.*tcfg.Target\("):
        code.runs_on("llvm")  # type: ignore[arg-type]
    with pytest.raises(tcfg.TargetError, match="pick: the machine must be a Target"):
        tcfg.pick([code], {"kind": "llvm"})  # type: ignore[arg-type]
    with pytest.raises(tcfg.TargetError, match=r"builds\[1\] is str 'llvm', not a Target"):
        tcfg.pick([code, "llvm"], code)  # type: ignore[list-item]
    with pytest.raises(tcfg.TargetError, match="builds must be a list of Targets, not str"):
        tcfg.pick("llvm", code)  # type: ignore[arg-type]


def test_a_kind_no_plugin_answers_for_is_an_error_naming_the_input_and_who_answers(core: tcfg.Registry) -> None:
    code = tcfg.Target("llvm -mtriple=mips64-linux-gnu", registry=core)
    with pytest.raises(tcfg.TargetError) as caught:
        code.runs_on(code)
    message = str(caught.value)
    assert "'llvm -mtriple=mips64-linux-gnu' runs on 'llvm -mtriple=mips64-linux-gnu'" in message
    assert "none answers runs_on for kind 'llvm' (triple 'mips64-linux-gnu')" in message
    assert "core: kind c, kind composite, kind llvm" in message  # who answers, and what they own


def test_devices_of_different_types_never_run_each_others_code(core: tcfg.Registry) -> None:
    cpu = tcfg.Target("llvm -mtriple=mips64-linux-gnu", registry=core)
    system = tcfg.Target({"kind": "composite", "devices": ["llvm -mtriple=mips64-linux-gnu"]}, registry=core)
    assert not cpu.runs_on(system) and not system.runs_on(cpu)  # decided before any plugin is asked


def _always(answer: bool) -> types.SimpleNamespace:
    """A plugin that owns the cpu kind ``box`` and says ``answer`` for each question about it, recording them."""
    asked: list[tuple[str, str]] = []

    @hookimpl
    def tcfg_register_kinds(register: object) -> None:
        register(TargetKind("box", "cpu", attrs=(Attr("n", Integer()),)))  # type: ignore[operator]

    @hookimpl
    def tcfg_runs_on(code: tcfg.Target, machine: tcfg.Target) -> bool | None:
        if code.kind.name != "box":
            return None
        asked.append((str(code), str(machine)))
        return answer if machine.kind.name == "box" else False

    return types.SimpleNamespace(tcfg_register_kinds=tcfg_register_kinds, tcfg_runs_on=tcfg_runs_on, asked=asked)


def test_a_composite_runs_where_each_device_of_the_machine_runs_one_of_its_devices() -> None:
    box = _always(True)
    reg = registry_with(box)
    code = tcfg.Target({"kind": "composite", "devices": ["box -n=1", "box -n=2"]}, registry=reg)
    machine = tcfg.Target({"kind": "composite", "devices": ["box -n=3", "box -n=4", "box -n=5"]}, registry=reg)
    assert code.runs_on(machine)
    assert ("box -n=1", "box -n=4") in box.asked
    assert not code.runs_on(tcfg.Target("box -n=3", registry=reg))  # a composite runs on composites only
    never = registry_with(_always(False))
    code = tcfg.Target({"kind": "composite", "devices": ["box -n=1"]}, registry=never)
    assert not code.runs_on(tcfg.Target({"kind": "composite", "devices": ["box -n=2"]}, registry=never))


def test_the_host_of_the_code_must_run_on_the_host_of_the_machine_when_it_has_one() -> None:
    box = _always(True)
    reg = registry_with(box)
    code = tcfg.Target("box -n=1", host="box -n=2", registry=reg)
    assert code.runs_on(tcfg.Target("box -n=3", registry=reg))  # a machine without a host: the device alone
    assert code.runs_on(tcfg.Target("box -n=3", host="box -n=4", registry=reg))
    assert ("box -n=2", "box -n=4") in box.asked
    reg = registry_with(_always(False))
    assert not tcfg.Target("box -n=1", host="box -n=2", registry=reg).runs_on(
        tcfg.Target("box -n=3", host="box -n=4", registry=reg)
    )


def test_pick_takes_the_most_specialized_build_that_runs_and_the_first_of_equals() -> None:
    pytest.importorskip("tcfg_aarch64")
    t = tcfg.Target
    generic = t("llvm -mtriple=aarch64-linux-gnu")
    a76 = t("llvm -mtriple=aarch64-linux-gnu -mcpu=cortex-a76")
    v1 = t("llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v1")
    v2 = t("llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v2")
    builds = [generic, v2, a76, v1]
    assert tcfg.pick(builds, t("aws/graviton3")) == v1  # Neoverse V1: v2 needs SVE2, which it lacks
    assert tcfg.pick(builds, t("aws/graviton4")) == v2
    assert tcfg.pick(builds, t("raspberry-pi/4b")) == generic
    assert tcfg.pick([v1, v2], t("raspberry-pi/4b")) is None
    assert tcfg.pick([], t("raspberry-pi/4b")) is None
    fast = t("llvm -mtriple=aarch64-linux-gnu -mcpu=neoverse-v1 -fast-math")
    assert tcfg.pick([v1, fast], t("aws/graviton3")) == fast  # same code requirements: the specialization wins
    renamed = t("llvm -mtriple=aarch64-unknown-linux-gnu -mcpu=neoverse-v1")
    assert tcfg.pick([v1, renamed], t("aws/graviton3")) == v1  # equals: the first given
    assert tcfg.pick([renamed, v1], t("aws/graviton3")) == renamed


def test_pick_among_gpu_builds() -> None:
    pytest.importorskip("tcfg_cuda")
    pytest.importorskip("tcfg_rocm")
    t = tcfg.Target
    cuda = [t("cuda -arch=sm_80"), t("cuda -arch=sm_90a"), t("cuda -arch=sm_90"), t("cuda -arch=sm_100a")]
    assert tcfg.pick(cuda, t("nvidia/h100")) == t("cuda -arch=sm_90a")
    assert tcfg.pick(cuda, t("nvidia/a100")) == t("cuda -arch=sm_80")
    assert tcfg.pick(cuda[:3], t("nvidia/b200")) == t("cuda -arch=sm_90")  # PTX of compute_90 JIT-compiles forward
    rocm = [t("rocm -mcpu=gfx90a"), t("rocm -mcpu=gfx90a:xnack-"), t("rocm -mcpu=gfx90a:xnack+")]
    assert tcfg.pick(rocm, t("rocm -mcpu=gfx90a:sramecc+:xnack-")) == t("rocm -mcpu=gfx90a:xnack-")
    assert tcfg.pick(rocm, t("rocm -mcpu=gfx90a")) == t("rocm -mcpu=gfx90a")


def test_systems_run_builds_for_their_devices_and_host() -> None:
    pytest.importorskip("tcfg_cuda")
    pytest.importorskip("tcfg_x86")
    t = tcfg.Target
    fat = t({"kind": "composite", "devices": ["cuda -arch=sm_80", "cuda -arch=sm_90a"], "host": "llvm -mcpu=haswell"})
    assert fat.runs_on(t("aws/p4d.24xlarge")) and fat.runs_on(t("aws/p5.48xlarge"))
    hopper_only = t({"kind": "composite", "devices": ["cuda -arch=sm_90a"], "host": "llvm -mcpu=haswell"})
    assert hopper_only.runs_on(t("aws/p5.48xlarge")) and not hopper_only.runs_on(t("aws/p4d.24xlarge"))
    avx512_host = t({"kind": "composite", "devices": ["cuda -arch=sm_80"], "host": "llvm -mcpu=skylake-avx512"})
    assert avx512_host.runs_on(t("aws/p4d.24xlarge"))  # Cascade Lake has AVX-512
    assert not avx512_host.runs_on(t("aws/p5.48xlarge"))  # Zen 3 has none


def test_tuning_records_for_a_machine() -> None:
    pytest.importorskip("tcfg_cuda")
    pytest.importorskip("tcfg_x86")
    records = [
        tcfg.TuningRecord(tcfg.CompilationConfig(spec), {"op": "matmul"}, {"ms": n})
        for n, spec in enumerate(["cuda -arch=sm_80", "cuda -arch=sm_90a", "llvm -mcpu=skylake-avx512"])
    ]
    h100 = tcfg.Target("nvidia/h100")
    assert [r.result["ms"] for r in tcfg.TuningRecord.running_on(records, h100)] == [0, 1]
    assert [r.result["ms"] for r in tcfg.TuningRecord.running_on(records, tcfg.Target("nvidia/a100"))] == [0]
    assert [r.result["ms"] for r in tcfg.TuningRecord.running_on(records, tcfg.Target("aws/c5.large"))] == [2]
    read = [tcfg.TuningRecord.from_line(r.to_line()) for r in records]
    assert tcfg.TuningRecord.running_on(read, h100) == read[:2]
    system = tcfg.TuningRecord(tcfg.CompilationConfig(["cuda -arch=sm_80", "llvm -mcpu=haswell"]), {"op": "conv"})
    assert system.target().kind.name == "composite" and system.runs_on(tcfg.Target("aws/p4d.24xlarge"))
    with pytest.raises(tcfg.TargetError, match=r"records\[0\] is str, not a TuningRecord"):
        tcfg.TuningRecord.running_on(["x"], h100)  # type: ignore[list-item]


def test_a_cpu_feature_the_rule_cannot_compare_is_an_error_naming_it() -> None:
    """Another plugin's derive hook adds a non-boolean feature to CPU targets: the CPU rule does not guess."""
    aarch64 = pytest.importorskip("tcfg_aarch64.plugin")

    @hookimpl
    def tcfg_register_features(register: Any) -> None:
        register(Feature("vendor_note", "A note some vendor adds to CPU targets."))

    @hookimpl
    def tcfg_derive_target(request: DeriveRequest) -> Derived | None:
        return Derived(features={"vendor_note": "tuned"}) if request.kind == "llvm" else None

    noter = types.SimpleNamespace(tcfg_register_features=tcfg_register_features, tcfg_derive_target=tcfg_derive_target)
    reg = registry_with(aarch64, noter)
    code = tcfg.Target("llvm -mtriple=aarch64-linux-gnu", registry=reg)
    with pytest.raises(tcfg.TargetError, match="the feature 'vendor_note' = 'tuned' is not a boolean"):
        code.runs_on(code)
    assert code.codegen().triple == "aarch64-linux-gnu"  # the aarch64 plugin keeps working
