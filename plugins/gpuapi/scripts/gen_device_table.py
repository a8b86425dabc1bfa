"""Generate the ``gpuinfo`` rows of ``tcfg_gpuapi/data/devices.json`` from real device reports.

Each row is a vulkan.gpuinfo.org report, exported as Vulkan Profiles JSON in the Khronos
Vulkan-Profiles repository, read with the same code that reads ``vulkaninfo --json`` on
this machine (:func:`tcfg_gpuapi.detect.device_attrs`). The row cites the file, the
repository commit and the export date the file records. Rows not generated here (TVM's
tags, mobile GPUs from IREE's target table) are kept as they are.

Usage: ``python scripts/gen_device_table.py VULKAN_PROFILES_GIT_DIR [--check]``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tcfg_gpuapi.detect import device_attrs

OUT = Path(__file__).resolve().parents[1] / "tcfg_gpuapi" / "data" / "devices.json"
_DIR = "profiles/LunarG/"

#: tag name -> (report file under profiles/LunarG/, description, IREE --iree-vulkan-target or None)
REPORTS: dict[str, tuple[str, str, str | None]] = {
    "vulkan/amd-radeon-rx-5700-xt": (
        "VP_LUNARG_desktop_max_2026/vp_gpuinfo_amd_radeon_rx_5700_xt_2_0_353_windows_11.json",
        "AMD Radeon RX 5700 XT (RDNA 1), AMD Windows driver",
        "rdna1",
    ),
    "vulkan/amd-radeon-rx-6800-xt": (
        "VP_LUNARG_desktop_max_2024/vp_gpuinfo_amd_radeon_rx_6800_xt_2_0_283_windows_11.json",
        "AMD Radeon RX 6800 XT (RDNA 2), AMD Windows driver",
        "rdna2",
    ),
    "vulkan/amd-radeon-rx-7800-xt": (
        "VP_LUNARG_desktop_baseline_2023/vp_gpuinfo_amd_radeon_rx_7800_xt__radv_navi32__24_0_99_arch_unknown.json",
        "AMD Radeon RX 7800 XT (RDNA 3), Mesa RADV",
        "rx7800xt",
    ),
    "vulkan/amd-radeon-rx-9070-xt": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_amd_radeon_rx_9070_xt_2_0_395_windows_10.json",
        "AMD Radeon RX 9070 XT (RDNA 4), AMD Windows driver",
        "rx9070xt",
    ),
    "vulkan/nvidia-geforce-gtx-1650": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_nvidia_geforce_gtx_1650_610_43_2_0_ubuntu_24_04.json",
        "NVIDIA GeForce GTX 1650 (Turing TU117), NVIDIA Linux driver",
        "turing",
    ),
    "vulkan/nvidia-geforce-rtx-2060": (
        "VP_LUNARG_desktop_max_2024/vp_gpuinfo_nvidia_geforce_rtx_2060_537_59_0_0_windows_11.json",
        "NVIDIA GeForce RTX 2060 (Turing), NVIDIA Windows driver",
        "turing",
    ),
    "vulkan/nvidia-geforce-rtx-4070": (
        "VP_LUNARG_desktop_baseline_2023/vp_gpuinfo_nvidia_geforce_rtx_4070_551_61_0_0_windows_11.json",
        "NVIDIA GeForce RTX 4070 (Ada), NVIDIA Windows driver",
        None,
    ),
    "vulkan/nvidia-geforce-rtx-5090": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_nvidia_geforce_rtx_5090_610_43_2_0_freebsd_15_1.json",
        "NVIDIA GeForce RTX 5090 (Blackwell), NVIDIA FreeBSD driver",
        None,
    ),
    "vulkan/intel-arc-a770": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_intel_r__arc_tm__a770_graphics__dg2__26_1_2_arch_unknown.json",
        "Intel Arc A770 (Alchemist DG2), Mesa ANV",
        None,
    ),
    "vulkan/intel-arc-b580": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_intel_r__arc_tm__b580_graphics_0_406_632_windows_10.json",
        "Intel Arc B580 (Battlemage), Intel Windows driver",
        None,
    ),
    "vulkan/apple-m1": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_apple_m1_0_2_2209_macos_26_5_1.json",
        "Apple M1 GPU through MoltenVK 1.2.9 on macOS",
        None,
    ),
    "vulkan/apple-m3-max": (
        "VP_LUNARG_desktop_baseline_2023/vp_gpuinfo_apple_m3_max_0_2_2015_osx_14_1.json",
        "Apple M3 Max GPU through MoltenVK 1.2.5 on macOS",
        None,
    ),
    "vulkan/apple-m5": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_apple_m5_0_2_2210_macos_26_4_1.json",
        "Apple M5 GPU through MoltenVK 1.2.10 on macOS",
        None,
    ),
    "vulkan/mesa-llvmpipe-22": (
        "VP_LUNARG_desktop_baseline_2026/vp_gpuinfo_llvmpipe__llvm_22_1_6__256_bits__26_1_99_cachyos_unknown.json",
        "Mesa lavapipe (llvmpipe, LLVM 22, 256-bit vectors): Vulkan on the CPU",
        None,
    ),
}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={repo}", *args], capture_output=True, text=True, check=True).stdout


def rows(repo: Path) -> dict[str, dict[str, Any]]:
    """The generated rows, one per report."""
    commit = _git(repo, "rev-parse", "HEAD").strip()
    out = {}
    for name, (path, description, iree) in REPORTS.items():
        profile = json.loads(_git(repo, "show", f"{commit}:{_DIR}{path}"))
        (entry,) = profile["profiles"].values()
        exported = entry["history"][0]["date"]
        config = device_attrs(profile)
        row: dict[str, Any] = {
            "config": config,
            "description": description,
            "source": f"vulkan.gpuinfo.org report '{entry['label']}', exported {exported} as "
            f"KhronosGroup/Vulkan-Profiles {_DIR}{path} (commit {commit[:12]})",
            "generated": True,
        }
        if iree:
            row["iree_target"] = iree
        out[name] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path, help="the git directory of a KhronosGroup/Vulkan-Profiles clone")
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args()
    table = json.loads(OUT.read_text())
    kept = {name: row for name, row in table["devices"].items() if not row.get("generated")}
    table["devices"] = {**kept, **rows(args.repo)}
    text = json.dumps(table, indent=1) + "\n"
    if args.check:
        if text != OUT.read_text():
            sys.exit(f"{OUT.name} differs from the reports: regenerate it")
        print(f"{OUT.name} agrees with the reports")
        return
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(table['devices'])} devices, {len(REPORTS)} from gpuinfo reports)")


if __name__ == "__main__":
    main()
