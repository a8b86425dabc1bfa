"""The x86 truth sweep: tcfg's features and flags against clang-22, opt-22 and llc-22.

For every CPU clang-22 lists for x86_64 (``--print-supported-cpus``; 32-bit-only CPUs on
an i686 triple) under each ``-mattr`` variant of :data:`VARIANTS` (adds, removes that
take the features implying them along, an AVX-512 add on CPUs without it), it builds the
tcfg target and compares, feature by feature, over every x86 instruction-set feature
LLVM has (``K``; ``64bit`` is the triple's, not compared):

(a) ``t.features`` with the *reference*: LLVM's subtarget for what clang-22 gives the
    backend for the equivalent clang spelling. That is ``target-cpu=X`` with clang's
    ``target-features`` for ``-march=X`` (for the names clang lists but refuses as
    ``-march``, such as ``skylake_avx512`` and ``generic``: its expansion of
    ``__attribute__((cpu_specific(X)))``), the ``-mattr`` items appended, as LLVM's
    ``-mattr`` means;
(b) ``t.features`` with clang-22 run with ``t.codegen().clang_flags()``: the
    ``target-features`` clang writes (its frontend's view, which decides intrinsics and
    macros) and LLVM's subtarget for what clang gives the backend;
(c) ``t.features`` with llc-22 run with ``t.codegen().llc_flags()``: LLVM's subtarget for
    its ``-mcpu``/``-mattr``, and llc itself compiling one probe per feature
    (:mod:`x86_probes`): every feature the target has must compile (one llc run holds
    them all), every feature it lacks must not show in the assembly (generic probes, in
    that same run). An intrinsic probe aborts llc, so absence is one run per feature:
    :func:`check_probes` shows each probe fails without its feature, and
    ``TCFG_TRUTH_X86_ABSENT=1`` runs them on every bare CPU too (opt's view of llc's
    subtarget covers absence otherwise).

LLVM's subtarget is read with opt-22 (``llvm.subtarget_features``: the inliner's subset
check). It cannot see ``cx8``, ``cx16`` and ``sahf`` (LLVM's inline check ignores them):
for those the reference and (b) are the feature strings, and ``cx16`` is probed with llc.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache

import llvm
import x86_probes
from sweep import SweepResult

__all__ = ["VARIANTS", "Case", "check_cpu", "check_probes", "sweep"]

# A probe that llc cannot select aborts it; without this every abort runs llvm-symbolizer (~1 s).
os.environ.setdefault("LLVM_DISABLE_SYMBOLIZATION", "1")

T64, T32 = "x86_64-linux-gnu", "i686-linux-gnu"

#: The -mattr variants, applied to every CPU ("" is the bare CPU).
VARIANTS = ("", "-avx2", "-sse4.2", "+avx512f", "-aes,+sha", "-sse2,+sgx", "+avx10.2")

#: Also run, on each bare CPU, every intrinsic probe of a feature it lacks on its own (each
#: must make llc fail): about 60 more llc runs per CPU, so only with TCFG_TRUTH_X86_ABSENT=1.
#: Without it the absence of those features in llc's subtarget is read from opt (same
#: -mcpu/-mattr), and the probes themselves are shown to fail without their feature.
ABSENT_RUNS = os.environ.get("TCFG_TRUTH_X86_ABSENT") == "1"

#: Features LLVM's inline check ignores: opt cannot read them, the feature strings can.
INLINE_IGNORED = frozenset({"cx8", "cx16", "sahf"})


@dataclass(frozen=True)
class Tools:
    clang: str
    llc: str
    opt: str


def tools() -> Tools | str:
    """The tools, or the reason the sweep cannot run."""
    found = {name: llvm.find(name) for name in ("clang-22", "llc-22", "opt-22")}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        return f"{', '.join(missing)} not found"
    return Tools(found["clang-22"], found["llc-22"], found["opt-22"])  # type: ignore[arg-type]


@cache
def isa_features() -> tuple[str, ...]:
    """LLVM 22's x86 instruction-set features (tcfg's table; every name is checked to be llc's too)."""
    from tcfg_x86.facts import tables

    return tuple(sorted(tables().isa - {"64bit"}))


def clang_cpus(t: Tools) -> list[str]:
    done = llvm.run([t.clang, f"--target={T64}", "--print-supported-cpus"])
    text = done.stdout + done.stderr
    return sorted(line.strip() for line in text.splitlines() if line.startswith("\t") and line.strip())


