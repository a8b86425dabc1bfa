"""Generate ``tcfg_x86/data/llvm_x86.json``: x86 CPUs and features as LLVM 22 and clang-22 see them.

Which tool answers what (recorded in the output's ``provenance``):

* LLVM 22, through llvmlite (in-process, no clang needed):
  - the CPU and feature names with their descriptions: a TargetMachine created for the
    CPU ``help`` prints LLVM's own tables;
  - which features are instruction-set features: the keys LLVM's host feature
    detection (``sys::getHostCPUFeatures``) reports, plus ``x87``;
  - which CPUs are 64-bit: a TargetMachine for ``x86_64`` and the CPU either emits code
    or aborts ("64-bit code requested on a subtarget that doesn't support it"), probed
    in a forked child;
  - each CPU's features and each feature's implications: LLVM inlines a callee into a
    caller only if the callee's subtarget features are a subset of the caller's
    (``X86TTIImpl::areInlineCompatible``). So feature F is in CPU X iff a function with
    ``target-cpu=X, +F`` inlines into one with ``target-cpu=X``; and A implies B iff
    ``(base, +B)`` inlines into ``(base, -B,+A)``;
  - the vector width LLVM's vectoriser prefers on each CPU: the widest register in the
    assembly of a vectorisable loop compiled for it.
* clang (``-S -emit-llvm``, whose ``target-features`` attribute is fully expanded on
  x86): the features the inliner cannot see (those LLVM's inline check ignores, found
  by probing: ``sahf``, ``cx8``, ``cx16``). For a CPU clang accepts as ``-march``, from
  ``-march=X``. clang refuses ``-march`` for ``generic`` and for the ``cpu_dispatch``
  spellings (``skylake_avx512``) that LLVM's CPU table also lists, but it takes those in
  ``__attribute__((cpu_specific(X)))``: it then expands X's feature list on top of the
  command line's CPU. The generator compiles such a function for i386 with
  ``-march=i386``, a base holding none of the ignored features (checked), so the ignored
  features in the answer are X's own. It also checks that ``cpu_specific(X)`` and
  ``-march=X`` agree on them for every CPU clang takes both ways, and records, for each
  CPU clang refuses as ``-march``, the CPUs it accepts whose LLVM feature sets are the
  same (``march_twins``). Each CPU's ``clang_source`` names the clang input that answered.
  clang's expansion of every CPU is also compared with LLVM's answer and the differences
  recorded (``clang_differences``). The clang is ``$TCFG_X86_CLANG``, by default
  ``clang-22``: the same LLVM major as llvmlite's, so both tools know the same CPUs. A
  CPU clang knows neither way is listed in ``undetermined`` and its ignored features are
  left out.

Run: ``python plugins/x86/scripts/gen_llvm_data.py [--check]`` (``--check`` compares with
the stored file instead of writing it). Needs llvmlite and ``clang-22`` (or the clang
named by ``TCFG_X86_CLANG``; the tools used are recorded in the output's ``tools``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

OUTPUT = Path(__file__).resolve().parent.parent / "tcfg_x86" / "data" / "llvm_x86.json"
CLANG = os.environ.get("TCFG_X86_CLANG", "clang-22")
TRIPLE64 = "x86_64-unknown-linux-gnu"
TRIPLE32 = "i386-unknown-linux-gnu"
#: The command line clang's ``cpu_specific`` answers are expanded on: a CPU with none of the
#: features LLVM's inline check ignores (``check_cpu_specific_base`` makes sure).
CPU_SPECIFIC_BASE = (TRIPLE32, "-march=i386")

#: A loop LLVM's loop vectoriser turns into vector code of the preferred width.
VECTOR_LOOP = """
define void @saxpy(ptr noalias %y, ptr noalias %x, float %a, i32 %n) {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr inbounds float, ptr %x, i32 %i
  %py = getelementptr inbounds float, ptr %y, i32 %i
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %m = fmul float %vx, %a
  %s = fadd float %m, %vy
  store float %s, ptr %py
  %next = add nsw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""


def _llvm() -> Any:
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm


def llvm_version() -> str:
    """``LLVM x.y.z via llvmlite v`` for the installed llvmlite."""
    import llvmlite

    llvm = _llvm()
    return f"LLVM {'.'.join(map(str, llvm.llvm_version_info))} via llvmlite {llvmlite.__version__}"


def llvm_help() -> tuple[list[str], dict[str, str]]:
    """LLVM's x86 CPU names and ``{feature: description}``, from its ``-mcpu=help`` tables."""
    child = (
        "import llvmlite.binding as l; l.initialize_all_targets(); l.initialize_all_asmprinters();"
        f"l.Target.from_triple({TRIPLE64!r}).create_target_machine(cpu='help')"
    )
    run = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=False)
    lines = run.stderr.splitlines()
    try:
        split = lines.index("Available features for this target:")
    except ValueError:
        raise SystemExit(f"llvmlite printed no feature table: {run.stderr[:500]}") from None
    entry = re.compile(r"^  (\S+)\s+- (.*)$")
    cpus = [m.group(1) for line in lines[:split] if (m := entry.match(line))]
    features = {m.group(1): m.group(2).strip() for line in lines[split:] if (m := entry.match(line))}
    return cpus, features


