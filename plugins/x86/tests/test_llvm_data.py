"""The data file is what the named tools say: regenerate and compare when they are installed."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest

from tcfg_x86.facts import load_json

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "gen_llvm_data.py"


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_llvm_data", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _major(version: str, pattern: str) -> int:
    found = re.search(pattern, version)
    assert found is not None, version
    return int(found.group(1))


def test_data_records_its_tools_and_sources() -> None:
    data = load_json("llvm_x86.json")
    llvm = _major(data["tools"]["llvm"], r"^LLVM (\d+)\.\d+\.\d+ via llvmlite ")
    assert llvm == 22
    # clang answers for the features LLVM's inline check ignores: it must be the same LLVM
    # major, or it refuses the CPUs newer than it (their features become undetermined).
    assert _major(data["tools"]["clang"], r"\bclang version (\d+)\.") == llvm
    provenance = {"cpus", "features", "features.implies", "cpus.features", "cpus.clang_march", "cpus.clang_source"}
    assert set(data["provenance"]) >= provenance | {"march_twins", "undetermined"}
    assert data["generated_by"] == "plugins/x86/scripts/gen_llvm_data.py"
    assert set(data) >= {"clang_differences", "march_twins", "undetermined"}
    for differences in data["clang_differences"].values():
        assert set(differences) == {"clang_only", "llvm_only"}


def test_clang_answers_every_cpu_through_march_or_cpu_specific() -> None:
    """clang refuses -march only for generic and the cpu_dispatch spellings; cpu_specific answers those."""
    data = load_json("llvm_x86.json")
    assert set(data["inline_ignored_features"]) == {"sahf", "cx8", "cx16"}
    assert data["undetermined"] == {}
    refused = {cpu for cpu, entry in data["cpus"].items() if not entry["clang_march"]}
    assert {"generic", "skylake_avx512"} <= refused
    assert all(cpu == "generic" or "_" in cpu for cpu in refused), sorted(refused)
    assert set(data["march_twins"]) == refused
    for cpu, entry in data["cpus"].items():
        via_cpu_specific = f"__attribute__((cpu_specific({cpu}))) on --target=i386-unknown-linux-gnu -march=i386"
        assert entry["clang_source"] == (f"-march={cpu}" if entry["clang_march"] else via_cpu_specific), cpu


def test_cpu_dispatch_spellings_have_exactly_their_march_twins_features() -> None:
    """clang's cpu_specific answer for a spelling agrees with its twins' -march answers."""
    data = load_json("llvm_x86.json")
    for cpu, twins in data["march_twins"].items():
        if cpu == "generic":
            continue
        assert twins, f"{cpu}: no CPU clang accepts as -march has its LLVM features"
        for twin in twins:
            assert data["cpus"][twin]["clang_march"], twin
        # The twin clang gets has exactly the spelling's features, clang's own table included
        # (icelake_client's LLVM twins icelake-client and rocketlake differ there: sgx).
        chosen = data["cpus"][cpu]["clang_cpu"]
        assert chosen in twins, (cpu, chosen)
        assert data["cpus"][chosen]["features"] == data["cpus"][cpu]["features"], (cpu, chosen)


def test_generic_is_clangs_generic_not_x86_64() -> None:
    """LLVM's generic lacks CMOV, FXSR and MMX, so -march=x86-64 cannot stand in for it."""
    data = load_json("llvm_x86.json")
    assert data["march_twins"]["generic"] == []
    generic, x86_64 = (set(data["cpus"][cpu]["features"]) for cpu in ("generic", "x86-64"))
    assert x86_64 - generic == {"cmov", "fxsr", "mmx"}
    assert generic & set(data["inline_ignored_features"]) == {"cx8"}
    assert set(data["cpus"]["generic"]["features_32bit_mode"]) == {"cx8", "x87"}


def test_inline_ignored_features_follow_the_isa_levels() -> None:
    """CMPXCHG8B is in every CPU since the Pentium; x86-64-v2 requires CMPXCHG16B and LAHF/SAHF."""
    data = load_json("llvm_x86.json")
    for cpu, entry in data["cpus"].items():
        features = set(entry["features"])
        assert ("cx8" in features) == (cpu not in {"i386", "i486"}), cpu
        if {"sse4.2", "popcnt", "64bit"} <= features:
            assert {"cx16", "sahf"} <= features, cpu


NEWEST = ["diamondrapids", "novalake", "wildcatlake", "pantherlake", "clearwaterforest", "arrowlake-s"]


@pytest.mark.parametrize("cpu", NEWEST)
def test_newest_cpus_have_sahf_cx8_cx16(make, cpu: str) -> None:  # type: ignore[no-untyped-def]
    assert cpu not in load_json("llvm_x86.json")["undetermined"]
    t = make(f"llvm -mtriple=x86_64-linux-gnu -mcpu={cpu}")
    assert (t.features["sahf"], t.features["cx8"], t.features["cx16"]) == (True, True, True)


def _clang_of_the_data():  # type: ignore[no-untyped-def]
    """The generator module, or a skip unless its clang is the one the data names."""
    gen = _generator()
    stored = load_json("llvm_x86.json")
    if gen.clang_version() != stored["tools"]["clang"]:
        pytest.skip(f"{gen.CLANG} is {gen.clang_version() or 'absent'}, the data is from {stored['tools']['clang']}")
    return gen