def is_64bit(t: Tools, cpu: str) -> bool:
    """Whether llc-22 emits x86_64 code for ``cpu`` (it refuses a 32-bit CPU there)."""
    done = llvm.run([t.llc, f"-mtriple={T64}", f"-mcpu={cpu}", "-o", "/dev/null"], "define void @f() { ret void }\n")
    return done.returncode == 0


def _apply(items: Sequence[str]) -> dict[str, bool]:
    """A feature string as {feature: last sign}."""
    out: dict[str, bool] = {}
    for item in items:
        if item[:1] in "+-" and len(item) > 1:
            out[item[1:]] = item[0] == "+"
    return out


def reference_string(t: Tools, cpu: str, triple: str) -> tuple[str, ...]:
    """clang-22's target-features for the clang spelling of bare ``cpu``.

    ``-march=X``; for a name clang lists but refuses there, its ``cpu_specific(X)``
    expansion (clang's table entry for X, on an i386 base, which adds only x87).
    """
    try:
        return llvm.clang_ir_attrs(t.clang, triple, [f"-march={cpu}"])[2]
    except RuntimeError:
        pass
    source = f"__attribute__((cpu_specific({cpu}))) void f(void) {{}}\n"
    argv = [t.clang, "--target=i386-unknown-linux-gnu", "-march=i386", "-S", "-emit-llvm", "-o", "-", "-x", "c", "-"]
    done = llvm.run(argv, source)
    found = re.search(r'"target-features"="([^"]*)"', done.stdout)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"clang-22 knows {cpu} neither as -march nor as cpu_specific: {done.stderr[:500]}")
    return tuple(filter(None, found.group(1).split(",")))


@dataclass
class Case:
    """One (CPU, variant): tcfg's answer and the flags it emits."""

    cpu: str
    variant: str
    triple: str
    have: frozenset[str] | None  # None: tcfg refused it
    clang_flags: tuple[str, ...] = ()
    llc_flags: tuple[str, ...] = ()
    error: str = ""

    @property
    def label(self) -> str:
        return f"llvm -mtriple={self.triple} -mcpu={self.cpu}" + (f" -mattr={self.variant}" if self.variant else "")


@cache
def registry() -> object:
    """A registry with the x86 plugin only: the sweep judges it alone."""
    import tcfg
    import tcfg_x86.plugin

    return tcfg.Registry(plugins=[tcfg_x86.plugin], autoload=False)


def tcfg_case(cpu: str, variant: str, triple: str) -> Case:
    import tcfg
    from tcfg.plugin import LLVMCodegen, feature_name

    spec = f"llvm -mtriple={triple} -mcpu={cpu}" + (f" -mattr={variant}" if variant else "")
    try:
        target = tcfg.Target(spec, registry=registry())  # type: ignore[arg-type]
    except tcfg.TargetError as exc:
        return Case(cpu, variant, triple, None, error=str(exc).splitlines()[0])
    have = frozenset(f for f in isa_features() if target.features.vendor(feature_name(f)) is True)
    cg = target.codegen()
    assert isinstance(cg, LLVMCodegen)
    return Case(cpu, variant, triple, have, tuple(cg.clang_flags()), tuple(cg.llc_flags()))


def _llc_mcpu_mattr(flags: Sequence[str]) -> tuple[str, str]:
    cpu = next(f.removeprefix("-mcpu=") for f in flags if f.startswith("-mcpu="))
    mattr = next((f.removeprefix("-mattr=") for f in flags if f.startswith("-mattr=")), "")
    return cpu, mattr


def _usable(probe: x86_probes.Probe, triple: str, have: frozenset[str]) -> bool:
    if (probe.only64 and triple != T64) or (probe.only32 and triple == T64):
        return False
    return not probe.unless & have