def _inlines(triple: str, pairs: Sequence[tuple[tuple[str, str], tuple[str, str]]]) -> list[bool]:
    """For each ``((callee_cpu, callee_features), (caller_cpu, caller_features))``: does LLVM inline?"""
    llvm = _llvm()
    machine = llvm.Target.from_triple(triple).create_target_machine(cpu="")
    body = ["declare void @ext()"]
    attrs = []
    for i, pair in enumerate(pairs):
        body.append(f"define internal void @callee{i}() #{2 * i} {{ call void @ext() ret void }}")
        body.append(f"define void @caller{i}() #{2 * i + 1} {{ call void @callee{i}() ret void }}")
        for j, (cpu, feats) in enumerate(pair):
            spec = f'"target-cpu"="{cpu}"' + (f' "target-features"="{feats}"' if feats else "")
            attrs.append(f"attributes #{2 * i + j} = {{ {spec} }}")
    module = llvm.parse_assembly("\n".join(body + attrs))
    module.triple = triple
    builder = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=1))
    builder.getModulePassManager().run(module, builder)
    return [f"@callee{i}(" not in str(module.get_function(f"caller{i}")) for i in range(len(pairs))]


def _parallel(jobs: list[Any], work: Any) -> list[Any]:
    """``[work(job) for job in jobs]``, spread over forked children (LLVM state is per process)."""
    workers = max(1, min(os.cpu_count() or 1, 2))
    chunks = [jobs[i::workers] for i in range(workers)]
    reads = []
    for chunk in chunks:
        rfd, wfd = os.pipe()
        if os.fork() == 0:  # child
            os.close(rfd)
            with os.fdopen(wfd, "w") as out:
                json.dump([work(job) for job in chunk], out)
            os._exit(0)
        os.close(wfd)
        reads.append(os.fdopen(rfd))
    parts = [json.load(r) for r in reads]
    for _ in chunks:
        os.wait()
    results: list[Any] = [None] * len(jobs)
    for w, part in enumerate(parts):
        for k, value in enumerate(part):
            results[w + k * workers] = value
    return results