def test_inline_ignored_features_are_what_clang_says() -> None:
    gen = _clang_of_the_data()
    stored = load_json("llvm_x86.json")
    ignored = set(stored["inline_ignored_features"])
    for cpu in [*NEWEST, "i486", "pentium", "x86-64"]:
        entry = stored["cpus"][cpu]
        expanded = gen.clang_features(gen.TRIPLE64 if entry["64bit"] else gen.TRIPLE32, [f"-march={cpu}"])
        assert expanded is not None, cpu
        assert set(expanded) & ignored == set(entry["features"]) & ignored, cpu


def test_refused_cpus_are_what_clangs_cpu_specific_says() -> None:
    """clang still refuses -march for these CPUs; its cpu_specific expansion gives what the data holds."""
    gen = _clang_of_the_data()
    stored = load_json("llvm_x86.json")
    ignored = set(stored["inline_ignored_features"])
    base_triple, base_march = gen.CPU_SPECIFIC_BASE
    base = gen.clang_features(base_triple, [base_march])
    assert base is not None and not set(base) & ignored, base
    for cpu in stored["march_twins"]:
        entry = stored["cpus"][cpu]
        assert gen.clang_features(gen.TRIPLE64 if entry["64bit"] else gen.TRIPLE32, [f"-march={cpu}"]) is None, cpu
        expanded = gen.clang_cpu_specific(cpu)
        assert expanded is not None, cpu
        assert set(expanded) & ignored == set(entry["features"]) & ignored, cpu


@pytest.mark.parametrize("cpu", ["haswell", "skx", "pentium3", "i686", "corei7", "knl", "pentium", "i486"])
def test_cpu_specific_and_march_agree_where_clang_takes_both(cpu: str) -> None:
    """What makes the cpu_specific answers trustworthy: on CPUs clang accepts both ways they match -march."""
    gen = _clang_of_the_data()
    data = load_json("llvm_x86.json")
    entry, ignored = data["cpus"][cpu], set(data["inline_ignored_features"])
    march = gen.clang_features(gen.TRIPLE64 if entry["64bit"] else gen.TRIPLE32, [f"-march={cpu}"])
    specific = gen.clang_cpu_specific(cpu)
    assert march is not None and specific is not None
    assert set(specific) & ignored == set(march) & ignored


CMPXCHG = """
define {ty} @f(ptr %p, {ty} %old, {ty} %new) {{
  %pair = cmpxchg ptr %p, {ty} %old, {ty} %new seq_cst seq_cst
  %value = extractvalue {{ {ty}, i1 }} %pair, 0
  ret {ty} %value
}}
"""


def _llvm_uses(llvm, triple: str, cpu: str, ty: str, instruction: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether LLVM compiles a ``ty`` compare-and-swap for ``cpu`` to ``instruction`` (else a libcall)."""
    module = llvm.parse_assembly(CMPXCHG.format(ty=ty))
    module.triple = triple
    machine = llvm.Target.from_triple(triple).create_target_machine(cpu=cpu, codemodel="small", reloc="static")
    return instruction in str(machine.emit_assembly(module))


def test_refused_cpus_cx8_cx16_are_what_llvms_code_generator_does() -> None:
    """LLVM itself, through codegen: CMPXCHG8B for an i64 CAS in 32-bit mode, CMPXCHG16B for i128 in 64-bit."""
    llvm = pytest.importorskip("llvmlite.binding", reason="compiling needs llvmlite")
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    stored = load_json("llvm_x86.json")
    for cpu in stored["march_twins"]:
        entry = stored["cpus"][cpu]
        features = set(entry.get("features_32bit_mode", entry["features"]))
        assert _llvm_uses(llvm, "i386-unknown-linux-gnu", cpu, "i64", "cmpxchg8b") == ("cx8" in features), cpu
        if entry["64bit"]:
            cx16 = _llvm_uses(llvm, "x86_64-unknown-linux-gnu", cpu, "i128", "cmpxchg16b")
            assert cx16 == ("cx16" in entry["features"]), cpu


def test_cpuinfo_table_maps_to_known_llvm_features() -> None:
    isa = set(load_json("llvm_x86.json")["features"])
    flags = load_json("cpuinfo_flags.json")["flags"]
    assert flags["avx512_vnni"] == ["avx512vnni"] and flags["amx_int8"] == ["amx-int8"]
    for flag, features in flags.items():
        assert set(features) <= isa, flag


@pytest.mark.slow
def test_regenerated_data_matches() -> None:
    llvm = pytest.importorskip("llvmlite.binding", reason="regenerating needs llvmlite")
    gen = _generator()
    if shutil.which(gen.CLANG) is None:
        pytest.skip(f"regenerating needs {gen.CLANG}")
    stored = load_json("llvm_x86.json")
    if not stored["tools"]["llvm"].startswith(f"LLVM {'.'.join(map(str, llvm.llvm_version_info))} "):
        installed = llvm.llvm_version_info
        pytest.skip(f"installed llvmlite bundles LLVM {installed}, the data is from {stored['tools']['llvm']}")
    if gen.clang_version() != stored["tools"]["clang"]:
        pytest.skip(f"{gen.CLANG} is {gen.clang_version() or 'absent'}, the data is from {stored['tools']['clang']}")
    fresh = gen.generate()
    assert json.dumps(gen.comparable(fresh), sort_keys=True) == json.dumps(gen.comparable(stored), sort_keys=True)