def llc_probe(
    t: Tools, flags: Sequence[str], have: frozenset[str], absent_runs: bool, only: frozenset[str] | None = None
) -> dict[str, bool]:
    """What llc-22 with ``flags`` compiles: {feature: present} for every usable probe.

    One run holds the probes of the features ``have`` names and the generic probes of the
    rest; if it fails, each present probe is run alone to find the ones llc refuses.
    With ``absent_runs``, each intrinsic probe of a feature not in ``have`` runs alone
    too (it must fail). ``only`` limits the probes to these features.
    """
    triple = next(f.removeprefix("-mtriple=") for f in flags if f.startswith("-mtriple="))
    probes = [p for p in x86_probes.PROBES.values() if _usable(p, triple, have) and (only is None or p.feature in only)]
    batch = [p for p in probes if p.feature in have or p.generic]
    out: dict[str, bool] = {}

    def compile_(group: list[x86_probes.Probe]) -> dict[str, str] | None:
        done = llvm.run([t.llc, *flags, "-o", "-"], x86_probes.module(group))
        if "<stdin>:" in done.stderr:  # the probe module itself is wrong, not the target
            raise RuntimeError(f"llc-22 cannot parse the probes: {done.stderr[:1000]}")
        return x86_probes.function_asm(done.stdout) if done.returncode == 0 else None

    asm = compile_(batch)
    if asm is None:
        asm = {}
        for p in batch:
            alone = compile_([p])
            if alone is None:
                out[p.feature] = False
            else:
                asm.update(alone)
    for p in batch:
        if p.feature not in out:
            out[p.feature] = p.present(asm.get(x86_probes.fn_name(p.feature), ""))
    if absent_runs:
        for p in probes:
            if p.feature not in have and not p.generic:
                alone = compile_([p])
                out[p.feature] = alone is not None
    return out


@cache
def invisible(t: Tools, triple: str) -> frozenset[str]:
    """Features opt's inline check cannot see on ``triple``: always "present", even on the base CPU.

    On x86_64 those LLVM's inline check ignores; on i686 also the 64-bit-only ones (APX,
    ``uintr``), which a 32-bit subtarget never has. Measured: the features opt reports for
    the base CPU (``x86-64``/``i386``) that clang's ``target-features`` for it lack.
    """
    base = "x86-64" if triple == T64 else "i386"
    (seen,) = llvm.subtarget_features(t.opt, triple, [(base, "")], isa_features())
    string = {f for f, on in _apply(llvm.clang_ir_attrs(t.clang, triple, [f"-march={base}"])[2]).items() if on}
    return frozenset(seen - string) | INLINE_IGNORED


#: "target: feature" -> what clang-22's frontend turns on with the feature that the target
#: lacks: sets tcfg has (by LLVM's -mattr rules) that no clang-22 command line can give.
INEXPRESSIBLE: dict[str, list[str]] = {}


def inexpressible(t: Tools, triple: str, case: Case, feature: str) -> list[str]:
    """Why clang-22 cannot have ``feature`` in ``case``'s set: what adding it turns on that the set lacks.

    Empty when it can (then clang's missing ``feature`` is a real disagreement). LLVM's
    ``-mattr=-avx2`` keeps ``amx-avx512`` (its backend does not make it imply AVX10.2);
    clang's frontend does, so ``+amx-avx512`` brings ``avx2`` back.
    """
    args = [f for f in case.clang_flags if not f.startswith("--target=")]
    items = llvm.clang_ir_attrs(t.clang, triple, [*args, "-Xclang", "-target-feature", "-Xclang", f"+{feature}"])[2]
    return sorted(f for f, on in _apply(items).items() if on and f not in (case.have or ()) and f != "64bit")