def _emits_64bit(cpu: str) -> bool:
    """Whether LLVM emits x86_64 code for ``cpu`` (a forked child absorbs LLVM's abort)."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        llvm = _llvm()
        machine = llvm.Target.from_triple(TRIPLE64).create_target_machine(cpu=cpu)
        module = llvm.parse_assembly("define i64 @f(i64 %x) { ret i64 %x }")
        module.triple = TRIPLE64
        machine.emit_assembly(module)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _preferred_width(job: tuple[str, str, str]) -> int:
    """The widest vector register (bits) in LLVM's code for the vector loop on a CPU."""
    triple, cpu, feats = job
    llvm = _llvm()
    machine = llvm.Target.from_triple(triple).create_target_machine(
        cpu=cpu, features=feats, opt=2, reloc="pic", codemodel="small"
    )
    module = llvm.parse_assembly(VECTOR_LOOP)
    module.triple = triple
    module.data_layout = str(machine.target_data)
    tuning = llvm.create_pipeline_tuning_options(speed_level=2)
    tuning.loop_vectorization = True
    builder = llvm.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(module, builder)
    asm = str(machine.emit_assembly(module))
    if "%zmm" in asm:
        return 512
    if "%ymm" in asm:
        return 256
    return 128 if re.search(r"\b(v?mulps|v?addps|vfmadd\w*ps)\b", asm) else 0


#: Compare-and-swap twice the register width: LLVM emits cmpxchg16b (cmpxchg8b in 32-bit
#: mode) only when its backend definition of the CPU has cx16 (cx8), else a library call.
CMPXCHG = """
define {t} @cas(ptr %p, {t} %a, {t} %b) {{
  %r = cmpxchg ptr %p, {t} %a, {t} %b seq_cst seq_cst
  %v = extractvalue {{ {t}, i1 }} %r, 0
  ret {t} %v
}}
"""


def _backend_cmpxchg(job: tuple[str, str]) -> list[str]:
    """``cx16`` (64-bit CPUs) or ``cx8`` (32-bit ones) if LLVM's backend definition of the CPU has it.

    LLVM's inline check ignores both, so they are read from the code it generates.
    """
    triple, cpu = job
    llvm = _llvm()
    machine = llvm.Target.from_triple(triple).create_target_machine(cpu=cpu, opt=2, reloc="pic", codemodel="small")
    wide, feature, insn = ("i128", "cx16", "cmpxchg16b") if triple == TRIPLE64 else ("i64", "cx8", "cmpxchg8b")
    module = llvm.parse_assembly(CMPXCHG.format(t=wide))
    module.triple = triple
    return [feature] if insn in str(machine.emit_assembly(module)) else []


def _cpu_features(job: tuple[str, str, list[str]]) -> list[str]:
    triple, cpu, probe = job
    answers = _inlines(triple, [((cpu, f"+{f}"), (cpu, "")) for f in probe])
    return [f for f, yes in zip(probe, answers, strict=True) if yes]


def _implied(job: tuple[str, str, str, list[str]]) -> list[str]:
    """The candidates B that ``feature`` implies: (base, +B) inlines into (base, -B,+feature)."""
    triple, base, feature, candidates = job
    pairs = [((base, f"+{b}"), (base, f"-{b},+{feature}")) for b in candidates]
    return [b for b, yes in zip(candidates, _inlines(triple, pairs), strict=True) if yes]


def _implications(triple: str, base: str, features: list[str], candidates: list[str]) -> dict[str, list[str]]:
    jobs = [(triple, base, f, [b for b in candidates if b != f]) for f in features]
    return dict(zip(features, _parallel(jobs, _implied), strict=True))


def _invisible(triple: str, base: str, feature: str, implied: list[str]) -> bool:
    """Whether LLVM's inline check cannot tell ``feature`` apart from what it implies.

    True iff (base, +F) inlines into (base, -F,+each feature F implies).
    """
    without = ",".join([f"-{feature}", *(f"+{b}" for b in implied)])
    return _inlines(triple, [((base, f"+{feature}"), (base, without))])[0]


