"""Composite targets, executors and runtimes, CompilationConfig, tuning records, and the
examples of the design discussions (shared/seeds), each built and round-tripped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tcfg
from tcfg._build.memo import MAX_DEPTH
from tcfg.plugin import Attr, Boolean, Choice, Component, Integer, TargetKind, hookimpl
from tests.fake_plugins import AccelPlugin

X86 = "llvm -mtriple=x86_64-linux-gnu"
ARM = "llvm -mtriple=aarch64-linux-gnu"


class SystemsPlugin:
    """The kinds and runtimes the seed examples need that no shipped plugin provides."""

    tcfg_plugin_name = "systems"

    @hookimpl
    def tcfg_register_kinds(self, register: Callable[[TargetKind], None]) -> None:
        register(
            TargetKind(
                "vulkan",
                "vulkan",
                attrs=(Attr("max_num_threads", Integer(minimum=1)),),
                default_keys=("vulkan", "gpu"),
            )
        )
        register(
            TargetKind(
                "cuda",
                "cuda",
                attrs=(Attr("arch", Choice(("sm_80", "sm_87", "sm_90"))),),
                default_keys=("cuda", "gpu"),
            )
        )
        register(TargetKind("my-accelerator", "accel", default_keys=("accel",)))

    @hookimpl
    def tcfg_register_runtimes(self, register: Callable[[Component], None]) -> None:
        register(Component("cuda-graph", (Attr("capture", Boolean(), default=True),), doc="CUDA graphs."))


@pytest.fixture
def reg() -> tcfg.Registry:
    return tcfg.Registry(plugins=[SystemsPlugin(), AccelPlugin()], autoload=False)


def roundtrip(t: tcfg.Target) -> None:
    for form in (str(t), t.export(), t.to_json()):
        assert tcfg.Target(form, registry=t.registry) == t


def roundtrip_config(cfg: tcfg.CompilationConfig) -> None:
    reg = cfg.registry
    assert tcfg.CompilationConfig(cfg.to_target(), registry=reg) == cfg
    assert tcfg.CompilationConfig(cfg.export(), registry=reg) == cfg
    assert tcfg.CompilationConfig(str(cfg.to_target()), registry=reg) == cfg
    record = tcfg.TuningRecord(cfg, {"op": "conv2d", "shape": [1, 3, 224, 224]}, {"latency_us": 12.5})
    again = tcfg.TuningRecord.from_line(record.to_line(), registry=reg)
    assert again == record and "\n" not in record.to_line()


# -- the seed examples -------------------------------------------------------------------


def test_seed_two_machine_deployment(reg: tcfg.Registry) -> None:
    machine0 = {"kind": "composite", "host": X86, "devices": ["cuda -arch=sm_80"]}
    machine1 = {"kind": "composite", "host": ARM, "devices": ["vulkan -max_num_threads=256"]}
    system = tcfg.Target({"kind": "composite", "devices": [machine0, machine1]}, registry=reg)
    roundtrip(system)
    m0, m1 = system.attrs["devices"]
    assert m0.host == tcfg.Target(X86, registry=reg) and m1.host == tcfg.Target(ARM, registry=reg)
    cfg = tcfg.CompilationConfig(system, registry=reg)
    assert cfg.host is None and cfg.targets == (m0, m1)
    roundtrip_config(cfg)


def test_seed_byoc_myawesome_cuda(reg: tcfg.Registry) -> None:
    byoc = {
        "kind": "composite",
        "host": X86,
        "runtime": "cuda-graph",
        "devices": ["cuda -arch=sm_80"],
        "libs": ["tensorrt"],
    }
    system = tcfg.Target(
        {"kind": "composite", "host": X86, "executor": "vm", "devices": [byoc, "cuda -arch=sm_80"]},
        registry=reg,
    )
    roundtrip(system)
    inner = system.attrs["devices"][0]
    assert inner.attrs["runtime"].name == "cuda-graph" and inner.attrs["libs"] == ("tensorrt",)
    cfg = tcfg.CompilationConfig(system, registry=reg)
    assert cfg.executor is not None and cfg.executor.name == "vm"
    assert cfg.target_for("cuda").host == tcfg.Target(X86, registry=reg)
    assert cfg.target_for("composite") == inner
    roundtrip_config(cfg)


def test_seed_accelerator_with_riscv_coprocessor(reg: tcfg.Registry) -> None:
    coprocessor = {
        "kind": "composite",
        "host": "llvm -mtriple=riscv64-unknown-elf",
        "executor": "graph",
        "devices": ["my-accelerator"],
    }
    system = tcfg.Target({"kind": "composite", "host": ARM, "executor": "vm", "devices": [coprocessor]}, registry=reg)
    roundtrip(system)
    cfg = tcfg.CompilationConfig(system, registry=reg)
    assert cfg.host == tcfg.Target(ARM, registry=reg)
    assert cfg.targets[0].host is not None and cfg.targets[0].host.attrs["mtriple"] == "riscv64-unknown-elf"
    roundtrip_config(cfg)


# -- executors, runtimes and the composite kind -------------------------------------------------


def test_executor_and_runtime_as_names_dicts_and_text(reg: tcfg.Registry) -> None:
    by_text = tcfg.Target(
        "composite -devices='c -mcpu=cortex-m4' -executor='aot -interface-api=c -unpacked-api' -runtime=crt",
        registry=reg,
    )
    by_dict = tcfg.Target(
        {
            "kind": "composite",
            "devices": [{"kind": "c", "mcpu": "cortex-m4"}],
            "executor": {"name": "aot", "interface-api": "c", "unpacked-api": True},
            "runtime": {"name": "crt"},
        },
        registry=reg,
    )
    assert by_text == by_dict
    assert by_dict.export()["executor"] == {"name": "aot", "interface-api": "c", "unpacked-api": True}
    assert by_dict.export()["runtime"] == "crt"
    roundtrip(by_text)


@pytest.mark.parametrize(
    ("spec", "error", "message"),
    [
        ("llvm -executor=vm", tcfg.UnknownAttributeError, "belongs on a composite target"),
        ("c -runtime=crt", tcfg.UnknownAttributeError, "belongs on a composite target"),
        ("composite -devices=", tcfg.AttributeValueError, "at least one target"),
        (
            "composite -devices=c -executor=interp",
            tcfg.AttributeValueError,
            "valid choices: 'aot', 'graph', 'vm'",
        ),
        ("composite -devices=c -runtime=cuda-grap", tcfg.AttributeValueError, "did you mean 'cuda-graph'"),
        (
            "composite -devices=c -executor='aot -interface=c'",
            tcfg.AttributeValueError,
            "did you mean 'interface-api'",
        ),
        (
            {"kind": "composite", "devices": ["c"], "executor": {"name": "aot", "unpacked-api": 1}},
            tcfg.AttributeValueError,
            "'unpacked-api' expects a boolean",
        ),
        ({"kind": "composite", "devices": "c"}, tcfg.AttributeValueError, "expects a list of targets"),
    ],
)
def test_composite_errors(reg: tcfg.Registry, spec: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        tcfg.Target(spec, registry=reg)


def test_nesting_limit_is_a_target_error(reg: tcfg.Registry) -> None:
    config: dict[str, Any] = {"kind": "c"}
    for _ in range(MAX_DEPTH - 1):
        config = {"kind": "composite", "devices": [config]}
    tcfg.Target(config, registry=reg)
    for _ in range(3):
        config = {"kind": "composite", "devices": [config]}
    with pytest.raises(tcfg.TargetError, match=f"nests more than {MAX_DEPTH} levels"):
        tcfg.Target(config, registry=reg)


def test_plugins_add_executors_and_conflicts_are_reported() -> None:
    class TwoVMs:
        tcfg_plugin_name = "twovms"

        @hookimpl
        def tcfg_register_executors(self, register: Callable[[Component], None]) -> None:
            register(Component("vm"))

    reg = tcfg.Registry(plugins=[TwoVMs()], autoload=False)
    with pytest.warns(tcfg.PluginWarning, match="executor 'vm', which plugin 'core' already owns"):
        reg.list_kinds()
    assert sorted(reg.components("executor")) == ["aot", "graph", "vm"]


# -- CompilationConfig ---------------------------------------------------------------------------


def test_one_target_and_a_list(reg: tcfg.Registry) -> None:
    one = tcfg.CompilationConfig("cuda -arch=sm_80", host=X86, registry=reg)
    assert one.targets == (tcfg.Target("cuda -arch=sm_80", host=X86, registry=reg),)
    listed = tcfg.CompilationConfig(["cuda -arch=sm_80", X86], registry=reg)
    assert listed.host == tcfg.Target(X86, registry=reg)
    assert listed.target_for("cuda").host == listed.host
    assert listed.target_for("cpu") == listed.host
    roundtrip_config(listed)


def test_legacy_device_dict(reg: tcfg.Registry) -> None:
    cfg = tcfg.CompilationConfig({"cuda": "cuda -arch=sm_80", "cpu": X86}, registry=reg)
    assert cfg == tcfg.CompilationConfig({2: "cuda -arch=sm_80", 1: X86}, registry=reg)
    assert cfg.host == tcfg.Target(X86, registry=reg)
    with pytest.raises(tcfg.TargetError, match="does not match"):
        tcfg.CompilationConfig({"vulkan": "cuda -arch=sm_80"}, registry=reg)


def test_host_resolution_order(reg: tcfg.Registry) -> None:
    own = tcfg.CompilationConfig([tcfg.Target("cuda -arch=sm_80", host=ARM, registry=reg)], registry=reg)
    assert own.host == tcfg.Target(ARM, registry=reg)
    machine = tcfg.CompilationConfig(["cuda -arch=sm_80"], registry=reg)
    assert machine.host == tcfg.Target("llvm", registry=reg)
    explicit = tcfg.CompilationConfig(["cuda -arch=sm_80", ARM], host=X86, registry=reg)
    assert explicit.host == tcfg.Target(X86, registry=reg)


def test_inconsistent_hosts_are_errors(reg: tcfg.Registry) -> None:
    dev = tcfg.Target("cuda -arch=sm_80", host=ARM, registry=reg)
    with pytest.raises(tcfg.TargetError, match="has host"):
        tcfg.CompilationConfig([dev], host=X86, registry=reg)
    with pytest.raises(tcfg.TargetError, match="different hosts"):
        tcfg.CompilationConfig([dev, tcfg.Target("vulkan", host=X86, registry=reg)], registry=reg)
    with pytest.raises(tcfg.TargetError, match="several CPU targets"):
        tcfg.CompilationConfig(["cuda -arch=sm_80", X86, ARM], registry=reg)


def test_composite_and_arguments_must_agree(reg: tcfg.Registry) -> None:
    composite = tcfg.Target({"kind": "composite", "host": X86, "executor": "vm", "devices": ["vulkan"]}, registry=reg)
    assert tcfg.CompilationConfig(composite, executor="vm", registry=reg).executor is not None
    with pytest.raises(tcfg.TargetError, match="contradicts"):
        tcfg.CompilationConfig(composite, executor="graph", registry=reg)
    with pytest.raises(tcfg.TargetError, match="contradicts"):
        tcfg.CompilationConfig(composite, host=ARM, registry=reg)


def test_target_for_picks_the_least_specialised(reg: tcfg.Registry) -> None:
    plain, turbo = "accel -gen=2", "accel -gen=2 -compiler=turbo"
    cfg = tcfg.CompilationConfig([turbo, plain], host=X86, registry=reg)
    assert cfg.target_for("accel") == tcfg.Target(plain, host=X86, registry=reg)
    ambiguous = tcfg.CompilationConfig(["cuda -arch=sm_80", "cuda -arch=sm_90"], host=X86, registry=reg)
    with pytest.raises(tcfg.TargetError, match="ambiguous"):
        ambiguous.target_for("cuda")
    with pytest.raises(tcfg.TargetError, match="no target for device type 'vulkan'"):
        cfg.target_for("vulkan")
    roundtrip_config(cfg)


def test_bad_inputs(reg: tcfg.Registry) -> None:
    with pytest.raises(tcfg.TargetError, match="at least one target"):
        tcfg.CompilationConfig([], registry=reg)
    with pytest.raises(tcfg.TargetError, match="cannot make a compilation configuration"):
        tcfg.CompilationConfig(3.5, registry=reg)
    with pytest.raises(tcfg.TargetError, match="registered executor"):
        tcfg.CompilationConfig(X86, executor="interp", registry=reg)
    with pytest.raises(tcfg.TargetSyntaxError, match="needs 'config' and 'workload'"):
        tcfg.TuningRecord.from_line('{"config": {"kind": "c"}}', registry=reg)
    with pytest.raises(tcfg.TargetError, match="not JSON data"):
        tcfg.TuningRecord(tcfg.CompilationConfig(X86, registry=reg), {"x": float("nan")}).to_line()


# -- property: random nesting round-trips ---------------------------------------------------------

LEAVES = st.sampled_from(
    ["c -mcpu=cortex-m4", X86, ARM, "cuda -arch=sm_87", "vulkan -max_num_threads=64", "my-accelerator"]
)
COMPONENT = st.sampled_from([None, "graph", "vm", {"name": "aot", "unpacked-api": True, "interface-api": "c"}])


def composites(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    def make(devices: list[Any], host: Any, executor: Any, runtime: Any) -> dict[str, Any]:
        config: dict[str, Any] = {"kind": "composite", "devices": devices}
        for key, value in (("host", host), ("executor", executor), ("runtime", runtime)):
            if value is not None:
                config[key] = value
        return config

    return st.builds(
        make,
        st.lists(children, min_size=1, max_size=3),
        st.sampled_from([None, X86, ARM]),
        COMPONENT,
        st.sampled_from([None, "cpp", "crt", "cuda-graph"]),
    )


SYSTEMS = st.recursive(LEAVES, composites, max_leaves=8)


@given(composites(SYSTEMS))
def test_random_nesting_round_trips(config: dict[str, Any]) -> None:
    reg = REG
    target = tcfg.Target(config, registry=reg)
    roundtrip(target)
    try:
        cfg = tcfg.CompilationConfig(target, registry=reg)
    except tcfg.TargetError:
        return
    roundtrip_config(cfg)


REG = tcfg.Registry(plugins=[SystemsPlugin(), AccelPlugin()], autoload=False)