def check_cpu(t: Tools, cpu: str, variants: Sequence[str] = VARIANTS) -> tuple[int, list[str]]:
    """Every check for ``cpu`` under ``variants``: (number of checks, disagreements)."""
    triple = T64 if is_64bit(t, cpu) else T32
    features = isa_features()
    hidden = invisible(t, triple)
    visible = [f for f in features if f not in hidden]
    ref_items = reference_string(t, cpu, triple)
    cases = [tcfg_case(cpu, v, triple) for v in variants]
    checks, wrong = 0, []
    for case in cases:
        checks += 1
        if case.have is None:
            wrong.append(f"{case.label}: tcfg refuses it ({case.error}); clang-22 and llc-22 accept it")
    good = [c for c in cases if c.have is not None]
    # Every subtarget this CPU needs, in one opt run: reference, clang's and llc's.
    configs: list[tuple[str, str]] = []
    clang_attrs = []
    for case in good:
        extra = case.variant.split(",") if case.variant else []
        configs.append((cpu, ",".join([*ref_items, *extra])))
        attrs = llvm.clang_ir_attrs(t.clang, triple, [f for f in case.clang_flags if not f.startswith("--target=")])
        clang_attrs.append(attrs)
        configs.append((attrs[1], ",".join(attrs[2])))
        configs.append(_llc_mcpu_mattr(case.llc_flags))
    unique = list(dict.fromkeys(configs))  # the bare CPU's reference and clang's often coincide
    seen = dict(zip(unique, llvm.subtarget_features(t.opt, triple, unique, visible), strict=True))
    sub = [seen[c] for c in configs]
    for k, case in enumerate(good):
        assert case.have is not None
        ref, via_clang, via_llc = sub[3 * k : 3 * k + 3]
        extra = case.variant.split(",") if case.variant else []
        ref_strings = _apply([*ref_items, *extra])
        frontend = _apply(clang_attrs[k][2])

        def compare(what: str, feature: str, theirs: bool, case: Case = case) -> None:
            nonlocal checks
            checks += 1
            ours = feature in (case.have or ())
            if ours != theirs:
                wrong.append(f"{case.label}: {feature}: tcfg {ours}, {what} {theirs}")

        # A feature tcfg has and clang-22 with its flags lacks is a disagreement unless clang
        # cannot hold the set at all (adding the feature turns on what the set lacks).
        cannot = set()
        for f in features:
            if f in case.have and not (frontend.get(f, False) and (f in hidden or f in via_clang)):
                forced = inexpressible(t, triple, case, f)
                if forced:
                    INEXPRESSIBLE[f"{case.label}: {f}"] = forced
                    cannot.add(f)
        for f in visible:
            compare("clang-22 reference (-march/cpu_specific + -mattr, LLVM subtarget)", f, f in ref)
            compare("clang-22 with tcfg's clang flags (LLVM subtarget)", f, f in via_clang or f in cannot)
            compare("llc-22 with tcfg's llc flags (LLVM subtarget)", f, f in via_llc)
        for f in features:
            compare("clang-22 with tcfg's clang flags (target-features)", f, frontend.get(f, False) or f in cannot)
        ref_cx16 = False
        if triple == T64 and not ref_strings.get("cx16", False):
            # LLVM's backend definition can have cx16 where clang's string does not (k8-sse3).
            ref_llc = [f"-mtriple={triple}", f"-mcpu={cpu}", "-mattr=" + ",".join([*ref_items, *extra])]
            ref_cx16 = bool(llc_probe(t, ref_llc, frozenset(), False, frozenset({"cx16"})).get("cx16"))
        for f in sorted(hidden):
            theirs = ref_strings.get(f, False) or (f == "cx16" and ref_cx16)
            compare("clang-22 reference (target-features; cx16 also llc's code)", f, theirs)
        probed = llc_probe(t, case.llc_flags, case.have, absent_runs=ABSENT_RUNS and not case.variant)
        for f, present in sorted(probed.items()):
            compare("llc-22 with tcfg's llc flags (probe)", f, present)
    return checks, wrong


def check_probes(t: Tools) -> list[str]:
    """Each probe compiles as present with its feature and as absent without it (x86-64 or i686 base)."""
    wrong = []
    for p in x86_probes.PROBES.values():
        triple, cpu = (T32, "i486") if p.only32 else (T64, "x86-64")
        base, only = [f"-mtriple={triple}", f"-mcpu={cpu}"], frozenset({p.feature})
        on = llc_probe(t, [*base, f"-mattr=+{p.feature}"], only, False, only)
        off = llc_probe(t, [*base, f"-mattr=-{p.feature}"], frozenset(), True, only)
        if on.get(p.feature) is not True or off.get(p.feature) is not False:
            wrong.append(f"probe {p.feature}: with it {on.get(p.feature)}, without it {off.get(p.feature)}")
    return wrong


def sweep(family: str = "x86", workers: int = 2, cpus: Sequence[str] | None = None) -> SweepResult:
    """The x86 sweep (``family`` is ``"x86"``); ``cpus`` limits it (default: all clang-22 lists)."""
    found = tools()
    if isinstance(found, str):
        return SweepResult(family, skipped=found)
    t = found
    names = list(cpus) if cpus is not None else clang_cpus(t)
    result = SweepResult(family, cpus=len(names), variants=len(VARIANTS), features=len(isa_features()))
    known = set(llvm.llvm_feature_names(t.llc, T64))
    for f in isa_features():
        result.checks += 1
        if f not in known:
            result.disagreements.append(f"{f}: tcfg's x86 feature is not in llc-22's -mattr=help")
    for line in check_probes(t):
        result.disagreements.append(line)
    result.checks += 2 * len(x86_probes.PROBES)
    with ThreadPoolExecutor(max(1, workers)) as pool:
        for checks, wrong in pool.map(lambda cpu: check_cpu(t, cpu), names):
            result.checks += checks
            result.disagreements += wrong
    for where, forced in sorted(INEXPRESSIBLE.items()):
        print(f"x86: note: {where}: clang-22 cannot express it (adding it turns on {','.join(forced)})")
    return result