def clang_version() -> str | None:
    try:
        run = subprocess.run([CLANG, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return run.stdout.splitlines()[0].strip()


def clang_cpus() -> list[str]:
    run = subprocess.run(
        [CLANG, f"--target={TRIPLE64}", "--print-supported-cpus"], capture_output=True, text=True, check=True
    )
    text = run.stdout + run.stderr
    return sorted(line.strip() for line in text.splitlines() if line.startswith("\t") and line.strip())


def clang_features(triple: str, args: Iterable[str], source: str = "void f(void) {}\n") -> list[str] | None:
    """The ``+`` features of the first ``target-features`` attribute clang gives C ``source``.

    None if clang refuses the command line or the source.
    """
    run = subprocess.run(
        [CLANG, f"--target={triple}", *args, "-S", "-emit-llvm", "-o", "-", "-x", "c", "-"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        return None
    found = re.search(r'"target-features"="([^"]*)"', run.stdout)
    feats = found.group(1).split(",") if found else []
    return sorted(f[1:] for f in feats if f.startswith("+"))


def clang_cpu_specific(cpu: str) -> list[str] | None:
    """The features clang gives a function marked ``cpu_specific(cpu)``, on ``CPU_SPECIFIC_BASE``.

    That is the base CPU's features plus ``cpu``'s own; None if clang does not take ``cpu``
    as a ``cpu_specific`` name.
    """
    triple, march = CPU_SPECIFIC_BASE
    return clang_features(triple, [march], f"__attribute__((cpu_specific({cpu}))) void f(void) {{}}\n")


def cpu_specific_source(cpu: str) -> str:
    """How ``clang_source`` names an answer from :func:`clang_cpu_specific`."""
    return f"__attribute__((cpu_specific({cpu}))) on --target={CPU_SPECIFIC_BASE[0]} {CPU_SPECIFIC_BASE[1]}"


def check_cpu_specific_base(ignored: Sequence[str]) -> None:
    """Exit unless clang's base for ``cpu_specific`` answers has none of the ``ignored`` features."""
    triple, march = CPU_SPECIFIC_BASE
    base = clang_features(triple, [march])
    if base is None or set(base) & set(ignored):
        raise SystemExit(f"{CLANG} {march} gives {base}: it would mask the cpu_specific answers for {ignored}")


def check_cpu_specific_matches_march(march: dict[str, list[str]], ignored: Sequence[str]) -> None:
    """Exit unless ``cpu_specific(X)`` and ``-march=X`` give the same ``ignored`` features.

    ``march``: clang's ``-march=X`` expansion of each CPU it accepts. CPUs clang does not take
    as ``cpu_specific`` names (``x86-64``, the hyphenated spellings) are not compared.
    """
    wrong = {}
    for cpu, expanded in march.items():
        specific = clang_cpu_specific(cpu)
        if specific is not None and set(specific) & set(ignored) != set(expanded) & set(ignored):
            wrong[cpu] = (sorted(set(specific) & set(ignored)), sorted(set(expanded) & set(ignored)))
    if wrong:
        raise SystemExit(f"{CLANG}: (cpu_specific, -march) disagree on {list(ignored)}: {wrong}")


def march_twins(cpu: str, llvm_sets: dict[str, frozenset[str]], accepted: Iterable[str]) -> list[str]:
    """The CPUs in ``accepted`` whose LLVM feature set (``llvm_sets``, 64bit included) is ``cpu``'s."""
    return sorted(other for other in accepted if other != cpu and llvm_sets[other] == llvm_sets[cpu])


def clang_answers(cpus: dict[str, bool], ignored: Sequence[str]) -> dict[str, tuple[str, list[str]]]:
    """Each CPU clang knows (``cpus``: name -> 64-bit), with the clang input that answered and clang's features.

    ``-march=X`` where clang accepts it, else ``cpu_specific(X)`` (checked first to answer
    the ``ignored`` features as ``-march`` does). CPUs clang knows neither way are absent.
    """
    known = set(clang_cpus())
    march = {}
    for cpu, is64 in cpus.items():
        expanded = clang_features(TRIPLE64 if is64 else TRIPLE32, [f"-march={cpu}"]) if cpu in known else None
        if expanded is not None:
            march[cpu] = expanded
    check_cpu_specific_base(ignored)
    check_cpu_specific_matches_march(march, ignored)
    answers = {cpu: (f"-march={cpu}", expanded) for cpu, expanded in march.items()}
    for cpu in cpus.keys() - march.keys():
        specific = clang_cpu_specific(cpu)
        if specific is not None:
            answers[cpu] = (cpu_specific_source(cpu), specific)
    return answers


def frontend_implies(feature: str, only64: bool) -> list[str]:
    """What clang's frontend turns on with ``-target-feature +feature`` beyond the feature itself.

    Measured on ``-march=i386`` (``x86-64`` for a 64-bit-only feature). It can be more than
    LLVM's implication: the frontend also turns on ``crc32`` and ``popcnt`` with
    ``sse4.2``, and ``xsave`` with ``avx``, unless they are explicitly disabled.
    """
    triple, march = (TRIPLE64, "-march=x86-64") if only64 else (TRIPLE32, "-march=i386")
    base = clang_features(triple, [march]) or []
    expanded = clang_features(triple, [march, "-Xclang", "-target-feature", "-Xclang", f"+{feature}"]) or []
    return sorted(set(expanded) - set(base) - {feature})


def likeness(cpu: str, other: str) -> int:
    """How many leading characters ``cpu`` and ``other`` share once ``-`` and ``_`` are dropped."""
    a, b = (name.replace("-", "").replace("_", "") for name in (cpu, other))
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def clang_spelling(cpu: str, accepted: bool, twins: Sequence[str], is64: bool) -> str:
    """The ``-march`` clang gets for ``cpu``: itself, else its twin spelled most like it, else a base CPU.

    The twin spelled most like ``cpu`` has the longest common prefix once ``-`` and ``_``
    are dropped, ties to the first by name (``skylake_avx512`` -> ``skylake-avx512``).
    ``generic`` has no twin: clang gets ``x86-64`` (``i386`` in 32-bit mode), and the
    features that base has beyond ``generic``'s are removed explicitly.
    """
    if accepted:
        return cpu
    if twins:
        return max(twins, key=lambda twin: likeness(cpu, twin))
    return "x86-64" if is64 else "i386"


def _split(have: set[str], frontend: set[str], backend: set[str]) -> dict[str, list[str]]:
    """What a tool must be told beyond its own table to get exactly ``have``."""
    return {
        "add": sorted(have - frontend - {"64bit"}),
        "remove": sorted((frontend | backend) - have - {"64bit"}),
    }


def add_split(
    cpu: str, entry: dict[str, Any], frontend: dict[str, set[str]], backend: dict[str, set[str]], twins: Sequence[str]
) -> None:
    """Make ``entry`` (LLVM's backend set so far) clang-22's set, and record what each tool must be told.

    clang-22 compiles ``-march=X`` with ``target-cpu=X`` and ``target-features`` from its
    own CPU table (the frontend's); the backend then applies those features on top of its
    own definition of X. So the CPU's features are the union of both tables, and where one
    table lacks a feature the other has, the tool whose table lacks it is told: clang
    through ``clang_add`` (``-Xclang -target-feature +F``), llc through ``llc_add``
    (``-mattr=+F``). ``clang_cpu`` is the ``-march`` clang gets (:func:`clang_spelling`);
    ``clang_remove`` what clang's CPU there has beyond this CPU (only for ``generic``).
    """
    is64 = entry["64bit"]
    spelling = clang_spelling(cpu, entry["clang_march"], twins, is64)
    own = backend[cpu]
    have = own | (frontend[spelling] if cpu != "generic" else set())
    entry["features"] = sorted(have)
    entry["clang_cpu"] = spelling
    split = _split(have, frontend[spelling], backend[spelling])
    entry["clang_add"], entry["clang_remove"] = split["add"], split["remove"]
    entry["llc_add"] = sorted(have - own - {"64bit"})
    if "features_32bit_mode" in entry:
        base32 = clang_spelling(cpu, False, (), False)
        entry["clang_cpu_32bit"] = base32
        split = _split(set(entry["features_32bit_mode"]), frontend[base32], backend[base32])
        entry["clang_add_32bit"], entry["clang_remove_32bit"] = split["add"], split["remove"]


def generate() -> dict[str, Any]:
    """Ask LLVM (llvmlite) and clang and return the data file's content."""
    llvm = _llvm()
    cpus, descriptions = llvm_help()
    host_keys = set(dict(llvm.get_host_cpu_features()))
    isa = sorted((host_keys | {"x87"}) & set(descriptions))
    probe_isa = [f for f in isa if f != "64bit"]  # "-64bit" on x86_64 makes LLVM abort
    # Implications as LLVM's inline check sees them, on a 32-bit base (i386) and, for
    # features that only exist in 64-bit mode (invisible there), on a 64-bit one (x86-64).
    raw32 = _implications(TRIPLE32, "i386", probe_isa, probe_isa)
    hidden32 = [f for f in probe_isa if _invisible(TRIPLE32, "i386", f, raw32[f])]
    raw64 = _implications(TRIPLE64, "x86-64", hidden32, probe_isa)
    only64 = sorted(f for f in hidden32 if not _invisible(TRIPLE64, "x86-64", f, raw64[f]))
    raw = {**raw32, **{f: raw64[f] for f in only64}}
    # Features the inline check ignores: invisible in both modes.
    ignored = sorted(f for f in hidden32 if f not in only64)
    visible = [f for f in probe_isa if f not in ignored]

    clang = clang_version()
    if clang is None:
        raise SystemExit(f"{CLANG} is not installed; set TCFG_X86_CLANG to a clang binary")
    major = re.search(r"clang version (\d+)\.", clang)
    if major is None or int(major.group(1)) != llvm.llvm_version_info[0]:
        print(
            f"warning: {clang!r} is not LLVM {llvm.llvm_version_info[0]}: it may refuse CPUs LLVM knows, "
            "leaving their inline-ignored features undetermined",
            file=sys.stderr,
        )
    implied: dict[str, list[str]] = {}
    for feat in isa:
        if feat in ignored or feat == "64bit":
            expanded = clang_features(TRIPLE32, ["-march=i386", "-Xclang", "-target-feature", "-Xclang", f"+{feat}"])
            base = clang_features(TRIPLE32, ["-march=i386"]) or []
            implied[feat] = sorted(set(expanded or ()) - set(base) - {feat})
        else:
            with_feat = clang_features(TRIPLE32, ["-march=i386", "-Xclang", "-target-feature", "-Xclang", f"+{feat}"])
            implied[feat] = sorted(
                {b for b in raw[feat] if b in visible and (feat in only64 or b not in only64)}
                | {b for b in ignored if b in (with_feat or ())}
            )

    clang_implied = {feat: frontend_implies(feat, feat in only64) for feat in isa if feat != "64bit"}

    is64 = {cpu: _emits_64bit(cpu) for cpu in cpus}
    jobs = []
    for cpu in cpus:
        triple = TRIPLE64 if is64[cpu] else TRIPLE32
        jobs.append((triple, cpu, [f for f in visible if is64[cpu] or f not in only64]))
    jobs.append((TRIPLE32, "generic", [f for f in visible if f not in only64]))
    probed = _parallel(jobs, _cpu_features)
    generic32 = probed.pop()

    width_jobs = [(TRIPLE64 if is64[c] else TRIPLE32, c, "") for c in cpus]
    widths = dict(zip(cpus, _parallel(width_jobs, _preferred_width), strict=True))
    cap_jobs = [(TRIPLE64 if is64[c] else TRIPLE32, c, "+avx512f") for c in cpus]
    caps = dict(zip(cpus, _parallel(cap_jobs, _preferred_width), strict=True))

    cmpxchg_jobs = [(TRIPLE64 if is64[c] else TRIPLE32, c) for c in cpus]
    backend_cmpxchg = dict(zip(cpus, _parallel(cmpxchg_jobs, _backend_cmpxchg), strict=True))
    answers = clang_answers(is64, ignored)
    llvm_sets = {
        cpu: frozenset(feats) | ({"64bit"} if is64[cpu] else set()) for cpu, feats in zip(cpus, probed, strict=True)
    }
    accepted = [cpu for cpu, (source, _) in answers.items() if source == f"-march={cpu}"]
    cpu_table: dict[str, Any] = {}
    undetermined: dict[str, list[str]] = {}
    differences: dict[str, dict[str, list[str]]] = {}
    twins: dict[str, list[str]] = {}
    for cpu in cpus:
        entry: dict[str, Any] = {"64bit": is64[cpu], "clang_march": cpu in accepted}
        have = set(llvm_sets[cpu])
        from_clang: set[str] = set()
        if cpu in answers:
            entry["clang_source"], expanded = answers[cpu]
            from_clang = set(ignored) & set(expanded)
            have |= from_clang | set(backend_cmpxchg[cpu])
            extra = sorted(set(expanded) - have - set(ignored) - {"64bit"})
            missing = sorted(have - set(expanded) - {"64bit"})
            if extra or missing:
                differences[cpu] = {"clang_only": extra, "llvm_only": missing}
        else:
            undetermined[cpu] = list(ignored)
        if not entry["clang_march"]:
            twins[cpu] = march_twins(cpu, llvm_sets, accepted)
        entry["features"] = sorted(have)
        if cpu == "generic" and set(generic32) | from_clang != have - {"64bit"}:
            entry["features_32bit_mode"] = sorted(set(generic32) | from_clang)
        entry["preferred_vector_width"] = widths[cpu]
        entry["preferred_vector_width_with_avx512f"] = caps[cpu]
        cpu_table[cpu] = entry
    frontend = {cpu: set(answers[cpu][1]) for cpu in accepted}
    backend = {c: set(e["features"]) for c, e in cpu_table.items()}
    for cpu, entry in cpu_table.items():
        add_split(cpu, entry, frontend, backend, twins.get(cpu, []))

    features = {}
    for feat in isa:
        features[feat] = {"doc": descriptions[feat], "implies": implied[feat]}
        if feat in clang_implied:
            features[feat]["clang_implies"] = clang_implied[feat]
    return {
        "schema": 1,
        "generated_by": "plugins/x86/scripts/gen_llvm_data.py",
        "date": datetime.date.today().isoformat(),
        "tools": {"llvm": llvm_version(), "clang": clang},
        "provenance": {
            "cpus": "LLVM's x86 CPU table (llvmlite TargetMachine for cpu 'help')",
            "features": "LLVM's x86 feature table; instruction-set features are the keys of LLVM's host "
            "feature detection (llvmlite get_host_cpu_features) plus x87",
            "features.implies": "LLVM inline-compatibility probe: A implies B iff a function with "
            "(base, +B) inlines into one with (base, -B,+A); base i386, or x86-64 for 64-bit-only features; "
            "for the features LLVM's inline check ignores, clang's expansion of -target-feature +F",
            "cpus.64bit": "LLVM: a TargetMachine for x86_64 emits code for the CPU (else LLVM aborts)",
            "cpus.features": "LLVM inline-compatibility probe (F in X iff (X, +F) inlines into X); "
            f"features LLVM's inline check ignores ({', '.join(ignored)}) from clang's fully expanded "
            "target-features for the input cpus.clang_source names",
            "cpus.features (cx8, cx16)": "also LLVM's backend: cx16 if the CPU's code for an i128 cmpxchg is "
            "cmpxchg16b (64-bit CPUs), cx8 if its code for an i64 cmpxchg is cmpxchg8b (32-bit CPUs); the "
            "inline check cannot see them, and clang's table lacks cx16 where LLVM has it (k8-sse3)",
            "cpus.clang_source": "the clang (tools.clang) input whose target-features answered the features "
            "LLVM's inline check ignores: -march=X where clang accepts it, else a function marked "
            "__attribute__((cpu_specific(X))) compiled for i386 with -march=i386 (clang expands X's own "
            "feature list on top of the command line's CPU, and i386 has none of those features); the "
            "generator checks that cpu_specific(X) and -march=X agree on them for every CPU clang takes both ways",
            "cpus.features (union)": "clang-22 compiles -march=X with target-cpu=X and target-features from its own "
            "CPU table, and the backend applies those on top of its own definition of X: the features are the "
            "union of LLVM's (inline probe) and clang's (-march=clang_cpu) sets; generic has LLVM's only",
            "cpus.clang_cpu": "the -march clang gets: X where clang accepts it, else the twin spelled most like X, "
            "else (generic) x86-64, or i386 for clang_cpu_32bit",
            "cpus.clang_add/clang_remove": "features clang is told explicitly (-Xclang -target-feature) because its "
            "CPU table for clang_cpu lacks them (add) or has them beyond this CPU (remove)",
            "features.clang_implies": "what clang-22's frontend turns on with -target-feature +F beyond F, on "
            "-march=i386 (x86-64 for 64-bit-only features): LLVM's implications plus the frontend's own "
            "defaults (crc32 and popcnt with sse4.2, xsave with avx) that the backend does not imply",
            "cpus.llc_add": "features llc is told explicitly (-mattr=+F) because LLVM's backend definition of X "
            "lacks them (clang's table has them: sgx, kl, widekl, invpcid, mmx)",
            "march_twins": "for each CPU clang refuses as -march, the CPUs it accepts whose LLVM feature sets "
            "(inline probe, 64bit included) are the same (empty if none)",
            "cpus.preferred_vector_width": "LLVM: widest vector register in the code LLVM's loop vectoriser "
            "emits for a float loop on the CPU (0: no vector code)",
            "cpus.preferred_vector_width_with_avx512f": "the same with +avx512f added: the cap LLVM's "
            "tuning (prefer-128-bit, prefer-256-bit) puts on the vector width",
            "clang_differences": "per CPU, features clang (tools.clang, the input cpus.clang_source names; a "
            "cpu_specific answer includes i386's x87) and LLVM (tools.llvm) disagree on: clang_only, llvm_only "
            "(the CPU has both: see cpus.clang_add and cpus.llc_add)",
            "cpus.clang_march": "whether clang (tools.clang) accepts -march=X; clang refuses 'generic' and the "
            "cpu_dispatch spellings such as skylake_avx512 that LLVM's CPU table also lists (it takes those "
            "in cpu_specific attributes)",
            "undetermined": "features neither LLVM's inline check nor clang can tell for these CPUs "
            "(clang knows them neither as -march nor as cpu_specific names); they are left out",
        },
        "inline_ignored_features": ignored,
        "only_64bit_features": only64,
        "tuning_features": sorted(set(descriptions) - set(isa)),
        "tuning_docs": {f: descriptions[f] for f in sorted(set(descriptions) - set(isa))},
        "features": features,
        "cpus": cpu_table,
        "clang_differences": differences,
        "march_twins": twins,
        "undetermined": undetermined,
    }


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the fields that change from run to run (the date)."""
    return {k: v for k, v in data.items() if k != "date"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored file; exit 1 if different")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    data = generate()
    if args.check:
        stored = json.loads(args.output.read_text())
        same = comparable(stored) == comparable(data)
        print("up to date" if same else f"{args.output} differs from what the tools say now")
        return 0 if same else 1
    args.output.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.output}: {len(data['cpus'])} CPUs, {len(data['features'])} features")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
