"""The CUDA truth sweep: tcfg's cuda targets against ptxas.

For every arch in the cuda plugin's table (``cuda -arch=X``, built through tcfg with the
cuda plugin alone) it checks, with the installed ptxas:

* each feature the plugin declares a PTX probe for (:data:`tcfg_cuda.probes.PROBES`,
  the instruction that defines it: ``fma.rn.bf16``, ``wgmma.fence``, ...): the probe
  must assemble for ``.target X`` exactly when ``t.features`` says the arch has it;
* the PTX ISA version tcfg's codegen names for the arch (``t.codegen().ptx_isa``): ptxas
  must accept it for ``.target X`` and refuse the version before it (it is the
  minimum; for ``sm_88`` that is 7.3, which ptxas 13.0 accepts although the PTX ISA
  document lists sm_88 under 9.0);
* that ptxas generates code for the arch exactly when the table's CUDA release range
  includes ptxas's release (``sm_101*`` were renamed ``sm_110*`` in CUDA 13, whose ptxas
  does not know the old names: their feature probes run under the new name, and their
  PTX ISA minimum is not checked by it).

Arches this ptxas no longer generates code for (CUDA 13 starts at sm_75) are assembled
with ``-arch=sm_75``, as the plugin's probes do: ptxas still checks every instruction
against the ``.target``.
"""

from __future__ import annotations

import importlib.util
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from types import ModuleType

from sweep import SweepResult

__all__ = ["check_arch", "sweep"]


def _generator() -> ModuleType:
    """The cuda plugin's table generator (``plugins/cuda/scripts/gen_arch_table.py``), loaded as a module."""
    path = Path(__file__).resolve().parents[1] / "plugins" / "cuda" / "scripts" / "gen_arch_table.py"
    spec = importlib.util.spec_from_file_location("gen_arch_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_GENERATOR = _generator()
#: PTX ISA versions in order, and the first with ``.address_size`` (the generator's facts).
PTX_VERSIONS: list[str] = _GENERATOR.PTX_VERSIONS
ADDRESS_SIZE_PTX: str = _GENERATOR._ADDRESS_SIZE_PTX
LATEST_PTX = PTX_VERSIONS[-1]
EMPTY = ".visible .entry probe() { ret; }"


@cache
def registry() -> object:
    """A registry with the cuda plugin only."""
    import tcfg
    import tcfg_cuda.plugin

    return tcfg.Registry(plugins=[tcfg_cuda.plugin], autoload=False)


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def check_arch(ptxas: object, arch: str) -> tuple[int, list[str]]:
    """Every check for ``arch``: (number of checks, disagreements)."""
    import tcfg
    from tcfg_cuda.facts import arch_info
    from tcfg_cuda.probes import PROBES, Ptxas

    assert isinstance(ptxas, Ptxas)
    target = tcfg.Target(f"cuda -arch={arch}", registry=registry())  # type: ignore[arg-type]
    info = arch_info(arch)
    release = _release(ptxas.release)
    wrong: list[str] = []
    checks = 0
    renamed = info.renamed_to is not None and release >= (13, 0)
    name = info.renamed_to if renamed and info.renamed_to else arch
    in_range = _release(info.min_cuda) <= release and (info.max_cuda is None or release <= _release(info.max_cuda))
    checks += 1
    if in_range != (arch in ptxas.arches):
        wrong.append(
            f"cuda -arch={arch}: ptxas {ptxas.release} generates code for it: {arch in ptxas.arches}, "
            f"tcfg's CUDA range {info.min_cuda}-{info.max_cuda or ''}: {in_range}"
        )
    for feature, body in sorted(PROBES.items()):
        checks += 1
        ours = bool(target.features.vendor(feature))
        error = ptxas.assemble(name, LATEST_PTX, body)
        if ours != (error == ""):
            said = "assembles" if not error else f"fails: {error.splitlines()[0]}"
            wrong.append(f"cuda -arch={arch}: {feature}: tcfg {ours}, ptxas {ptxas.release} {said}")
    if renamed:  # this ptxas knows only the new name, whose PTX ISA minimum is its own
        return checks, wrong
    ptx = str(getattr(target.codegen(), "ptx_isa", ""))
    checks += 2
    if ptx in PTX_VERSIONS and PTX_VERSIONS.index(ptx) < PTX_VERSIONS.index(ADDRESS_SIZE_PTX):
        # ptxas's modules carry .address_size, which PTX before 2.3 lacks: the table's
        # Fermi/Kepler minimums below it are NVIDIA's; here ptxas confirms the arch at 2.3
        if ptxas.assemble(name, ADDRESS_SIZE_PTX, EMPTY):
            wrong.append(f"cuda -arch={arch}: ptxas {ptxas.release} refuses .target {name} at PTX 2.3")
        return checks, wrong
    error = ptxas.assemble(name, ptx, EMPTY)
    if error:
        wrong.append(f"cuda -arch={arch}: PTX ISA {ptx}: ptxas {ptxas.release} refuses it: {error.splitlines()[0]}")
    index = PTX_VERSIONS.index(ptx) if ptx in PTX_VERSIONS else -1
    if index > 0 and not ptxas.assemble(name, PTX_VERSIONS[index - 1], EMPTY):
        wrong.append(
            f"cuda -arch={arch}: PTX ISA {ptx} is not the minimum: ptxas {ptxas.release} accepts "
            f"{PTX_VERSIONS[index - 1]} for .target {name}"
        )
    elif index < 0:
        wrong.append(f"cuda -arch={arch}: tcfg's PTX ISA {ptx!r} is not a PTX ISA version")
    return checks, wrong


def sweep(family: str = "cuda", workers: int = 2) -> SweepResult:
    """Every arch of the cuda plugin's table against ptxas (skipped when ptxas is absent)."""
    from tcfg_cuda.facts import arch_names
    from tcfg_cuda.probes import PROBES, find_ptxas

    ptxas = find_ptxas()
    if ptxas is None:
        return SweepResult(family, skipped="ptxas not found (CUDA toolkit on PATH or in /usr/local/cuda/bin)")
    names = arch_names()
    result = SweepResult(family, cpus=len(names), variants=1, features=len(PROBES) + 3)
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for checks, wrong in pool.map(lambda arch: check_arch(ptxas, arch), names):
            result.checks += checks
            result.disagreements += wrong
    return result
